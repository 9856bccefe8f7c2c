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

#[test]
fn a_record_longer_than_the_cap_is_malformed_and_the_run_goes_on() {
    let dir = Workdir::new();
    let huge = "1".repeat(3 << 20);
    let lines = dir.write(
        "long.txt",
        format!("{PUZZLE}\n{huge}\n{PUZZLE}\n# {huge}\n{PUZZLE}\n"),
    );
    let out = bin()
        .args(["solve", "-q", "-O", "jsonl"])
        .arg(&lines)
        .output()
        .unwrap();
    assert!(out.status.success());
    let want: Vec<(u64, String)> = [
        (1, "solved"),
        (2, "malformed"),
        (3, "solved"),
        (5, "solved"),
    ]
    .iter()
    .map(|&(l, s)| (l, s.to_string()))
    .collect();
    assert_eq!(outcomes(&out.stdout, "status"), want);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(":2: line longer than 65536 bytes"),
        "{stderr}"
    );

    // CSV: a long row, and a row whose quote never closes, each cost one record
    let mut csv = format!("id,puzzle\n1,{PUZZLE}\n2,{huge}\n3,{PUZZLE}\n\"4,{PUZZLE}\n");
    for i in 5..20 {
        csv.push_str(&format!("{i},{PUZZLE}\n"));
    }
    let csv = dir.write("long.csv", csv);
    let out = bin()
        .args(["check", "-q", "-O", "jsonl", "--max-record", "1K"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let records = jsonl(&out.stdout);
    let details: Vec<(u64, &str)> = records
        .iter()
        .filter(|r| r["verdict"] == "malformed")
        .map(|r| (r["line"].as_u64().unwrap(), r["detail"].as_str().unwrap()))
        .collect();
    assert_eq!(
        details,
        [
            (3, "row longer than 1024 bytes"),
            (
                5,
                "row longer than 1024 bytes (lines 5 to 17: an unclosed quote?)"
            ),
        ]
    );
    let last = records.last().unwrap();
    assert_eq!(
        (last["line"].as_u64(), last["verdict"].as_str()),
        (Some(20), Some("unique"))
    );
    // raising the cap reads the long row whole (a malformed puzzle of 3 Mi cells)
    let out = bin()
        .args(["solve", "-q", "-O", "jsonl", "--max-record", "4M"])
        .arg(&lines)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(":2: found 3145728 cells, expected 81"),
        "{stderr}"
    );
}

#[test]
fn max_record_takes_sizes_with_binary_suffixes() {
    let help = bin().args(["solve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--max-record <SIZE>"), "{help}");
    assert!(help.contains("[default: 64K]"), "{help}");
    for bad in ["0", "12X", "-5", "K"] {
        let out = bin()
            .args(["solve", "--max-record", bad, "data/hardest_300.txt"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    for good in ["100", "64k", "1MiB", "2G"] {
        bin()
            .args(["solve", "-q", "--max-record", good, "data/hardest_300.txt"])
            .assert()
            .success();
    }
}
