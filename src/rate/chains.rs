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

use std::collections::VecDeque;
use std::ops::ControlFlow;

use super::board::{Board, Digits, HOUSE_CELLS, HOUSES_OF, INDEX_IN, PEERS};
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
    pub fn ancestors(&self, id: Id, seen: &mut PotSet) -> u32 {
        seen.clear();
        let mut level = vec![id];
        let mut next = Vec::new();
        let mut count = 0;
        while !level.is_empty() {
            for &n in &level {
                if seen.insert(self.pot(n)) {
                    count += 1;
                    next.extend_from_slice(self.parents(n));
                }
            }
            std::mem::swap(&mut level, &mut next);
            next.clear();
        }
        count
    }
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

    /// True when `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Pot) -> bool {
        self.0[p as usize / 64] >> (p % 64) & 1 != 0
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

/// The potentials an on potential `p` forces off, in Explainer's order: the cell's other
/// candidates (with Y-links), then the digit's other places in the block, row and column (a
/// place met twice kept at its first mention).
pub fn on_to_off(cands: &[Digits; 81], p: Pot, y_links: bool, out: &mut Vec<(Pot, Cause)>) {
    out.clear();
    let (cell, digit) = (cell_of(p), digit_of(p));
    if y_links {
        let mut others = cands[cell] & !(1 << digit);
        while others != 0 {
            let d = others.trailing_zeros() as u8;
            others &= others - 1;
            out.push((pot(cell, d, false), Cause::Cell));
        }
    }
    let mut seen = 0u128;
    for (k, &h) in HOUSES_OF[cell].iter().enumerate() {
        for &c in &HOUSE_CELLS[h as usize] {
            let c = c as usize;
            if c != cell && cands[c] >> digit & 1 != 0 && seen >> c & 1 == 0 {
                seen |= 1 << c;
                out.push((pot(c, digit, false), Cause::House(k as u8)));
            }
        }
    }
}

/// The potentials an off potential `p` forces on, in Explainer's order: a bivalue cell's other
/// candidate (with Y-links), then the digit's other place in each house (block, row, column)
/// where it has two (with X-links); a potential met twice kept at its first mention.
pub fn off_to_on(
    cands: &[Digits; 81],
    p: Pot,
    y_links: bool,
    x_links: bool,
    out: &mut Vec<(Pot, Cause)>,
) {
    out.clear();
    let (cell, digit) = (cell_of(p), digit_of(p));
    if y_links && cands[cell].count_ones() == 2 {
        let other = (cands[cell] & !(1 << digit)).trailing_zeros() as u8;
        out.push((pot(cell, other, true), Cause::Cell));
    }
    if x_links {
        for (k, &h) in HOUSES_OF[cell].iter().enumerate() {
            let cells = &HOUSE_CELLS[h as usize];
            let mut pos = 0u16;
            for (j, &c) in cells.iter().enumerate() {
                pos |= ((cands[c as usize] >> digit) & 1) << j;
            }
            if pos.count_ones() == 2 {
                let me = INDEX_IN[cell][k];
                let other = (pos & !(1 << me)).trailing_zeros() as usize;
                let q = pot(cells[other] as usize, digit, true);
                if !out.iter().any(|&(o, _)| o == q) {
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
    found.sort_by(|a, b| {
        a.hint
            .difficulty
            .partial_cmp(&b.hint.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.sort_key.cmp(&b.sort_key))
    });
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

/// Bidirectional cycles and forcing X/XY-chains, Explainer's "Forcing Chains & Cycles".
pub fn chains_and_cycles(board: &Board, sink: Sink) -> ControlFlow<()> {
    let mut found = Vec::new();
    let mut s = Unary::default();
    let cands = cands_of(board);
    for (y, x) in [(false, true), (true, false), (true, true)] {
        for cell in 0..81 {
            if board.value(cell) != 0 || board.count(cell) < 2 {
                continue;
            }
            for digit in super::board::digits_of(board.cands(cell)) {
                s.from(&cands, cell, digit, y, x, &mut found);
            }
        }
    }
    send_sorted(found, sink)
}

/// The candidates of every cell.
pub fn cands_of(board: &Board) -> [Digits; 81] {
    std::array::from_fn(|c| board.cands(c))
}

/// Scratch space of the unary searches.
#[derive(Default)]
struct Unary {
    arena: Arena,
    on: PotSet,
    off: PotSet,
    pending_on: VecDeque<Id>,
    pending_off: VecDeque<Id>,
    links: Vec<(Pot, Cause)>,
    seen: PotSet,
}

impl Unary {
    /// Cycles and forcing chains from one candidate assumed on (and, for chains, off).
    fn from(
        &mut self,
        cands: &[Digits; 81],
        cell: usize,
        digit: u8,
        y: bool,
        x: bool,
        found: &mut Vec<Candidate>,
    ) {
        if cands[cell].count_ones() > 2 && !x {
            return; // Y-cycles start from bivalue cells only
        }
        self.arena.clear();
        let source = pot(cell, digit, true);
        let root = self.arena.push(source, Cause::Assumed, &[]);
        let cycles = self.cycles(cands, root, y, x);
        let mut chains: Vec<Id> = Vec::new();
        if x {
            self.forcing(cands, root, y, &mut chains);
            let off_root = self.arena.push(source ^ 1, Cause::Assumed, &[]);
            self.forcing(cands, off_root, y, &mut chains);
        }
        for dst in cycles {
            if let Some(c) = self.cycle_hint(cands, dst, y, x) {
                found.push(c);
            }
        }
        for target in chains {
            found.push(self.chain_hint(cands, target, y, x));
        }
    }

    fn reset(&mut self) {
        self.on.clear();
        self.off.clear();
        self.pending_on.clear();
        self.pending_off.clear();
    }

    /// Explainer's cycle search: breadth first, alternating on and off layers; an off is not
    /// re-derived from a potential it lies above, an on is derived once; the source met again
    /// after four layers closes a cycle.
    fn cycles(&mut self, cands: &[Digits; 81], root: Id, y: bool, x: bool) -> Vec<Id> {
        self.reset();
        let source = self.arena.pot(root);
        self.on.insert(source);
        self.pending_on.push_back(root);
        let mut cycles = Vec::new();
        let mut length = 0;
        while !self.pending_on.is_empty() || !self.pending_off.is_empty() {
            length += 1;
            while let Some(p) = self.pending_on.pop_front() {
                on_to_off(cands, self.arena.pot(p), y, &mut self.links);
                for i in 0..self.links.len() {
                    let (q, cause) = self.links[i];
                    if !self.arena.has_ancestor(p, q) {
                        let n = self.arena.push(q, cause, &[p]);
                        self.pending_off.push_back(n);
                        self.off.insert(q);
                    }
                }
            }
            length += 1;
            while let Some(p) = self.pending_off.pop_front() {
                off_to_on(cands, self.arena.pot(p), y, x, &mut self.links);
                for i in 0..self.links.len() {
                    let (q, cause) = self.links[i];
                    let closes = length >= 4 && q == source;
                    let new = self.on.insert(q);
                    if closes || new {
                        let n = self.arena.push(q, cause, &[p]);
                        if closes {
                            cycles.push(n);
                        }
                        if new {
                            self.pending_on.push_back(n);
                        }
                    }
                }
            }
        }
        cycles
    }

    /// Explainer's forcing chain search from one assumption: a potential whose opposite is the
    /// assumption is a chain target.
    fn forcing(&mut self, cands: &[Digits; 81], root: Id, y: bool, chains: &mut Vec<Id>) {
        self.reset();
        let source = self.arena.pot(root);
        if is_on(source) {
            self.on.insert(source);
            self.pending_on.push_back(root);
        } else {
            self.off.insert(source);
            self.pending_off.push_back(root);
        }
        while !self.pending_on.is_empty() || !self.pending_off.is_empty() {
            while let Some(p) = self.pending_on.pop_front() {
                on_to_off(cands, self.arena.pot(p), y, &mut self.links);
                for i in 0..self.links.len() {
                    let (q, cause) = self.links[i];
                    self.derive(p, q, cause, source, chains, false);
                }
            }
            while let Some(p) = self.pending_off.pop_front() {
                off_to_on(cands, self.arena.pot(p), y, true, &mut self.links);
                for i in 0..self.links.len() {
                    let (q, cause) = self.links[i];
                    self.derive(p, q, cause, source, chains, true);
                }
            }
        }
    }

    fn derive(&mut self, p: Id, q: Pot, cause: Cause, source: Pot, chains: &mut Vec<Id>, on: bool) {
        let target = q ^ 1 == source && !chains.iter().any(|&c| self.arena.pot(c) == q);
        let set = if on { &mut self.on } else { &mut self.off };
        let new = set.insert(q);
        if target || new {
            let n = self.arena.push(q, cause, &[p]);
            if target {
                chains.push(n);
            }
            if new {
                if on {
                    self.pending_on.push_back(n);
                } else {
                    self.pending_off.push_back(n);
                }
            }
        }
    }

    /// The removals of a cycle: a candidate outside the cycle that sees one of its on potentials
    /// and one of its off potentials of the same digit.
    fn cycle_hint(&mut self, cands: &[Digits; 81], dst: Id, y: bool, x: bool) -> Option<Candidate> {
        let mut in_cycle = 0u128;
        let mut p = dst;
        while let Some(&up) = self.arena.parents(p).first() {
            in_cycle |= 1 << cell_of(self.arena.pot(p));
            p = up;
        }
        let mut forward = [0u128; 10];
        let mut backward = [0u128; 10];
        let mut p = dst;
        while let Some(&up) = self.arena.parents(p).first() {
            let q = self.arena.pot(p);
            let (cell, digit) = (cell_of(q), digit_of(q));
            for &c in &PEERS[cell] {
                let c = c as usize;
                if in_cycle >> c & 1 == 0 && cands[c] >> digit & 1 != 0 {
                    if is_on(q) {
                        forward[digit as usize] |= 1 << c;
                    } else {
                        backward[digit as usize] |= 1 << c;
                    }
                }
            }
            p = up;
        }
        let mut eliminations: Vec<(u8, Digits)> = Vec::new();
        for d in 1..=9u8 {
            for c in super::board::cells_of(forward[d as usize] & backward[d as usize]) {
                match eliminations.iter_mut().find(|(e, _)| *e as usize == c) {
                    Some((_, m)) => *m |= 1 << d,
                    None => eliminations.push((c as u8, 1 << d)),
                }
            }
        }
        if eliminations.is_empty() {
            return None;
        }
        let complexity = self.arena.ancestors(dst, &mut self.seen);
        let base = if x && y { 7.0 } else { 6.5 };
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
    fn chain_hint(&mut self, cands: &[Digits; 81], target: Id, y: bool, x: bool) -> Candidate {
        let q = self.arena.pot(target);
        let (cell, digit) = (cell_of(q), digit_of(q));
        let complexity = self.arena.ancestors(target, &mut self.seen);
        let base = if x && y { 7.0 } else { 6.6 };
        let technique = Technique::ForcingChain {
            x,
            y,
            turbot: x && !y && complexity == 6,
        };
        let hint = if is_on(q) {
            Hint {
                technique,
                difficulty: base + length_difficulty(complexity),
                placement: Some((cell as u8, digit)),
                eliminations: vec![(cell as u8, cands[cell] & !(1 << digit))],
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
