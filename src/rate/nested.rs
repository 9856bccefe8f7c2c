//! Nested forcing chains: Explainer's dynamic forcing chains whose runs, when they stall, apply
//! not only the simple techniques of "(+)" but forcing chains of a lower kind to the run's
//! reduced grid, each removal they find descending from the run's removals that chain relied on.
//!
//! | level | difficulty | name suffix | inside the runs, after pointing/claiming, pairs, X-Wing |
//! |---|---|---|---|
//! | 2 | 9.5 | (+ Forcing Chains) | forcing X/Y/XY-chains and cycles |
//! | 3 | 10.0 | (+ Multiple Forcing Chains) | those, then multiple forcing chains |
//! | 4 | 10.5 | (+ Dynamic Forcing Chains) | dynamic forcing chains |
//! | 5 | 11.0 | (+ Dynamic Forcing Chains (+ Forcing Chains)) | those, then level 2 |
//!
//! Inside a run the rules are tried in that order and the first that finds anything gives every
//! removal it found. A hint's complexity (what the length bonus counts) adds, to the potentials
//! of its own chains, the complexity of every distinct nested chain those chains used (two
//! nested chains are the same when their targets and the potentials of their chains are).
//!
//! This engine keeps every derivation (which [`super::forcing`] need not), because a nested
//! chain's removals descend from the removals its chains met: for each on potential of the
//! nested chain, the candidates of its cell (a naked single) or of its house (a hidden single)
//! that the outer run had removed. Explainer tries these levels only when nothing else applies,
//! in order, and takes the first hint of the first level that finds one.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::ops::ControlFlow;
use std::rc::Rc;

use super::board::{Board, Digits, HOUSE_CELLS, HOUSES_OF, PEER_SET, digits_of};
use super::chains::{
    Arena, Cause, Grid2, Id, Key, Links, Pot, PotMap, PotSet, Queue, cands_of, cell_of,
    cycle_eliminations, digit_of, gone_from_scope, is_on, length_difficulty, off_to_on, on_to_off,
    pot, single_scope,
};
use super::forcing::simple;
use super::hint::{Chains, Hint, Shape, Sink, Technique};

/// The lowest and highest nesting levels.
pub const LEVELS: std::ops::RangeInclusive<u8> = 2..=5;

/// The base difficulty of nested chains of `level` (2..=5).
pub fn difficulty(level: u8) -> f64 {
    9.5 + 0.5 * (level - 2) as f64
}

/// The hints of nested forcing chains of `level` (2..=5), sorted as Explainer sorts them.
pub fn nested_chains(board: &Board, level: u8, sink: Sink) -> ControlFlow<()> {
    let mode = Mode {
        multiple: true,
        dynamic: true,
        level,
    };
    let mut engine = Engine::new(mode, board.values(), cands_of(board), None);
    for f in sorted(engine.multiple()) {
        sink(f.hint)?;
    }
    ControlFlow::Continue(())
}

/// Which chain engine: multiple (cell and region forcing of any size), dynamic (removals along
/// the way count), and the nesting level (0 none, 1 "(+)", 2..=5 nested).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mode {
    multiple: bool,
    dynamic: bool,
    level: u8,
}

impl Mode {
    fn difficulty(self) -> f64 {
        if self.level >= 2 {
            difficulty(self.level)
        } else if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }
}

/// A chain hint found inside another run, as the outer run needs it: how complex it is, and
/// what identifies its chains (its targets, each followed by its chain's potentials).
#[derive(Debug)]
struct Nested {
    complexity: u32,
    signature: Vec<Pot>,
}

/// A hint before sorting, with what an outer run needs when this engine is nested.
struct Found {
    hint: Hint,
    complexity: u32,
    sort_key: u8,
    /// Nested engines only: what the outer run needs.
    inner: Option<Inner>,
}

/// A hint found by a nested engine, as the outer run takes it.
struct Inner {
    /// The outer run's removals the hint relied on (cell, digit).
    parents: Vec<(usize, u8)>,
    /// The hint's chains.
    nested: Rc<Nested>,
}

/// Explainer's sort (difficulty, complexity, kind; stable), repeats of the same removals left
/// out.
fn sorted(mut found: Vec<Found>) -> Vec<Found> {
    found.sort_by(|a, b| {
        Key(a.hint.difficulty, a.complexity, a.sort_key).order(Key(
            b.hint.difficulty,
            b.complexity,
            b.sort_key,
        ))
    });
    let mut out: Vec<Found> = Vec::new();
    for f in found {
        if !out
            .iter()
            .any(|o| o.hint.eliminations == f.hint.eliminations)
        {
            out.push(f);
        }
    }
    out
}

/// What one run derived, with the nested chains its removals came from.
#[derive(Default)]
struct Run {
    arena: Arena,
    on: PotMap,
    off: PotMap,
    /// Nodes made by a nested chain, in increasing node order.
    nested: Vec<(Id, Rc<Nested>)>,
    /// The first contradiction met, an on node and an off node of one candidate.
    absurd: Option<(Id, Id)>,
}

impl Run {
    fn side(&self, on: bool) -> &PotMap {
        if on { &self.on } else { &self.off }
    }

    fn nested_of(&self, id: Id) -> Option<&Rc<Nested>> {
        self.nested
            .binary_search_by_key(&id, |&(i, _)| i)
            .ok()
            .map(|i| &self.nested[i].1)
    }
}

/// Runs kept between engines on a thread, at most this many: engines nested in runs are made
/// for every stalled grid, and making a run's maps and arena anew cost more than many a run.
const SPARE_KEPT: usize = 1000;

thread_local! {
    static SPARE_RUNS: std::cell::RefCell<Vec<Run>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Run {
    /// An empty run, from the thread's spares when there is one.
    fn fresh() -> Run {
        SPARE_RUNS
            .with_borrow_mut(|spare| spare.pop())
            .unwrap_or_default()
    }

    /// Leaves the run to the thread's spares, emptied.
    fn give_back(mut self) {
        SPARE_RUNS.with_borrow_mut(|spare| {
            if spare.len() < SPARE_KEPT {
                self.arena.clear();
                self.on.clear();
                self.off.clear();
                self.nested.clear();
                self.absurd = None;
                spare.push(self);
            }
        });
    }
}

/// How the assumptions of a hint's chains count when finding the removals it relied on: as
/// Explainer treats the starts of cell forcing (a naked single) and region forcing (a hidden
/// single in that house kind); other starts rely on nothing.
#[derive(Clone, Copy)]
enum Root {
    None,
    Cell,
    House(u8),
}

struct Engine<'a> {
    mode: Mode,
    values: &'a [u8; 81],
    /// The grid the engine starts from.
    cands: [Digits; 81],
    grid: Grid2,
    /// Nested engines: the outer run's starting grid (`cands` being its reduced grid).
    outer: Option<&'a [Digits; 81]>,
    links: Vec<(Pot, Cause)>,
    seen: PotSet,
    /// What the other rules found on each stalled grid met so far (runs from different
    /// assumptions often stall on the same grid).
    cache: RefCell<HashMap<[Digits; 81], Rc<Advanced>>>,
    /// The run from each on potential (region forcing and the cell's own runs share them).
    on_runs: HashMap<Pot, Rc<Run>>,
    /// A run's queues of on and off nodes to expand, kept for the next run.
    pending: (Queue, Queue),
}

impl Drop for Engine<'_> {
    fn drop(&mut self) {
        for (_, run) in self.on_runs.drain() {
            if let Ok(run) = Rc::try_unwrap(run) {
                run.give_back();
            }
        }
    }
}

impl<'a> Engine<'a> {
    fn new(
        mode: Mode,
        values: &'a [u8; 81],
        cands: [Digits; 81],
        outer: Option<&'a [Digits; 81]>,
    ) -> Engine<'a> {
        Engine {
            mode,
            values,
            cands,
            grid: Grid2::new(cands),
            outer,
            links: Vec::new(),
            seen: PotSet::default(),
            cache: RefCell::default(),
            on_runs: HashMap::new(),
            pending: Default::default(),
        }
    }

    /// Every hint of Explainer's multiple / dynamic chains, unsorted.
    fn multiple(&mut self) -> Vec<Found> {
        let mut found = Vec::new();
        for cell in 0..81 {
            let n = self.cands[cell].count_ones();
            if self.values[cell] == 0 && (n > 2 || (n > 1 && self.mode.dynamic)) {
                self.cell(cell, &mut found);
            }
        }
        found
    }

    /// Everything derived from one cell's candidates.
    fn cell(&mut self, cell: usize, found: &mut Vec<Found>) {
        let n = self.cands[cell].count_ones();
        let mut value_runs: Vec<Rc<Run>> = Vec::new();
        for digit in digits_of(self.cands[cell]) {
            let on_run = self.binary(pot(cell, digit, true), n >= 3, found);
            self.regions(cell, digit, &on_run, found);
            value_runs.push(on_run);
        }
        if n == 2 || (self.mode.multiple && n > 2) {
            let first = &value_runs[0];
            for on in [true, false] {
                for &q in &first.side(on).order {
                    if value_runs.iter().all(|r| r.side(on).contains(q)) {
                        let targets: Vec<(&Run, Id)> = value_runs
                            .iter()
                            .map(|r| (&**r, r.side(on).get(q).unwrap_or(0)))
                            .collect();
                        self.push(found, &targets, q, Shape::Cell, 5, Root::Cell);
                    }
                }
            }
        }
    }

    /// Assumes `p_on` on, then off: contradictions and double forcing. Returns the on run.
    fn binary(&mut self, p_on: Pot, three: bool, found: &mut Vec<Found>) -> Rc<Run> {
        let dynamic = self.mode.dynamic;
        let on_run = self.on_run(p_on);
        if let (true, Some((on, off))) = (dynamic, on_run.absurd) {
            let t = [(&*on_run, on), (&*on_run, off)];
            self.push(found, &t, p_on ^ 1, Shape::Contradiction, 7, Root::None);
        }
        let mut off_run = Run::fresh();
        let absurd = self.run(&mut off_run, p_on ^ 1);
        if let (true, Some((on, off))) = (dynamic, absurd) {
            let t = [(&off_run, on), (&off_run, off)];
            self.push(found, &t, p_on, Shape::Contradiction, 7, Root::None);
        }
        if three && dynamic {
            for on in [true, false] {
                for &q in &on_run.side(on).order {
                    if let Some(b) = off_run.side(on).get(q) {
                        let a = on_run.side(on).get(q).unwrap_or(0);
                        let t = [(&*on_run, a), (&off_run, b)];
                        self.push(found, &t, q, Shape::Double, 1, Root::None);
                    }
                }
            }
        }
        off_run.give_back();
        on_run
    }

    /// Region forcing: every place of `digit` in a house of `cell` (met first at `cell`).
    fn regions(&mut self, cell: usize, digit: u8, own: &Run, found: &mut Vec<Found>) {
        for (k, &house) in HOUSES_OF[cell].iter().enumerate() {
            let places: Vec<usize> = HOUSE_CELLS[house as usize]
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| self.cands[c] >> digit & 1 != 0)
                .collect();
            let n = places.len();
            if !(n == 2 || (self.mode.multiple && n > 2)) || places[0] != cell {
                continue;
            }
            let others: Vec<Rc<Run>> = places[1..]
                .iter()
                .map(|&c| self.on_run(pot(c, digit, true)))
                .collect();
            for on in [true, false] {
                for &q in &own.side(on).order {
                    if others.iter().all(|r| r.side(on).contains(q)) {
                        let mut targets = vec![(own, own.side(on).get(q).unwrap_or(0))];
                        targets.extend(
                            others
                                .iter()
                                .map(|r| (&**r, r.side(on).get(q).unwrap_or(0))),
                        );
                        self.push(found, &targets, q, Shape::Region, 6, Root::House(k as u8));
                    }
                }
            }
        }
    }

    /// The run from the on potential `p`, made once.
    fn on_run(&mut self, p: Pot) -> Rc<Run> {
        if let Some(r) = self.on_runs.get(&p) {
            return r.clone();
        }
        let mut run = Run::fresh();
        run.absurd = self.run(&mut run, p);
        let run = Rc::new(run);
        self.on_runs.insert(p, run.clone());
        run
    }

    /// A run from the potential `root`; `Some((on, off))` at the first contradiction.
    fn run(&mut self, run: &mut Run, root: Pot) -> Option<(Id, Id)> {
        let (mut pending_on, mut pending_off) = std::mem::take(&mut self.pending);
        pending_on.clear();
        pending_off.clear();
        let absurd = self.derive(run, root, &mut pending_on, &mut pending_off);
        self.pending = (pending_on, pending_off);
        absurd
    }

    /// [`Self::run`]'s work, with its queues.
    fn derive(
        &mut self,
        run: &mut Run,
        root: Pot,
        pending_on: &mut Queue,
        pending_off: &mut Queue,
    ) -> Option<(Id, Id)> {
        let id = run.arena.push(root, Cause::Assumed, &[]);
        if is_on(root) {
            run.on.insert(root, id);
            pending_on.push_back(id);
        } else {
            run.off.insert(root, id);
            pending_off.push_back(id);
        }
        let dynamic = self.mode.dynamic;
        let mut work = self.grid;
        loop {
            if let Some(p) = pending_on.pop_front() {
                on_to_off(&work, run.arena.pot(p), true, &mut self.links);
                for &(q, cause) in &self.links {
                    if let Some(on) = run.on.get(q ^ 1) {
                        let off = run.arena.push(q, cause, &[p]);
                        return Some((on, off));
                    }
                    if !run.off.contains(q) {
                        let id = run.arena.push(q, cause, &[p]);
                        run.off.insert(q, id);
                        pending_off.push_back(id);
                    }
                }
            } else if let Some(p) = pending_off.pop_front() {
                let pp = run.arena.pot(p);
                off_to_on(&work, pp, true, true, &mut self.links);
                if dynamic {
                    work.remove(cell_of(pp), digit_of(pp));
                }
                let links = std::mem::take(&mut self.links);
                for &(q, cause) in &links {
                    let id = run.arena.push(q, cause, &[p]);
                    if dynamic {
                        self.hidden_parents(run, id, q, cause, &work, pp);
                    }
                    if let Some(off) = run.off.get(q ^ 1) {
                        self.links = links;
                        return Some((id, off));
                    }
                    if !run.on.contains(q) {
                        run.on.insert(q, id);
                        pending_on.push_back(id);
                    }
                }
                self.links = links;
            } else {
                break;
            }
            if pending_on.is_empty() && pending_off.is_empty() && self.mode.level > 0 {
                for (q, parents, nested) in self.advanced(run, &work.cells) {
                    if !run.off.contains(q) {
                        let id = run.arena.push(q, Cause::Advanced, &parents);
                        run.off.insert(q, id);
                        if let Some(n) = nested {
                            run.nested.push((id, n));
                        }
                        pending_off.push_back(id);
                    }
                }
            }
        }
        None
    }

    /// The removals that made an on potential possible besides its trigger (dynamic runs).
    fn hidden_parents(
        &self,
        run: &mut Run,
        id: Id,
        q: Pot,
        cause: Cause,
        work: &Grid2,
        trigger: Pot,
    ) {
        gone_from_scope(&self.grid, work, q, cause, trigger, |c, d| {
            if let Some(parent) = run.off.get(pot(c, d, false)) {
                run.arena.add_parent(id, parent);
            }
        });
    }

    /// The removals other techniques find on a stalled run's reduced grid `work`, each with
    /// the run's removals it relied on as parents and, from a chain, that chain.
    fn advanced(&self, run: &Run, work: &[Digits; 81]) -> Vec<(Pot, Vec<Id>, Option<Rc<Nested>>)> {
        let cached = self.cache.borrow().get(work).cloned();
        let raw = match cached {
            Some(raw) => raw,
            None => {
                let raw = Rc::new(self.advanced_raw(work));
                self.cache.borrow_mut().insert(*work, raw.clone());
                raw
            }
        };
        raw.iter()
            .map(|(q, parents, nested)| {
                let ids = parents
                    .iter()
                    .filter_map(|&(c, d)| run.off.get(pot(c, d, false)))
                    .collect();
                (*q, ids, nested.clone())
            })
            .collect()
    }

    /// What [`Self::advanced`] finds, parents as candidates: the first rule of the level's list
    /// that finds any removal (a rule's hint that relied on no removal of the run is left out:
    /// it holds without the run).
    fn advanced_raw(&self, work: &[Digits; 81]) -> Advanced {
        let mut out: Advanced = Vec::new();
        for rule in 0..4 {
            let mut add = |removals: &[(usize, Digits)], parents: &[(usize, u8)]| {
                if parents.is_empty() {
                    return;
                }
                let parents: Rc<[(usize, u8)]> = parents.into();
                let mut sorted = removals.to_vec();
                sorted.sort_by_key(|&(c, d)| (c, d.trailing_zeros()));
                for (c, ds) in sorted {
                    for d in digits_of(ds) {
                        out.push((pot(c, d, false), parents.clone(), None));
                    }
                }
            };
            match rule {
                0 => simple::locking(&self.cands, work, &mut add),
                1 => simple::hidden_pairs(self.values, &self.cands, work, &mut add),
                2 => simple::naked_pairs(self.values, &self.cands, work, &mut add),
                _ => simple::x_wings(self.values, &self.cands, work, &mut add),
            }
            if !out.is_empty() {
                return out;
            }
        }
        for rule in chain_rules(self.mode.level) {
            let unary = Mode {
                multiple: false,
                dynamic: false,
                level: 0,
            };
            let mut inner =
                Engine::new(rule.unwrap_or(unary), self.values, *work, Some(&self.cands));
            let found = match rule {
                None => inner.unary(),
                Some(_) => inner.multiple(),
            };
            for f in sorted(found) {
                let Some(Inner { parents, nested }) = f.inner else {
                    continue;
                };
                if parents.is_empty() {
                    continue;
                }
                let parents: Rc<[(usize, u8)]> = parents.into();
                for &(c, ds) in &f.hint.eliminations {
                    for d in digits_of(ds) {
                        out.push((
                            pot(c as usize, d, false),
                            parents.clone(),
                            Some(nested.clone()),
                        ));
                    }
                }
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }

    /// The potentials of the chain ending at `id`, breadth first from it, a potential met again
    /// (even as another node) not followed again: Explainer's chain of a target.
    fn chain(&mut self, run: &Run, id: Id) -> Vec<Id> {
        self.seen.clear();
        let mut out = Vec::new();
        let mut level = vec![id];
        let mut next = Vec::new();
        while !level.is_empty() {
            for &n in &level {
                if self.seen.insert(run.arena.pot(n)) {
                    out.push(n);
                    next.extend_from_slice(run.arena.parents(n));
                }
            }
            std::mem::swap(&mut level, &mut next);
            next.clear();
        }
        out
    }

    /// Records a hint concluding `q` (placing its digit when on, removing its candidate when
    /// off) from chains ending at `targets`.
    fn push(
        &mut self,
        found: &mut Vec<Found>,
        targets: &[(&Run, Id)],
        q: Pot,
        shape: Shape,
        sort_key: u8,
        root: Root,
    ) {
        let (cell, digit) = (cell_of(q), digit_of(q));
        let (placement, removed) = if is_on(q) {
            (Some((cell as u8, digit)), self.cands[cell] & !(1 << digit))
        } else {
            (None, 1 << digit)
        };
        if removed == 0 {
            return; // nothing to remove: not worth a hint
        }
        let technique = Technique::Chains(Chains {
            shape,
            level: self.mode.level,
            dynamic: self.mode.dynamic,
            nishio: false,
        });
        let hint = Hint {
            technique,
            difficulty: 0.0,
            placement,
            eliminations: vec![(cell as u8, removed)],
        };
        let base = self.mode.difficulty();
        self.finish(found, hint, base, targets, targets.len(), sort_key, root);
    }

    /// Completes a hint with its complexity (the potentials of the chains of its first `counted`
    /// targets, plus its nested chains), difficulty and, nested, what the outer run needs.
    #[allow(clippy::too_many_arguments)] // the parts of one hint, each from its finder
    fn finish(
        &mut self,
        found: &mut Vec<Found>,
        mut hint: Hint,
        base: f64,
        targets: &[(&Run, Id)],
        counted: usize,
        sort_key: u8,
        root: Root,
    ) {
        let mut complexity = 0;
        let mut processed: Vec<&Rc<Nested>> = Vec::new();
        let mut signature = Vec::new();
        let mut parents: Vec<(usize, u8)> = Vec::new();
        for (i, &(run, t)) in targets.iter().enumerate() {
            let chain = self.chain(run, t);
            if i < counted {
                complexity += chain.len() as u32;
            }
            for &n in &chain {
                if let Some(info) = run.nested_of(n) {
                    let same =
                        |o: &&Rc<Nested>| Rc::ptr_eq(o, info) || o.signature == info.signature;
                    if !processed.iter().any(same) {
                        complexity += info.complexity;
                        processed.push(info);
                    }
                }
            }
            if let Some(outer) = self.outer {
                signature.push(run.arena.pot(t));
                signature.extend(chain.iter().map(|&n| run.arena.pot(n)));
                signature.push(Pot::MAX);
                for &n in &chain {
                    self.rule_parents(run, n, root, outer, &mut parents);
                }
            }
        }
        hint.difficulty = base + length_difficulty(complexity);
        let inner = self.outer.map(|_| {
            let nested = Nested {
                complexity,
                signature,
            };
            Inner {
                parents,
                nested: Rc::new(nested),
            }
        });
        found.push(Found {
            hint,
            complexity,
            sort_key,
            inner,
        });
    }

    /// The outer run's removals an on potential of a nested chain relied on: what its cell
    /// (naked single) or house (hidden single) had in the outer run's starting grid and lacks
    /// in its reduced one.
    fn rule_parents(
        &self,
        run: &Run,
        n: Id,
        root: Root,
        outer: &[Digits; 81],
        parents: &mut Vec<(usize, u8)>,
    ) {
        let p = run.arena.pot(n);
        if !is_on(p) {
            return;
        }
        let cause = match (run.arena.node(n).cause, root) {
            (Cause::Assumed, Root::Cell) => Cause::Cell,
            (Cause::Assumed, Root::House(k)) => Cause::House(k),
            (c, _) => c,
        };
        let (cell, digit) = (cell_of(p), digit_of(p));
        single_scope(cell, digit, cause, |c, d| {
            if outer[c] >> d & 1 != 0 && self.cands[c] >> d & 1 == 0 && !parents.contains(&(c, d)) {
                parents.push((c, d));
            }
        });
    }

    /// Explainer's "Forcing Chains & Cycles" on this engine's grid: X-, Y- and XY- passes, each
    /// cell's candidates in order, cycles then forcing chains. Unsorted.
    fn unary(&mut self) -> Vec<Found> {
        let mut found = Vec::new();
        // Which potentials lead to which along every link of the grid (a pass follows some of
        // them): a cycle search with no path back to its source, or a forcing chain search
        // with none from its start to the start's negation, finds nothing and is not made.
        let links = Links::with_reach_of(self.cands);
        // one arena for every search (each search's hint is complete before the next)
        let mut run = Run::default();
        for (y, x) in [(false, true), (true, false), (true, true)] {
            for cell in 0..81 {
                let n = self.cands[cell].count_ones();
                if self.values[cell] != 0 || n < 2 || (n > 2 && !x) {
                    continue;
                }
                for digit in digits_of(self.cands[cell]) {
                    let source = pot(cell, digit, true);
                    if links
                        .all(source)
                        .iter()
                        .any(|&(q, _)| links.leads(q, source))
                    {
                        run.arena.clear();
                        for dst in self.cycles(&mut run, source, y, x) {
                            self.cycle_hint(&mut run, dst, y, x, &mut found);
                        }
                    }
                    if x {
                        for start in [source, source ^ 1] {
                            if !links.leads(start, start ^ 1) {
                                continue;
                            }
                            run.arena.clear();
                            if let Some(t) = self.forcing(&mut run, start, y) {
                                self.chain_hint(&run, t, y, x, &mut found);
                            }
                        }
                    }
                }
            }
        }
        found
    }

    /// Explainer's cycle search: breadth first in alternating off and on layers; an off is not
    /// re-derived from a potential it lies above, an on is derived once; the source met again
    /// at layer 4 or later closes a cycle.
    fn cycles(&mut self, run: &mut Run, source: Pot, y: bool, x: bool) -> Vec<Id> {
        let mut on = PotSet::default();
        on.insert(source);
        let mut pending_on = VecDeque::from([run.arena.push(source, Cause::Assumed, &[])]);
        let mut pending_off = VecDeque::new();
        let mut cycles = Vec::new();
        let mut length = 0;
        let mut links = Vec::new();
        while !pending_on.is_empty() || !pending_off.is_empty() {
            length += 1;
            while let Some(p) = pending_on.pop_front() {
                on_to_off(&self.grid, run.arena.pot(p), y, &mut links);
                for &(q, cause) in &links {
                    if !run.arena.has_ancestor(p, q) {
                        pending_off.push_back(run.arena.push(q, cause, &[p]));
                    }
                }
            }
            length += 1;
            while let Some(p) = pending_off.pop_front() {
                off_to_on(&self.grid, run.arena.pot(p), y, x, &mut links);
                for &(q, cause) in &links {
                    if length >= 4 && q == source {
                        cycles.push(run.arena.push(q, cause, &[p]));
                    } else if on.insert(q) {
                        pending_on.push_back(run.arena.push(q, cause, &[p]));
                    }
                }
            }
        }
        cycles
    }

    /// A cycle's hint: the candidates outside the cycle that see one of its on potentials and
    /// one of its off potentials of the same digit. Its chains: the cycle, and the cycle
    /// reversed (each potential negated, keeping its cause).
    fn cycle_hint(&mut self, run: &mut Run, dst: Id, y: bool, x: bool, found: &mut Vec<Found>) {
        let mut line = vec![dst];
        while let Some(&up) = run.arena.parents(*line.last().unwrap_or(&dst)).first() {
            line.push(up);
        }
        let mut in_cycle = 0u128;
        for &n in &line[..line.len() - 1] {
            in_cycle |= 1 << cell_of(run.arena.pot(n));
        }
        let mut forward = [0u128; 10];
        let mut backward = [0u128; 10];
        for &n in &line[..line.len() - 1] {
            let q = run.arena.pot(n);
            let (cell, digit) = (cell_of(q), digit_of(q));
            let seen = PEER_SET[cell] & !in_cycle & self.grid.places[digit as usize];
            if is_on(q) {
                forward[digit as usize] |= seen;
            } else {
                backward[digit as usize] |= seen;
            }
        }
        let mut eliminations = cycle_eliminations(&forward, &backward);
        if eliminations.is_empty() {
            return;
        }
        eliminations.sort_unstable_by_key(|&(c, _)| c);
        // the reversed cycle, built from the far end
        let mut prev: Option<Id> = None;
        for &n in &line {
            let node = *run.arena.node(n);
            let parents: Vec<Id> = prev.into_iter().collect();
            prev = Some(run.arena.push(node.pot ^ 1, node.cause, &parents));
        }
        let reversed = prev.unwrap_or(dst);
        let hint = Hint {
            technique: Technique::Cycle { x, y, four: false },
            difficulty: 0.0,
            placement: None,
            eliminations,
        };
        let base = if x && y { 7.0 } else { 6.5 };
        // the complexity counts the cycle only; the reversed chain is the hint's second target
        let targets = [(&*run, dst), (&*run, reversed)];
        self.finish(
            found,
            hint,
            base,
            &targets,
            1,
            unary_sort_key(y, x),
            Root::None,
        );
    }

    /// Explainer's forcing chain search from `start`: breadth first, whole on layers then whole
    /// off layers, each potential derived once; the first node reaching the negation of
    /// `start`.
    fn forcing(&mut self, run: &mut Run, start: Pot, y: bool) -> Option<Id> {
        let mut seen = PotSet::default();
        seen.insert(start);
        let root = run.arena.push(start, Cause::Assumed, &[]);
        let mut pending_on = VecDeque::new();
        let mut pending_off = VecDeque::new();
        if is_on(start) {
            pending_on.push_back(root);
        } else {
            pending_off.push_back(root);
        }
        let mut links = Vec::new();
        let mut pending = [pending_on, pending_off];
        while pending.iter().any(|p| !p.is_empty()) {
            // a whole on layer, then a whole off layer
            for side in 0..2 {
                while let Some(p) = pending[side].pop_front() {
                    let pp = run.arena.pot(p);
                    if side == 0 {
                        on_to_off(&self.grid, pp, y, &mut links);
                    } else {
                        off_to_on(&self.grid, pp, y, true, &mut links);
                    }
                    for &(q, cause) in &links {
                        if q == start ^ 1 {
                            return Some(run.arena.push(q, cause, &[p]));
                        }
                        if seen.insert(q) {
                            pending[1 - side].push_back(run.arena.push(q, cause, &[p]));
                        }
                    }
                }
            }
        }
        None
    }

    /// A forcing chain's hint: its target off is removed; its target on is placed.
    fn chain_hint(&mut self, run: &Run, target: Id, y: bool, x: bool, found: &mut Vec<Found>) {
        let q = run.arena.pot(target);
        let (cell, digit) = (cell_of(q), digit_of(q));
        let removed = if is_on(q) {
            self.cands[cell] & !(1 << digit)
        } else {
            1 << digit
        };
        let hint = Hint {
            technique: Technique::ForcingChain {
                x,
                y,
                turbot: false,
            },
            difficulty: 0.0,
            placement: is_on(q).then_some((cell as u8, digit)),
            eliminations: vec![(cell as u8, removed)],
        };
        let base = if x && y { 7.0 } else { 6.6 };
        let targets = [(run, target)];
        self.finish(
            found,
            hint,
            base,
            &targets,
            1,
            unary_sort_key(y, x),
            Root::None,
        );
    }
}

/// Removals found inside a run: the candidate, the run's removals it relied on, its chain.
type Advanced = Vec<(Pot, Rc<[(usize, u8)]>, Option<Rc<Nested>>)>;

/// The chain rules nested in runs of `level`, in Explainer's order, after the simple ones:
/// `None` for forcing chains and cycles, else a multiple / dynamic engine.
fn chain_rules(level: u8) -> Vec<Option<Mode>> {
    let mode = |dynamic, level| {
        Some(Mode {
            multiple: true,
            dynamic,
            level,
        })
    };
    match level {
        0 | 1 => vec![],
        2 => vec![None],
        3 => vec![None, mode(false, 0)],
        4 => vec![mode(true, 0)],
        _ => vec![mode(true, 0), mode(true, level - 3)],
    }
}

/// Explainer's tie-break between the passes of unary chains.
fn unary_sort_key(y: bool, x: bool) -> u8 {
    match (y, x) {
        (true, true) => 4,
        (true, false) => 3,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{board, board_from_marks};
    use super::*;

    /// The first hint of nested chains of `level`.
    fn first(board: &Board, level: u8) -> Option<Hint> {
        let mut found = None;
        let _ = nested_chains(board, level, &mut |h| {
            found = Some(h);
            ControlFlow::Break(())
        });
        found
    }

    /// Checks that the lower levels find nothing on `board` and that `level`'s first hint is
    /// `text`, removing `digit` from `cell`.
    fn assert_first_at(board: &Board, level: u8, text: &str, cell: u8, digit: u8) {
        for lower in 2..level {
            assert_eq!(first(board, lower), None, "level {lower}");
        }
        let h = first(board, level).expect("a hint");
        assert_eq!(h.to_string(), text);
        assert_eq!(h.eliminations, vec![(cell, 1 << digit)]);
    }

    #[test]
    fn level_2_uses_forcing_chains_inside_the_runs() {
        // hardest11: serate 11.1/11.1/10.5, its first step a 10.5 nested chain
        let b = board(
            "98.7..6..5...8......7..6....4...7.3...8.6.7.....2....1..9.7.5.....1...2......3..4",
        );
        assert_first_at(
            &b,
            2,
            "10.5 Dynamic Contradiction Forcing Chains (+ Forcing Chains); r7c1<>6",
            54,
            6,
        );
    }

    #[test]
    #[ignore] // a minute unoptimised: `cargo test --release --lib -- --ignored level_`
    fn level_3_uses_multiple_forcing_chains_inside_the_runs() {
        // the same puzzle's sixth nested step, where level 2 finds nothing (serate's ER 11.1)
        let b = board_from_marks(
            "+9 +8 1234 +7 12345 1245 +6 145 235 +5 1236 12346 349 +8 1249 12349 479 2379 \
             1234 123 +7 3459 123459 +6 123489 14589 23589 126 +4 1256 589 159 +7 289 +3 25689 \
             123 12359 +8 3459 +6 1459 +7 459 259 367 35679 356 +2 3459 4589 48 5689 +1 12348 \
             1236 +9 468 +7 248 +5 168 368 34678 3567 3456 +1 459 4589 389 +2 36789 12678 \
             12567 1256 568 259 +3 189 16789 +4",
        );
        assert_first_at(
            &b,
            3,
            "11.1 Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains); r1c8<>1",
            7,
            1,
        );
    }

    #[test]
    #[ignore] // minutes unoptimised: `cargo test --release --lib -- --ignored level_`
    fn level_4_uses_dynamic_forcing_chains_inside_the_runs() {
        // hardest1106's 7th puzzle at its tenth step, where levels 2 and 3 find nothing (serate
        // gave no rating within 900 s; we rate it 11.7/11.7/10.8)
        let b = board_from_marks(
            "12469 269 +3 1689 126789 2689 +5 148 12478 129 +7 125 13589 12389 \
             +4 123 +6 128 +8 256 1246 1356 12367 2356 12347 134 +9 12369 \
             +4 12568 3689 3689 +7 12369 13589 1256 1267 23689 1267 +4 +5 3689 \
             12369 1389 1268 369 35689 568 +2 3689 +1 3469 +7 4568 +5 268 \
             24678 1689 12469 2689 1467 149 +3 346 +1 468 +7 34689 3589 469 \
             +2 456 23467 236 +9 1356 12346 2356 +8 145 1467",
        );
        assert_first_at(
            &b,
            4,
            "11.4 Dynamic Region Forcing Chains (+ Dynamic Forcing Chains); r1c1<>9",
            0,
            9,
        );
    }
}
