//! Repeated puzzles in a stream of records, found in input order: exact repeats by a digest of
//! the cells, isomorphic ones by an invariant and, only where invariants meet, canonical forms.
//! The tables are split in shards by the keys' top bits, so that growing one never holds two
//! copies of the whole table at once.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hasher};

use crate::grid::Grid;
use crate::input::Record;
use crate::pipeline;

/// Which puzzles count as the same for [`Duplicates`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DuplicateMode {
    /// Equal cells (blanks compared as blanks, whatever character was read).
    #[default]
    Exact,
    /// Isomorphic: the same puzzle up to relabelling the digits, moving rows, columns, bands and
    /// stacks, and transposing; told by equal canonical forms ([`crate::canon::pattern_minlex`],
    /// which tells the same puzzles apart as the minlex forms of `canon` do, at about half their
    /// cost), computed only for puzzles whose [`crate::canon::invariant`] an earlier puzzle had.
    Isomorphic,
}

impl DuplicateMode {
    /// The word of `--duplicates` for this mode: `exact`, `iso`.
    pub fn word(self) -> &'static str {
        match self {
            DuplicateMode::Exact => "exact",
            DuplicateMode::Isomorphic => "iso",
        }
    }
}

/// Finds repeated puzzles, in input order (feed it every record, in order, before checking).
///
/// Exact mode files each distinct puzzle under a digest of its cells. Isomorphic mode files a
/// puzzle under its [`crate::canon::invariant`], cheap to compute, and keeps the first puzzle with
/// each invariant packed (two cells a byte). A later puzzle with the same invariant and the same
/// cells repeats it; only one with other cells needs the canonical forms of both, and the class
/// is then filed under the form's digest like an exact puzzle. A puzzle whose invariant is new
/// cannot repeat an earlier one, and most are new (BENCHMARKS.md has the shares per corpus).
///
/// Memory: exact mode keeps one entry per distinct puzzle, a 16-byte digest and a 16-byte place
/// (input, line, and 32 bits of the first puzzle's own digest) in a hash table kept between 7/16
/// and 7/8 full with one control byte a slot: 38 to 75 bytes per distinct puzzle, about 56 on
/// average. Isomorphic mode keeps one 64-byte slot per distinct invariant (the invariant, the
/// place and the packed puzzle): 74 to 148 bytes, about 100 on average, plus an exact-mode entry
/// per class whose form was needed. Each table is [`Sharded`], so its growth never holds two
/// copies of the whole at once. The digest is XXH3-128 of the 81 cells ([`digest`]), or in
/// isomorphic mode of the canonical form: two different puzzles (classes) share one with a chance
/// of about n²/2¹²⁹ among n, so a false duplicate is out of reach in practice. In isomorphic mode,
/// a record whose cells' 32 bits equal its class's first record's is said to be the same puzzle,
/// else isomorphic to it: the wording, never the verdict, is wrong for one isomorphic record in
/// about 4 billion.
#[derive(Debug, Default)]
pub struct Duplicates {
    names: Vec<String>,
    mode: DuplicateMode,
    /// By digest of the cells (exact mode) or of the canonical form (isomorphic mode: only the
    /// classes whose form was needed).
    first: Sharded<u128, Place>,
    /// Records beyond the first of each class that repeats, by the class's digest, or in
    /// isomorphic mode while the first's form is not known by the digest of the first's cells
    /// (moved to the form's once it is: a record's own digest, known before any look-up, so the
    /// count's memory access does not wait for the table's); only those classes: memory grows
    /// with the duplicates, not the puzzles.
    repeats: Sharded<u128, u64>,
    /// Isomorphic mode: by invariant, the first puzzle that had it.
    unformed: Sharded<u64, Unformed>,
    /// Isomorphic mode: the entries of `unformed` still packed (classes not in `first`).
    packed: usize,
    /// Isomorphic mode: a batch's working space, kept between batches.
    scratch: Scratch,
}

/// Where a record is: input index and 1-based line, and the low bits of its cells' digest.
#[derive(Debug, Clone, Copy)]
struct Place {
    source: u32,
    cells: u32,
    line: u64,
}

/// The first puzzle with an invariant, packed two cells a byte (81 cells, the last in the low
/// half of the last byte): a later record with the same cells is its repeat, no form needed; one
/// with other cells needs its form, and this puzzle's, computed once.
#[derive(Debug)]
struct Unformed {
    source: u32,
    line: u64,
    cells: [u8; 41],
    /// Its form is filed in [`Duplicates::first`].
    formed: bool,
}

// the documented 64-byte slot: the 8-byte invariant and this
const _: () = assert!(std::mem::size_of::<Unformed>() == 56);

/// `puzzle`'s cells, two a byte.
fn pack(puzzle: &Grid) -> [u8; 41] {
    let values = puzzle.cells();
    std::array::from_fn(|k| values[2 * k] | values.get(2 * k + 1).map_or(0, |&v| v << 4))
}

impl Unformed {
    fn new(record: &Record, puzzle: &Grid) -> Unformed {
        Unformed {
            source: record.source,
            line: record.line,
            cells: pack(puzzle),
            formed: false,
        }
    }

    /// The puzzle, its place and its cells' digest, the first time only: the caller computes its
    /// form and files it.
    fn take(&mut self) -> Option<(Grid, Place, u128)> {
        if self.formed {
            return None;
        }
        let grid = Grid::from_values(std::array::from_fn(|i| {
            (self.cells[i / 2] >> (4 * (i % 2))) & 0xf
        }))?;
        self.formed = true;
        let cells = digest(&grid);
        let place = Place {
            source: self.source,
            cells: cells as u32,
            line: self.line,
        };
        Some((grid, place, cells))
    }
}

/// Isomorphic mode's per-batch vectors, reused.
#[derive(Debug, Default)]
struct Scratch {
    /// Per record: its invariant and its cells' digest (`None`: malformed).
    keys: Vec<Option<(u64, u128)>>,
    /// Records (indices) whose invariant an earlier record had: they need their forms.
    waiting: Vec<usize>,
    /// Their forms' digests.
    forms: Vec<u128>,
    /// The first puzzles of invariants met again in this batch, with their places and digests.
    unpacked: Vec<(Grid, Place, u128)>,
    /// Their forms' digests.
    unpacked_forms: Vec<u128>,
}

impl Duplicates {
    /// A tracker of exact repeats for inputs named `names` (indexed by [`Record::source`]), used
    /// in messages.
    pub fn new(names: Vec<String>) -> Duplicates {
        Duplicates::with_mode(names, DuplicateMode::Exact)
    }

    /// A tracker that counts puzzles as the same in `mode`.
    pub fn with_mode(names: Vec<String>, mode: DuplicateMode) -> Duplicates {
        Duplicates {
            names,
            mode,
            ..Duplicates::default()
        }
    }

    /// The mode the tracker counts puzzles as the same in.
    pub fn mode(&self) -> DuplicateMode {
        self.mode
    }

    /// For a record whose puzzle was seen before: the verdict's detail, naming the first as
    /// `line 12` (same input) or `FILE:12` (another input): `same puzzle as line 12`, or in
    /// isomorphic mode `isomorphic to line 12` when the cells differ. Otherwise notes this record
    /// as the first and returns `None`. A malformed record is never a duplicate and is not noted.
    pub fn first_seen(&mut self, record: &Record) -> Option<String> {
        let mut details = Vec::with_capacity(1);
        self.first_seen_all(std::slice::from_ref(record), &mut details);
        details.pop().flatten()
    }

    /// [`Duplicates::first_seen`] of each of `records`, in order, appended to `details`. In
    /// isomorphic mode the invariants and forms are computed in parallel, on the rayon pool the
    /// caller runs in (`ThreadPool::install`), and only the look-ups in order.
    pub fn first_seen_all(&mut self, records: &[Record], details: &mut Vec<Option<String>>) {
        match self.mode {
            DuplicateMode::Exact => {
                for record in records {
                    let detail = record.puzzle.as_ref().ok().and_then(|puzzle| {
                        let cells = digest(puzzle);
                        self.note(record, cells, cells as u32)
                    });
                    details.push(detail);
                }
            }
            DuplicateMode::Isomorphic => self.first_seen_isomorphic(records, details),
        }
    }

    fn first_seen_isomorphic(&mut self, records: &[Record], details: &mut Vec<Option<String>>) {
        let start = details.len();
        let mut s = std::mem::take(&mut self.scratch);
        pipeline::map_into(records, &mut s.keys, |record| {
            let puzzle = record.puzzle.as_ref().ok()?;
            Some((crate::canon::invariant(puzzle), digest(puzzle)))
        });
        // in order: a record whose invariant is new is the first of its class (isomorphic puzzles
        // share invariants); any other waits for its form, and so does the first puzzle with its
        // invariant if still packed
        s.waiting.clear();
        s.unpacked.clear();
        for (i, (record, key)) in records.iter().zip(&s.keys).enumerate() {
            details.push(None);
            let (Some((invariant, cells)), Ok(puzzle)) = (key, &record.puzzle) else {
                continue;
            };
            match self.unformed.entry(*invariant) {
                Entry::Vacant(slot) => {
                    slot.insert(Unformed::new(record, puzzle));
                    self.packed += 1;
                }
                Entry::Occupied(mut slot) => {
                    let first = slot.get();
                    if !first.formed && first.cells == pack(puzzle) {
                        // the same cells as the first with this invariant, so the first of
                        // their class too: no form needed while the class has no other member
                        let first = Place {
                            source: first.source,
                            cells: 0,
                            line: first.line,
                        };
                        let detail = self.repeat(first, record, "same puzzle as", *cells);
                        details[start + i] = Some(detail);
                        continue;
                    }
                    if let Some(first) = slot.get_mut().take() {
                        s.unpacked.push(first);
                        self.packed -= 1;
                    }
                    s.waiting.push(i);
                }
            }
        }
        let form = |puzzle: &Grid| digest(&crate::canon::pattern_minlex(puzzle));
        pipeline::map_into(&s.unpacked, &mut s.unpacked_forms, |(grid, ..)| form(grid));
        pipeline::map_into(&s.waiting, &mut s.forms, |&i| {
            records[i].puzzle.as_ref().map_or(0, form)
        });
        // each unpacked puzzle is the first of its class: its class's other records have its
        // invariant, so they came after it
        for ((_, place, cells), &class) in s.unpacked.iter().zip(&s.unpacked_forms) {
            self.first.entry(class).or_insert(*place);
            if let Some(repeats) = self.repeats.remove(cells) {
                *self.repeats.entry(class).or_insert(0) += repeats;
            }
        }
        for (&i, &class) in s.waiting.iter().zip(&s.forms) {
            let cells = s.keys[i].map_or(0, |(_, cells)| cells as u32);
            details[start + i] = self.note(&records[i], class, cells);
        }
        self.scratch = s;
    }

    /// Files `record` under `class` (its cells' digest's low bits `cells`): its detail if the
    /// class was seen before, else `None`, and the record is the class's first.
    fn note(&mut self, record: &Record, class: u128, cells: u32) -> Option<String> {
        let here = Place {
            source: record.source,
            cells,
            line: record.line,
        };
        let first = *self.first.entry(class).or_insert(here);
        if first.source == here.source && first.line == here.line {
            return None;
        }
        let relation = if first.cells == here.cells {
            "same puzzle as"
        } else {
            "isomorphic to"
        };
        Some(self.repeat(first, record, relation, class))
    }

    /// Counts `record` as a repeat of the class filed in `repeats` under `key`, whose first record
    /// is at `first`, and gives its detail: `relation` (`same puzzle as`, `isomorphic to`) and
    /// where the first is.
    fn repeat(&mut self, first: Place, record: &Record, relation: &str, key: u128) -> String {
        *self.repeats.entry(key).or_insert(0) += 1;
        if first.source == record.source {
            format!("{relation} line {}", first.line)
        } else {
            let name = self
                .names
                .get(first.source as usize)
                .map_or("<unknown input>", String::as_str);
            format!("{relation} {name}:{}", first.line)
        }
    }

    /// For each size of a class of repeated puzzles (2 or more records), how many classes.
    pub fn class_sizes(&self) -> BTreeMap<u64, u64> {
        let mut sizes = BTreeMap::new();
        for &extra in self.repeats.values() {
            *sizes.entry(extra + 1).or_insert(0) += 1;
        }
        sizes
    }

    /// Distinct puzzles (classes) seen.
    pub fn len(&self) -> usize {
        self.first.len() + self.packed
    }

    /// True when no puzzle has been seen.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A 128-bit digest of a puzzle's cells: XXH3-128 (default seed, so runs agree), a hash that
/// passes SMHasher's tests of distribution, at about a tenth of the instructions of the two
/// SipHash values it replaced (callgrind; figures in BENCHMARKS.md).
pub(super) fn digest(puzzle: &Grid) -> u128 {
    xxhash_rust::xxh3::xxh3_128(puzzle.cells())
}

/// The hasher of the duplicate table (and of `generate`'s classes): its keys are digests
/// already, so it takes their low 64 bits instead of hashing them again.
#[derive(Debug, Default)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // only u128 and u64 keys are hashed; any other input is still folded in, never ignored
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Shards of a table: [`SHARDS`] hash maps, a key's shard told by its top bits (its low bits
/// place it within the shard, see [`Prehashed`]). A hash map grows by moving into one twice its
/// size, so at that moment it is held twice over (1.5 times its final size): one table of all
/// the distinct puzzles doubled the peak memory of `--duplicates` at the worst moment (measured:
/// about 98 bytes a distinct puzzle at the peak against 63 held). A shard grows alone, so the
/// peak is the tables' size plus one shard's.
#[derive(Debug)]
struct Sharded<K, V> {
    shards: Vec<HashMap<K, V, BuildHasherDefault<Prehashed>>>,
}

/// Shards of a [`Sharded`] table: enough that one is a small part of the whole, few enough that
/// a small run's empty shards cost nothing (an empty hash map holds no memory).
const SHARDS: usize = 64;

/// A key that is a digest already: its top bits choose its shard.
trait ShardKey: std::hash::Hash + Eq + Copy {
    fn shard(self) -> usize;
}

impl ShardKey for u128 {
    fn shard(self) -> usize {
        (self >> 122) as usize
    }
}

impl ShardKey for u64 {
    fn shard(self) -> usize {
        (self >> 58) as usize
    }
}

// the shard index is the key's top log2(SHARDS) bits
const _: () = assert!(SHARDS == 1 << 6);

impl<K, V> Default for Sharded<K, V> {
    fn default() -> Self {
        Sharded {
            shards: (0..SHARDS).map(|_| HashMap::default()).collect(),
        }
    }
}

impl<K: ShardKey, V> Sharded<K, V> {
    fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        self.shards[key.shard()].entry(key)
    }

    fn remove(&mut self, key: &K) -> Option<V> {
        self.shards[key.shard()].remove(key)
    }

    fn values(&self) -> impl Iterator<Item = &V> {
        self.shards.iter().flat_map(HashMap::values)
    }

    fn len(&self) -> usize {
        self.shards.iter().map(HashMap::len).sum()
    }
}
