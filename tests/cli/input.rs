//! What the readers make of real-world files, through the real binary: truncated fields,
//! compressed and binary input, overlong records.

use crate::{Workdir, bin, jsonl};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const SOLUTION: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

/// The `(line, status or verdict, reason)` of each jsonl record, `key` naming the status field.
fn outcomes(stdout: &[u8], key: &str) -> Vec<(u64, String)> {
    jsonl(stdout)
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().expect("line"),
                r[key].as_str().expect("status").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_truncated_puzzle_before_its_solution_is_malformed_in_every_layout() {
    let dir = Workdir::new();
    let short = &PUZZLE[..80];
    let lines = dir.write(
        "lines.txt",
        format!(
            "{PUZZLE} {SOLUTION}\n{short} {SOLUTION}\n{short}:1:{SOLUTION}\n{short},{SOLUTION}\n\
             00005f662e09 {short} 3.4\n{PUZZLE}:1:{SOLUTION}\n"
        ),
    );
    let csv = dir.write(
        "rows.csv",
        format!("puzzle,solution\n{PUZZLE},{SOLUTION}\n{short},{SOLUTION}\n"),
    );
    let want_lines = [
        (1, "unique"),
        (2, "malformed"),
        (3, "malformed"),
        (4, "malformed"),
        (5, "malformed"),
        (6, "unique"),
    ];
    let want_csv = [(2, "unique"), (3, "malformed")];
    for (path, want) in [(&lines, &want_lines[..]), (&csv, &want_csv[..])] {
        let check = bin()
            .args(["check", "-q", "-O", "jsonl"])
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(
            check.status.code(),
            Some(1),
            "a malformed record is a problem"
        );
        let got = outcomes(&check.stdout, "verdict");
        let want: Vec<_> = want.iter().map(|&(l, v)| (l, v.to_string())).collect();
        assert_eq!(got, want, "{}", path.display());
        let stderr = String::from_utf8_lossy(&check.stderr);
        let name = path.display().to_string();
        assert!(
            stderr.contains(&format!(
                "{name}:{}: malformed: found 80 cells, expected 81",
                want[1].0
            )),
            "{stderr}"
        );

        let solve = bin()
            .args(["solve", "-q", "-u", "-O", "jsonl"])
            .arg(path)
            .output()
            .unwrap();
        assert!(solve.status.success());
        assert_eq!(
            outcomes(&solve.stdout, "status"),
            want,
            "{}",
            path.display()
        );
    }
}
