//! `generate` through the real binary: a pinned stream, every record checked by a plain counting
//! solver written here (it shares nothing with the project's solver), isomorphism told apart by
//! invariants computed here, the same bytes for any -j and batch size, --start as a slice of the
//! whole stream, each option's promise on every record, the limit for targets no puzzle meets,
//! and the output layer's rules (formats, files, signals).

use std::collections::HashMap;
use std::process::Stdio;
use std::time::Duration;

use crate::{Workdir, bin, command, golden, jsonl, output_fed, read_all, stdout_ok};

// ---------------------------------------------------------------------------------------------
// An independent checker: a plain counting solver (bit masks, fewest candidates first).

/// Cells of a puzzle, 0 for a blank.
type Cells = [u8; 81];

fn cells(text: &str) -> Cells {
    assert_eq!(text.len(), 81, "{text:?}");
    let mut c = [0u8; 81];
    for (i, ch) in text.bytes().enumerate() {
        c[i] = match ch {
            b'1'..=b'9' => ch - b'0',
            b'.' | b'0' => 0,
            _ => panic!("{text:?}: bad cell {ch}"),
        };
    }
    c
}

fn box_of(i: usize) -> usize {
    (i / 27) * 3 + (i % 9) / 3
}

/// Solutions of `c`, counted up to `limit` (0 when two givens clash).
fn count_solutions(c: &Cells, limit: u32) -> u32 {
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let grid = *c;
    for (i, &v) in grid.iter().enumerate() {
        if v != 0 {
            let bit = 1u16 << v;
            let (r, k, b) = (i / 9, i % 9, box_of(i));
            if (rows[r] | cols[k] | boxes[b]) & bit != 0 {
                return 0;
            }
            rows[r] |= bit;
            cols[k] |= bit;
            boxes[b] |= bit;
        }
    }
    fn go(
        grid: &mut Cells,
        rows: &mut [u16; 9],
        cols: &mut [u16; 9],
        boxes: &mut [u16; 9],
        limit: u32,
    ) -> u32 {
        // the blank cell with the fewest candidates
        let mut best = None;
        let mut best_n = 10;
        for i in 0..81 {
            if grid[i] == 0 {
                let free = !(rows[i / 9] | cols[i % 9] | boxes[box_of(i)]) & 0x3FE;
                let n = free.count_ones();
                if n < best_n {
                    best_n = n;
                    best = Some((i, free));
                    if n <= 1 {
                        break;
                    }
                }
            }
        }
        let Some((i, mut free)) = best else {
            return 1;
        };
        let mut found = 0;
        while free != 0 && found < limit {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            let (r, k, b) = (i / 9, i % 9, box_of(i));
            grid[i] = bit.trailing_zeros() as u8;
            rows[r] |= bit;
            cols[k] |= bit;
            boxes[b] |= bit;
            found += go(grid, rows, cols, boxes, limit - found);
            rows[r] &= !bit;
            cols[k] &= !bit;
            boxes[b] &= !bit;
            grid[i] = 0;
        }
        found
    }
    let mut grid = grid;
    go(&mut grid, &mut rows, &mut cols, &mut boxes, limit)
}

/// True when `solution` is a complete valid grid that agrees with every given of `puzzle`.
fn solves(puzzle: &Cells, solution: &Cells) -> bool {
    solution.iter().all(|&v| v != 0)
        && count_solutions(solution, 2) == 1
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
}

/// Asserts one solution, and (unless `minimal` is false) that no given can go.
/// Asserts that `puzzle` has one solution, and is minimal (`minimal`) or has a given to spare
/// (`--no-minimal`).
fn assert_unique_and_minimal(puzzle: &Cells, minimal: bool) {
    assert_eq!(count_solutions(puzzle, 2), 1, "{}", line(puzzle));
    if !minimal {
        let spare = (0..81).filter(|&i| puzzle[i] != 0).any(|i| {
            let mut fewer = *puzzle;
            fewer[i] = 0;
            count_solutions(&fewer, 2) == 1
        });
        assert!(spare, "{}: minimal, under --no-minimal", line(puzzle));
        return;
    }
    for i in (0..81).filter(|&i| puzzle[i] != 0) {
        let mut fewer = *puzzle;
        fewer[i] = 0;
        assert_eq!(
            count_solutions(&fewer, 2),
            2,
            "{}: the given at r{}c{} can go",
            line(puzzle),
            i / 9 + 1,
            i % 9 + 1
        );
    }
}

fn line(c: &Cells) -> String {
    c.iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

fn givens(c: &Cells) -> usize {
    c.iter().filter(|&&v| v != 0).count()
}

// ---------------------------------------------------------------------------------------------
// Isomorphism invariants, computed here: equal for isomorphic puzzles (digits relabelled, rows
// moved within bands, bands moved, the same for columns and stacks, transposed), so puzzles with
// different invariants are not isomorphic.

/// For rows (or columns with `t`): per band, the sorted counts of givens of its rows, bands
/// sorted; per given, the counts of its row, column and box; per digit, its cells' such counts.
fn invariant(c: &Cells) -> Vec<u32> {
    let side = |t: bool| {
        let at = |r: usize, k: usize| if t { c[k * 9 + r] } else { c[r * 9 + k] };
        let row_n: Vec<u32> = (0..9)
            .map(|r| (0..9).filter(|&k| at(r, k) != 0).count() as u32)
            .collect();
        let col_n: Vec<u32> = (0..9)
            .map(|k| (0..9).filter(|&r| at(r, k) != 0).count() as u32)
            .collect();
        let box_n = |r: usize, k: usize| {
            let (r0, k0) = (r / 3 * 3, k / 3 * 3);
            (0..9).filter(|&j| at(r0 + j / 3, k0 + j % 3) != 0).count() as u32
        };
        let mut bands: Vec<Vec<u32>> = (0..3)
            .map(|b| {
                let mut v = row_n[b * 3..b * 3 + 3].to_vec();
                v.sort();
                v
            })
            .collect();
        bands.sort();
        let mut stacks: Vec<Vec<u32>> = (0..3)
            .map(|s| {
                let mut v = col_n[s * 3..s * 3 + 3].to_vec();
                v.sort();
                v
            })
            .collect();
        stacks.sort();
        let mut per_digit: Vec<Vec<u32>> = vec![Vec::new(); 10];
        let mut per_cell = Vec::new();
        for (r, &in_row) in row_n.iter().enumerate() {
            for (k, &in_col) in col_n.iter().enumerate() {
                let v = at(r, k);
                if v != 0 {
                    let key = in_row * 100 + in_col * 10 + box_n(r, k);
                    per_cell.push(key);
                    per_digit[v as usize].push(key);
                }
            }
        }
        per_cell.sort();
        for d in &mut per_digit {
            d.sort();
        }
        per_digit.sort();
        let mut all: Vec<u32> = bands.concat();
        all.extend(stacks.concat());
        all.extend(per_cell);
        for d in per_digit {
            all.push(d.len() as u32);
            all.extend(d);
        }
        all
    };
    side(false).min(side(true))
}

// ---------------------------------------------------------------------------------------------
// Running generate.

/// One `-O line` record: puzzle, solution, givens, guesses.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rec {
    puzzle: Cells,
    solution: Cells,
    givens: usize,
    guesses: u64,
}

fn records(text: &[u8]) -> Vec<Rec> {
    std::str::from_utf8(text)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 4, "{l}");
            Rec {
                puzzle: cells(f[0]),
                solution: cells(f[1]),
                givens: f[2].parse().unwrap(),
                guesses: f[3].parse().unwrap(),
            }
        })
        .collect()
}

fn generate(args: &[&str]) -> Vec<u8> {
    stdout_ok(bin().arg("generate").arg("-q").args(args))
}

/// Runs `generate` with `args`, which must end with exit `code` and nothing on stdout (`what`
/// names the case in a failure); its stderr.
fn generate_fails(args: &[&str], code: i32, what: &str) -> String {
    let out = bin().arg("generate").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{what}");
    assert!(out.stdout.is_empty(), "{what}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Checks what every record promises whatever the options: one solution (the one written),
/// the givens counted right, and (when `minimal`) no given to spare.
fn assert_sound(recs: &[Rec], minimal: bool) {
    for r in recs {
        assert!(solves(&r.puzzle, &r.solution), "{}", line(&r.puzzle));
        assert_eq!(r.givens, givens(&r.puzzle));
        assert_unique_and_minimal(&r.puzzle, minimal);
    }
}

/// The guesses `solve --unique` reports for each puzzle.
fn guesses_of_solve(recs: &[Rec]) -> Vec<u64> {
    let input: String = recs.iter().map(|r| line(&r.puzzle) + "\n").collect();
    let out = stdout_ok(
        bin()
            .args(["solve", "--unique", "-q", "-O", "jsonl", "--no-timings"])
            .write_stdin(input),
    );
    jsonl(&out)
        .iter()
        .map(|v| {
            assert_eq!(v["status"], "unique");
            v["guesses"].as_u64().unwrap()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------

#[test]
fn pins_the_first_records_of_seed_7_in_every_format() {
    golden("generate_seed7.txt", &generate(&["-n", "8", "--seed", "7"]));
    golden(
        "generate_seed7.csv",
        &generate(&["-n", "3", "--seed", "7", "-O", "csv"]),
    );
    golden(
        "generate_seed7.jsonl",
        &generate(&[
            "-n",
            "3",
            "--seed",
            "7",
            "-O",
            "jsonl",
            "--symmetry",
            "rot180",
        ]),
    );
    golden(
        "generate_seed7.grid",
        &generate(&["-n", "2", "--seed", "7", "-O", "grid"]),
    );
}

#[test]
fn three_thousand_records_are_unique_minimal_and_never_isomorphic() {
    let out = generate(&["-n", "3000", "--seed", "11"]);
    let recs = records(&out);
    assert_eq!(recs.len(), 3000);
    // checked on two threads: a debug build of this plain solver is slow
    std::thread::scope(|s| {
        for half in recs.chunks(1500) {
            s.spawn(move || assert_sound(half, true));
        }
    });
    let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
    for (i, r) in recs.iter().enumerate() {
        if let Some(j) = seen.insert(invariant(&r.puzzle), i) {
            panic!(
                "records {} and {} may be isomorphic (same invariant): {} {}",
                j + 1,
                i + 1,
                line(&recs[j].puzzle),
                line(&r.puzzle)
            );
        }
    }
    // and check's own isomorphism test agrees
    let puzzles: String = recs.iter().map(|r| line(&r.puzzle) + "\n").collect();
    let check = bin()
        .args(["check", "--duplicates=iso", "-q", "-"])
        .write_stdin(puzzles)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn one_and_two_threads_and_any_batch_size_give_the_same_bytes() {
    for args in [
        &["-n", "600", "--seed", "5", "-O", "jsonl"][..],
        &["-n", "6", "--seed", "5", "--guesses", "8..", "-O", "csv"][..],
        &[
            "-n",
            "40",
            "--seed",
            "5",
            "--symmetry",
            "random",
            "-O",
            "grid",
        ][..],
    ] {
        let one = generate(&[args, &["-j1"]].concat());
        assert!(!one.is_empty());
        for more in [
            &["-j2"][..],
            &["-j2", "--batch-size", "7"],
            &["-j1", "--batch-size", "1"],
        ] {
            assert_eq!(one, generate(&[args, more].concat()), "{args:?} {more:?}");
        }
    }
}

#[test]
fn start_writes_the_slice_of_the_whole_stream() {
    let whole = generate(&["-n", "300", "--seed", "9"]);
    let lines: Vec<&[u8]> = whole.split_inclusive(|&b| b == b'\n').collect();
    for (start, n) in [(0, 300), (1, 5), (150, 150), (299, 1), (123, 77)] {
        let part = generate(&[
            "-n",
            &n.to_string(),
            "--seed",
            "9",
            "--start",
            &start.to_string(),
        ]);
        assert_eq!(part, lines[start..start + n].concat(), "--start {start}");
    }
}

#[test]
fn repeats_are_left_out_the_same_way_from_any_start() {
    // three minimal puzzles as starts: record i is a minimal puzzle keeping the givens of start
    // i mod 3, which is the start itself, so records 4.. repeat records 1..3
    let dir = Workdir::new();
    let three = generate(&["-n", "3", "--seed", "2"]);
    let starts: String = records(&three)
        .iter()
        .map(|r| line(&r.puzzle) + "\n")
        .collect();
    let from = dir.write("from.txt", &starts);
    let from = from.to_str().unwrap();
    let whole = generate(&["-n", "7", "--from", from, "-O", "csv"]);
    let text = String::from_utf8(whole.clone()).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}"); // the header, then records 1..3
    for (start, n) in [(2, 5), (3, 4), (5, 2)] {
        let part = generate(&[
            "-n",
            &n.to_string(),
            "--start",
            &start.to_string(),
            "--from",
            from,
            "-O",
            "csv",
        ]);
        let expected: String = text
            .lines()
            .enumerate()
            .filter(|&(i, l)| {
                i == 0 || {
                    let record: u64 = l.split(',').nth(4).unwrap().parse().unwrap();
                    record > start && record <= start + n
                }
            })
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        assert_eq!(
            String::from_utf8(part).unwrap(),
            expected,
            "--start {start}"
        );
    }
    // with --no-dedupe every record is written
    let all = generate(&["-n", "7", "--from", from, "--no-dedupe"]);
    assert_eq!(records(&all).len(), 7);
}

#[test]
fn clue_ranges_hold_for_minimal_and_not_minimal_puzzles() {
    let recs = records(&generate(&["-n", "30", "--clues", "21..22", "--seed", "4"]));
    assert_eq!(recs.len(), 30);
    assert!(recs.iter().all(|r| (21..=22).contains(&r.givens)));
    assert_sound(&recs, true);
    let recs = records(&generate(&[
        "-n",
        "30",
        "--clues",
        "30..32",
        "--no-minimal",
        "--seed",
        "4",
    ]));
    assert_eq!(recs.len(), 30);
    assert!(recs.iter().all(|r| (30..=32).contains(&r.givens)));
    assert_sound(&recs, false);
    // near the minimal puzzles' counts, a carving that could not get down to the count drawn
    // stopped minimal, and was written as such (30 of 30 at 22 givens)
    for clues in ["22", "22..24"] {
        let recs = records(&generate(&[
            "-n",
            "20",
            "--clues",
            clues,
            "--no-minimal",
            "--seed",
            "1",
        ]));
        assert_eq!(recs.len(), 20);
        assert_sound(&recs, false);
    }
    let recs = records(&generate(&["-n", "10", "--clues", "..23", "--seed", "4"]));
    assert!(recs.iter().all(|r| r.givens <= 23));
}

/// The cell `(r, c)` is sent to by a geometric map of the square.
fn map_cell(map: &str, r: usize, c: usize) -> (usize, usize) {
    match map {
        "rot90" => (c, 8 - r),
        "rot180" => (8 - r, 8 - c),
        "mirror-h" => (8 - r, c),
        "mirror-v" => (r, 8 - c),
        "diagonal" => (c, r),
        "antidiagonal" => (8 - c, 8 - r),
        _ => unreachable!("{map}"),
    }
}

/// The maps each symmetry asks to keep the pattern of givens.
fn maps_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "rot180" => &["rot180"],
        "rot90" => &["rot90"],
        "mirror-h" => &["mirror-h"],
        "mirror-v" => &["mirror-v"],
        "mirror-both" => &["mirror-h", "mirror-v"],
        "diagonal" => &["diagonal"],
        "antidiagonal" => &["antidiagonal"],
        "diagonal-both" => &["diagonal", "antidiagonal"],
        "dihedral" => &["rot90", "mirror-h"],
        _ => unreachable!("{kind}"),
    }
}

fn keeps(puzzle: &Cells, map: &str) -> bool {
    (0..81).all(|i| {
        let (r, c) = map_cell(map, i / 9, i % 9);
        (puzzle[i] != 0) == (puzzle[r * 9 + c] != 0)
    })
}

#[test]
fn every_symmetry_holds_on_every_record() {
    let kinds = [
        "rot180",
        "rot90",
        "mirror-h",
        "mirror-v",
        "mirror-both",
        "diagonal",
        "antidiagonal",
        "diagonal-both",
        "dihedral",
    ];
    for kind in kinds {
        // the larger groups' minimal puzzles take thousands of carvings each (see
        // generate::DEFAULT_MAX_TRIES_GUESSES): fewer of them, for the debug build's sake
        let n = match kind {
            "rot90" | "mirror-both" | "diagonal-both" | "dihedral" => 1,
            _ => 6,
        };
        let recs = records(&generate(&[
            "-n",
            &n.to_string(),
            "--symmetry",
            kind,
            "--seed",
            "3",
        ]));
        assert_eq!(recs.len(), n, "{kind}");
        assert_sound(&recs, true);
        for r in &recs {
            for map in maps_of(kind) {
                assert!(keeps(&r.puzzle, map), "{kind}: {}", line(&r.puzzle));
            }
        }
    }
    let out = generate(&[
        "-n",
        "30",
        "--symmetry",
        "random",
        "--seed",
        "3",
        "-O",
        "jsonl",
    ]);
    let mut drawn = std::collections::HashSet::new();
    for v in jsonl(&out) {
        let kind = v["symmetry"].as_str().unwrap().to_string();
        let puzzle = cells(v["puzzle"].as_str().unwrap());
        for map in maps_of(&kind) {
            assert!(keeps(&puzzle, map), "{kind}: {}", line(&puzzle));
        }
        drawn.insert(kind);
    }
    assert!(drawn.len() >= 4, "random drew only {drawn:?}");
}

#[test]
fn a_pattern_is_kept_exactly() {
    let pattern =
        "x..x.x..x......xx..x.x.......x.x....xx..x.........xx..........xxx....x....x...xx.";
    let recs = records(&generate(&["-n", "4", "--pattern", pattern, "--seed", "1"]));
    assert_eq!(recs.len(), 4);
    assert_sound(&recs, true);
    for r in &recs {
        for (i, m) in pattern.bytes().enumerate() {
            assert_eq!(r.puzzle[i] != 0, m == b'x', "{}", line(&r.puzzle));
        }
    }
    // the same pattern from a file of 9 rows
    let dir = Workdir::new();
    let rows: String = pattern
        .as_bytes()
        .chunks(9)
        .map(|row| String::from_utf8(row.to_vec()).unwrap() + "\n")
        .collect();
    let file = dir.write("pattern.txt", rows);
    let again = generate(&[
        "-n",
        "4",
        "--pattern",
        file.to_str().unwrap(),
        "--seed",
        "1",
    ]);
    assert_eq!(records(&again), recs);
    // and from a pipe: `-` for stdin, or a path to it (`<(cmd)`, `/dev/stdin`), which was taken
    // for the pattern itself ("not a file")
    for name in ["-", "/dev/stdin"] {
        let out = output_fed(
            &mut command(&["generate", "-n", "4", "--seed", "1", "--pattern", name]),
            pattern.as_bytes(),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "--pattern {name}: {stderr}");
        assert_eq!(records(&out.stdout), recs, "--pattern {name}");
    }
    // what no puzzle can meet names the file, as its parse errors do (79 marks did not)
    let full = dir.write("full.txt", format!("{}..\n", "x".repeat(79)));
    let out = command(&["generate", "-n", "1", "--pattern"])
        .arg(&full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let named = format!("--pattern {}: the pattern marks 79 cells", full.display());
    assert!(stderr.contains(&named), "{stderr}");
    // a folder was read as a pattern ("cell 1 (r1c1) is '/'"); rows of 10 and 8 cells were
    // taken, every mark between them on the cell after the one drawn (exit 0)
    let folder = dir.path("");
    let folder = folder.to_str().unwrap();
    let mut rows: Vec<String> = (0..9).map(|r| format!("x.......x{r}")).collect();
    rows[0] = "x.......xx".to_string();
    rows[1] = "......x.".to_string();
    for r in &mut rows[2..] {
        r.truncate(9);
    }
    let uneven = dir.write("uneven.txt", rows.join("\n"));
    let uneven = uneven.to_str().unwrap();
    for (pattern, why) in [
        (
            folder,
            format!("--pattern {folder}: a folder, not a pattern file"),
        ),
        (
            uneven,
            format!("--pattern {uneven}: line 1 holds 10 cells: a pattern's lines hold whole rows"),
        ),
    ] {
        let out = command(&["generate", "-n", "1", "--pattern", pattern])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&why), "{stderr}");
    }
}

#[test]
fn from_grids_gives_their_puzzles_and_from_puzzles_keeps_the_givens() {
    let dir = Workdir::new();
    let base = records(&generate(&[
        "-n",
        "2",
        "--seed",
        "8",
        "--clues",
        "30",
        "--no-minimal",
    ]));
    let grids: String = base.iter().map(|r| line(&r.solution) + "\n").collect();
    let file = dir.write("grids.txt", grids);
    let recs = records(&generate(&["-n", "6", "--from", file.to_str().unwrap()]));
    assert_eq!(recs.len(), 6);
    assert_sound(&recs, true);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.solution, base[i % 2].solution);
    }
    let puzzles: String = base.iter().map(|r| line(&r.puzzle) + "\n").collect();
    let file = dir.write("puzzles.txt", puzzles);
    let recs = records(&generate(&["-n", "4", "--from", file.to_str().unwrap()]));
    for (i, r) in recs.iter().enumerate() {
        let start = &base[i % 2].puzzle;
        assert!((0..81).all(|c| start[c] == 0 || r.puzzle[c] == start[c]));
        assert_eq!(count_solutions(&r.puzzle, 2), 1);
    }
}

#[test]
fn a_from_puzzle_the_symmetry_fills_is_refused_never_written_solved() {
    let dir = Workdir::new();
    // a solution grid with its first cell blank: 80 givens
    let grid = &records(&generate(&["-n", "1", "--seed", "8"]))[0].solution;
    let mut cells = *grid;
    cells[0] = 0;
    let file = dir.write("p80.txt", line(&cells) + "\n");
    let file = file.to_str().unwrap();
    // r1c1's images under these symmetries are givens: the givens fill the grid, and the
    // record was the solved grid (81 givens), exit 0
    for symmetry in ["rot180", "rot90", "mirror-h", "dihedral"] {
        let args = ["-n", "1", "--from", file, "--symmetry", symmetry];
        let err = generate_fails(&args, 2, symmetry);
        assert!(
            err.contains("p80.txt:1: with --symmetry") && err.contains("fill the grid"),
            "{err}"
        );
    }
    // r1c1 is its own image under a transpose: random draws until it meets one that keeps
    // a blank, and the record is that symmetric 80-given puzzle
    let out = generate(&[
        "-n",
        "3",
        "--from",
        file,
        "--symmetry",
        "random",
        "-O",
        "csv",
    ]);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "one puzzle three times: repeats left out: {text}"
    );
    let fields: Vec<&str> = lines[1].split(',').collect();
    let blank_as_dot = line(&cells).replace('0', ".");
    assert_eq!(
        (fields[0], fields[1], fields[2]),
        (blank_as_dot.as_str(), line(grid).as_str(), "80")
    );
    assert!(
        ["diagonal", "diagonal-both"].contains(fields.last().unwrap()),
        "{text}"
    );
}

#[test]
fn guesses_lie_in_range_as_solve_unique_reports_them() {
    let recs = records(&generate(&[
        "-n",
        "5",
        "--guesses",
        "12..30",
        "--seed",
        "6",
    ]));
    assert_eq!(recs.len(), 5);
    assert_sound(&recs, true);
    let solve = guesses_of_solve(&recs);
    for (r, g) in recs.iter().zip(solve) {
        assert_eq!(r.guesses, g, "{}", line(&r.puzzle));
        assert!((12..=30).contains(&g), "{g}");
    }
    let easy = records(&generate(&["-n", "20", "--guesses", "0", "--seed", "6"]));
    assert!(guesses_of_solve(&easy).iter().all(|&g| g == 0));
}

/// `--no-minimal` holds with a climb too: givens in the clue range, and not minimal (the climb
/// carved every candidate down to minimal, below the range, and met it only by chance).
#[test]
fn guesses_with_no_minimal_keep_the_clue_range_and_a_given_to_spare() {
    let recs = records(&generate(&[
        "-n",
        "6",
        "--guesses",
        "0..2",
        "--clues",
        "30..35",
        "--no-minimal",
        "--seed",
        "6",
    ]));
    assert_eq!(recs.len(), 6);
    assert_sound(&recs, false);
    for (r, g) in recs.iter().zip(guesses_of_solve(&recs)) {
        assert!((30..=35).contains(&r.givens), "{}", line(&r.puzzle));
        assert!(g <= 2, "{g}");
    }
}

/// `p` moved by an isomorphism: digits relabelled (d -> 10 - d), bands 1 and 3 swapped, rows 1
/// and 2 of each band swapped, then transposed.
fn moved(p: &Cells) -> Cells {
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let band = [2, 1, 0][r / 3];
            let row = [1, 0, 2][r % 3];
            let v = p[(band * 3 + row) * 9 + c];
            out[c * 9 + r] = if v == 0 { 0 } else { 10 - v };
        }
    }
    out
}

#[test]
fn nothing_isomorphic_to_an_excluded_file_is_made() {
    let dir = Workdir::new();
    let plain = records(&generate(&["-n", "60", "--seed", "12"]));
    // the excluded file holds the same puzzles moved by an isomorphism, so the invariant agrees
    let excluded: Vec<Cells> = plain.iter().map(|r| moved(&r.puzzle)).collect();
    for (p, r) in excluded.iter().zip(&plain) {
        assert_eq!(invariant(p), invariant(&r.puzzle));
    }
    let text: String = excluded.iter().map(|p| line(p) + "\n").collect();
    let file = dir.write("train.txt", text);
    let out = generate(&[
        "-n",
        "60",
        "--seed",
        "12",
        "--exclude",
        file.to_str().unwrap(),
        "-O",
        "csv",
    ]);
    let text = String::from_utf8(out).unwrap();
    let mut made = 0;
    for row in text.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let puzzle = cells(&f[0].replace('.', "0"));
        assert!(
            !excluded.iter().any(|p| invariant(p) == invariant(&puzzle)),
            "{row}"
        );
        // each record's first try was the excluded puzzle: it took another
        assert!(f[5].parse::<u64>().unwrap() >= 2, "{row}");
        made += 1;
    }
    assert_eq!(made, 60);
}

/// A solved grid in an `--exclude` file excludes nothing (no puzzle is isomorphic to one): it
/// is the column of solutions read by mistake (`-c` serves `--from` and `--exclude` alike), and
/// the set it stood for leaked whole into the output, exit 0. Refused, naming the line.
#[test]
fn an_exclude_file_read_as_solved_grids_is_refused() {
    let dir = Workdir::new();
    let base = records(&generate(&["-n", "5", "--seed", "11"]));
    let rows: String = base
        .iter()
        .map(|r| format!("{},{}\n", line(&r.puzzle), line(&r.solution)))
        .collect();
    let file = dir.write("test.csv", format!("quizzes,solutions\n{rows}"));
    let file = file.to_str().unwrap();
    let args = [
        "-q",
        "-n",
        "5",
        "--seed",
        "11",
        "--exclude",
        file,
        "-c",
        "solutions",
    ];
    let err = generate_fails(&args, 2, "");
    assert!(
        err.contains("test.csv:2: a solved grid") && err.contains("-c solutions was given"),
        "{err}"
    );
    // a row whose givens contradict each other excluded nothing either, with no word: refused
    let broken = format!("{}\n11{}\n", line(&base[0].puzzle), ".".repeat(79));
    let broken = dir.write("broken.txt", broken);
    let err = generate_fails(
        &["-q", "-n", "1", "--exclude", broken.to_str().unwrap()],
        2,
        "",
    );
    assert!(
        err.contains("broken.txt:2: not a puzzle: digit 1 twice in row 1"),
        "{err}"
    );
    // the puzzle column excludes them all: five other records
    let recs = records(&generate(&["-n", "5", "--seed", "11", "--exclude", file]));
    assert_eq!(recs.len(), 5);
    assert!(
        recs.iter()
            .all(|r| base.iter().all(|b| b.puzzle != r.puzzle))
    );
}

/// A `--from` puzzle with one solution is carved to itself at every try: a record from it that
/// misses a target gives up after that one try, saying why (it spent every try, a minute with
/// the default budget, on the same puzzle).
#[test]
fn a_from_puzzle_with_one_solution_that_misses_gives_up_at_once() {
    let dir = Workdir::new();
    let puzzle = std::fs::read_to_string(crate::repo("data/17clue_300.txt")).unwrap();
    let puzzle = puzzle.lines().find(|l| !l.starts_with('#')).unwrap();
    let file = dir.write("p17.txt", format!("{puzzle}\n"));
    let file = file.to_str().unwrap();
    for target in [
        &["--exclude", file][..],
        &["--clues", "30"],
        &["--symmetry", "none", "--clues", "20..25"],
        // a climb's steps too (it spent 10,000,000 of them, 68 s)
        &["--guesses", "50.."],
        &["--rating", "9.0.."],
    ] {
        let args = [
            &["-n", "3", "--max-tries", "1000", "--from", file][..],
            target,
        ]
        .concat();
        let err = generate_fails(&args, 1, &format!("{target:?}"));
        assert!(
            err.contains("record 1 gave up")
                && err.contains("in 1 try (")
                && err.contains("every try makes that same puzzle")
                && err.contains("start from another puzzle"),
            "{err}"
        );
    }
    // met, it is the record (the others are repeats of it, left out)
    let out = String::from_utf8(generate(&["-n", "3", "--from", file])).unwrap();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with(&puzzle[..81].replace('0', ".")), "{out}");
}

#[test]
fn a_target_no_puzzle_meets_stops_with_a_message_and_the_records_made() {
    // 21 givens in 40 tries: some records make it, one does not
    let out = bin()
        .args([
            "generate",
            "-n",
            "50",
            "--clues",
            "21",
            "--max-tries",
            "40",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let recs = records(&out.stdout);
    assert!(recs.iter().all(|r| r.givens == 21));
    let gave_up = format!("record {} gave up", recs.len() + 1);
    assert!(stderr.contains(&gave_up), "{stderr}");
    assert!(stderr.contains("--max-tries"), "{stderr}");
    // the records written are the stream's first ones, the same with a wider budget
    let wide = generate(&[
        "-n",
        &recs.len().to_string(),
        "--clues",
        "21",
        "--max-tries",
        "100000",
        "--seed",
        "1",
    ]);
    assert_eq!(records(&wide).len(), recs.len());
    // targets no puzzle meets at all are refused at once
    for (args, why) in [
        (&["--clues", "16"][..], "fewer than 17"),
        (&["--pattern", "x"], "--pattern"),
        (&["--clues", "..10", "--no-minimal"], "fewer than 17"),
        (&["--no-minimal"], "give --clues"),
        // 81 givens are a solved grid (it was written, rated ER 0.0)
        (&["--clues", "81", "--no-minimal"], "80 givens at most"),
        // --from puzzles keep their givens: all 23 or more (it spent every try, then gave up)
        (
            &["--from", "data/easy_300.txt", "--clues", "..20"],
            "none can make a puzzle within",
        ),
    ] {
        let out = bin().arg("generate").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    // a range reaching 81 draws at most 80: every record has a blank
    let out = bin()
        .args([
            "generate",
            "-q",
            "-n",
            "30",
            "--clues",
            "79..",
            "--no-minimal",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 30);
    for line in text.lines() {
        assert!(line.split(' ').next().unwrap().contains('.'), "{line}");
    }
    // a pattern whose givens never make a unique puzzle: the limit, never a hang
    let rows = format!("{}{}", "x".repeat(20), ".".repeat(61));
    let out = bin()
        .args([
            "generate",
            "-q",
            "-n",
            "2",
            "--pattern",
            &rows,
            "--max-tries",
            "20000",
        ])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("record 1 gave up"));
}

#[test]
fn counts_at_the_ends_of_the_range() {
    assert!(generate(&["-n", "0"]).is_empty());
    let out = bin()
        .args(["generate", "-n", "18446744073709551615", "--start", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("records at most"));
    // a start whose records before it (made for their classes) would take hours and gigabytes
    // is refused at once; without dedupe it is made on its own
    let err = generate_fails(&["-n", "1", "--start", "18446744073709551610"], 2, "");
    assert!(
        err.contains("at most --start 1000000000") && err.contains("--no-dedupe"),
        "{err}"
    );
    let far = generate(&["--no-dedupe", "-n", "1", "--start", "18446744073709551610"]);
    assert_eq!(records(&far).len(), 1);
    // an endless count makes records until stopped: the first one is the stream's
    let (first, _, _) = crate::first_line_then_close(&mut command(&[
        "generate",
        "-q",
        "-n",
        "18446744073709551615",
    ]));
    assert_eq!(first.as_bytes(), &generate(&["-n", "1"])[..]);
}

#[test]
fn bad_records_in_from_and_exclude_files_are_named_with_their_line() {
    let dir = Workdir::new();
    let good = generate(&["-n", "4", "--seed", "1"]);
    let puzzles: Vec<String> = records(&good).iter().map(|r| line(&r.puzzle)).collect();
    let text = format!(
        "{}\n{}\nstray bytes \u{1}\n{}\n{}\n",
        puzzles[0], puzzles[1], puzzles[2], puzzles[3]
    );
    let file = dir.write("bad.txt", text);
    for option in ["--from", "--exclude"] {
        let out = bin()
            .args(["generate", "-q", option, file.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("bad.txt:3:"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn progress_goes_to_stderr_and_only_when_asked_or_on_a_terminal() {
    let quiet = bin().args(["generate", "-n", "50", "-q"]).output().unwrap();
    assert!(quiet.stderr.is_empty());
    // auto: stderr is a pipe here, so no bar, only the summary line
    let auto = bin().args(["generate", "-n", "50"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&auto.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("generate: records 1..50 of seed 0: 50 written"));
    let always = bin()
        .args(["generate", "-n", "3000", "--progress", "always"])
        .output()
        .unwrap();
    assert_eq!(always.stdout, generate(&["-n", "3000"]));
    assert!(String::from_utf8_lossy(&always.stderr).contains("records"));
}

#[test]
fn ctrl_c_leaves_whole_records_and_says_where_they_end() {
    let dir = Workdir::new();
    let out = dir.path("out.txt");
    for format in ["line", "jsonl"] {
        let mut child = command(&[
            "generate",
            "-n",
            "100000000",
            "-O",
            format,
            "-o",
            out.to_str().unwrap(),
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
        crate::signals::wait_for_handler(&child, libc::SIGINT);
        std::thread::sleep(Duration::from_millis(300));
        crate::signals::send(&child, libc::SIGINT);
        let stderr = read_all(child.stderr.take());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{stderr}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.ends_with('\n'));
        let n = text.lines().count();
        assert!(n > 0, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "interrupted by SIGINT: the output ends with record {n}"
            )),
            "{stderr}"
        );
        // the records are the stream's first n
        let whole = generate(&["-n", &n.to_string(), "-O", format]);
        assert_eq!(text.as_bytes(), &whole[..]);
    }
}

// ---------------------------------------------------------------------------------------------
// --rating: Sudoku Explainer's ER, as `rate` gives it.

/// The records of `-O jsonl` output with `--rating`: each sound (unique and minimal, by the
/// checker here) and its ER, EP, ED and hardest technique those the library's rater gives the
/// puzzle; returns the ERs, in tenths.
fn rated_records(out: &[u8]) -> Vec<u32> {
    use sudoku_batch::rate::{self, End, tenths};
    jsonl(out)
        .iter()
        .map(|v| {
            let puzzle = v["puzzle"].as_str().unwrap();
            let rec = Rec {
                puzzle: cells(puzzle),
                solution: cells(v["solution"].as_str().unwrap()),
                givens: v["givens"].as_u64().unwrap() as usize,
                guesses: v["guesses"].as_u64().unwrap(),
            };
            assert_sound(std::slice::from_ref(&rec), true);
            let grid: sudoku_batch::grid::Grid = puzzle.parse().unwrap();
            let r = rate::rate(&grid, &rate::Options::default()).unwrap();
            assert_eq!(r.end, End::Solved, "{puzzle}");
            let written = |key: &str| (v[key].as_f64().unwrap() * 10.0).round() as u32;
            assert_eq!(
                [written("er"), written("ep"), written("ed")],
                [tenths(r.er), tenths(r.ep), tenths(r.ed)],
                "{puzzle}"
            );
            assert_eq!(
                v["hardest"].as_str(),
                r.hardest.map(|t| t.name()).as_deref(),
                "{puzzle}"
            );
            tenths(r.er)
        })
        .collect()
}

#[test]
fn every_record_rates_in_range_as_the_library_rates_it() {
    // carving until one is in range, and from 8.5 up the climb
    for (range, lo, hi, n) in [
        ("1.0..1.5", 10, 15, "8"),
        ("2.0..4.0", 20, 40, "8"),
        ("..2.0", 0, 20, "6"),
        ("7.0..", 70, u32::MAX, "4"),
        ("7.2", 72, 72, "2"),
        ("8.5..", 85, u32::MAX, "1"),
    ] {
        let out = generate(&["-n", n, "--seed", "4", "--rating", range, "-O", "jsonl"]);
        let ers = rated_records(&out);
        assert_eq!(ers.len().to_string(), n, "{range}");
        for er in ers {
            assert!((lo..=hi).contains(&er), "--rating {range}: {er}");
        }
    }
}

#[test]
fn rating_adds_er_ep_ed_to_every_format() {
    let args = ["-n", "3", "--seed", "2", "--rating", "2.0..4.0"];
    let jsonl_out = generate(&[&args[..], &["-O", "jsonl"]].concat());
    let ers: Vec<String> = jsonl(&jsonl_out)
        .iter()
        .map(|v| format!("{:.1}", v["er"].as_f64().unwrap()))
        .collect();
    let line = String::from_utf8(generate(&args)).unwrap();
    for (l, er) in line.lines().zip(&ers) {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 7, "{l}");
        assert_eq!(f[4], er);
    }
    let csv = String::from_utf8(generate(&[&args[..], &["-O", "csv"]].concat())).unwrap();
    assert!(
        csv.starts_with("puzzle,solution,givens,guesses,record,tries,er,ep,ed,hardest\n"),
        "{csv}"
    );
    let grid = String::from_utf8(generate(&[&args[..], &["-O", "grid"]].concat())).unwrap();
    let first = grid.lines().next().unwrap();
    assert!(first.ends_with(&format!(" {}", ers[0])) || first.contains(&format!(" {} ", ers[0])));
    // without --rating, none of it
    let plain = generate(&["-n", "1", "--seed", "2", "-O", "jsonl"]);
    assert!(jsonl(&plain)[0].get("er").is_none());
}

#[test]
fn rating_keeps_the_stream_for_any_threads_batch_and_start() {
    // carving until one is in range; and the climb, slow in a debug build (tens of seconds a
    // record on a busy machine): two records, without the repeats' check, so that --start 1
    // makes one record, not two
    for (n, args) in [
        (12, &["--seed", "8", "--rating", "2.0..4.0"][..]),
        (2, &["--seed", "5", "--rating", "8.5..", "--no-dedupe"]),
    ] {
        let count = n.to_string();
        let one = generate(&[args, &["-n", &count, "-j1"]].concat());
        let others: &[&[&str]] = match n {
            2 => &[&["-j2"]],
            _ => &[&["-j2"], &["-j2", "--batch-size", "5"]],
        };
        for more in others {
            let other = generate(&[args, &["-n", &count], *more].concat());
            assert_eq!(one, other, "{args:?} {more:?}");
        }
        let lines: Vec<&[u8]> = one.split_inclusive(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), n);
        let starts: &[usize] = if n > 2 { &[1, n - 1] } else { &[1] };
        for &start in starts {
            let slice = [
                "--start",
                &start.to_string(),
                "-n",
                &(n - start).to_string(),
            ];
            let part = generate(&[args, &slice[..]].concat());
            assert_eq!(part, lines[start..].concat(), "{args:?} --start {start}");
        }
    }
}

#[test]
fn rating_ranges_no_puzzle_has_are_refused_and_rare_ones_bounded() {
    for (range, why) in [
        ("0.5..0.9", "below 1.0"),
        ("9.5..", "nested forcing chains"),
        ("4.0..3.0", "empty"),
        ("7.23", "one decimal"),
        ("..", "expected a range"),
    ] {
        let out = bin()
            .args(["generate", "--rating", range])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{range}: {stderr}");
        assert!(stderr.contains(why), "{range}: {stderr}");
    }
    // rare, not impossible: the tries run out, and the message says how close they came
    let out = bin()
        .args([
            "generate",
            "-q",
            "--rating",
            "9.3..9.4",
            "--max-tries",
            "30",
        ])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--rating 9.3..9.4"), "{stderr}");
    // a lower bound where a rating stopped above the range: "ER 0.1 from the range at best"
    // was said when every candidate was 0.2 or more from it
    assert!(stderr.contains("every ER at least "), "{stderr}");
}

/// A give-up whose tries all made symmetric puzzles with one solution but a given to spare said
/// "0 puzzles with one solution made; 2000 not minimal": they are counted among those made.
#[test]
fn a_give_up_counts_puzzles_that_were_not_minimal_among_those_made() {
    let dir = Workdir::new();
    let grid = "619723548425896317387541269763485192142679853598312674234167985971258436856934721";
    let from = dir.write("grid.txt", format!("{grid}\n"));
    let err = generate_fails(
        &[
            "-q",
            "-n",
            "1",
            "-j1",
            "--from",
            from.to_str().unwrap(),
            "--symmetry",
            "dihedral",
            "--max-tries",
            "300",
        ],
        1,
        "gave up",
    );
    assert!(
        err.contains("in 300 tries (300 puzzles with one solution made, ")
            && err.contains("; 300 not minimal)"),
        "{err}"
    );
    // a pattern's searches too (they said "0 puzzles with one solution made; 99951 not
    // minimal")
    let pattern = format!("{}...", "x".repeat(78));
    let err = generate_fails(
        &["-q", "-n", "1", "--pattern", &pattern, "--max-tries", "300"],
        1,
        "gave up",
    );
    let made = err
        .split("tries (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        made > 0 && err.contains(&format!("; {made} not minimal")),
        "{err}"
    );
    // and --no-minimal's tries that stopped minimal are said as such
    let err = generate_fails(
        &[
            "-q",
            "-n",
            "1",
            "--clues",
            "19",
            "--no-minimal",
            "--max-tries",
            "300",
        ],
        1,
        "gave up",
    );
    assert!(
        err.contains("in 300 tries (300 puzzles with one solution made, ")
            && err.contains("; 300 minimal (--no-minimal asks for a given to spare))"),
        "{err}"
    );
}
