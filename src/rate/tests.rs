//! Helpers for the technique tests, and tests of the stepper.

use std::ops::ControlFlow;

use super::board::Board;
use super::hint::{Hint, Sink};
use super::*;
use crate::grid::Grid;

/// The board of an 81-character puzzle.
pub fn board(puzzle: &str) -> Board {
    Board::new(&puzzle.parse::<Grid>().expect("a puzzle"))
}

/// Every hint a technique finds, in its order.
pub fn all_hints(board: &Board, find: impl Fn(&Board, Sink) -> ControlFlow<()>) -> Vec<Hint> {
    let mut hints = Vec::new();
    let _ = find(board, &mut |h| {
        hints.push(h);
        ControlFlow::Continue(())
    });
    hints
}

#[test]
fn combinations_come_in_increasing_mask_order() {
    let all: Vec<u64> = Combinations::new(2, 4).collect();
    assert_eq!(all, vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
    assert_eq!(Combinations::new(3, 9).count(), 84);
    assert_eq!(Combinations::new(0, 5).collect::<Vec<_>>(), vec![0]);
    assert_eq!(Combinations::new(4, 3).count(), 0);
    assert_eq!(Combinations::new(9, 9).collect::<Vec<_>>(), vec![0x1FF]);
}

#[test]
fn an_easy_puzzle_rates_as_explainer_rates_it() {
    // serate: ED=2.0/1.2/1.2
    let puzzle: Grid =
        ".2.4.......6..913.....152......8....3.....5..8...647...147.28.5.....1.9.........."
            .parse()
            .unwrap();
    let r = rate(&puzzle, &Options::default()).unwrap();
    assert_eq!(r.end, End::Solved);
    assert_eq!((tenths(r.er), tenths(r.ep), tenths(r.ed)), (20, 12, 12));
}

#[test]
fn puzzles_without_one_solution_get_no_rating() {
    let empty = Grid::EMPTY;
    assert_eq!(rate(&empty, &Options::default()), Err(RateError::Multiple));
    let clash: Grid =
        "11..............................................................................."
            .parse()
            .unwrap();
    assert_eq!(
        rate(&clash, &Options::default()),
        Err(RateError::Contradiction)
    );
}

#[test]
fn max_er_stops_once_the_rating_is_known_to_lie_above() {
    let puzzle: Grid =
        ".2.4.......6..913.....152......8....3.....5..8...647...147.28.5.....1.9.........."
            .parse()
            .unwrap();
    let options = Options {
        max_er: Some(15),
        explain: true,
    };
    let r = rate(&puzzle, &options).unwrap();
    assert_eq!(r.end, End::Above);
    // the path up to the stop: steps within the bound, then at most one above it (a stop before
    // trying a harder family leaves none above)
    let within = r.path.iter().take_while(|h| h.difficulty <= 1.5).count();
    assert!(within + 1 >= r.path.len());
    // the full rating agrees that the puzzle lies above the bound, and went further
    let full = rate(&puzzle, &Options::default()).unwrap();
    assert!(full.er > 1.5);
    assert!(full.steps > r.steps);
    assert_eq!(full.ed, r.ed);
}

/// Explainer's ratings of the fixture puzzles: (file, puzzle, [er, ep, ed] in tenths).
fn fixtures() -> Vec<(String, String, [u32; 3])> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/se/out");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            // a puzzle serate did not finish in time has no rating
            if let Some((puzzle, r)) = parse_serate(line) {
                out.push((name.clone(), puzzle.to_string(), r));
            }
        }
    }
    out
}

/// Every fixture rated and compared with Explainer, with a table per band of Explainer's ER
/// (opt-in: `cargo test --release -- --ignored fixtures_agree --nocapture`; `RATE_MAX=<tenths>`
/// keeps the puzzles Explainer rates at most that).
#[test]
#[ignore]
fn fixtures_agree_with_explainer() {
    let max: u32 = std::env::var("RATE_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // per band: count, ER exact, ER within 0.1, within 0.2, EP exact, ED exact, seconds
    let mut bands = [[0f64; 7]; 3];
    let mut bad = 0;
    for (file, puzzle, want) in fixtures() {
        if want[0] > max {
            continue;
        }
        let grid: Grid = puzzle.parse().unwrap();
        let start = std::time::Instant::now();
        let Ok(r) = rate(&grid, &Options::default()) else {
            continue;
        };
        let secs = start.elapsed().as_secs_f64();
        let got = [tenths(r.er), tenths(r.ep), tenths(r.ed)];
        let band = &mut bands[match want[0] {
            ..65 => 0,
            65..80 => 1,
            _ => 2,
        }];
        let diff = got[0].abs_diff(want[0]);
        for (i, ok) in [
            true,
            diff == 0,
            diff <= 1,
            diff <= 2,
            got[1] == want[1],
            got[2] == want[2],
        ]
        .into_iter()
        .enumerate()
        {
            band[i] += ok as u8 as f64;
        }
        band[6] += secs;
        if got != want {
            bad += 1;
            println!("{file} {puzzle} want {want:?} got {got:?}");
        }
    }
    println!("band      puzzles  ER=    ER±0.1  ER±0.2  EP=     ED=     ms/puzzle");
    for (name, b) in ["<6.5", "6.5-7.9", "8.0+"].iter().zip(&bands) {
        let pc = |x: f64| 100.0 * x / b[0].max(1.0);
        println!(
            "{name:9} {:7} {:6.2}% {:6.2}% {:6.2}% {:6.2}% {:6.2}% {:9.3}",
            b[0],
            pc(b[1]),
            pc(b[2]),
            pc(b[3]),
            pc(b[4]),
            pc(b[5]),
            1000.0 * b[6] / b[0].max(1.0)
        );
    }
    assert_eq!(bad, 0);
}

#[test]
fn serate_lines_are_read_as_tenths() {
    let p = "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
    assert_eq!(
        parse_serate(&format!("{p} ED=10.9/1.2/1.0")),
        Some((p, [109, 12, 10]))
    );
    assert_eq!(parse_serate(&format!("{p} TIMEOUT=120s")), None);
    assert_eq!(parse_serate(&format!("{p} ED=7.2/1.2")), None);
}
