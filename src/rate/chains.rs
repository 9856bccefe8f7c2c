//! Chains of implications between candidates, and the simplest hints made of them: bidirectional
//! X-, Y- and XY-cycles (6.5, 7.0) and forcing X- and XY-chains (6.6, 7.0), plus the length bonus
//! every chain hint gets on top of its technique's base.
//!
//! A *potential* is a candidate assumed on (the cell holds the digit) or off. From an on
//! potential follow the offs of the cell's other candidates (a Y-link, only when Y-links are in
//! use) and of the digit's other places in the cell's houses; from an off potential follow the
//! on of a bivalue cell's other candidate (Y) and of a digit's other place in a house where it
//! has two (X). Each derived potential remembers the potentials it came from (its parents); a
//! hint's *complexity* is the number of distinct potentials among its targets' ancestors, and
//! its difficulty grows by 0.1 each time that count (less 2) passes 4, 6, 8, 12, 16, 24, ...
//!
//! Explainer keeps every chain hint it finds, sorts them by difficulty, complexity and kind (a
//! stable sort) and takes the first. Which parent a potential gets is what its breadth-first
//! search met first, so the searches here visit potentials in exactly Explainer's order.

use std::ops::ControlFlow;

use super::board::{
    Board, Cells, Digits, HOUSE_CELLS, HOUSE_SET, HOUSES_OF, PEER_SET, digit_count, two_cells,
};
use super::hint::{Hint, Sink, Technique};

/// A candidate assumed on or off: `((cell * 9 + digit - 1) << 1) | on`.
pub type Pot = u16;

/// Number of distinct potentials.
pub const POTS: usize = 81 * 9 * 2;

/// The potential of `digit` in `cell`, on or off.
#[inline]
pub fn pot(cell: usize, digit: u8, on: bool) -> Pot {
    (((cell * 9 + digit as usize - 1) << 1) | on as usize) as Pot
}

/// The cell of a potential.
#[inline]
pub fn cell_of(p: Pot) -> usize {
    (p >> 1) as usize / 9
}

/// The digit of a potential.
#[inline]
pub fn digit_of(p: Pot) -> u8 {
    ((p >> 1) % 9) as u8 + 1
}

/// True for an on potential.
#[inline]
pub fn is_on(p: Pot) -> bool {
    p & 1 == 1
}

/// Why a potential follows from its first parent (Explainer keeps this to explain, and nested
/// chains use it to find which removals a chain relied on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// An assumption.
    Assumed,
    /// The cell's other candidates (a naked single).
    Cell,
    /// The digit's places in a house of this kind (0 block, 1 row, 2 column).
    House(u8),
    /// A removal by another technique applied inside the chain (nested chains).
    Advanced,
}

/// The candidates whose absence made `digit` in `cell` a single of the kind `cause` names: the
/// cell's digits (a naked single) or the digit's places in the house (a hidden single).
pub fn single_scope(cell: usize, digit: u8, cause: Cause, mut f: impl FnMut(usize, u8)) {
    match cause {
        Cause::Cell => (1..=9u8).for_each(|d| f(cell, d)),
        Cause::House(k) => {
            for &c in &HOUSE_CELLS[HOUSES_OF[cell][k as usize] as usize] {
                f(c as usize, digit);
            }
        }
        _ => {}
    }
}

/// The candidates of [`single_scope`] for the on potential `q` that were on `init` and are gone
/// from `work`, `trigger` (the off that derived `q`, already removed) left out, in
/// [`single_scope`]'s order: the removals a dynamic run's single relied on besides its trigger.
pub fn gone_from_scope(
    init: &Grid2,
    work: &Grid2,
    q: Pot,
    cause: Cause,
    trigger: Pot,
    mut f: impl FnMut(usize, u8),
) {
    let (cell, digit) = (cell_of(q), digit_of(q));
    let (tc, td) = (cell_of(trigger), digit_of(trigger));
    match cause {
        Cause::Cell => {
            let mut gone = init.cells[cell] & !work.cells[cell];
            if tc == cell {
                gone &= !(1 << td);
            }
            super::board::digits_of(gone).for_each(|d| f(cell, d));
        }
        Cause::House(k) => {
            let house = HOUSE_SET[HOUSES_OF[cell][k as usize] as usize];
            let d = digit as usize;
            let mut gone = init.places[d] & !work.places[d] & house;
            if td == digit {
                gone &= !(1 << tc);
            }
            super::board::cells_of(gone).for_each(|c| f(c, digit));
        }
        _ => {}
    }
}

/// A cycle's removals: per digit, the cells that see one of its on potentials (`forward`) and
/// one of its off potentials (`backward`) of that digit, cell by cell in digit order.
pub fn cycle_eliminations(forward: &[Cells; 10], backward: &[Cells; 10]) -> Vec<(u8, Digits)> {
    let mut eliminations: Vec<(u8, Digits)> = Vec::new();
    for d in 1..=9u8 {
        for c in super::board::cells_of(forward[d as usize] & backward[d as usize]) {
            match eliminations.iter_mut().find(|(e, _)| *e as usize == c) {
                Some((_, m)) => *m |= 1 << d,
                None => eliminations.push((c as u8, 1 << d)),
            }
        }
    }
    eliminations
}

/// One derived potential.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// The potential.
    pub pot: Pot,
    /// Why it follows.
    pub cause: Cause,
    start: u32,
    len: u32,
}

/// The potentials one search derived, each with its parents.
#[derive(Debug, Default, Clone)]
pub struct Arena {
    nodes: Vec<Node>,
    parents: Vec<u32>,
}

/// A node index in an [`Arena`].
pub type Id = u32;

impl Arena {
    /// Forgets every node.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.parents.clear();
    }

    /// A new node with the given parents.
    pub fn push(&mut self, pot: Pot, cause: Cause, parents: &[Id]) -> Id {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            pot,
            cause,
            start,
            len: parents.len() as u32,
        });
        (self.nodes.len() - 1) as Id
    }

    /// Adds one more parent to the node just pushed.
    pub fn add_parent(&mut self, id: Id, parent: Id) {
        debug_assert_eq!(id as usize, self.nodes.len() - 1);
        self.parents.push(parent);
        self.nodes[id as usize].len += 1;
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    /// The potential of node `id`.
    #[inline]
    pub fn pot(&self, id: Id) -> Pot {
        self.nodes[id as usize].pot
    }

    /// The parents of node `id`, the one it was derived from first.
    #[inline]
    pub fn parents(&self, id: Id) -> &[Id] {
        let n = &self.nodes[id as usize];
        &self.parents[n.start as usize..(n.start + n.len) as usize]
    }

    /// True when a potential equal to `p` lies on the first-parent line above `id`.
    pub fn has_ancestor(&self, id: Id, p: Pot) -> bool {
        let mut cur = id;
        while let Some(&up) = self.parents(cur).first() {
            if self.pot(up) == p {
                return true;
            }
            cur = up;
        }
        false
    }

    /// Number of distinct potentials among `id` and its ancestors, counted as Explainer counts
    /// them: level by level from `id`, a potential met again (even as another node) not followed
    /// again.
    /// That count when it is at most `limit` (`None` as soon as it passes it: a hint that complex
    /// cannot be the one a step takes), with the walk's scratch `walk`.
    pub fn ancestors_within(
        &self,
        id: Id,
        limit: u32,
        walk: &mut Walk,
        seen: &mut PotSet,
    ) -> Option<u32> {
        seen.clear();
        let Walk { level, next } = walk;
        level.clear();
        next.clear();
        level.push(id);
        let mut count = 0;
        while !level.is_empty() {
            for &n in level.iter() {
                if seen.insert(self.pot(n)) {
                    count += 1;
                    if count > limit {
                        return None;
                    }
                    next.extend_from_slice(self.parents(n));
                }
            }
            std::mem::swap(level, next);
            next.clear();
        }
        Some(count)
    }
}

/// A first-in first-out queue of nodes that only grows until cleared (a search's queue): a
/// vector and a read position, cheaper than a ring buffer.
#[derive(Debug, Default)]
pub struct Queue {
    items: Vec<Id>,
    next: usize,
}

impl Queue {
    /// Empties the queue.
    #[inline]
    pub fn clear(&mut self) {
        self.items.clear();
        self.next = 0;
    }

    /// Adds `id` at the back.
    #[inline]
    pub fn push_back(&mut self, id: Id) {
        self.items.push(id);
    }

    /// Takes the front node.
    #[inline]
    pub fn pop_front(&mut self) -> Option<Id> {
        let id = self.items.get(self.next).copied();
        self.next += id.is_some() as usize;
        id
    }

    /// True when every node pushed was taken.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.next == self.items.len()
    }
}

/// Scratch of an ancestor walk (one level of nodes and the next), kept between walks.
#[derive(Debug, Default)]
pub struct Walk {
    level: Vec<Id>,
    next: Vec<Id>,
}

/// A set of potentials.
#[derive(Clone)]
pub struct PotSet([u64; POTS.div_ceil(64)]);

impl Default for PotSet {
    fn default() -> Self {
        PotSet([0; POTS.div_ceil(64)])
    }
}

impl PotSet {
    /// Empties the set.
    pub fn clear(&mut self) {
        self.0 = [0; POTS.div_ceil(64)];
    }

    /// Adds `p`; false when it was there.
    #[inline]
    pub fn insert(&mut self, p: Pot) -> bool {
        let (w, b) = (p as usize / 64, p % 64);
        let was = self.0[w] >> b & 1;
        self.0[w] |= 1 << b;
        was == 0
    }

    /// Takes `p` out.
    #[inline]
    pub fn remove(&mut self, p: Pot) {
        self.0[p as usize / 64] &= !(1 << (p % 64));
    }

    /// True when `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Pot) -> bool {
        self.0[p as usize / 64] >> (p % 64) & 1 != 0
    }
}

/// The potentials of one polarity (all on or all off) a run derived, in the order derived, each
/// with its node. Membership is a bit per candidate, so that the questions a run asks most (is
/// this potential known, is its opposite) stay in a few cache lines; the nodes, a `u32` per
/// candidate, are read only for potentials that are there, and made on first insert (runs whose
/// maps stay empty cost nothing).
#[derive(Default)]
pub struct PotMap {
    known: [u64; CANDS.div_ceil(64)],
    node: Vec<u32>,
    /// The potentials in the order inserted.
    pub order: Vec<Pot>,
}

/// Number of (cell, digit) candidates: a map of one polarity is indexed by `p >> 1`.
const CANDS: usize = POTS / 2;

impl PotMap {
    /// Empties the map (its storage kept).
    pub fn clear(&mut self) {
        self.known = [0; CANDS.div_ceil(64)];
        self.order.clear();
    }

    /// The node of `p`, if the map holds it.
    #[inline]
    pub fn get(&self, p: Pot) -> Option<Id> {
        let c = (p >> 1) as usize;
        (self.known[c / 64] >> (c % 64) & 1 != 0).then(|| self.node[c])
    }

    /// True when the map holds `p`.
    #[inline]
    pub fn contains(&self, p: Pot) -> bool {
        let c = (p >> 1) as usize;
        self.known[c / 64] >> (c % 64) & 1 != 0
    }

    /// Adds `p` (not yet in the map, and of the polarity of the others) with its node.
    #[inline]
    pub fn insert(&mut self, p: Pot, id: Id) {
        debug_assert!(!self.contains(p));
        debug_assert!(self.order.first().is_none_or(|&f| f & 1 == p & 1));
        if self.node.is_empty() {
            self.node = vec![0; CANDS];
        }
        let c = (p >> 1) as usize;
        self.known[c / 64] |= 1 << (c % 64);
        self.node[c] = id;
        self.order.push(p);
    }
}

/// The length bonus of a chain hint of the given complexity.
pub fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0;
    let mut ceil = 4i64;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// A candidate grid both ways, kept in step: each cell's digits, and each digit's cells (what
/// the links look up: a house's places of a digit are one AND away).
#[derive(Debug, Clone, Copy)]
pub struct Grid2 {
    /// The candidates of each cell.
    pub cells: [Digits; 81],
    /// The cells of each digit (index 1..=9).
    pub places: [Cells; 10],
}

impl Grid2 {
    /// The grid of `cells`.
    pub fn new(cells: [Digits; 81]) -> Grid2 {
        let mut places = [0 as Cells; 10];
        for (c, &ds) in cells.iter().enumerate() {
            for d in super::board::digits_of(ds) {
                places[d as usize] |= 1 << c;
            }
        }
        Grid2 { cells, places }
    }

    /// Removes `digit` from `cell`.
    #[inline]
    pub fn remove(&mut self, cell: usize, digit: u8) {
        self.cells[cell] &= !(1 << digit);
        self.places[digit as usize] &= !(1 << cell);
    }
}

/// The potentials an on potential `p` forces off, in Explainer's order: the cell's other
/// candidates (with Y-links), then the digit's other places in the block, row and column (a
/// place met twice kept at its first mention; a house's cells in increasing order).
pub fn on_to_off(g: &Grid2, p: Pot, y_links: bool, out: &mut Vec<(Pot, Cause)>) {
    out.clear();
    push_on_to_off(g, p, y_links, out);
}

/// [`on_to_off`]'s potentials added at the end of `out`.
#[inline]
fn push_on_to_off(g: &Grid2, p: Pot, y_links: bool, out: &mut Vec<(Pot, Cause)>) {
    let (cell, digit) = (cell_of(p), digit_of(p));
    if y_links {
        let mut others = g.cells[cell] & !(1 << digit);
        while others != 0 {
            let d = others.trailing_zeros() as u8;
            others &= others - 1;
            out.push((pot(cell, d, false), Cause::Cell));
        }
    }
    let mut seen: Cells = 1 << cell;
    for (k, &h) in HOUSES_OF[cell].iter().enumerate() {
        let mut set = g.places[digit as usize] & HOUSE_SET[h as usize] & !seen;
        seen |= set;
        while set != 0 {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            out.push((pot(c, digit, false), Cause::House(k as u8)));
        }
    }
}

/// The potentials an off potential `p` forces on, in Explainer's order: a bivalue cell's other
/// candidate (with Y-links), then the digit's other place in each house (block, row, column)
/// where it has two (with X-links); a potential met twice kept at its first mention.
pub fn off_to_on(g: &Grid2, p: Pot, y_links: bool, x_links: bool, out: &mut Vec<(Pot, Cause)>) {
    out.clear();
    push_off_to_on(g, p, y_links, x_links, out);
}

/// [`off_to_on`]'s potentials added at the end of `out`.
#[inline]
fn push_off_to_on(g: &Grid2, p: Pot, y_links: bool, x_links: bool, out: &mut Vec<(Pot, Cause)>) {
    let base = out.len();
    let (cell, digit) = (cell_of(p), digit_of(p));
    if y_links && digit_count(g.cells[cell]) == 2 {
        let other = (g.cells[cell] & !(1 << digit)).trailing_zeros() as u8;
        out.push((pot(cell, other, true), Cause::Cell));
    }
    if x_links {
        for (k, &h) in HOUSES_OF[cell].iter().enumerate() {
            let set = g.places[digit as usize] & HOUSE_SET[h as usize];
            if two_cells(set) {
                // the other place (the lower one if `cell` has lost the digit already)
                let other = (set & !(1 << cell)).trailing_zeros() as usize;
                let q = pot(other, digit, true);
                if !out[base..].iter().any(|&(o, _)| o == q) {
                    out.push((q, Cause::House(k as u8)));
                }
            }
        }
    }
}

/// A chain hint before Explainer's sort.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The hint.
    pub hint: Hint,
    /// Distinct potentials in its chains.
    pub complexity: u32,
    /// Explainer's tie-break between kinds of chain hint.
    pub sort_key: u8,
}

/// Sorts chain hints as Explainer does (difficulty, complexity, kind; stable) and sends them,
/// repeats of the same removals left out.
pub fn send_sorted(mut found: Vec<Candidate>, sink: Sink) -> ControlFlow<()> {
    found.sort_by(|a, b| a.key().order(b.key()));
    let mut sent: Vec<Vec<(u8, Digits)>> = Vec::new();
    for c in found {
        if sent.contains(&c.hint.eliminations) {
            continue;
        }
        sent.push(c.hint.eliminations.clone());
        sink(c.hint)?;
    }
    ControlFlow::Continue(())
}

/// Bidirectional cycles and forcing X/XY-chains, Explainer's "Forcing Chains & Cycles": every
/// hint, in Explainer's order.
pub fn chains_and_cycles(board: &Board, sink: Sink) -> ControlFlow<()> {
    let mut found = Found::all();
    unary(board, &mut found);
    send_sorted(found.into_all(), sink)
}

/// The first hint [`chains_and_cycles`] sends, found with the search cut wherever it can only
/// find hints that sort after the best so far.
pub fn first_chain_or_cycle(board: &Board) -> Option<Hint> {
    let mut found = Found::best();
    unary(board, &mut found);
    found.into_best()
}

/// What sorts chain hints: difficulty, complexity, kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key(pub f64, pub u32, pub u8);

impl Key {
    /// Explainer's order of chain hints: difficulty, then complexity, then kind.
    pub fn order(self, other: Key) -> std::cmp::Ordering {
        self.0
            .partial_cmp(&other.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(self.1.cmp(&other.1))
            .then(self.2.cmp(&other.2))
    }

    /// True when `self` sorts strictly before `other`.
    pub fn before(self, other: Key) -> bool {
        match self.0.partial_cmp(&other.0) {
            Some(std::cmp::Ordering::Less) => true,
            Some(std::cmp::Ordering::Equal) => (self.1, self.2) < (other.1, other.2),
            _ => false,
        }
    }
}

/// The chain hints found so far: all of them, or only the one Explainer would take (the first
/// of the least key; a later hint replaces it only with a smaller key).
pub struct Found {
    all: Option<Vec<Candidate>>,
    best: Option<Candidate>,
}

impl Found {
    /// Keeps every hint.
    pub fn all() -> Found {
        Found {
            all: Some(Vec::new()),
            best: None,
        }
    }

    /// Keeps the best hint only.
    pub fn best() -> Found {
        Found {
            all: None,
            best: None,
        }
    }

    /// The key a new hint must sort before to matter (`None`: any hint matters).
    pub fn bound(&self) -> Option<Key> {
        match &self.all {
            Some(_) => None,
            None => self.best.as_ref().map(Candidate::key),
        }
    }

    /// True when a hint of key `key`, found now, would matter.
    pub fn wants(&self, key: Key) -> bool {
        self.bound().is_none_or(|b| key.before(b))
    }

    /// Adds a hint.
    pub fn push(&mut self, c: Candidate) {
        match &mut self.all {
            Some(all) => all.push(c),
            None => {
                if self.best.as_ref().is_none_or(|b| c.key().before(b.key())) {
                    self.best = Some(c);
                }
            }
        }
    }

    /// Every hint kept, in the order found.
    pub fn into_all(self) -> Vec<Candidate> {
        self.all.unwrap_or_default()
    }

    /// The best hint.
    pub fn into_best(self) -> Option<Hint> {
        self.best.map(|c| c.hint)
    }
}

impl Candidate {
    /// Its sort key.
    pub fn key(&self) -> Key {
        Key(self.hint.difficulty, self.complexity, self.sort_key)
    }
}

/// The candidates of every cell.
pub fn cands_of(board: &Board) -> [Digits; 81] {
    std::array::from_fn(|c| board.cands(c))
}

/// The three passes of Explainer's unary chaining: X-links, Y-links, both.
fn unary(board: &Board, found: &mut Found) {
    let mut s = UNARY.take().unwrap_or_default();
    let mut built = false;
    for (y, x) in [(false, true), (true, false), (true, true)] {
        // the least key a hint of this pass can have: a cycle of 4, a chain of 4 potentials
        let (cycle_base, chain_base) = bases(y, x);
        let least_cycle = Key(cycle_base, 4, sort_key(y, x));
        let least_chain = Key(chain_base, 4, sort_key(y, x));
        if !(found.wants(least_cycle) || x && found.wants(least_chain)) {
            continue;
        }
        if !built {
            built = true;
            s.links = Links::of_board(board);
            // which potentials lead to which along the links of the last pass, which has every
            // link the other two have: most searches of a step that finds no chain can be
            // known fruitless without being made
            s.links.with_reach(board);
        }
        s.links.pass = (y, x);
        for cell in 0..81 {
            if board.value(cell) != 0 || board.count(cell) < 2 {
                continue;
            }
            for digit in super::board::digits_of(board.cands(cell)) {
                s.from(board, cell, digit, y, x, found);
            }
        }
    }
    if built {
        std::mem::take(&mut s.links).keep();
    }
    UNARY.set(Some(s));
}

/// Base difficulties of the cycles and forcing chains of a pass.
fn bases(y: bool, x: bool) -> (f64, f64) {
    if x && y { (7.0, 7.0) } else { (6.5, 6.6) }
}

/// The links of every potential, computed once per grid for the three passes: each
/// potential's Y-links (the cell's other candidates from an on, a bivalue cell's other
/// candidate from an off) come first, then its house links, so a pass takes a range of them.
#[derive(Default)]
pub struct Links {
    start: Vec<u32>,
    /// Where each potential's house links begin.
    mid: Vec<u32>,
    to: Vec<(Pot, Cause)>,
    /// The pass: Y-links, X-links.
    pass: (bool, bool),
    /// The candidates the table was built for (`None`: not built).
    built_for: Option<[Digits; 81]>,
    /// Which potentials lead to which along all the links (once [`Links::with_reach`] made it).
    reach: Reach,
    reach_built: bool,
}

thread_local! {
    /// The last links table a thread built, kept for the next search: static forcing chains
    /// often look at the grid the unary chains just did (and its storage serves the next grid).
    static KEPT_LINKS: std::cell::Cell<Links> = std::cell::Cell::new(Links::default());
    /// The unary searches' scratch, kept between calls so its buffers are not grown anew.
    static UNARY: std::cell::Cell<Option<Box<Unary>>> = const { std::cell::Cell::new(None) };
}

impl Links {
    /// Every link of `p` (Y-links and house links): what [`on_to_off`] and [`off_to_on`] give
    /// with both kinds of link on `board`'s grid, in their order.
    #[inline]
    pub fn all(&self, p: Pot) -> &[(Pot, Cause)] {
        &self.to[self.start[p as usize] as usize..self.start[p as usize + 1] as usize]
    }

    /// Where [`Links::all`] lies in the table.
    #[inline]
    fn bounds(&self, p: Pot) -> (usize, usize) {
        (
            self.start[p as usize] as usize,
            self.start[p as usize + 1] as usize,
        )
    }

    /// The links of every potential of `board`: the table a search of this thread kept if it
    /// was built for the same candidates, else one built anew. Give it back with
    /// [`Links::keep`].
    pub fn of_board(board: &Board) -> Links {
        let mut links = KEPT_LINKS.take();
        let cands = cands_of(board);
        if links.built_for != Some(cands) {
            links.build(cands);
        }
        links
    }

    /// Makes sure the table knows which potentials lead to which ([`Links::lead_in_common`]).
    pub fn with_reach(&mut self, board: &Board) {
        debug_assert_eq!(self.built_for, Some(cands_of(board)));
        if !self.reach_built {
            let mut reach = std::mem::take(&mut self.reach);
            reach.build(self);
            self.reach = reach;
            self.reach_built = true;
        }
    }

    /// True when some potential follows, along the links, from every one of `roots` (each
    /// counts as following from itself): a superset of what runs from them derive in common.
    pub fn lead_in_common(&self, roots: impl IntoIterator<Item = Pot>) -> bool {
        debug_assert!(self.reach_built);
        let r = &self.reach;
        let mut common = [u64::MAX; POTS.div_ceil(64)];
        let words = r.words;
        for root in roots {
            let c = r.comp[root as usize];
            if c == NONE {
                return false;
            }
            let row = &r.leads[c as usize * words..][..words];
            for (a, b) in common[..words].iter_mut().zip(row) {
                *a &= b;
            }
        }
        common[..words].iter().any(|&w| w != 0)
    }

    /// The links of the grid whose candidates are `cands`, with which potentials lead to
    /// which: a table of its own (not the thread's kept one), for engines nested in runs.
    pub fn with_reach_of(cands: [Digits; 81]) -> Links {
        let mut links = Links::default();
        links.build(cands);
        let mut reach = Reach::default();
        reach.build(&links);
        links.reach = reach;
        links.reach_built = true;
        links
    }

    /// True when some path of links leads from `a` to `b` (or `a` is `b`); the table knows
    /// which potentials lead to which.
    pub fn leads(&self, a: Pot, b: Pot) -> bool {
        debug_assert!(self.reach_built);
        self.reach.leads(a, b)
    }

    /// Keeps `self` for the next search of this thread.
    pub fn keep(self) {
        KEPT_LINKS.set(self);
    }

    /// The links of every potential of the grid whose candidates are `cands`.
    fn build(&mut self, cands: [Digits; 81]) {
        self.start.clear();
        self.mid.clear();
        self.to.clear();
        self.built_for = Some(cands);
        self.reach_built = false;
        let cands = Grid2::new(cands);
        for cell in 0..81 {
            for digit in 1..=9 {
                if cands.cells[cell] >> digit & 1 == 0 {
                    for _ in 0..2 {
                        self.start.push(self.to.len() as u32);
                        self.mid.push(self.to.len() as u32);
                    }
                    continue;
                }
                // the off potential, then the on (`pot` order); the Y-links come first
                let off = pot(cell, digit, false);
                self.start.push(self.to.len() as u32);
                let n = digit_count(cands.cells[cell]) as usize;
                let y = (n == 2) as usize;
                self.mid.push((self.to.len() + y) as u32);
                push_off_to_on(&cands, off, true, true, &mut self.to);
                self.start.push(self.to.len() as u32);
                let y = n - 1;
                self.mid.push((self.to.len() + y) as u32);
                push_on_to_off(&cands, off | 1, true, &mut self.to);
            }
        }
        self.start.push(self.to.len() as u32);
    }

    /// The links of `p` in this pass: from an on, the Y-links with Y-links in use, and the
    /// house links always; from an off, the Y-link with Y-links, the house links with X-links.
    #[inline]
    fn of(&self, p: Pot) -> &[(Pot, Cause)] {
        &self.to[self.range(p)]
    }

    /// Where [`Links::of`] lies in `to`.
    #[inline]
    fn range(&self, p: Pot) -> std::ops::Range<usize> {
        let (y, x) = self.pass;
        let (start, mid, end) = (
            self.start[p as usize] as usize,
            self.mid[p as usize] as usize,
            self.start[p as usize + 1] as usize,
        );
        let from = if y { start } else { mid };
        let to = if x || is_on(p) { end } else { mid };
        from..to
    }
}

/// Which potentials lead to which along a pass's links: the strongly connected components of
/// the links (Tarjan's algorithm) and, over them, the components each one leads to.
#[derive(Default)]
struct Reach {
    /// Each potential's component (`NONE` for a potential that is no candidate).
    comp: Vec<u32>,
    /// Bits of the components each component leads to, `words` words a component.
    leads: Vec<u64>,
    words: usize,
    // scratch of the depth-first search
    index: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<Pot>,
    calls: Vec<(Pot, usize, usize)>,
    members: Vec<Pot>,
    /// Where each component's run of `members` ends, in the order completed.
    ends: Vec<usize>,
}

const NONE: u32 = u32::MAX;

impl Reach {
    /// The components of every link of `links` (all kinds: the last pass's).
    fn build(&mut self, links: &Links) {
        let cands = links.built_for.expect("a table built for a grid");
        self.comp.clear();
        self.comp.resize(POTS, NONE);
        self.index.clear();
        self.index.resize(POTS, NONE);
        self.low.clear();
        self.low.resize(POTS, 0);
        self.members.clear();
        self.ends.clear();
        let mut counter = 0;
        let mut comps = 0u32;
        // every candidate's potentials in increasing order (off before on)
        for (cell, &ds) in cands.iter().enumerate() {
            for digit in super::board::digits_of(ds) {
                let off = pot(cell, digit, false);
                for root in [off, off | 1] {
                    if self.index[root as usize] == NONE {
                        self.component_tree(root, &mut counter, &mut comps, links);
                    }
                }
            }
        }
        self.words = (comps as usize).div_ceil(64).max(1);
        self.leads.clear();
        self.leads.resize(comps as usize * self.words, 0);
        let words = self.words;
        let mut begin = 0;
        for (c, &end) in self.ends.iter().enumerate() {
            self.leads[c * words + c / 64] |= 1 << (c % 64);
            for &v in &self.members[begin..end] {
                for &(w, _) in links.all(v) {
                    let to = self.comp[w as usize] as usize;
                    if to != c {
                        // components completed before this one: their sets are whole
                        let (head, tail) = self.leads.split_at_mut(c * words);
                        for (a, b) in tail[..words].iter_mut().zip(&head[to * words..][..words]) {
                            *a |= b;
                        }
                    }
                }
            }
            begin = end;
        }
    }

    /// Tarjan's depth-first search from `root`: the components it completes, sinks first, each
    /// a run of `members` ending at the next of `ends`.
    fn component_tree(&mut self, root: Pot, counter: &mut u32, comps: &mut u32, links: &Links) {
        self.enter(root, counter, links);
        while let Some(&mut (v, ref mut i, end)) = self.calls.last_mut() {
            if *i < end {
                let w = links.to[*i].0;
                *i += 1;
                if self.index[w as usize] == NONE {
                    self.enter(w, counter, links);
                } else if self.comp[w as usize] == NONE {
                    // on the stack: in the component being built
                    let v = v as usize;
                    self.low[v] = self.low[v].min(self.index[w as usize]);
                }
                continue;
            }
            self.calls.pop();
            if let Some(&(parent, _, _)) = self.calls.last() {
                let (p, v) = (parent as usize, v as usize);
                self.low[p] = self.low[p].min(self.low[v]);
            }
            if self.low[v as usize] == self.index[v as usize] {
                loop {
                    let w = self.stack.pop().expect("the component's potentials");
                    self.comp[w as usize] = *comps;
                    self.members.push(w);
                    if w == v {
                        break;
                    }
                }
                *comps += 1;
                self.ends.push(self.members.len());
            }
        }
    }

    fn enter(&mut self, v: Pot, counter: &mut u32, links: &Links) {
        self.index[v as usize] = *counter;
        self.low[v as usize] = *counter;
        *counter += 1;
        self.stack.push(v);
        let (start, end) = links.bounds(v);
        self.calls.push((v, start, end));
    }

    /// True when some path of links leads from `a` to `b` (or `a` is `b`).
    fn leads(&self, a: Pot, b: Pot) -> bool {
        let (ca, cb) = (self.comp[a as usize], self.comp[b as usize]);
        if ca == NONE || cb == NONE {
            return false;
        }
        let (ca, cb) = (ca as usize, cb as usize);
        self.leads[ca * self.words + cb / 64] >> (cb % 64) & 1 != 0
    }
}

/// The last layer worth searching for a hint whose key at layer `l` is `key(l)` (keys grow
/// with `l`), from `first` up to `max`: all of them when any hint matters.
fn last_layer(found: &Found, first: u32, max: u32, key: impl Fn(u32) -> Key) -> Option<u32> {
    if found.bound().is_none() {
        return Some(max);
    }
    (first..=max).take_while(|&l| found.wants(key(l))).last()
}

/// Scratch space of the unary searches.
#[derive(Default)]
struct Unary {
    links: Links,
    arena: Arena,
    on: PotSet,
    off: PotSet,
    pending_on: Queue,
    pending_off: Queue,
    frontier: Vec<Pot>,
    next: Vec<Pot>,
}

impl Unary {
    /// Cycles and forcing chains from one candidate assumed on (and, for chains, off).
    fn from(&mut self, board: &Board, cell: usize, digit: u8, y: bool, x: bool, found: &mut Found) {
        if board.count(cell) > 2 && !x {
            return; // Y-cycles start from bivalue cells only
        }
        let source = pot(cell, digit, true);
        let (cycle_base, chain_base) = bases(y, x);
        let sk = sort_key(y, x);
        let back = self
            .links
            .of(source)
            .iter()
            .any(|&(q, _)| self.links.reach.leads(q, source));
        // the last layer worth searching: a cycle closing at layer L has L potentials
        let cycle_last = || {
            last_layer(found, 4, POTS as u32 + 1, |l| {
                Key(cycle_base + length_difficulty(l), l, sk)
            })
        };
        if let Some(last) = back.then(cycle_last).flatten() {
            self.arena.clear();
            let root = self.arena.push(source, Cause::Assumed, &[]);
            for dst in self.cycles(root, last) {
                if let Some(c) = self.cycle_hint(board, dst, y, x) {
                    found.push(c);
                }
            }
        }
        if !x {
            return; // forcing Y-chains do not exist
        }
        for start in [source, source ^ 1] {
            if !self.links.reach.leads(start, start ^ 1) {
                continue;
            }
            // a target reached at layer L closes a chain of L + 1 potentials
            let chain_last = last_layer(found, 3, POTS as u32, |l| {
                Key(chain_base + length_difficulty(l + 1), l + 1, sk)
            });
            let Some(last) = chain_last else {
                continue;
            };
            if let Some(layer) = self.distance(start, start ^ 1, last) {
                found.push(self.chain_hint(board, start ^ 1, layer + 1, y, x));
            }
        }
    }

    /// Explainer's cycle search up to layer `last`: breadth first, alternating off and on layers;
    /// an off is not re-derived from a potential it lies above, an on is derived once; the
    /// source met again at layer 4 or later closes a cycle.
    fn cycles(&mut self, root: Id, last: u32) -> Vec<Id> {
        self.on.clear();
        self.off.clear();
        self.pending_on.clear();
        self.pending_off.clear();
        let source = self.arena.pot(root);
        // A cycle through the source lies in its strongly connected component: a potential
        // outside it leads nowhere back, and nothing that leads back is reached through it. So
        // the search leaves the rest out, and finds the same nodes in the same order otherwise.
        let home = self.links.reach.comp[source as usize];
        self.on.insert(source);
        self.pending_on.push_back(root);
        let mut cycles = Vec::new();
        let mut length = 0;
        while !self.pending_on.is_empty() || !self.pending_off.is_empty() {
            length += 1;
            if length >= last {
                break; // offs here could only close cycles past `last`
            }
            while let Some(p) = self.pending_on.pop_front() {
                let pp = self.arena.pot(p);
                for i in self.links.range(pp) {
                    let (q, cause) = self.links.to[i];
                    if self.links.reach.comp[q as usize] != home {
                        continue;
                    }
                    // An off not derived yet lies above no node (every node's potential is in
                    // `on` or `off`). An off met again derives no on (its first node took them
                    // all): it is kept only if it can close a cycle and does not lie above `p`.
                    let keep = self.off.insert(q)
                        || (self.links.of(q).iter().any(|l| l.0 == source)
                            && !self.arena.has_ancestor(p, q));
                    if keep {
                        let n = self.arena.push(q, cause, &[p]);
                        self.pending_off.push_back(n);
                    }
                }
            }
            length += 1;
            let more = length < last;
            while let Some(p) = self.pending_off.pop_front() {
                let pp = self.arena.pot(p);
                for i in self.links.range(pp) {
                    let (q, cause) = self.links.to[i];
                    if length >= 4 && q == source {
                        cycles.push(self.arena.push(q, cause, &[p]));
                    } else if more && self.links.reach.comp[q as usize] == home && self.on.insert(q)
                    {
                        let n = self.arena.push(q, cause, &[p]);
                        self.pending_on.push_back(n);
                    }
                }
            }
        }
        cycles
    }

    /// The layer of Explainer's forcing chain search from `start` at which `target` is first
    /// derived, if it is by layer `last` (a plain breadth-first distance: each potential is
    /// expanded once, on and off layers alternating).
    fn distance(&mut self, start: Pot, target: Pot, last: u32) -> Option<u32> {
        self.on.clear();
        self.off.clear();
        if is_on(start) {
            self.on.insert(start);
        } else {
            self.off.insert(start);
        }
        self.frontier.clear();
        self.frontier.push(start);
        for layer in 1..=last {
            self.next.clear();
            for i in 0..self.frontier.len() {
                let p = self.frontier[i];
                for &(q, _) in self.links.of(p) {
                    if q == target {
                        return Some(layer);
                    }
                    // a potential that leads nowhere near the target cannot bring it closer
                    if !self.links.reach.leads(q, target) {
                        continue;
                    }
                    let set = if is_on(q) {
                        &mut self.on
                    } else {
                        &mut self.off
                    };
                    if set.insert(q) {
                        self.next.push(q);
                    }
                }
            }
            if self.next.is_empty() {
                return None;
            }
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        None
    }

    /// The removals of a cycle: a candidate outside the cycle that sees one of its on potentials
    /// and one of its off potentials of the same digit.
    fn cycle_hint(&mut self, board: &Board, dst: Id, y: bool, x: bool) -> Option<Candidate> {
        let mut in_cycle = 0u128;
        let mut length = 0;
        let mut p = dst;
        while let Some(&up) = self.arena.parents(p).first() {
            in_cycle |= 1 << cell_of(self.arena.pot(p));
            length += 1;
            p = up;
        }
        let mut forward = [0u128; 10];
        let mut backward = [0u128; 10];
        let mut p = dst;
        while let Some(&up) = self.arena.parents(p).first() {
            let q = self.arena.pot(p);
            let (cell, digit) = (cell_of(q), digit_of(q));
            let seen = PEER_SET[cell] & !in_cycle & board.cells_with(digit);
            if is_on(q) {
                forward[digit as usize] |= seen;
            } else {
                backward[digit as usize] |= seen;
            }
            p = up;
        }
        let eliminations = cycle_eliminations(&forward, &backward);
        if eliminations.is_empty() {
            return None;
        }
        // the path's potentials are distinct but for the source, met at both ends
        let complexity = length;
        let (base, _) = bases(y, x);
        Some(Candidate {
            hint: Hint::eliminate(
                Technique::Cycle {
                    x,
                    y,
                    four: in_cycle.count_ones() == 4,
                },
                base + length_difficulty(complexity),
                eliminations,
            ),
            complexity,
            sort_key: sort_key(y, x),
        })
    }

    /// A forcing chain: its target off is removed; its target on is placed.
    fn chain_hint(
        &self,
        board: &Board,
        target: Pot,
        complexity: u32,
        y: bool,
        x: bool,
    ) -> Candidate {
        let (cell, digit) = (cell_of(target), digit_of(target));
        let (_, base) = bases(y, x);
        let technique = Technique::ForcingChain {
            x,
            y,
            turbot: x && !y && complexity == 6,
        };
        let hint = if is_on(target) {
            Hint {
                technique,
                difficulty: base + length_difficulty(complexity),
                placement: Some((cell as u8, digit)),
                eliminations: vec![(cell as u8, board.cands(cell) & !(1 << digit))],
            }
        } else {
            Hint::eliminate(
                technique,
                base + length_difficulty(complexity),
                vec![(cell as u8, 1 << digit)],
            )
        };
        Candidate {
            hint,
            complexity,
            sort_key: sort_key(y, x),
        }
    }
}

fn sort_key(y: bool, x: bool) -> u8 {
    match (y, x) {
        (true, true) => 4,
        (true, false) => 3,
        _ => 2,
    }
}
