use std::path::Path;

use super::*;
use crate::transform::Rng;

/// Puzzles of a shipped sample, `#` lines and blank lines skipped; the puzzle is the line's first
/// field that reads as one (the puzzle column of the CSV samples is their first).
fn sample(name: &str) -> Vec<Grid> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    read_puzzles(&path)
}

fn read_puzzles(path: &Path) -> Vec<Grid> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split([',', ' ', '\t']).find_map(|f| f.parse().ok()))
        .collect()
}

fn grid(s: &str) -> Grid {
    s.parse().unwrap()
}

/// The shipped samples, a few puzzles of each.
fn samples(each: usize) -> Vec<Grid> {
    let mut out = Vec::new();
    for name in [
        "17clue_300.txt",
        "easy_300.txt",
        "exchange_hard_200.txt",
        "hardest_300.txt",
        "kaggle_200.csv",
        "serg_100.txt",
    ] {
        let puzzles = sample(name);
        assert!(puzzles.len() >= each, "{name}");
        out.extend(puzzles.into_iter().take(each));
    }
    out
}

/// A solution grid, a puzzle with many solutions, an unsolvable one with no repeat in any unit,
/// the empty grid, a single given, and grids with digits repeated in a row or a column.
const ODD: [&str; 7] = [
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9.........",
    // row 1 needs a 9 in column 9, which has one: unsolvable, yet no unit repeats a digit
    "12345678....................................9....................................",
    ".................................................................................",
    "........................................5........................................",
    "11...............................................................................",
    "1........1.......................................................................",
];

/// 81 equal digits: every placement reads the same, so trying them all walks every one.
const ALL_ONES: &str =
    "111111111111111111111111111111111111111111111111111111111111111111111111111111111";

#[test]
fn forms_are_the_same_for_every_transform_of_a_puzzle() {
    let mut rng = Rng::new(2580);
    let mut puzzles = samples(8);
    puzzles.extend(ODD[..5].iter().map(|s| grid(s)));
    for p in &puzzles {
        let (form, pattern_form) = (minlex(p), pattern_minlex(p));
        for _ in 0..40 {
            let moved = Transform::random(&mut rng).apply(p);
            assert_eq!(minlex(&moved), form, "{p:?} moved to {moved:?}");
            assert_eq!(invariant(&moved), invariant(p), "{p:?} moved to {moved:?}");
            assert_eq!(
                pattern_minlex(&moved),
                pattern_form,
                "{p:?} moved to {moved:?}"
            );
        }
    }
    // the pattern form does not need rows free of repeats: the grids with repeated digits too
    for s in &ODD[5..] {
        let (p, moved) = (grid(s), Transform::random(&mut rng).apply(&grid(s)));
        assert_eq!(pattern_minlex(&moved), pattern_minlex(&p));
        assert_eq!(invariant(&moved), invariant(&p));
    }
}

#[test]
fn invariants_tell_most_classes_apart() {
    // the 17-clue sample's puzzles are pairwise inequivalent; serg's share one pattern, so only
    // the digits' part of the invariant tells them apart
    for (name, at_least) in [
        ("17clue_300.txt", 300),
        ("kaggle_200.csv", 200),
        ("exchange_hard_200.txt", 200),
        ("serg_100.txt", 66),
    ] {
        let puzzles = sample(name);
        let forms: std::collections::HashSet<Grid> = puzzles.iter().map(minlex).collect();
        let invariants: std::collections::HashSet<u64> = puzzles.iter().map(invariant).collect();
        assert!(invariants.len() <= forms.len(), "{name}: not an invariant");
        assert!(
            invariants.len() >= at_least,
            "{name}: {} invariants for {} classes",
            invariants.len(),
            forms.len()
        );
    }
}

#[test]
fn the_transform_maps_the_puzzle_onto_its_form_and_the_form_is_its_own() {
    let mut puzzles = samples(5);
    puzzles.extend(ODD.iter().map(|s| grid(s)));
    for p in &puzzles {
        let c = canonical(p);
        assert_eq!(c.transform.apply(p), c.grid, "{p:?}");
        assert_eq!(minlex(&c.grid), c.grid, "a form is already minlex");
        assert_eq!(c.grid.givens(), p.givens());
        let text = c.transform.to_string();
        assert_eq!(text.parse::<Transform>().unwrap(), c.transform);
    }
}

#[test]
fn agrees_with_trying_every_placement() {
    // every placement takes a while in a debug build: a few puzzles here, hundreds in the
    // opt-in test below
    let mut puzzles: Vec<Grid> = samples(1);
    puzzles.extend(ODD.iter().map(|s| grid(s)));
    for p in &puzzles {
        let by_search = canonical_by_search(p);
        assert_eq!(minlex(p), by_search.grid, "{p:?}");
        assert_eq!(by_search.transform.apply(p), by_search.grid);
    }
}

#[test]
fn repeated_digits_stay_invariant() {
    let mut rng = Rng::new(17);
    for s in &ODD[5..] {
        let p = grid(s);
        let form = minlex(&p);
        for _ in 0..3 {
            let moved = Transform::random(&mut rng).apply(&p);
            assert_eq!(minlex(&moved), form);
        }
    }
    assert_eq!(
        minlex(&grid(ODD[5])).to_line(b'0')[..],
        format!("{}11", "0".repeat(79)).as_bytes()[..],
        "two givens in a row go last, side by side"
    );
}

#[test]
fn small_forms_read_as_expected() {
    // one given: bottom right, labelled 1
    let one = minlex(&grid(ODD[4]));
    assert_eq!(one.to_line(b'0')[80], b'1');
    assert_eq!(one.givens(), 1);
    assert_eq!(minlex(&Grid::EMPTY), Grid::EMPTY);
    // a solution grid's form starts 123456789, then 45 (the second row's first stack holds
    // neither 1, 2 nor 3, and its smallest choice is 4 then 5)
    let solved = minlex(&grid(ODD[0])).to_line(b'0');
    assert_eq!(&solved[..11], b"12345678945");
}

#[test]
fn non_isomorphic_puzzles_get_different_forms() {
    // the shipped 17-clue puzzles are pairwise inequivalent (the list is of classes)
    let puzzles = sample("17clue_300.txt");
    for form in [minlex, pattern_minlex] {
        let forms: std::collections::HashSet<Grid> = puzzles.iter().map(form).collect();
        assert_eq!(forms.len(), puzzles.len());
    }
}

#[test]
fn the_hash_is_fnv1a_of_the_digits() {
    // FNV-1a 64 of 81 ASCII zeros, computed apart (Python)
    assert_eq!(hash(&Grid::EMPTY), 0xa01d_356e_6a34_bb6f);
    assert_ne!(hash(&grid(ODD[4])), hash(&Grid::EMPTY));
}

/// The pattern (given or blank) of a grid, row by row, as a string of 0 and 1.
fn pattern_of(g: &Grid) -> Vec<u8> {
    g.cells().iter().map(|&d| u8::from(d != 0)).collect()
}

#[test]
fn a_pattern_form_is_a_placement_of_its_puzzle_with_the_smallest_pattern() {
    let mut puzzles = samples(10);
    puzzles.extend(ODD.iter().map(|s| grid(s)));
    for p in &puzzles {
        let form = pattern_minlex(p);
        // the same class: the form is one of the puzzle's own placements
        assert_eq!(minlex(&form), minlex(p), "{p:?}");
        // its pattern is no larger than the minlex form's, which is a placement too
        assert!(pattern_of(&form) <= pattern_of(&minlex(p)), "{p:?}");
        // and its digits are the smallest among placements with that pattern: the form of the
        // form is itself
        assert_eq!(pattern_minlex(&form), form, "{p:?}");
    }
}

#[test]
fn pattern_forms_tell_the_same_puzzles_apart_as_minlex_forms() {
    let mut rng = Rng::new(99);
    let mut puzzles = samples(6);
    // isomorphic copies among them, so that both answers occur
    let copies: Vec<Grid> = puzzles
        .iter()
        .step_by(3)
        .map(|p| Transform::random(&mut rng).apply(p))
        .collect();
    puzzles.extend(copies);
    let forms: Vec<(Grid, Grid)> = puzzles
        .iter()
        .map(|p| (minlex(p), pattern_minlex(p)))
        .collect();
    for a in &forms {
        for b in &forms {
            assert_eq!(a.0 == b.0, a.1 == b.1);
        }
    }
    let distinct: std::collections::HashSet<&Grid> = forms.iter().map(|f| &f.1).collect();
    assert!(
        distinct.len() < forms.len(),
        "some puzzles are copies of others"
    );
}

#[test]
fn patterns_with_many_symmetries_take_the_minlex_form() {
    // every placement of the empty grid, and of a solution grid, has the same pattern: more than
    // the search keeps, so the form is the minlex form
    for s in [ODD[0], ODD[3]] {
        assert_eq!(pattern_minlex(&grid(s)), minlex(&grid(s)));
    }
    // one given: on either route, the given goes bottom right, as minlex puts it
    assert_eq!(pattern_minlex(&grid(ODD[4])), minlex(&grid(ODD[4])));
}

/// The pattern form found by trying every placement: the smallest (pattern, digits) pair.
fn pattern_form_by_search(p: &Grid) -> Grid {
    let cells = p.cells();
    let orders = line_orders();
    let mut best: Option<(Vec<u8>, [u8; CELLS])> = None;
    for orient in 0..2 {
        for rows in &orders {
            for cols in &orders {
                let mut read = [0u8; CELLS];
                let mut labels = [0u8; 10];
                let mut next = 1;
                for (i, &r) in rows.iter().enumerate() {
                    for (j, &c) in cols.iter().enumerate() {
                        let (r, c) = (usize::from(r), usize::from(c));
                        let d = usize::from(if orient == 0 {
                            cells[r * 9 + c]
                        } else {
                            cells[c * 9 + r]
                        });
                        if d != 0 && labels[d] == 0 {
                            labels[d] = next;
                            next += 1;
                        }
                        read[i * 9 + j] = labels[d];
                    }
                }
                let key = (
                    read.iter().map(|&v| u8::from(v != 0)).collect::<Vec<u8>>(),
                    read,
                );
                if best.as_ref().is_none_or(|b| key < *b) {
                    best = Some(key);
                }
            }
        }
    }
    Grid::from_values(best.map(|b| b.1).unwrap_or([0; CELLS])).unwrap()
}

/// Opt-in: the pattern form is what trying all 3,359,232 placements finds, for a few puzzles of
/// every shipped sample and the odd grids with few enough symmetries to be searched.
#[test]
#[ignore = "every placement of dozens of puzzles; run with --release"]
fn opt_in_pattern_forms_agree_with_trying_every_placement() {
    let mut puzzles = samples(4);
    puzzles.extend(ODD[1..3].iter().map(|s| grid(s)));
    puzzles.extend(ODD[4..].iter().map(|s| grid(s)));
    for p in &puzzles {
        assert_eq!(pattern_minlex(p), pattern_form_by_search(p), "{p:?}");
    }
}

/// The masks a cell at a time.
fn masks_by_cell(cells: &[u8; CELLS]) -> [[u16; 9]; 2] {
    let mut masks = [[0u16; 9]; 2];
    for r in 0..9 {
        for c in 0..9 {
            let given = u16::from(cells[r * 9 + c] != 0);
            masks[0][r] |= given << c;
            masks[1][c] |= given << r;
        }
    }
    masks
}

#[test]
fn givens_masks_are_those_of_a_test_a_cell() {
    let mut rng = Rng::new(81);
    let mut grids = vec![[0u8; CELLS], [9u8; CELLS]];
    for density in [1u64, 5, 30, 50, 81] {
        for _ in 0..200 {
            grids.push(std::array::from_fn(|_| {
                if rng.next_u64() % 81 < density {
                    (rng.next_u64() % 9 + 1) as u8
                } else {
                    0
                }
            }));
        }
    }
    for cells in &grids {
        assert_eq!(
            masks_of(given_bits(cells)),
            masks_by_cell(cells),
            "{cells:?}"
        );
    }
}

/// Puzzles of a shared corpus (`$SHARED/data`, by default `../shared/data`), for the opt-in
/// tests.
fn corpus(name: &str) -> Vec<Grid> {
    let shared = std::env::var_os("SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        std::path::PathBuf::from,
    );
    read_puzzles(&shared.join("data").join(name))
}

const CORPORA: [&str; 9] = [
    "tdoku/puzzles1_unbiased_first1000",
    "tdoku/puzzles2_17_clue",
    "tdoku/puzzles3_magictour_top1465",
    "tdoku/puzzles5_forum_hardest_1905_11+",
    "tdoku/puzzles6_forum_hardest_1106",
    "tdoku/puzzles7_serg_benchmark",
    "sudoku_exchange/hard.txt",
    "csv/kaggle_quizzes_solutions_20k.csv",
    "csv/radcliffe_curated_5000.csv",
];

/// Opt-in (`cargo test --release -- --ignored canon`): 10,000 random transforms of sample puzzles
/// of every shared corpus give one form (and one invariant).
#[test]
#[ignore = "minutes in a debug build; run with --release"]
fn opt_in_forms_hold_for_10000_transforms_of_every_corpus() {
    let mut rng = Rng::new(81);
    for name in CORPORA {
        let puzzles = corpus(name);
        assert!(!puzzles.is_empty(), "{name}");
        for p in puzzles.iter().step_by(puzzles.len() / 5 + 1) {
            let (form, pattern_form) = (minlex(p), pattern_minlex(p));
            for _ in 0..10_000 {
                let moved = Transform::random(&mut rng).apply(p);
                assert_eq!(minlex(&moved), form, "{name}: {p:?}");
                assert_eq!(pattern_minlex(&moved), pattern_form, "{name}: {p:?}");
                assert_eq!(invariant(&moved), invariant(p), "{name}: {p:?}");
            }
        }
    }
}

/// Opt-in: the 49,158 puzzles of `puzzles2_17_clue`, pairwise inequivalent, get as many forms;
/// 47,653 of them are listed in their minlex form already.
#[test]
#[ignore = "reads ../shared/data; run with --release"]
fn opt_in_every_17_clue_puzzle_has_its_own_form() {
    let puzzles = corpus("tdoku/puzzles2_17_clue");
    assert_eq!(puzzles.len(), 49_158);
    let forms: std::collections::HashSet<Grid> = puzzles.iter().map(minlex).collect();
    assert_eq!(forms.len(), 49_158);
    let pattern_forms: std::collections::HashSet<Grid> =
        puzzles.iter().map(pattern_minlex).collect();
    assert_eq!(pattern_forms.len(), 49_158);
    // the list gives its puzzles mostly in minlex form already: ours must be those, and where
    // they differ, smaller, and what trying every placement finds
    let differ: Vec<&Grid> = puzzles.iter().filter(|p| minlex(p) != **p).collect();
    assert!(differ.len() < 2_000, "{} differ", differ.len());
    for p in &differ {
        assert!(minlex(p).to_line(b'0') < p.to_line(b'0'));
    }
    for p in differ.iter().step_by(differ.len() / 30 + 1) {
        assert_eq!(canonical_by_search(p).grid, minlex(p));
    }
}

/// Opt-in: the fast route agrees with trying every placement on a few hundred puzzles of every
/// shared corpus; and a grid of 81 equal digits, the slowest for the search, gets its form.
#[test]
#[ignore = "every placement of hundreds of puzzles; run with --release"]
fn opt_in_agrees_with_trying_every_placement_on_hundreds() {
    let mut rng = Rng::new(9);
    for name in CORPORA {
        let puzzles = corpus(name);
        for p in puzzles.iter().step_by(puzzles.len() / 40 + 1) {
            let moved = Transform::random(&mut rng).apply(p);
            assert_eq!(
                minlex(&moved),
                canonical_by_search(&moved).grid,
                "{name}: {p:?}"
            );
        }
    }
    assert_eq!(minlex(&grid(ALL_ONES)), grid(ALL_ONES));
}

/// Solution grids of many kinds: the solutions of sample puzzles, and of `random` sparse puzzles
/// made of random givens that do not repeat in a unit (the solver's first solution of each).
fn solution_grids(rng: &mut Rng, random: usize) -> Vec<Grid> {
    let solved = |p: &Grid| crate::solver::solve(p, 1).ok().and_then(|o| o.solution);
    let mut out: Vec<Grid> = samples(3).iter().filter_map(solved).collect();
    while out.len() < 18 + random {
        let mut cells = [0u8; CELLS];
        for _ in 0..12 {
            cells[rng.below(CELLS)] = rng.below(9) as u8 + 1;
        }
        let p = Grid::from_values(cells).unwrap();
        if p.conflict().is_none() {
            out.extend(solved(&p));
        }
    }
    out
}

/// The grids of `symmetric_grids.txt` (automorphism count, grid), each in its minlex form.
fn symmetric_grids() -> Vec<(u64, Grid)> {
    include_str!("symmetric_grids.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (count, g) = l.split_once(' ').unwrap();
            (count.parse().unwrap(), grid(g))
        })
        .collect()
}

/// Checks that `g`, moved by a random transform, gets from [`canonical`] the form trying every
/// placement finds, a transform that gives it, and the same form from [`minlex`]; returns it.
fn agrees_with_search_when_moved(g: &Grid, rng: &mut Rng) -> Canonical {
    let moved = Transform::random(rng).apply(g);
    let c = canonical(&moved);
    assert_eq!(c.grid, canonical_by_search(&moved).grid, "{moved:?}");
    assert_eq!(c.transform.apply(&moved), c.grid, "{moved:?}");
    assert_eq!(minlex(&moved), c.grid);
    c
}

#[test]
fn complete_grids_agree_with_trying_every_placement() {
    let mut rng = Rng::new(26);
    let grids = solution_grids(&mut rng, 60);
    assert!(grids.len() >= 78);
    for g in &grids {
        assert!(g.is_complete() && g.conflict().is_none());
        let c = agrees_with_search_when_moved(g, &mut rng);
        assert_eq!(&c.grid.to_line(b'0')[..9], b"123456789");
    }
}

#[test]
fn symmetric_grids_are_their_own_forms_from_any_transform() {
    let mut rng = Rng::new(648);
    let grids = symmetric_grids();
    assert_eq!(grids.len(), 4);
    for (count, g) in &grids {
        assert_eq!(
            canonical_by_search(g).grid,
            *g,
            "{count}: listed in minlex form"
        );
        for _ in 0..20 {
            let moved = Transform::random(&mut rng).apply(g);
            let c = canonical(&moved);
            assert_eq!(c.grid, *g, "{count}: {moved:?}");
            assert_eq!(c.transform.apply(&moved), *g, "{count}: {moved:?}");
            assert_eq!(pattern_minlex(&moved), *g, "{count}: {moved:?}");
        }
        let moved = Transform::random(&mut rng).apply(g);
        assert_eq!(canonical_by_search(&moved).grid, *g, "{count}: {moved:?}");
    }
}

#[test]
fn isomorphic_grids_share_a_form_and_others_do_not() {
    let mut rng = Rng::new(11);
    let grids = solution_grids(&mut rng, 40);
    let forms: Vec<Grid> = grids.iter().map(minlex).collect();
    for (g, form) in grids.iter().zip(&forms) {
        for _ in 0..10 {
            let moved = Transform::random(&mut rng).apply(g);
            assert_eq!(minlex(&moved), *form, "{g:?} moved to {moved:?}");
            assert_eq!(pattern_minlex(&moved), *form, "{g:?} moved to {moved:?}");
        }
    }
    // forms differ exactly where the slow exhaustive search finds different forms
    for (i, a) in grids.iter().enumerate().step_by(4) {
        for (b, fb) in grids.iter().zip(&forms).skip(i + 1).step_by(5) {
            let same = canonical_by_search(a).grid == canonical_by_search(b).grid;
            assert_eq!(forms[i] == *fb, same, "{a:?} {b:?}");
        }
    }
}

#[test]
fn latin_squares_that_are_no_sudoku_get_their_exact_form() {
    // every row and column holds each digit once but the boxes do not: the grid route does not
    // apply, the general search does, and agrees with trying every placement
    let cells: Vec<u8> = (0..CELLS)
        .map(|i| ((i / 9 + i % 9) % 9 + 1) as u8)
        .collect();
    let latin = Grid::from_values(cells.try_into().unwrap()).unwrap();
    let moved = Transform::random(&mut Rng::new(3)).apply(&latin);
    assert_eq!(minlex(&moved), canonical_by_search(&moved).grid);
    assert_eq!(canonical(&moved).transform.apply(&moved), minlex(&moved));
}

#[test]
fn grid_invariants_hold_for_transforms_and_tell_most_grids_apart() {
    let mut rng = Rng::new(1);
    let grids = solution_grids(&mut rng, 60);
    for g in &grids {
        for _ in 0..10 {
            let moved = Transform::random(&mut rng).apply(g);
            assert_eq!(invariant(&moved), invariant(g), "{g:?} moved to {moved:?}");
        }
    }
    // every full grid had one value when only counts of givens described it
    let forms: std::collections::HashSet<Grid> = grids.iter().map(minlex).collect();
    let invariants: std::collections::HashSet<u64> = grids.iter().map(invariant).collect();
    assert!(invariants.len() <= forms.len(), "not an invariant");
    assert!(
        invariants.len() * 10 >= forms.len() * 9,
        "{} invariants for {} classes",
        invariants.len(),
        forms.len()
    );
    // a full grid with a digit repeated in a row keeps the count-based value, still invariant
    let mut cells = *grids[0].cells();
    cells[1] = cells[0];
    let broken = Grid::from_values(cells).unwrap();
    let moved = Transform::random(&mut rng).apply(&broken);
    assert_eq!(invariant(&moved), invariant(&broken));
}

/// Opt-in: the listed automorphism counts, by trying every placement of each grid.
#[test]
#[ignore = "3,359,232 placements a grid; run with --release"]
fn opt_in_symmetric_grids_have_their_automorphisms() {
    let orders = line_orders();
    for (count, g) in symmetric_grids() {
        let lines = Lines::new(&g);
        let mut found = 0;
        for grid in &lines.grid {
            for rows in &orders {
                for cols in &orders {
                    let labels = labels_in_order(grid, rows, cols);
                    let same = rows.iter().enumerate().all(|(i, &r)| {
                        cols.iter().enumerate().all(|(j, &c)| {
                            labels[usize::from(grid[usize::from(r)][usize::from(c)])]
                                == g.cells()[i * 9 + j]
                        })
                    });
                    found += u64::from(same);
                }
            }
        }
        assert_eq!(found, count, "{g:?}");
    }
}

/// Opt-in: a thousand solution grids, each moved at random, get what trying every placement
/// finds.
#[test]
#[ignore = "every placement of a thousand grids; run with --release"]
fn opt_in_complete_grids_agree_with_trying_every_placement_on_a_thousand() {
    let mut rng = Rng::new(1000);
    let mut grids = solution_grids(&mut rng, 500);
    grids.extend(
        corpus("csv/kaggle_quizzes_solutions_20k.csv")
            .iter()
            .take(500)
            .map(|p| crate::solver::solve(p, 1).unwrap().solution.unwrap()),
    );
    for g in &grids {
        let moved = Transform::random(&mut rng).apply(g);
        let c = canonical(&moved);
        assert_eq!(c.grid, canonical_by_search(&moved).grid, "{moved:?}");
        assert_eq!(c.transform.apply(&moved), c.grid);
    }
}

/// Grids with a digit repeated in a row or a column, of the kinds datasets hold and of the kinds
/// that are hardest for the search: sample puzzles with a given changed to repeat another of its
/// row or column (a typo), solution grids with two cells swapped or a cell copied into another,
/// sparse grids of one to three digits scattered at random (many repeats, many symmetries), and
/// whole rows or columns of one digit.
fn contradictory_grids(rng: &mut Rng, each: usize) -> Vec<Grid> {
    let mut out = Vec::new();
    let puzzles = samples(each);
    for p in &puzzles {
        let mut cells = *p.cells();
        let given: Vec<usize> = (0..CELLS).filter(|&i| cells[i] != 0).collect();
        let a = given[rng.below(given.len())];
        // another given of its row or column, copied into a blank of the same unit
        let unit: Vec<usize> = if rng.below(2) == 0 {
            (0..9).map(|c| a / 9 * 9 + c).collect()
        } else {
            (0..9).map(|r| r * 9 + a % 9).collect()
        };
        if let Some(&b) = unit.iter().find(|&&i| cells[i] == 0) {
            cells[b] = cells[a];
            out.push(Grid::from_values(cells).unwrap());
        }
    }
    for g in solution_grids(rng, each).into_iter().take(each * 2) {
        let mut cells = *g.cells();
        let (a, b) = (rng.below(CELLS), rng.below(CELLS));
        if rng.below(2) == 0 {
            cells.swap(a, b);
        } else {
            cells[b] = cells[a];
        }
        out.push(Grid::from_values(cells).unwrap());
    }
    for k in 0..each * 10 {
        let mut cells = [0u8; CELLS];
        let digits = 1 + k % 3;
        for _ in 0..2 + rng.below(30) {
            cells[rng.below(CELLS)] = rng.below(digits) as u8 + 1;
        }
        out.push(Grid::from_values(cells).unwrap());
    }
    let mut row = [0u8; CELLS];
    row[9..18].fill(4);
    out.push(Grid::from_values(row).unwrap());
    let column: [u8; CELLS] = std::array::from_fn(|i| if i % 9 == 3 { 7 } else { 0 });
    out.push(Grid::from_values(column).unwrap());
    let mut two = row;
    two[45..54].fill(2);
    out.push(Grid::from_values(two).unwrap());
    out.retain(|g| Lines::new(g).repeats);
    out
}

#[test]
fn contradictory_grids_agree_with_trying_every_placement() {
    let mut rng = Rng::new(2580);
    let grids = contradictory_grids(&mut rng, 4);
    assert!(grids.len() >= 40, "{}", grids.len());
    for g in &grids {
        let c = agrees_with_search_when_moved(g, &mut rng);
        assert_eq!(minlex(g), c.grid, "{g:?}: another transform, the same form");
    }
    assert_eq!(minlex(&grid(ALL_ONES)), grid(ALL_ONES));
}

/// Opt-in: the same on a few thousand grids, from every sample.
#[test]
#[ignore = "every placement of thousands of grids; run with --release"]
fn opt_in_contradictory_grids_agree_with_trying_every_placement_on_thousands() {
    let mut rng = Rng::new(2024);
    for _ in 0..10 {
        for g in &contradictory_grids(&mut rng, 100) {
            agrees_with_search_when_moved(g, &mut rng);
        }
    }
}
