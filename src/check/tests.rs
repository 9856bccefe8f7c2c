//! Verdicts and details for every kind of record, minimality, duplicates and tallies.

use super::*;

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const SOLUTION: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
/// A 17-clue puzzle (tdoku puzzles2_17_clue): minimal, since no 16-clue puzzle has one solution.
const SEVENTEEN: &str =
    ".................1..2..3........4.5..6.......14...7.......1.6.4....6.3....58...9.";
/// Consistent givens, but r1c9 can hold nothing: row 1 has 1..8 and column 9 has 9.
const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

fn grid(text: &str) -> Grid {
    text.parse().unwrap()
}

fn check(puzzle: &str, given: Option<&str>) -> Check {
    check_puzzle(&grid(puzzle), given, &Options::default())
}

/// SOLUTION with `cell` set to `digit`.
fn solution_with(cell: usize, digit: u8) -> String {
    let mut s = SOLUTION.as_bytes().to_vec();
    s[cell] = b'0' + digit;
    String::from_utf8(s).unwrap()
}

fn record(line: u64, text: &str) -> Record {
    Record {
        source: 0,
        line,
        fields: Default::default(),
        cells: text.to_string(),
        puzzle: Grid::parse(text.as_bytes()).map_err(|e| e.to_string()),
        solution: None,
        above: String::new(),
    }
}

#[test]
fn unique_puzzle_has_its_solution_and_no_detail() {
    let c = check(PUZZLE, None);
    assert_eq!(c.verdict, Verdict::Unique);
    assert_eq!(c.detail, None);
    assert_eq!(c.solution, Some(grid(SOLUTION)));
    assert_eq!(c.redundant, None, "not looked at without --minimal");
    assert!(!c.is_finding());
}

#[test]
fn unique_puzzle_with_its_right_solution_is_unique() {
    let zeros = SOLUTION.to_string();
    assert_eq!(check(PUZZLE, Some(&zeros)).verdict, Verdict::Unique);
}

#[test]
fn multiple_says_whether_the_given_solution_is_one() {
    let empty = ".".repeat(81);
    let c = check(&empty, None);
    assert_eq!(c.verdict, Verdict::Multiple);
    let detail = c.detail.unwrap();
    assert!(
        detail.starts_with("2 or more solutions; two of them differ in "),
        "{detail}"
    );
    assert_eq!(c.solution, None, "no solution is the only one");
    let c = check(&empty, Some(SOLUTION));
    assert_eq!(c.verdict, Verdict::Multiple);
    let detail = c.detail.unwrap();
    assert!(
        detail.starts_with("2 or more solutions (the given solution is one); two of them differ"),
        "{detail}"
    );
}

#[test]
fn multiple_names_the_cells_where_two_solutions_differ() {
    // the solution with a deadly rectangle blanked: r1c2 r1c7 r2c2 r2c7 hold 8 6 / 6 8 or 6 8 / 8 6
    let mut cells = SOLUTION.as_bytes().to_vec();
    for i in [1, 6, 10, 15] {
        cells[i] = b'.';
    }
    let c = check(std::str::from_utf8(&cells).unwrap(), None);
    assert_eq!(c.verdict, Verdict::Multiple);
    let detail = c.detail.unwrap();
    let first_found = "r1c2 (8/6), r1c7 (6/8), r2c2 (6/8), r2c7 (8/6)";
    let other_first = "r1c2 (6/8), r1c7 (8/6), r2c2 (8/6), r2c7 (6/8)";
    assert!(
        [first_found, other_first]
            .map(|cells| format!("2 or more solutions; two of them differ in 4 cells: {cells}"))
            .contains(&detail),
        "{detail}"
    );
    // many differing cells: the first ten (1 and 2 swapped: 18 cells)
    let swapped: String = SOLUTION
        .chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect();
    assert_eq!(
        super::ambiguity(&grid(SOLUTION), &grid(&swapped)),
        "two of them differ in 18 cells: r1c5 (2/1), r1c6 (1/2), r2c8 (2/1), r2c9 (1/2), \
         r3c1 (2/1), r3c3 (1/2), r4c4 (1/2), r4c6 (2/1), r5c2 (2/1), r5c7 (1/2), ..."
    );
}

#[test]
fn unsolvable_puzzle_says_no_solution() {
    let c = check(UNSOLVABLE, Some(SOLUTION));
    assert_eq!(c.verdict, Verdict::Unsolvable);
    assert_eq!(c.detail.as_deref(), Some("no solution"));
}

#[test]
fn contradiction_names_digit_unit_and_cells() {
    let mut text = PUZZLE.as_bytes().to_vec();
    text[1] = b'3'; // r1c2 = 3 beside the given 3 at r1c3
    let c = check(std::str::from_utf8(&text).unwrap(), None);
    assert_eq!(c.verdict, Verdict::Contradiction);
    assert_eq!(
        c.detail.as_deref(),
        Some("digit 3 twice in row 1 (r1c2 and r1c3)")
    );
}

#[test]
fn malformed_record_keeps_the_readers_reason() {
    let c = check_record(&record(4, "123"), None, &Options::default());
    assert_eq!(c.verdict, Verdict::Malformed);
    assert_eq!(c.detail.as_deref(), Some("found 3 cells, expected 81"));
}

#[test]
fn duplicate_record_names_the_first_and_is_not_searched() {
    // a contradiction, but a duplicate is not looked at again: its first occurrence says it
    let bad = format!("55{}", ".".repeat(79));
    let c = check_record(
        &record(9, &bad),
        Some("same puzzle as line 2"),
        &Options::default(),
    );
    assert_eq!(c.verdict, Verdict::Duplicate);
    assert_eq!(c.detail.as_deref(), Some("same puzzle as line 2"));
    // a malformed record stays malformed, whatever it repeats
    let c = check_record(&record(9, "x"), Some("line 2"), &Options::default());
    assert_eq!(c.verdict, Verdict::Malformed);
}

#[test]
fn wrong_solution_says_what_is_wrong_and_where() {
    let cases = [
        (
            SOLUTION[..80].to_string(),
            "given solution: found 80 cells, expected 81",
        ),
        (
            format!("x{}", &SOLUTION[1..]),
            "given solution: invalid character 'x' at cell 1 (r1c1)",
        ),
        (
            solution_with(5, 0),
            "given solution leaves r1c6 blank; 1 cell differs from the only solution: \
             r1c6 is blank not 1",
        ),
        (
            format!("{}{}", ".".repeat(5), &SOLUTION[5..]),
            "given solution leaves 5 cells blank, first r1c1; 5 cells differ from the only \
             solution: r1c1 is blank not 4, r1c2 is blank not 8, r1c3 is blank not 3, ...",
        ),
        (
            // r1c3 is a given 3
            solution_with(2, 7),
            "given solution has 7 at r1c3, where the puzzle gives 3; 1 cell differs from the \
             only solution: r1c3 is 7 not 3",
        ),
        (
            // r1c1 is not a given: a complete grid keeping the givens, but two 3s in row 1
            solution_with(0, 3),
            "given solution has digit 3 twice in row 1 (r1c1 and r1c3); 1 cell differs from \
             the only solution: r1c1 is 3 not 4",
        ),
    ];
    for (given, detail) in cases {
        let c = check(PUZZLE, Some(&given));
        assert_eq!(c.verdict, Verdict::WrongSolution, "{given}");
        assert_eq!(c.detail.as_deref(), Some(detail), "{given}");
        assert_eq!(
            c.solution,
            Some(grid(SOLUTION)),
            "the right one comes along"
        );
    }
}

#[test]
fn wrong_solution_of_a_puzzle_with_several_solutions() {
    let empty = ".".repeat(81);
    let c = check(&empty, Some(&solution_with(0, 3)));
    assert_eq!(c.verdict, Verdict::WrongSolution);
    assert_eq!(
        c.detail.as_deref(),
        Some("given solution has digit 3 twice in row 1 (r1c1 and r1c3)")
    );
}

#[test]
fn given_solution_of_a_record_is_checked() {
    let mut r = record(2, PUZZLE);
    r.solution = Some(solution_with(0, 3));
    let c = check_record(&r, None, &Options::default());
    assert_eq!(c.verdict, Verdict::WrongSolution);
}

#[test]
fn minimal_finds_redundant_givens() {
    let minimal = Options {
        minimal: true,
        ..Options::default()
    };
    let c = check_puzzle(&grid(SEVENTEEN), None, &minimal);
    assert_eq!(
        (c.verdict, c.redundant.clone()),
        (Verdict::Unique, Some(vec![]))
    );
    assert_eq!(c.detail, None);
    assert!(!c.is_finding());

    // every given of a full grid can go alone
    let c = check_puzzle(&grid(SOLUTION), None, &minimal);
    assert_eq!(c.redundant, Some((0..81).collect()));
    assert!(c.is_finding());

    // the 17-clue puzzle plus one more digit of its solution: that digit is redundant
    let only = check(SEVENTEEN, None).solution.unwrap();
    let mut cells = *grid(SEVENTEEN).cells();
    cells[0] = only.cells()[0];
    let c = check_puzzle(&Grid::from_values(cells).unwrap(), None, &minimal);
    let redundant = c.redundant.unwrap();
    assert!(redundant.contains(&0), "{redundant:?}");
    assert_eq!(
        c.detail.unwrap(),
        not_minimal(&redundant).unwrap(),
        "the detail lists them"
    );
    assert_eq!(
        not_minimal(&[0, 80]).unwrap(),
        "not minimal: 2 redundant givens (r1c1, r9c9)"
    );
    assert_eq!(
        not_minimal(&[10]).unwrap(),
        "not minimal: 1 redundant given (r2c2)"
    );
}

#[test]
fn minimal_is_not_looked_at_for_other_verdicts() {
    let minimal = Options {
        minimal: true,
        ..Options::default()
    };
    let c = check_puzzle(&grid(&".".repeat(81)), None, &minimal);
    assert_eq!(c.redundant, None);
    // a wrong solution of a minimal puzzle: the minimality of the puzzle is still told
    let mut blank = check(SEVENTEEN, None).solution.unwrap().to_string();
    blank.replace_range(0..1, ".");
    let c = check_puzzle(&grid(SEVENTEEN), Some(&blank), &minimal);
    assert_eq!(
        (c.verdict, c.redundant),
        (Verdict::WrongSolution, Some(vec![]))
    );
}

#[test]
fn duplicates_name_the_first_record_in_the_same_or_another_input() {
    let mut d = Duplicates::new(vec!["a.txt".into(), "b.txt".into()]);
    let zeros = PUZZLE.replace('.', "0");
    assert_eq!(d.first_seen(&record(3, PUZZLE)), None);
    assert_eq!(d.first_seen(&record(4, SOLUTION)), None);
    assert_eq!(
        d.first_seen(&record(7, &zeros)),
        Some("same puzzle as line 3".into()),
        "blanks compare equal whatever their character"
    );
    let mut other = record(1, PUZZLE);
    other.source = 1;
    assert_eq!(d.first_seen(&other), Some("same puzzle as a.txt:3".into()));
    assert_eq!(d.first_seen(&record(9, "x")), None);
    assert_eq!(d.first_seen(&record(10, "x")), None, "malformed: never");
    assert_eq!(d.len(), 2);
}

#[test]
fn isomorphic_duplicates_name_the_first_of_their_class() {
    let mut d = Duplicates::with_mode(vec!["a.txt".into()], DuplicateMode::Isomorphic);
    let mut rng = crate::transform::Rng::new(5);
    let moved = crate::transform::Transform::random(&mut rng).apply(&grid(PUZZLE));
    let moved = String::from_utf8(moved.to_line(b'.').to_vec()).unwrap();
    assert_ne!(moved, PUZZLE);
    assert_eq!(d.first_seen(&record(2, PUZZLE)), None);
    assert_eq!(d.first_seen(&record(3, SOLUTION)), None);
    assert_eq!(
        d.first_seen(&record(5, &moved)),
        Some("isomorphic to line 2".into())
    );
    assert_eq!(
        d.first_seen(&record(6, PUZZLE)),
        Some("same puzzle as line 2".into())
    );
    assert_eq!(d.first_seen(&record(7, "x")), None, "malformed: never");
    assert_eq!(d.len(), 2);
    // exact mode tells the transform apart
    let mut exact = Duplicates::new(vec!["a.txt".into()]);
    assert_eq!(exact.first_seen(&record(2, PUZZLE)), None);
    assert_eq!(exact.first_seen(&record(5, &moved)), None);
}

/// serg's benchmark puzzles share one pattern, so a third of them share their invariant with
/// another (`canon::invariant`'s tests) while no two are isomorphic: a stream of them and of their
/// transforms meets every path of the isomorphic tracker (new invariant; invariant met again, by
/// the same class or by another; the first puzzle's form computed in the batch where its invariant
/// returns, or in a later one).
#[test]
fn isomorphic_duplicates_agree_with_minlex_forms_however_the_stream_is_cut() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/serg_100.txt")).unwrap();
    let puzzles: Vec<Grid> = text.lines().filter_map(|l| l.parse().ok()).collect();
    assert_eq!(puzzles.len(), 100);
    let mut rng = crate::transform::Rng::new(14);
    let mut records = Vec::new();
    for line in 1..=400u64 {
        let p = &puzzles[rng.below(puzzles.len())];
        let p = if rng.below(2) == 0 {
            *p
        } else {
            crate::transform::Transform::random(&mut rng).apply(p)
        };
        records.push(record(line, &p.to_string()));
        if line % 50 == 0 {
            records.push(record(line, "not a puzzle"));
        }
    }
    // the reference: the first record with each minlex form
    let mut first = std::collections::HashMap::new();
    let expected: Vec<Option<String>> = records
        .iter()
        .map(|r| {
            let puzzle = r.puzzle.as_ref().ok()?;
            let seen = *first
                .entry(crate::canon::minlex(puzzle))
                .or_insert((r.line, *puzzle));
            (seen.0 != r.line).then(|| {
                let relation = if seen.1 == *puzzle {
                    "same puzzle as"
                } else {
                    "isomorphic to"
                };
                format!("{relation} line {}", seen.0)
            })
        })
        .collect();
    assert!(expected.iter().filter(|d| d.is_some()).count() > 250);
    let mut members = std::collections::HashMap::new();
    for r in &records {
        if let Ok(p) = &r.puzzle {
            *members.entry(crate::canon::minlex(p)).or_insert(0u64) += 1;
        }
    }
    let mut sizes = BTreeMap::new();
    for &n in members.values().filter(|&&n| n > 1) {
        *sizes.entry(n).or_insert(0u64) += 1;
    }
    for batch in [1, 7, 64, 1000] {
        let mut d = Duplicates::with_mode(vec!["a.txt".into()], DuplicateMode::Isomorphic);
        let mut details = Vec::new();
        for chunk in records.chunks(batch) {
            d.first_seen_all(chunk, &mut details);
        }
        assert_eq!(details, expected, "batches of {batch}");
        assert_eq!(d.len(), first.len());
        assert_eq!(d.class_sizes(), sizes, "batches of {batch}");
    }
}

#[test]
fn guess_buckets_are_powers_of_two() {
    let buckets: Vec<usize> = [0, 1, 2, 3, 4, 7, 8, u64::MAX]
        .into_iter()
        .map(guess_bucket)
        .collect();
    assert_eq!(buckets, [0, 1, 2, 2, 3, 3, 4, 64]);
    let mut stats = DatasetStats::default();
    for g in [0, 2, 3, 300] {
        stats.guesses[guess_bucket(g)] += 1;
    }
    let ranges: Vec<_> = stats.guesses().collect();
    assert_eq!(ranges, [(0, 0, 1), (2, 3, 2), (256, 511, 1)]);
}

#[test]
fn the_tally_counts_givens_guesses_and_duplicate_classes() {
    let mut d = Duplicates::new(vec!["a.txt".into()]);
    let mut tally = Tally::default();
    let lines = [PUZZLE, PUZZLE, SOLUTION, PUZZLE, SOLUTION, "x"];
    for (i, text) in lines.iter().enumerate() {
        let r = record(i as u64 + 1, text);
        let first = d.first_seen(&r);
        tally.add(&r, &check_record(&r, first.as_deref(), &Options::default()));
    }
    tally.set_duplicates(&d);
    let stats = tally.totals(&Options::default()).stats;
    let givens = grid(PUZZLE).givens();
    // the duplicates' cells count too; the malformed record does not
    assert_eq!(stats.givens().collect::<Vec<_>>(), [(givens, 3), (81, 2)]);
    // only the two first occurrences were searched
    assert_eq!(stats.guesses().map(|g| g.2).sum::<u64>(), 2);
    assert_eq!(stats.distinct, Some(2));
    assert_eq!(
        stats.duplicate_classes.into_iter().collect::<Vec<_>>(),
        [(2, 1), (3, 1)]
    );
}

#[test]
fn digests_of_close_puzzles_differ() {
    let mut seen = std::collections::HashSet::new();
    let base = grid(PUZZLE);
    for cell in 0..81 {
        for digit in 0..=9 {
            let mut cells = *base.cells();
            cells[cell] = digit;
            seen.insert(digest(&Grid::from_values(cells).unwrap()));
        }
    }
    // 81 cells x 10 values, minus the 80 repeats of the base puzzle itself
    assert_eq!(seen.len(), 81 * 10 - 80);
}

#[test]
fn tally_counts_verdicts_problems_and_minimality() {
    let minimal = Options {
        minimal: true,
        ..Options::default()
    };
    let mut t = Tally::default();
    let mut with_solution = record(1, SEVENTEEN);
    with_solution.solution = Some("1".into());
    for r in [
        with_solution,
        record(2, SOLUTION),
        record(3, UNSOLVABLE),
        record(4, "x"),
    ] {
        t.add(&r, &check_record(&r, None, &minimal));
    }
    let totals = t.totals(&minimal);
    assert_eq!((totals.records, totals.problems), (4, 3));
    assert_eq!(
        totals.to_string(),
        "4 records: 1 unique, 1 unsolvable, 1 malformed, 1 wrong_solution\n\
         given solutions: 1\n\
         minimal: 1 of 2 puzzles with one solution; 1 has 81 redundant givens"
    );
    assert_eq!(
        serde_json::to_string(&totals).unwrap(),
        r#"{"records":4,"problems":3,"verdicts":{"unique":1,"multiple":0,"unsolvable":1,"contradiction":0,"malformed":1,"wrong_solution":1,"duplicate":0},"given_solutions":1,"stats":{"givens":{"9":1,"17":1,"81":1},"guesses":[{"min":0,"max":0,"puzzles":3}],"distinct":null,"duplicate_classes":{}},"minimal":{"checked":2,"minimal":1,"not_minimal":1,"redundant_givens":81},"ratings":null,"interrupted":null}"#
    );
    let none = Tally::default().totals(&Options::default());
    assert_eq!(none.to_string(), "0 records\ngiven solutions: none");
    assert_eq!(none.minimal, None);
}

#[test]
fn verdict_words_match_serde_names_and_all_order() {
    for (i, v) in Verdict::ALL.iter().enumerate() {
        assert_eq!(*v as usize, i);
        assert_eq!(
            serde_json::to_string(v).unwrap(),
            format!("\"{}\"", v.as_str())
        );
    }
    assert_eq!(Verdict::WrongSolution.to_string(), "wrong_solution");
    assert!(!Verdict::Unique.is_problem());
    assert!(Verdict::ALL[1..].iter().all(|v| v.is_problem()));
}
