//! The row-by-row minlex search for grids with a digit repeated in a row or a column (a puzzle
//! with contradictory givens).
//!
//! [`super::smallest`] finds a class's smallest row by sorting tied columns with every digit not
//! yet labelled read as one placeholder, which is exact only when each such digit takes a fresh
//! label wherever it lands. Where a digit repeats in a row, its second cell reads the label its
//! first took, and the order of tied columns changes the row in ways a sort cannot see. Here a
//! row is built exactly instead:
//!
//! - A row is built a slot (a stack position) at a time, left to right, labelling digits as they
//!   are met. At each slot, every stack the class lets stand there (one of its tied run not yet
//!   placed) is tried in every order of its tied columns that reads a different sequence of
//!   digits; a row whose first slots already read more than the smallest row found at this level
//!   is dropped there.
//! - A whole row equal to the smallest keeps its state: columns stay tied where they were tied
//!   and read the same digit; stacks likewise where they read the same three. Tied columns (and
//!   stacks) are then put in one fixed order, so states that differ only in the order of things
//!   that read the same are the same state.
//! - After each level, states whose rows to come read the same (row for row, up to the order the
//!   search may still choose: rows inside the band being built, bands not used) with the same
//!   ties and labels give the same rows from here on, and only one of them is kept. A grid with
//!   many symmetries (81 equal digits) keeps one state a level instead of millions.
//!
//! Every state kept at the end gives the minlex form; [`super::canonical_by_search`], which tries
//! every placement, is the reference the tests compare with.

use super::{Line, Lines, NEW, PERMS3, State, with_state_lists};

/// A complete state of the search for `lines` (any grid; [`super::canonical`] sends here only the
/// grids with repeated digits).
pub(super) fn smallest(lines: &Lines) -> State {
    with_state_lists(|states, next| {
        for level in 0..9 {
            next.clear();
            let mut build = Build {
                line: &lines.grid[0][0],
                before: &states[0],
                best: [u8::MAX; 9],
                out: next,
            };
            for state in states.iter() {
                let orient = usize::from(state.class.orient);
                let mut allowed = state.class.rows_allowed(level);
                while allowed != 0 {
                    let row = allowed.trailing_zeros() as usize;
                    allowed &= allowed - 1;
                    let mut start = *state;
                    start.class.rows[level] = row as u8;
                    start.class.used |= 1 << row;
                    build.line = &lines.grid[orient][row];
                    build.before = state;
                    build.slot(&start, 0, 0, &[0; 9]);
                }
            }
            if next.len() > 1 {
                merge(next, &lines.grid, level);
            }
            std::mem::swap(states, next);
        }
        states[0]
    })
}

/// The rows of one level being built, over every (state, source row) pair.
struct Build<'a> {
    /// The source row being read.
    line: &'a Line,
    /// The state the row is built in, as it was before the row.
    before: &'a State,
    /// The smallest row found at this level.
    best: Line,
    /// The states that give `best`.
    out: &'a mut Vec<State>,
}

impl Build<'_> {
    /// Builds slots `s..` of the row in `cur` (slots before `s` built, reading `values`, from the
    /// source slots in `taken`).
    fn slot(&mut self, cur: &State, s: usize, taken: u8, values: &Line) {
        if s == 3 {
            self.leaf(cur, values);
            return;
        }
        let stack_ties = self.before.class.stack_ties;
        // the source slots of the tied run slot s belongs to
        let (mut lo, mut hi) = (s, s);
        while lo > 0 && stack_ties & (1 << (lo - 1)) != 0 {
            lo -= 1;
        }
        while hi < 2 && stack_ties & (1 << hi) != 0 {
            hi += 1;
        }
        for from in (lo..=hi).filter(|&f| taken & (1 << f) == 0) {
            let cols: [u8; 3] = std::array::from_fn(|i| self.before.class.cols[from * 3 + i]);
            let ties = (self.before.class.ties >> (from * 3)) & 0b11;
            let mut seen: [[u8; 3]; 6] = [[u8::MAX; 3]; 6];
            for (k, perm) in PERMS3.iter().enumerate() {
                // only tied columns trade places
                let moves = match ties {
                    0 => *perm == [0, 1, 2],
                    0b01 => perm[2] == 2,
                    0b10 => perm[0] == 0,
                    _ => true,
                };
                let order = perm.map(|p| cols[usize::from(p)]);
                let digits = order.map(|c| self.line[usize::from(c)]);
                if !moves || seen[..k].contains(&digits) {
                    continue;
                }
                seen[k] = digits;
                let mut next = *cur;
                let mut read = *values;
                for (i, &d) in digits.iter().enumerate() {
                    let d = usize::from(d);
                    if next.labels[d] == NEW {
                        next.labels[d] = next.next;
                        next.next += 1;
                    }
                    read[s * 3 + i] = next.labels[d];
                }
                let end = s * 3 + 3;
                if read[..end] > self.best[..end] {
                    continue;
                }
                next.class.cols[s * 3..end].copy_from_slice(&order);
                let same =
                    u16::from(digits[0] == digits[1]) | (u16::from(digits[1] == digits[2]) << 1);
                next.class.ties =
                    (next.class.ties & !(0b11 << (s * 3))) | ((ties & same) << (s * 3));
                self.slot(&next, s + 1, taken | (1 << from), &read);
            }
        }
    }

    /// A whole row built in `cur`, reading `values`: its state is kept when the row is the
    /// smallest so far, with its ties and a fixed order of what is tied.
    fn leaf(&mut self, cur: &State, values: &Line) {
        if *values > self.best {
            return;
        }
        if *values < self.best {
            self.best = *values;
            self.out.clear();
        }
        let mut st = *cur;
        let digits = st.class.cols.map(|c| self.line[usize::from(c)]);
        st.class.stack_ties = 0;
        for s in 0..2 {
            let tied = self.before.class.stack_ties & (1 << s) != 0;
            if tied && digits[s * 3..s * 3 + 3] == digits[s * 3 + 3..s * 3 + 6] {
                st.class.stack_ties |= 1 << s;
            }
        }
        // tied columns in ascending order (any order of them reads the same), then tied stacks
        // by their first column (their ties are the same, as they read the same in every row)
        for s in 0..3 {
            for _ in 0..2 {
                for p in s * 3..s * 3 + 2 {
                    if st.class.ties & (1 << p) != 0 && st.class.cols[p] > st.class.cols[p + 1] {
                        st.class.cols.swap(p, p + 1);
                    }
                }
            }
        }
        for _ in 0..2 {
            for s in 0..2 {
                if st.class.stack_ties & (1 << s) != 0
                    && st.class.cols[s * 3] > st.class.cols[s * 3 + 3]
                {
                    for i in 0..3 {
                        st.class.cols.swap(s * 3 + i, s * 3 + 3 + i);
                    }
                }
            }
        }
        self.out.push(st);
    }
}

/// Bytes of a [`merge`] key: stack ties, column ties (two bytes), the next label, and up to eight
/// rows to come of nine values.
const KEY: usize = 4 + 8 * 9;

/// Keeps one of each set of `states` (all built to row `level`, all giving the same rows) whose
/// rows to come read the same: the same ties, the same next label, and the same rows left, read
/// in the state's column order (a labelled digit as its label, a digit not labelled yet as
/// itself), as a set of rows of the band being built and a set of sets of rows of the bands not
/// used. The search treats two such states alike from here on, so they give the same grids.
fn merge(states: &mut Vec<State>, grids: &[[Line; 9]; 2], level: usize) {
    let mut keys: Vec<([u8; KEY], u32)> = Vec::with_capacity(states.len());
    for (i, st) in states.iter().enumerate() {
        let grid = &grids[usize::from(st.class.orient)];
        let read = |row: usize| -> Line {
            std::array::from_fn(|j| {
                let d = grid[row][usize::from(st.class.cols[j])];
                match st.labels[usize::from(d)] {
                    NEW => 16 + d,
                    label => label,
                }
            })
        };
        // rows left, by band; the band being built (when a band is part built) first
        let mut bands = [[[u8::MAX; 9]; 3]; 3];
        let current = (level % 3 != 2).then(|| usize::from(st.class.rows[level]) / 3);
        for row in (0..9).filter(|&r| st.class.used & (1 << r) == 0) {
            bands[row / 3][row % 3] = read(row);
        }
        for band in &mut bands {
            band.sort_unstable();
        }
        let mut order = [0, 1, 2];
        order.sort_by_key(|&b| (Some(b) != current, bands[b]));
        let mut key = [u8::MAX; KEY];
        key[0] = st.class.stack_ties;
        key[1..3].copy_from_slice(&st.class.ties.to_le_bytes());
        key[3] = st.next;
        let rows = order
            .iter()
            .flat_map(|&b| bands[b].iter())
            .filter(|line| line[0] != u8::MAX);
        for (k, line) in rows.enumerate() {
            key[4 + k * 9..4 + k * 9 + 9].copy_from_slice(line);
        }
        keys.push((key, i as u32));
    }
    keys.sort_unstable();
    keys.dedup_by(|a, b| a.0 == b.0);
    if keys.len() == states.len() {
        return;
    }
    let mut keep: Vec<u32> = keys.iter().map(|k| k.1).collect();
    keep.sort_unstable();
    for (to, &from) in keep.iter().enumerate() {
        states[to] = states[from as usize];
    }
    states.truncate(keep.len());
}
