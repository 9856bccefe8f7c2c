//! Aligned exclusion: for two (6.2) or three (7.5) cells, try every combination of their
//! candidates; a combination is impossible when two cells that see each other get the same digit,
//! or when it would empty a cell that sees all of them (an "excluder", a cell of at most two or
//! three candidates). A candidate in no possible combination goes.
//!
//! Cells and excluders are listed and paired as Explainer does: base cells in cell order (only
//! cells whose peers include no cell left with one candidate), pairs in the order (0,1), (0,2),
//! (1,2), (0,3)...; for triplets the third cell comes from the excluders of the first two.

use std::ops::ControlFlow;

use super::board::{Board, Cells, Digits, PEER_SET, PEERS, cells_of, sees};
use super::hint::{Hint, Sink, Technique};

/// Aligned pair (`size` 2) or triplet (`size` 3) exclusions.
pub fn aligned_exclusion(board: &Board, size: usize, sink: Sink) -> ControlFlow<()> {
    let mut bases: Vec<u8> = Vec::new();
    let mut base_set: Cells = 0;
    // each base cell's excluders: peers of 2 to `size` candidates
    let mut excluders = [0 as Cells; 81];
    // cells left with one candidate, and cells of 2 to `size` candidates
    let (mut singles, mut small): (Cells, Cells) = (0, 0);
    for cell in 0..81 {
        let n = board.count(cell) as usize;
        singles |= ((n == 1) as Cells) << cell;
        small |= (((2..=size).contains(&n)) as Cells) << cell;
    }
    for cell in 0..81 {
        if board.count(cell) < 2 {
            continue;
        }
        let single = PEER_SET[cell] & singles != 0;
        let set = PEER_SET[cell] & small;
        if !single && set != 0 {
            bases.push(cell as u8);
            base_set |= 1 << cell;
            excluders[cell] = set;
        }
    }
    if bases.len() < size {
        return ControlFlow::Continue(());
    }
    // a set of cells that removed nothing is not looked at again while nothing it depends on
    // changes: within this call (a triplet is met from each of its pairs) and from step to step
    // (a hint ends the first-hint search; all hints are still sent in order)
    let mut barren = Barren::take(board, size);
    let flow = pairs_and_triplets(board, size, &bases, base_set, &excluders, &mut barren, sink);
    barren.give_back(size);
    flow
}

/// The pairs and triplets of base cells, in Explainer's order.
fn pairs_and_triplets(
    board: &Board,
    size: usize,
    bases: &[u8],
    base_set: Cells,
    excluders: &[Cells; 81],
    barren: &mut Barren,
    sink: Sink,
) -> ControlFlow<()> {
    for n2 in 1..bases.len() {
        for n1 in 0..n2 {
            let (a, b) = (bases[n1] as usize, bases[n2] as usize);
            let common = excluders[a] & excluders[b];
            if size == 2 {
                if two_or_more(common) && !barren.contains(a, b, b) {
                    match exclusion_hint(board, &[a, b], common) {
                        Some(hint) => sink(hint)?,
                        None => barren.insert(a, b, b),
                    }
                }
                continue;
            }
            if !two_or_more(common) {
                continue; // a third cell only narrows the common excluders
            }
            // the third cell: an excluder of either, in their peer order, that is itself a
            // base cell. Most pairs give no hint: their third cells are first tried as a set
            // (each triplet found barren is remembered), and the peer order is walked only for
            // a pair where some triplet gives one
            let thirds = (excluders[a] | excluders[b]) & base_set & !(1 << a | 1 << b);
            let mut fruitful = false;
            for t in cells_of(thirds) {
                let common3 = common & excluders[t];
                if two_or_more(common3) && !barren.contains(a, b, t) {
                    if exclusion_hint(board, &[a, b, t], common3).is_some() {
                        fruitful = true;
                        break;
                    }
                    barren.insert(a, b, t);
                }
            }
            if !fruitful {
                continue;
            }
            let mut seen: Cells = 1 << a | 1 << b;
            let from = |x: usize| PEERS[x].iter().map(move |&t| (x, t as usize));
            for (x, t) in from(a).chain(from(b)) {
                let twin = excluders[x] >> t & 1 != 0 && base_set >> t & 1 != 0;
                if !twin || seen >> t & 1 != 0 {
                    continue;
                }
                seen |= 1 << t;
                let common3 = common & excluders[t];
                if two_or_more(common3) && !barren.contains(a, b, t) {
                    match exclusion_hint(board, &[a, b, t], common3) {
                        Some(hint) => sink(hint)?,
                        None => barren.insert(a, b, t),
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// True when two of the three `cells` hold the same two digits and see each other and the
/// third sees both and holds one of those digits: the only way a clash of digits alone can leave
/// a candidate of one cell in no combination (the other two cells, of two candidates or more,
/// can otherwise always take digits that neither clash with it nor with each other).
fn pinned(board: &Board, cells: &[usize]) -> bool {
    (0..3).any(|i| {
        let (j, k) = (cells[(i + 1) % 3], cells[(i + 2) % 3]);
        let pair = board.cands(j);
        pair == board.cands(k)
            && board.count(j) == 2
            && sees(j, k)
            && sees(cells[i], j)
            && sees(cells[i], k)
            && board.cands(cells[i]) & pair != 0
    })
}

/// True when `set` has two cells or more.
#[inline]
fn two_or_more(set: Cells) -> bool {
    set & set.wrapping_sub(1) != 0
}

/// Pairs (`b` given twice) or triplets of cells, in any order, found to remove nothing: bits
/// over every triplet (66 KB), with the cells each answer depends on. Kept per thread and per
/// size from call to call with the candidates it was made on: a call forgets the sets whose
/// cells changed since and keeps the rest, so a step looks again only at what its last step's
/// hint could have changed.
#[derive(Default)]
struct Barren {
    bits: Vec<u64>,
    /// Each set's bit, and the cells it depends on: its own and the peers they all share (the
    /// only cells that can be their common excluders).
    sets: Vec<(u32, Cells)>,
    /// The candidates of the call that left the sets.
    cands: Vec<Digits>,
}

thread_local! {
    static BARREN: std::cell::Cell<[Barren; 2]> = std::cell::Cell::new(Default::default());
}

impl Barren {
    /// The thread's sets of `size` cells, those whose cells `board` has changed forgotten.
    fn take(board: &Board, size: usize) -> Barren {
        let mut all = BARREN.take();
        let mut b = std::mem::take(&mut all[size & 1]);
        BARREN.set(all);
        b.bits.resize(81 * 81 * 81 / 64 + 1, 0);
        let mut changed: Cells = 0;
        for c in 0..81 {
            if b.cands.get(c) != Some(&board.cands(c)) {
                changed |= 1 << c;
            }
        }
        let bits = &mut b.bits;
        b.sets.retain(|&(i, cells)| {
            let keep = cells & changed == 0;
            if !keep {
                bits[i as usize / 64] &= !(1 << (i % 64));
            }
            keep
        });
        b.cands.clear();
        b.cands.extend((0..81).map(|c| board.cands(c)));
        b
    }

    /// Leaves the sets to the thread's next call of the same size.
    fn give_back(self, size: usize) {
        let mut all = BARREN.take();
        all[size & 1] = self;
        BARREN.set(all);
    }

    fn index(a: usize, b: usize, t: usize) -> usize {
        let mut v = [a, b, t];
        v.sort_unstable();
        (v[0] * 81 + v[1]) * 81 + v[2]
    }

    fn insert(&mut self, a: usize, b: usize, t: usize) {
        let i = Self::index(a, b, t);
        if self.bits[i / 64] >> (i % 64) & 1 == 0 {
            let cells = 1 << a | 1 << b | 1 << t | PEER_SET[a] & PEER_SET[b] & PEER_SET[t];
            self.sets.push((i as u32, cells));
        }
        self.bits[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, a: usize, b: usize, t: usize) -> bool {
        let i = Self::index(a, b, t);
        self.bits[i / 64] >> (i % 64) & 1 != 0
    }
}

/// The digits a last cell may take beside the digits `used` of the others (`0` when those
/// already hold every candidate of an excluder): not one that would complete an excluder's
/// candidates (a combination is barred when it holds every candidate of an excluder, which
/// would have none left).
#[inline]
fn completing(used: Digits, excluders: &[Digits]) -> Digits {
    let mut barred: Digits = 0;
    for &e in excluders {
        let rest = e & !used;
        if rest == 0 {
            return 0;
        }
        if rest & (rest - 1) == 0 {
            barred |= rest;
        }
    }
    !barred
}

fn exclusion_hint(board: &Board, cells: &[usize], excluders: Cells) -> Option<Hint> {
    let n = cells.len();
    // an excluder can only forbid a combination when its candidates lie among the cells'; and
    // without one, clashes alone remove a candidate only where two of the cells hold the same
    // two digits, see each other and are both seen by the third (shown in `pinned`)
    let union = cells.iter().fold(0, |u, &c| u | board.cands(c));
    let fires = cells_of(excluders).any(|e| board.cands(e) & !union == 0);
    if !(fires || n == 3 && pinned(board, cells)) {
        return None;
    }
    let mut excl = [0 as Digits; 20];
    let mut n_excl = 0;
    for e in cells_of(excluders) {
        excl[n_excl] = board.cands(e);
        n_excl += 1;
    }
    let excl = &excl[..n_excl];
    let cand = |i: usize| board.cands(cells[i]);
    // a digit of a cell that sees cell i, which holds `d`, cannot be `d`
    let unless_seen = |i: usize, j: usize, d: u8| {
        if sees(cells[i], cells[j]) {
            !(1 << d)
        } else {
            !0
        }
    };
    // The digits each cell takes in some allowed combination. With the other cells' digits
    // fixed, the last cell's allowed digits come at once as a mask: every digit that sees no
    // clash and completes no excluder's candidates; so pairs cost one mask per digit of the
    // first cell and triplets one per pair of digits of the first two.
    let mut allowed = [0 as Digits; 3];
    for d0 in super::board::digits_of(cand(0)) {
        if n == 2 {
            let m = cand(1) & unless_seen(0, 1, d0) & completing(1 << d0, excl);
            if m != 0 {
                allowed[0] |= 1 << d0;
                allowed[1] |= m;
            }
            continue;
        }
        for d1 in super::board::digits_of(cand(1) & unless_seen(0, 1, d0)) {
            let m = cand(2)
                & unless_seen(0, 2, d0)
                & unless_seen(1, 2, d1)
                & completing(1 << d0 | 1 << d1, excl);
            if m != 0 {
                allowed[0] |= 1 << d0;
                allowed[1] |= 1 << d1;
                allowed[2] |= m;
            }
        }
    }
    let eliminations: Vec<(u8, Digits)> = (0..n)
        .filter_map(|i| {
            let gone = board.cands(cells[i]) & !allowed[i];
            (gone != 0).then_some((cells[i] as u8, gone))
        })
        .collect();
    (!eliminations.is_empty()).then(|| {
        Hint::eliminate(
            Technique::AlignedExclusion(n as u8),
            if n == 2 { 6.2 } else { 7.5 },
            eliminations,
        )
    })
}
