//! Forcing chains over the whole grid: Explainer's Nishio (7.5), multiple (8.0), dynamic (8.5)
//! and dynamic chains that use simple techniques along the way, "(+)" (9.0), plus the length
//! bonus of [`super::chains`].
//!
//! One *run* assumes a potential (or several) and derives everything that follows, on potentials
//! first: an on potential is expanded as soon as there is one, an off only when no on waits.
//! In the dynamic forms each off potential, once expanded, also leaves the candidates (so later
//! links see the reduced grid), and an on potential found that way also descends from the
//! removals that made it (its "hidden" parents). A run stops at its first contradiction. From the
//! runs of each cell with two or more candidates (in cell order, digits in order) come:
//! contradictions (the assumption is false), double forcing (a potential follows from a candidate
//! on and from it off), cell forcing (follows from every candidate of a cell) and region forcing
//! (from every place of a digit in a house). With `(+)`, a run that stalls also applies pointing,
//! claiming, hidden and naked pairs and X-Wings to its reduced grid, in that order, each removal
//! descending from the removals the technique relied on.

use std::ops::ControlFlow;

use super::board::{Board, Cells, Digits, HOUSE_SET, HOUSES_OF, PEER_SET, cells_of, digits_of};
use super::chains::{
    Arena, Candidate, Cause, Found, Grid2, Id, Key, Links, Pot, PotMap, PotSet, Queue, Walk,
    cands_of, cell_of, digit_of, gone_from_scope, is_on, length_difficulty, off_to_on, on_to_off,
    pot, send_sorted,
};
use super::hint::{Chains, Hint, Shape, Sink, Technique};

/// Which of Explainer's chain engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Cell and region forcing with cells and digits of any number of candidates / places.
    pub multiple: bool,
    /// Removals along the way count.
    pub dynamic: bool,
    /// Nishio: X-links only, contradictions only.
    pub nishio: bool,
    /// 0, or 1 for "(+)": simple techniques inside the runs.
    pub level: u8,
}

impl Mode {
    /// Nishio forcing chains.
    pub const NISHIO: Mode = Mode {
        multiple: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };
    /// Multiple forcing chains.
    pub const MULTIPLE: Mode = Mode {
        multiple: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };
    /// Dynamic forcing chains.
    pub const DYNAMIC: Mode = Mode {
        multiple: true,
        dynamic: true,
        nishio: false,
        level: 0,
    };
    /// Dynamic forcing chains (+).
    pub const DYNAMIC_PLUS: Mode = Mode {
        multiple: true,
        dynamic: true,
        nishio: false,
        level: 1,
    };

    /// The technique's base difficulty.
    pub fn difficulty(self) -> f64 {
        if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }

    fn technique(self, shape: Shape) -> Technique {
        Technique::Chains(Chains {
            shape,
            level: self.level,
            dynamic: self.dynamic,
            nishio: self.nishio,
        })
    }
}

/// The hints of one chain engine, sorted as Explainer sorts them.
pub fn forcing_chains(board: &Board, mode: Mode, sink: Sink) -> ControlFlow<()> {
    let mut found = Found::all();
    search(board, mode, &mut found);
    send_sorted(found.into_all(), sink)
}

/// The first hint [`forcing_chains`] sends, found without working out how complex a hint is
/// past the point where it can no longer sort before the best so far.
pub fn first_forcing_chain(board: &Board, mode: Mode) -> Option<Hint> {
    let mut found = Found::best();
    search(board, mode, &mut found);
    found.into_best()
}

/// Every run of one chain engine, its hints kept in `found`.
fn search(board: &Board, mode: Mode, found: &mut Found) {
    let mut engine = Engine::new(board, mode);
    let cands = engine.cands;
    for (cell, c) in cands.iter().enumerate() {
        let n = c.count_ones();
        if board.value(cell) == 0 && (n > 2 || (n > 1 && mode.dynamic)) {
            engine.cell(cell, found);
        }
    }
    for run in std::mem::take(&mut engine.on_runs).into_iter().flatten() {
        engine.give_back(run);
    }
    engine.spare.truncate(SPARE_KEPT);
    SPARE_RUNS.set(engine.spare);
    if let Some(table) = engine.table {
        table.keep();
    }
}

/// The links of `p` on a run's grid `work`: from the table where runs see the grid as it is,
/// else worked out into `scratch`.
fn links_of<'a>(
    table: &'a Option<Links>,
    work: &Grid2,
    p: Pot,
    y_links: bool,
    scratch: &'a mut Vec<(Pot, Cause)>,
) -> &'a [(Pot, Cause)] {
    match table {
        Some(t) => t.all(p),
        None => {
            if is_on(p) {
                on_to_off(work, p, y_links, scratch);
            } else {
                off_to_on(work, p, y_links, true, scratch);
            }
            scratch
        }
    }
}

/// True when a Nishio run from `cell` assumed on (or off) for a digit whose cells are `places`
/// meets a contradiction. Such a run follows one digit only (X-links): an on takes the digit
/// from its peers, and an off expanded while a house has two places left, itself and one other,
/// puts the digit on that other. What it derives before stopping does not depend on the order
/// of its steps: an on comes from a house whose places are all off but one (and at least one
/// is off), and a house whose places are all off, two or more, ends with one of them on. So the
/// run meets a contradiction exactly when these rules, applied to a fixed point on bit sets,
/// put some cell both on and off or leave such a house with no place.
fn nishio_absurd(places: Cells, cell: usize, on: bool) -> bool {
    let (mut ons, mut offs): (Cells, Cells) = if on { (1 << cell, 0) } else { (0, 1 << cell) };
    let mut expanded_ons: Cells = 0;
    // the offs not yet looked at in their houses (a house without one is as it was the last
    // round, which took its single place and found no contradiction in it)
    let mut fresh = offs;
    loop {
        let mut new_offs: Cells = 0;
        for c in cells_of(ons & !expanded_ons) {
            new_offs |= PEER_SET[c];
        }
        expanded_ons = ons;
        new_offs &= places & !offs;
        if new_offs & ons != 0 {
            return true;
        }
        offs |= new_offs;
        fresh |= new_offs;
        let mut houses: u32 = 0;
        for c in cells_of(fresh) {
            for &h in &HOUSES_OF[c] {
                houses |= 1 << h;
            }
        }
        fresh = 0;
        let mut new_ons: Cells = 0;
        while houses != 0 {
            let house = HOUSE_SET[houses.trailing_zeros() as usize];
            houses &= houses - 1;
            let here = places & house;
            let left = here & !offs;
            if left == 0 {
                if here & (here - 1) != 0 {
                    return true;
                }
            } else if left & (left - 1) == 0 {
                new_ons |= left;
            }
        }
        new_ons &= !ons;
        if new_ons == 0 && new_offs == 0 {
            return false;
        }
        ons |= new_ons;
    }
}

/// Runs kept between calls on a thread, at most this many (a run's maps take about 12 KB, and
/// making them anew costs more than many a run).
const SPARE_KEPT: usize = 400;

thread_local! {
    static SPARE_RUNS: std::cell::Cell<Vec<Run>> = const { std::cell::Cell::new(Vec::new()) };
}

/// What one run derived.
#[derive(Default)]
struct Run {
    arena: Arena,
    on: PotMap,
    off: PotMap,
    /// The first contradiction met: an on and an off node of the same candidate.
    absurd: Option<(Id, Id)>,
}

impl Run {
    fn clear(&mut self) {
        self.arena.clear();
        self.on.clear();
        self.off.clear();
        self.absurd = None;
    }
}

/// The on or off potentials of a run.
fn side(run: &Run, on: bool) -> &PotMap {
    if on { &run.on } else { &run.off }
}

struct Engine {
    mode: Mode,
    values: [u8; 81],
    cands: [Digits; 81],
    /// `cands` both ways, what each run starts from.
    grid: Grid2,
    links: Vec<(Pot, Cause)>,
    /// Every potential's links, made once, where runs see the grid as it is (multiple chains,
    /// not dynamic): they are what each run would otherwise work out again at every node.
    table: Option<Links>,
    seen: PotSet,
    walk: Walk,
    spare: Vec<Run>,
    /// The runs of a cell's candidates or a house's places, looked at together (kept for its
    /// storage).
    group: Vec<Run>,
    /// A run's queues of on and off nodes to expand, kept for the next run.
    pending: (Queue, Queue),
    /// The run from each candidate assumed on (`cell * 9 + digit - 1`), made once: a cell's own
    /// analysis and the region forcing of every house the candidate lies in use the same run.
    on_runs: Vec<Option<Run>>,
}

impl Engine {
    fn new(board: &Board, mode: Mode) -> Engine {
        let cands = cands_of(board);
        Engine {
            mode,
            values: *board.values(),
            cands,
            grid: Grid2::new(cands),
            links: Vec::new(),
            table: (!mode.dynamic).then(|| {
                let mut t = Links::of_board(board);
                t.with_reach(board);
                t
            }),
            seen: PotSet::default(),
            walk: Walk::default(),
            spare: SPARE_RUNS.take(),
            group: Vec::new(),
            pending: Default::default(),
            on_runs: std::iter::repeat_with(|| None).take(81 * 9).collect(),
        }
    }

    fn take_run(&mut self) -> Run {
        self.spare.pop().unwrap_or_default()
    }

    fn give_back(&mut self, mut run: Run) {
        run.clear();
        self.spare.push(run);
    }

    /// Everything Explainer derives from one cell's candidates.
    fn cell(&mut self, cell: usize, found: &mut Found) {
        let n = self.cands[cell].count_ones();
        for digit in digits_of(self.cands[cell]) {
            let double = n >= 3 && !self.mode.nishio && self.mode.dynamic;
            let contradiction = self.mode.dynamic || self.mode.nishio;
            self.binary(cell, digit, found, double, contradiction);
            if !self.mode.nishio {
                self.regions(cell, digit, found);
            }
        }
        if !self.mode.nishio && (n == 2 || (self.mode.multiple && n > 2)) {
            self.cell_forcing(cell, found);
        }
    }

    /// The run from `digit` assumed on in `cell`, taken out of the store (made if it was not
    /// yet): give it back with [`Engine::put_on_run`].
    fn take_on_run(&mut self, cell: usize, digit: u8) -> Run {
        let i = cell * 9 + digit as usize - 1;
        match self.on_runs[i].take() {
            Some(run) => run,
            None => {
                let mut run = self.take_run();
                self.run(&mut run, &[pot(cell, digit, true)]);
                run
            }
        }
    }

    fn put_on_run(&mut self, cell: usize, digit: u8, run: Run) {
        self.on_runs[cell * 9 + digit as usize - 1] = Some(run);
    }

    /// A run from the potentials `roots`, kept in `run.absurd`: `Some((on, off))` at the first
    /// contradiction.
    fn run(&mut self, run: &mut Run, roots: &[Pot]) -> Option<(Id, Id)> {
        let (mut pending_on, mut pending_off) = std::mem::take(&mut self.pending);
        pending_on.clear();
        pending_off.clear();
        let mut links = std::mem::take(&mut self.links);
        let absurd = self.derive(run, roots, &mut pending_on, &mut pending_off, &mut links);
        self.links = links;
        self.pending = (pending_on, pending_off);
        run.absurd = absurd;
        absurd
    }

    fn derive(
        &mut self,
        run: &mut Run,
        roots: &[Pot],
        pending_on: &mut Queue,
        pending_off: &mut Queue,
        scratch: &mut Vec<(Pot, Cause)>,
    ) -> Option<(Id, Id)> {
        for &r in roots {
            let id = run.arena.push(r, Cause::Assumed, &[]);
            if is_on(r) {
                run.on.insert(r, id);
                pending_on.push_back(id);
            } else {
                run.off.insert(r, id);
                pending_off.push_back(id);
            }
        }
        let y_links = !self.mode.nishio;
        let mut work = self.grid;
        loop {
            if let Some(p) = pending_on.pop_front() {
                let links = links_of(&self.table, &work, run.arena.pot(p), y_links, scratch);
                for &(q, cause) in links {
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
                let links = links_of(&self.table, &work, pp, y_links, scratch);
                if self.mode.dynamic {
                    work.remove(cell_of(pp), digit_of(pp));
                }
                for &(q, cause) in links {
                    if run.on.contains(q) && !run.off.contains(q ^ 1) {
                        continue; // derived before, and no contradiction: nothing to keep
                    }
                    let id = run.arena.push(q, cause, &[p]);
                    if self.mode.dynamic {
                        self.hidden_parents(run, id, q, cause, &work, pp);
                    }
                    if let Some(off) = run.off.get(q ^ 1) {
                        return Some((id, off));
                    }
                    if !run.on.contains(q) {
                        run.on.insert(q, id);
                        pending_on.push_back(id);
                    }
                }
            } else {
                break;
            }
            if pending_on.is_empty() && pending_off.is_empty() && self.mode.level > 0 {
                for (q, parents) in self.advanced(run, &work.cells) {
                    if !run.off.contains(q) {
                        let id = run.arena.push(q, Cause::Advanced, &parents);
                        run.off.insert(q, id);
                        pending_off.push_back(id);
                    }
                }
            }
        }
        None
    }

    /// The removals that made an on potential possible besides its trigger: the cell's other
    /// candidates gone (a naked single) or the digit's other places gone from the house. `work`
    /// is the grid as it was when the trigger `trigger` was expanded (before its own removal).
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

    /// Assumes `digit` in `cell` on, then off; contradictions and double forcing. The on run
    /// stays in the store.
    fn binary(
        &mut self,
        cell: usize,
        digit: u8,
        found: &mut Found,
        double: bool,
        contradiction: bool,
    ) {
        if self.mode.nishio {
            return self.nishio(cell, digit, found);
        }
        if !contradiction && !double {
            // nothing comes of these runs (multiple chains: cell and region forcing only,
            // which make the runs they need)
            return;
        }
        let p_on = pot(cell, digit, true);
        let on_run = self.take_on_run(cell, digit);
        if contradiction {
            if let Some((on, off)) = on_run.absurd {
                let parts = [(&on_run, on), (&on_run, off)];
                self.push_off(found, p_on, Shape::Contradiction, &parts, 7);
            }
        }
        let mut off_run = self.take_run();
        let absurd = self.run(&mut off_run, &[p_on ^ 1]);
        if contradiction {
            if let Some((on, off)) = absurd {
                let parts = [(&off_run, on), (&off_run, off)];
                self.push_on(found, p_on, Shape::Contradiction, &parts, 7);
            }
        }
        if double {
            for i in 0..on_run.on.order.len() {
                let q = on_run.on.order[i];
                if let Some(b) = off_run.on.get(q) {
                    let a = on_run.on.get(q).unwrap_or(0);
                    self.push_on(found, q, Shape::Double, &[(&on_run, a), (&off_run, b)], 1);
                }
            }
            for i in 0..on_run.off.order.len() {
                let q = on_run.off.order[i];
                if let Some(b) = off_run.off.get(q) {
                    let a = on_run.off.get(q).unwrap_or(0);
                    let parts = [(&on_run, a), (&off_run, b)];
                    self.push_off(found, q ^ 1, Shape::Double, &parts, 1);
                }
            }
        }
        self.give_back(off_run);
        self.put_on_run(cell, digit, on_run);
    }

    /// Nishio: the runs from `digit` assumed on and off in `cell`, each made only when it meets
    /// a contradiction (nothing else comes of a Nishio run, and most meet none), known first by
    /// [`nishio_absurd`] on the digit's cells.
    fn nishio(&mut self, cell: usize, digit: u8, found: &mut Found) {
        let p_on = pot(cell, digit, true);
        let places = self.grid.places[digit as usize];
        for on in [true, false] {
            if !nishio_absurd(places, cell, on) {
                continue;
            }
            let mut run = self.take_run();
            let root = if on { p_on } else { p_on ^ 1 };
            if let Some((a, b)) = self.run(&mut run, &[root]) {
                let parts = [(&run, a), (&run, b)];
                if on {
                    self.push_off(found, p_on, Shape::Contradiction, &parts, 7);
                } else {
                    self.push_on(found, p_on, Shape::Contradiction, &parts, 7);
                }
            }
            self.give_back(run);
        }
    }

    /// A hint's complexity: the ancestors of each of its nodes `parts` (a node of a run) added
    /// up; `None` once the sum is past the most a hint of `sort_key` may have and still sort
    /// before the best found so far (when `found` keeps the best only).
    fn complexity(&mut self, found: &Found, sort_key: u8, parts: &[(&Run, Id)]) -> Option<u32> {
        let limit = self.limit(found, sort_key);
        let mut sum = 0u32;
        for &(run, id) in parts {
            let n = run
                .arena
                .ancestors_within(id, limit - sum, &mut self.walk, &mut self.seen)?;
            sum += n;
        }
        Some(sum)
    }

    /// The largest complexity a hint of this engine with `sort_key` may have and still sort
    /// before the best hint `found` holds (keys grow with complexity, the base difficulty being
    /// the engine's own): with the best at complexity `c`, `c` for a smaller sort key, else
    /// `c - 1`.
    fn limit(&self, found: &Found, sort_key: u8) -> u32 {
        let Some(best) = found.bound() else {
            return u32::MAX;
        };
        let key = |c: u32| Key(self.mode.difficulty() + length_difficulty(c), c, sort_key);
        let mut c = best.1.saturating_add(1);
        if found.wants(key(c)) {
            return u32::MAX; // not of this engine's keys: no bound
        }
        while c > 0 && !found.wants(key(c)) {
            c -= 1;
        }
        c
    }

    /// A hint placing the digit of the on potential `q` (removing the cell's other candidates).
    fn push_on(
        &mut self,
        found: &mut Found,
        q: Pot,
        shape: Shape,
        parts: &[(&Run, Id)],
        sort_key: u8,
    ) {
        let (cell, digit) = (cell_of(q), digit_of(q));
        let others = self.cands[cell] & !(1 << digit);
        if others == 0 {
            return; // nothing to remove: not worth a hint
        }
        let Some(complexity) = self.complexity(found, sort_key, parts) else {
            return;
        };
        found.push(Candidate {
            hint: Hint {
                technique: self.mode.technique(shape),
                difficulty: self.mode.difficulty() + length_difficulty(complexity),
                placement: Some((cell as u8, digit)),
                eliminations: vec![(cell as u8, others)],
            },
            complexity,
            sort_key,
        });
    }

    /// A hint removing the candidate of the on potential `q`.
    fn push_off(
        &mut self,
        found: &mut Found,
        q: Pot,
        shape: Shape,
        parts: &[(&Run, Id)],
        sort_key: u8,
    ) {
        let (cell, digit) = (cell_of(q), digit_of(q));
        let Some(complexity) = self.complexity(found, sort_key, parts) else {
            return;
        };
        found.push(Candidate {
            hint: Hint {
                technique: self.mode.technique(shape),
                difficulty: self.mode.difficulty() + length_difficulty(complexity),
                placement: None,
                eliminations: vec![(cell as u8, 1 << digit)],
            },
            complexity,
            sort_key,
        });
    }

    /// Region forcing: every place of `digit` in a house of `cell` (met first at `cell`).
    fn regions(&mut self, cell: usize, digit: u8, found: &mut Found) {
        for &house in &HOUSES_OF[cell] {
            let places = self.grid.places[digit as usize] & HOUSE_SET[house as usize];
            let n = places.count_ones();
            if !(n == 2 || (self.mode.multiple && n > 2))
                || places.trailing_zeros() as usize != cell
            {
                continue;
            }
            // a house's cells in increasing order, as `cells_of` gives them
            if !self.may_share(cells_of(places).map(|c| pot(c, digit, true))) {
                continue;
            }
            let mut runs = std::mem::take(&mut self.group);
            runs.extend(cells_of(places).map(|c| self.take_on_run(c, digit)));
            self.common(&runs, Shape::Region, 6, found);
            for (c, run) in cells_of(places).zip(runs.drain(..)) {
                self.put_on_run(c, digit, run);
            }
            self.group = runs;
        }
    }

    /// False when runs from `roots` are sure to derive nothing in common: the links are the
    /// grid's own (no dynamic chains) and no potential follows from all of them.
    fn may_share(&self, roots: impl IntoIterator<Item = Pot>) -> bool {
        self.table.as_ref().is_none_or(|t| t.lead_in_common(roots))
    }

    /// Hints of the potentials every one of `runs` derived, in the first run's order, each
    /// with the ancestors it has in all of them as its complexity.
    fn common(&mut self, runs: &[Run], shape: Shape, sort_key: u8, found: &mut Found) {
        let Some(first) = runs.first() else {
            return;
        };
        for on in [true, false] {
            let map = |r| side(r, on);
            for &q in &map(first).order {
                if runs.iter().all(|r| map(r).contains(q)) {
                    // a cell's candidates or a house's places: nine runs at most
                    let mut parts = [(first, 0); 9];
                    for (part, r) in parts.iter_mut().zip(runs) {
                        *part = (r, map(r).get(q).unwrap_or(0));
                    }
                    let parts = &parts[..runs.len()];
                    if on {
                        self.push_on(found, q, shape, parts, sort_key);
                    } else {
                        self.push_off(found, q ^ 1, shape, parts, sort_key);
                    }
                }
            }
        }
    }

    /// Cell forcing: potentials that follow from every candidate of `cell`.
    fn cell_forcing(&mut self, cell: usize, found: &mut Found) {
        let digits = self.cands[cell];
        if !self.may_share(digits_of(digits).map(|d| pot(cell, d, true))) {
            return;
        }
        let mut runs = std::mem::take(&mut self.group);
        runs.extend(digits_of(digits).map(|d| self.take_on_run(cell, d)));
        self.common(&runs, Shape::Cell, 5, found);
        for (d, run) in digits_of(digits).zip(runs.drain(..)) {
            self.put_on_run(cell, d, run);
        }
        self.group = runs;
    }

    /// "(+)": removals by simple techniques on a run's reduced grid (the first technique that
    /// finds any), each with the run's removals it relied on as parents.
    fn advanced(&self, run: &Run, work: &[Digits; 81]) -> Vec<(Pot, Vec<Id>)> {
        let mut out = Vec::new();
        for rule in 0..4 {
            let mut add = |removals: &[(usize, Digits)], parents: &[(usize, u8)]| {
                let ids: Vec<Id> = parents
                    .iter()
                    .filter_map(|&(c, d)| run.off.get(pot(c, d, false)))
                    .collect();
                if parents.is_empty() {
                    return;
                }
                let mut sorted = removals.to_vec();
                sorted.sort_by_key(|&(c, d)| (c, d.trailing_zeros()));
                for (c, ds) in sorted {
                    for d in digits_of(ds) {
                        out.push((pot(c, d, false), ids.clone()));
                    }
                }
            };
            match rule {
                0 => simple::locking(&self.cands, work, &mut add),
                1 => simple::hidden_pairs(&self.values, &self.cands, work, &mut add),
                2 => simple::naked_pairs(&self.values, &self.cands, work, &mut add),
                _ => simple::x_wings(&self.values, &self.cands, work, &mut add),
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }
}

/// The simple techniques "(+)" chains apply inside a run, on a bare candidate grid, each
/// reporting its removals and the removals it relied on (Explainer's "rule parents"): what the
/// original grid (`init`) had and the reduced one (`work`) lacks where the technique needed it.
pub(super) mod simple {
    use super::super::Combinations;
    use super::super::board::{
        Digits, HOUSE_CELLS, HOUSE_SET, Kind, PEER_SET, cells_of, digit_cells, house_positions,
    };

    type Add<'a> = &'a mut dyn FnMut(&[(usize, Digits)], &[(usize, u8)]);

    fn positions(work: &[Digits; 81], house: usize, digit: u8) -> u16 {
        let mut m = 0;
        for (j, &c) in HOUSE_CELLS[house].iter().enumerate() {
            m |= ((work[c as usize] >> digit) & 1) << j;
        }
        m
    }

    /// The cells of `set` that had `digit` in `init` and lost it in `work`.
    fn lost(init: &[Digits; 81], work: &[Digits; 81], set: u128, digit: u8) -> Vec<(usize, u8)> {
        cells_of(set)
            .filter(|&c| init[c] >> digit & 1 != 0 && work[c] >> digit & 1 == 0)
            .map(|c| (c, digit))
            .collect()
    }

    /// Pointing and claiming, then generalized intersections (Explainer's `Locking`).
    pub fn locking(init: &[Digits; 81], work: &[Digits; 81], add: Add) {
        const PAIRS: [(Kind, Kind); 4] = [
            (Kind::Block, Kind::Column),
            (Kind::Block, Kind::Row),
            (Kind::Column, Kind::Block),
            (Kind::Row, Kind::Block),
        ];
        let places = digit_cells(work);
        for (k1, k2) in PAIRS {
            for i1 in 0..9 {
                let h1 = k1.house(i1);
                for i2 in 0..9 {
                    let h2 = k2.house(i2);
                    if HOUSE_SET[h1] & HOUSE_SET[h2] == 0 {
                        continue;
                    }
                    for digit in 1..=9u8 {
                        let cells = places[digit as usize] & HOUSE_SET[h1];
                        if cells.count_ones() > 1 && cells & !HOUSE_SET[h2] == 0 {
                            let victims = places[digit as usize] & HOUSE_SET[h2] & !HOUSE_SET[h1];
                            if victims != 0 {
                                let removals: Vec<(usize, Digits)> =
                                    cells_of(victims).map(|c| (c, 1 << digit)).collect();
                                // the base house's places gone outside the cover house
                                let parents =
                                    lost(init, work, HOUSE_SET[h1] & !HOUSE_SET[h2], digit);
                                add(&removals, &parents);
                            }
                        }
                    }
                }
            }
        }
        for kind in [Kind::Block, Kind::Column, Kind::Row] {
            for i in 0..9 {
                let house = kind.house(i);
                for digit in 1..=9u8 {
                    let cells = places[digit as usize] & HOUSE_SET[house];
                    let n = cells.count_ones();
                    if !(2..8).contains(&n) {
                        continue;
                    }
                    let seen =
                        cells_of(cells).fold(!0u128, |s, c| s & PEER_SET[c]) & !HOUSE_SET[house];
                    let victims: Vec<(usize, Digits)> = cells_of(seen & places[digit as usize])
                        .map(|c| (c, 1 << digit))
                        .collect();
                    if !victims.is_empty() {
                        let parents = lost(init, work, HOUSE_SET[house], digit);
                        add(&victims, &parents);
                    }
                }
            }
        }
    }

    const KINDS: [Kind; 3] = [Kind::Block, Kind::Column, Kind::Row];

    /// Blank cells of a house (runs place no digit: the board's blanks).
    fn empty_count(values: &[u8; 81], house: usize) -> u32 {
        HOUSE_CELLS[house]
            .iter()
            .filter(|&&c| values[c as usize] == 0)
            .count() as u32
    }

    /// Hidden pairs.
    pub fn hidden_pairs(values: &[u8; 81], init: &[Digits; 81], work: &[Digits; 81], add: Add) {
        for kind in KINDS {
            for i in 0..9 {
                let house = kind.house(i);
                if empty_count(values, house) <= 4 {
                    continue;
                }
                let here: [u16; 10] = std::array::from_fn(|d| match d {
                    0 => 0,
                    _ => positions(work, house, d as u8),
                });
                for set in Combinations::new(2, 9) {
                    let digits: Digits = (set as Digits) << 1;
                    let mut union = 0u16;
                    let mut ok = true;
                    for j in super::super::bits(set) {
                        let p = here[j + 1];
                        ok &= p.count_ones() > 1;
                        union |= p;
                    }
                    if !ok || union.count_ones() != 2 {
                        continue;
                    }
                    let cells = &HOUSE_CELLS[house];
                    let removals: Vec<(usize, Digits)> = super::super::bits(union as u64)
                        .map(|j| cells[j] as usize)
                        .filter_map(|c| {
                            let d = work[c] & !digits;
                            (d != 0).then_some((c, d))
                        })
                        .collect();
                    if removals.is_empty() {
                        continue;
                    }
                    // the set's digits the other cells of the house had in the original grid
                    let mut parents = Vec::new();
                    for j in (0..9).filter(|&j| union >> j & 1 == 0) {
                        let c = cells[j] as usize;
                        for d in super::super::board::digits_of(digits) {
                            if init[c] >> d & 1 != 0 {
                                parents.push((c, d));
                            }
                        }
                    }
                    add(&removals, &parents);
                }
            }
        }
    }

    /// Naked pairs.
    pub fn naked_pairs(values: &[u8; 81], init: &[Digits; 81], work: &[Digits; 81], add: Add) {
        for kind in KINDS {
            for i in 0..9 {
                let house = kind.house(i);
                if empty_count(values, house) < 4 {
                    continue;
                }
                let cells = &HOUSE_CELLS[house];
                for set in Combinations::new(2, 9) {
                    let mut union: Digits = 0;
                    let mut ok = true;
                    for j in super::super::bits(set) {
                        let c = work[cells[j] as usize];
                        ok &= c.count_ones() > 1;
                        union |= c;
                    }
                    if !ok || union.count_ones() != 2 {
                        continue;
                    }
                    let removals: Vec<(usize, Digits)> = (0..9)
                        .filter(|&j| set >> j & 1 == 0)
                        .map(|j| cells[j] as usize)
                        .filter_map(|c| {
                            let d = work[c] & union;
                            (d != 0).then_some((c, d))
                        })
                        .collect();
                    if removals.is_empty() {
                        continue;
                    }
                    // the set cells' other candidates of the original grid
                    let mut parents = Vec::new();
                    for j in super::super::bits(set) {
                        let c = cells[j] as usize;
                        for d in super::super::board::digits_of(init[c] & !union) {
                            parents.push((c, d));
                        }
                    }
                    add(&removals, &parents);
                }
            }
        }
    }

    /// X-Wings.
    pub fn x_wings(values: &[u8; 81], init: &[Digits; 81], work: &[Digits; 81], add: Add) {
        // digits placed: the runs place none, so these are the board's
        let mut placed = [0u32; 10];
        for &v in values {
            placed[v as usize] += 1;
        }
        let table = house_positions(work);
        for (base, cover) in [(Kind::Column, Kind::Row), (Kind::Row, Kind::Column)] {
            for set in Combinations::new(2, 9) {
                for digit in 1..=9u8 {
                    if placed[digit as usize] + 4 > 9 {
                        continue;
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for i in super::super::bits(set) {
                        let p = table[base.house(i)][digit as usize];
                        ok &= p.count_ones() > 1;
                        union |= p;
                    }
                    if !ok || union.count_ones() != 2 {
                        continue;
                    }
                    let mut removals = Vec::new();
                    for i in super::super::bits(union as u64) {
                        let line = cover.house(i);
                        let outside = table[line][digit as usize] & !(set as u16);
                        for j in super::super::bits(outside as u64) {
                            removals.push((HOUSE_CELLS[line][j] as usize, 1 << digit));
                        }
                    }
                    if removals.is_empty() {
                        continue;
                    }
                    let mut parents = Vec::new();
                    let cover_set = super::super::bits(union as u64)
                        .fold(0u128, |s, i| s | HOUSE_SET[cover.house(i)]);
                    for i in super::super::bits(set) {
                        parents.extend(lost(
                            init,
                            work,
                            HOUSE_SET[base.house(i)] & !cover_set,
                            digit,
                        ));
                    }
                    add(&removals, &parents);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::board::HOUSE_CELLS;
    use crate::rate::tests::board;
    use crate::rate::{Next, next_hint};

    /// Calls `f` on every board along Explainer's path for `puzzle`.
    fn along_path(puzzle: &str, mut f: impl FnMut(&Board)) {
        let mut board = board(puzzle);
        while !board.is_solved() {
            f(&board);
            match next_hint(&board, None) {
                Next::Hint(h) => h.apply(&mut board),
                _ => panic!("a path to the solution"),
            }
        }
    }

    /// The bit-set test says a Nishio run meets a contradiction exactly when the run does, for
    /// every candidate on and off, on every board along the paths of three puzzles of 8.3 to 9.0.
    #[test]
    fn nishio_test_agrees_with_the_runs() {
        let (mut absurd, mut fine) = (0, 0);
        for puzzle in [
            "..............1..2.34....5........3.....62....5....47....7.....21......86..4.....",
            "........1.......2...3..4........5.......364..17..........8..3...56......2..1....8",
            "59..6......7.21.....13....82.6..9..4....4....9..1..7.63....79.....21.8......5..13",
        ] {
            along_path(puzzle, |board| {
                let mut engine = Engine::new(board, Mode::NISHIO);
                for cell in 0..81 {
                    for digit in digits_of(engine.cands[cell]) {
                        if board.value(cell) != 0 {
                            continue;
                        }
                        for on in [true, false] {
                            let mut run = Run::default();
                            let root = pot(cell, digit, on);
                            let by_run = engine.run(&mut run, &[root]).is_some();
                            let places = engine.grid.places[digit as usize];
                            assert_eq!(
                                nishio_absurd(places, cell, on),
                                by_run,
                                "{puzzle} {cell} {digit} {on}"
                            );
                            if by_run {
                                absurd += 1;
                            } else {
                                fine += 1;
                            }
                        }
                    }
                }
            });
        }
        assert!(
            absurd > 100 && fine > 100,
            "{absurd} contradictions, {fine} without"
        );
    }

    /// Static (multiple) forcing skips the runs of a cell or house when no potential follows
    /// from all its roots: wherever the runs do share a potential, the test must say so, and
    /// it must skip some (else it is no use).
    #[test]
    fn shared_reach_covers_what_runs_share() {
        let (mut shared, mut skipped) = (0, 0);
        for puzzle in [
            "..............1..2.34....5........3.....62....5....47....7.....21......86..4.....",
            "59..6......7.21.....13....82.6..9..4....4....9..1..7.63....79.....21.8......5..13",
        ] {
            along_path(puzzle, |board| {
                let mut engine = Engine::new(board, Mode::MULTIPLE);
                let mut sets: Vec<Vec<Pot>> = Vec::new();
                for cell in 0..81 {
                    let ds = engine.cands[cell];
                    if board.value(cell) == 0 && ds.count_ones() > 1 {
                        sets.push(digits_of(ds).map(|d| pot(cell, d, true)).collect());
                    }
                }
                for house in HOUSE_CELLS {
                    for digit in 1..=9u8 {
                        let roots: Vec<Pot> = house
                            .iter()
                            .filter(|&&c| engine.cands[c as usize] >> digit & 1 != 0)
                            .map(|&c| pot(c as usize, digit, true))
                            .collect();
                        if roots.len() > 1 {
                            sets.push(roots);
                        }
                    }
                }
                for roots in sets {
                    let runs: Vec<Run> = roots
                        .iter()
                        .map(|&r| {
                            let mut run = Run::default();
                            engine.run(&mut run, &[r]);
                            run
                        })
                        .collect();
                    let common = [true, false].into_iter().any(|on| {
                        side(&runs[0], on)
                            .order
                            .iter()
                            .any(|&q| runs.iter().all(|r| side(r, on).contains(q)))
                    });
                    let may = engine.may_share(roots.iter().copied());
                    assert!(may || !common, "{puzzle} {roots:?}");
                    shared += common as u32;
                    skipped += !may as u32;
                }
            });
        }
        assert!(
            shared > 10 && skipped > 100,
            "{shared} shared, {skipped} skipped"
        );
    }
}
