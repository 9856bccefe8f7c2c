//! What the readers make of real-world files, through the real binary: truncated fields,
//! compressed and binary input, overlong records.

use crate::{Workdir, bin, command, jsonl, output_fed, repo};

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

    // CSV: a long row, and a row whose quote never closes, each cost one record (the lines
    // after the quote's are read again as rows: none lost, however long the input)
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
                "row longer than 1024 bytes (lines 5 to 17 would be one row: a quote that never \
                 closes?): the lines after the first are read as rows of their own"
            ),
        ]
    );
    let lines_out: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines_out, (2..=20).collect::<Vec<u64>>());
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

/// Compressed copies of data/ samples, made by the real tools (gzip -9 -n, zstd -19, xz -9,
/// bzip2 -9; the two-part ones are two compressed halves concatenated, as pigz and pbzip2 write;
/// the zips by Info-ZIP `zip -X` (deflate, stored, bzip2) and Python's zipfile (a folder, macOS
/// metadata, an LZMA entry)).
const COMPRESSED: &str = "tests/fixtures/compressed";

/// `solve -q -j1 --no-timings ARGS`, which must succeed; its stdout.
fn solved(args: &[&str], stdin: Option<&[u8]>) -> Vec<u8> {
    let mut cmd = bin();
    cmd.args(["solve", "-q", "-j1", "--no-timings"]).args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes.to_vec());
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `solve -q -j2 --no-timings -`, stdin redirected from `path`, which must succeed; its stdout.
fn solved_redirected(path: &str) -> Vec<u8> {
    let out = command(&["solve", "-q", "-j2", "--no-timings", "-"])
        .stdin(std::fs::File::open(repo(path)).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{path}");
    out.stdout
}

#[test]
fn compressed_files_and_stdin_read_as_their_plain_text() {
    let plain = solved(&["data/hardest_300.txt"], None);
    for name in [
        "hardest_300.txt.gz",
        "hardest_300.txt.zst",
        "hardest_300.txt.xz",
        "hardest_300.txt.bz2",
        "hardest_300_two_members.txt.gz",
        "hardest_300_two_frames.txt.zst",
        "hardest_300_two_streams.txt.xz",
        "hardest_300_two_streams.txt.bz2",
    ] {
        let path = format!("{COMPRESSED}/{name}");
        assert_eq!(solved(&[&path], None), plain, "{name}");
        let bytes = std::fs::read(repo(&path)).unwrap();
        assert_eq!(solved(&["-"], Some(&bytes)), plain, "{name} on stdin");
        assert_eq!(solved_redirected(&path), plain, "{name} redirected");
    }
    let csv = solved(&["data/kaggle_200.csv"], None);
    for name in [
        "kaggle_200.csv.zip",
        "kaggle_200_stored.csv.zip",
        "kaggle_200_bzip2.csv.zip",
        "kaggle_200_macos.csv.zip",
    ] {
        let path = format!("{COMPRESSED}/{name}");
        assert_eq!(solved(&[&path], None), csv, "{name}");
        let bytes = std::fs::read(repo(&path)).unwrap();
        assert_eq!(solved(&["-"], Some(&bytes)), csv, "{name} on stdin");
        // redirected, the zip is read from its file (no temporary copy)
        assert_eq!(solved_redirected(&path), csv, "{name} redirected");
    }
    // inputs of different kinds in one run
    let both = solved(
        &[
            &format!("{COMPRESSED}/hardest_300.txt.gz"),
            "data/hardest_300.txt",
        ],
        None,
    );
    assert_eq!(both, [plain.clone(), plain].concat());
}

/// Runs `solve` on `path`, which must fail with exit 2; returns (stdout, stderr).
fn fails(path: &std::path::Path) -> (Vec<u8>, String) {
    let out = bin()
        .args(["solve", "-q", "-j1"])
        .arg(path)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).expect("messages are UTF-8");
    assert_eq!(out.status.code(), Some(2), "{}: {stderr}", path.display());
    assert!(
        !stderr.chars().any(|c| c.is_control() && c != '\n'),
        "no raw bytes in messages: {stderr:?}"
    );
    (out.stdout, stderr)
}

/// The sample `name` of the repository `times` over, gzipped.
fn gzipped(name: &str, times: usize) -> Vec<u8> {
    use std::io::Write as _;
    let text = std::fs::read_to_string(repo(name)).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for _ in 0..times {
        gz.write_all(text.as_bytes()).unwrap();
    }
    gz.finish().unwrap()
}

#[test]
fn a_cut_or_damaged_compressed_file_is_an_error_after_the_records_before_it() {
    let dir = Workdir::new();
    // 3,000 puzzles, gzipped here: large enough that records come out before the cut
    let gz = gzipped("data/hardest_300.txt", 10);
    let cut = dir.write("cut.txt.gz", &gz[..gz.len() * 3 / 4]);
    let (stdout, stderr) = fails(&cut);
    let lines = stdout.iter().filter(|&&b| b == b'\n').count();
    assert!(
        (1000..3000).contains(&lines),
        "{lines} records before the cut"
    );
    assert!(
        stderr.starts_with(&format!(
            "sudoku-batch: error: {}: after line {lines}: gzip data: ",
            cut.display()
        )),
        "{stderr}"
    );
    // every format, cut short (at half, and just before its end)
    for ext in ["gz", "zst", "xz", "bz2"] {
        let whole = std::fs::read(repo(&format!("{COMPRESSED}/hardest_300.txt.{ext}"))).unwrap();
        for keep in [whole.len() / 2, whole.len() - 4] {
            let path = dir.write(&format!("cut.{ext}"), &whole[..keep]);
            let (stdout, stderr) = fails(&path);
            let format = match ext {
                "gz" => "gzip",
                "zst" => "zstd",
                "bz2" => "bzip2",
                other => other,
            };
            assert!(
                stderr.contains(&format!("{format} data: ")),
                "{ext} {keep}: {stderr}"
            );
            // the records before the cut are written, as from a pipe: a file cut within its
            // first 64 KiB decoded gave none, and no line in the error
            // (gzip decodes as it goes; a zstd, xz or bzip2 block this small is decoded whole
            // or not at all, so no record precedes their cut)
            let lines = stdout.iter().filter(|&&b| b == b'\n').count();
            assert!(lines > 0 || ext != "gz", "{ext} {keep}: {stderr}");
            if lines > 0 {
                assert!(
                    stderr.contains(&format!(": after line {lines}: {format} data: ")),
                    "{ext} {keep}: {stderr}"
                );
            }
            let piped = output_fed(&mut command(&["solve", "-q", "-j1", "-"]), &whole[..keep]);
            assert_eq!(piped.stdout, stdout, "{ext} {keep}");
            // an intact file before it is read too (the cut one stopped the run before it
            // began); one that gives no byte at all is refused before the run, as unreadable
            let both = bin()
                .args(["solve", "-q", "-j2", "data/easy_300.txt"])
                .arg(&path)
                .output()
                .unwrap();
            assert_eq!(both.status.code(), Some(2));
            let both_lines = both.stdout.iter().filter(|&&b| b == b'\n').count();
            let expected = if lines > 0 { 300 + lines } else { 0 };
            assert_eq!(both_lines, expected, "{ext} {keep}");
        }
    }
    // a zip whose stored data was changed: the CRC-32 says so
    let mut zip = std::fs::read(repo(&format!("{COMPRESSED}/kaggle_200_stored.csv.zip"))).unwrap();
    let at = zip.len() / 2;
    zip[at] = if zip[at] == b'1' { b'2' } else { b'1' };
    let path = dir.write("changed.zip", &zip);
    let (_, stderr) = fails(&path);
    assert!(
        stderr.contains("zip data file kaggle_200.csv: ")
            && stderr.contains("the archive is damaged"),
        "{stderr}"
    );
    // a gzip member whose length field (its last byte) was changed: not called a checksum alone
    let mut gz = gzipped("data/hardest_300.txt", 1);
    *gz.last_mut().unwrap() ^= 0x55;
    let (_, stderr) = fails(&dir.write("length.txt.gz", &gz));
    assert!(
        stderr.contains("gzip data: the checksum or length at the end of a member does not match"),
        "{stderr}"
    );
}

/// The check at the end of each format damaged (gzip's CRC-32, zstd's checksum, xz's stream
/// footer, bzip2's stream CRC): all 300 records were decoded before it and are written, then the
/// error. The decoders' own readers dropped the bytes of the read that met the error: no record
/// at all for zstd, xz and bzip2 (a first block refused whole), and 160 of 500 for an xz file.
#[test]
fn every_record_decoded_before_the_damage_is_written() {
    let dir = Workdir::new();
    for (ext, format, from_end) in [
        ("gz", "gzip", 8),
        ("zst", "zstd", 2),
        ("xz", "xz", 6),
        ("bz2", "bzip2", 3),
    ] {
        let mut bytes =
            std::fs::read(repo(&format!("{COMPRESSED}/hardest_300.txt.{ext}"))).unwrap();
        let at = bytes.len() - from_end;
        bytes[at] ^= 0x55;
        let path = dir.write(&format!("end.txt.{ext}"), &bytes);
        let (stdout, stderr) = fails(&path);
        let lines = stdout.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(lines, 300, "{ext}: {stderr}");
        assert!(
            stderr.contains(&format!(": after line 300: {format} data: ")),
            "{ext}: {stderr}"
        );
        let piped = output_fed(&mut command(&["solve", "-q", "-j1", "-"]), &bytes);
        assert_eq!(piped.stdout, stdout, "{ext}");
    }
}

#[test]
fn zips_that_are_not_one_data_file_are_errors_that_say_why() {
    let dir = Workdir::new();
    let (_, stderr) = fails(&repo(&format!("{COMPRESSED}/two_files.zip")));
    assert!(
        stderr.ends_with(
            "two_files.zip: a zip archive with 2 data files (kaggle_200.csv, h.txt); unzip it \
             and give the one to read\n"
        ),
        "{stderr}"
    );
    let (_, stderr) = fails(&repo(&format!("{COMPRESSED}/kaggle_200_lzma.csv.zip")));
    assert!(
        stderr.contains("data file kaggle_200.csv is compressed with LZMA, which is not read here"),
        "{stderr}"
    );
    // an Excel workbook is a zip of XML files
    let mut xlsx = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for name in [
        "[Content_Types].xml",
        "xl/workbook.xml",
        "xl/worksheets/sheet1.xml",
    ] {
        xlsx.start_file(
            name,
            zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored),
        )
        .unwrap();
    }
    let path = dir.write("book.xlsx", xlsx.finish().unwrap().into_inner());
    let (_, stderr) = fails(&path);
    assert!(
        stderr.contains("an Office document (xlsx?): export the sheet as CSV"),
        "{stderr}"
    );
    // two data files of one name (Python's zipfile writes them, with a warning): the zip crate
    // keeps one entry a name, and the first file's records were dropped without a word, exit 0
    let mut two = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in [("a.txt", "easy_300"), ("b.txt", "hardest_300")] {
        two.start_file(
            name,
            zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored),
        )
        .unwrap();
        let text = std::fs::read(repo(&format!("data/{data}.txt"))).unwrap();
        std::io::Write::write_all(&mut two, &text).unwrap();
    }
    let mut bytes = two.finish().unwrap().into_inner();
    let renamed = bytes.windows(5).filter(|w| w == b"b.txt").count();
    assert_eq!(renamed, 2, "a local header and a directory record");
    while let Some(at) = bytes.windows(5).position(|w| w == b"b.txt") {
        bytes[at] = b'a';
    }
    let (stdout, stderr) = fails(&dir.write("same_name.zip", &bytes));
    assert!(stdout.is_empty());
    assert!(
        stderr.ends_with(
            "same_name.zip: a zip archive with 2 data files of one name (a.txt, a.txt); unzip \
             it and give the one to read\n"
        ),
        "{stderr}"
    );
}

#[test]
fn binary_input_is_an_error_that_says_what_it_looks_like() {
    let dir = Workdir::new();
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "image.png",
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "a PNG image, not puzzle text (a NUL byte at offset 8, on line 3)",
        ),
        (
            "nul.txt",
            b"0 0 0\x00\n",
            "binary data, not puzzle text (a NUL byte at offset 5, on line 1)",
        ),
        (
            "latin1.txt",
            b"# caf\xe9\n",
            "not UTF-8 text (byte 0xE9 at offset 5, on line 1)",
        ),
        ("utf16.txt", b"\xff\xfe#\x00 \x00", "UTF-16 text, not UTF-8"),
        (
            "data.7z",
            b"7z\xbc\xaf\x27\x1c\x00\x04",
            "a 7-Zip archive, not puzzle text",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.write(name, bytes);
        let (stdout, stderr) = fails(&path);
        assert!(stdout.is_empty());
        assert!(stderr.contains(&format!("{name}: {message}")), "{stderr}");
        // the same on stdin
        let out = bin()
            .args(["check", "-"])
            .write_stdin(bytes.to_vec())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("<stdin>: {message}")));
    }
    // a tar archive, gzipped
    let mut tar = vec![0u8; 1024];
    tar[..9].copy_from_slice(b"puzzles/\x00");
    tar[257..263].copy_from_slice(b"ustar\x00");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &tar).unwrap();
    let path = dir.write("puzzles.tar.gz", gz.finish().unwrap());
    let (_, stderr) = fails(&path);
    assert!(
        stderr.contains("gzip data holding a tar archive, not puzzle text"),
        "{stderr}"
    );
}

/// 3,000 CSV rows (`id,puzzle,note`, CRLF header) with quoted line ends, CRLF, blank lines, rows
/// of 300 bytes and more, and short puzzles, about 340 KB: many chunks of the pool's size.
fn rows_with_quoted_line_ends() -> String {
    let mut text = String::from("id,puzzle,note\r\n");
    for i in 0..3000 {
        text += &match i % 11 {
            0 => format!("{i},{PUZZLE},\"a\nb,\n\"\"c\"\"\"\n"),
            3 => format!("{i},{PUZZLE},{}\n", "x".repeat(300)),
            5 => format!(
                "{i},{PUZZLE},\"{}\n{}\"\n",
                "y".repeat(200),
                "z".repeat(200)
            ),
            7 => "\r\n\n".to_string(),
            8 => format!("{i},{}\n", &PUZZLE[1..]),
            // a stray quote, closed by the next quoted field or never
            9 if i % 3 == 0 => format!("{i},{PUZZLE},\"oops\n"),
            // a stray quote opening a puzzle, closed by a later quote at a line end or before
            // a delimiter (or one that goes on)
            10 if i % 2 == 0 => format!("{i},\"{PUZZLE},n\n"),
            _ => format!("{i},{PUZZLE},n\r\n"),
        };
    }
    text
}

/// A quote that never closes, or one closed by a later stray quote, made one row of every line
/// after it, solved with the first row's puzzle (exit 0, `check`: "no problems"): the row is a
/// malformed record of its first line, the lines after it rows of their own.
#[test]
fn a_stray_quote_costs_its_own_row_not_the_rows_after_it() {
    let ok = |i: usize| format!("{i},{PUZZLE},ok\n");
    let unclosed = format!(
        "id,puzzle,note\n1,{PUZZLE},\"oops\n{}{}{}",
        ok(2),
        ok(3),
        ok(4)
    );
    let closed_later = format!(
        "id,puzzle,note\n1,{PUZZLE},\"oops\n{}3,{PUZZLE},\"fine\"\n{}",
        ok(2),
        ok(4)
    );
    // a stray quote closed by the quote that opens a later row's note spanning lines: that
    // note is read whole, not cut where the stray quote's row ended
    let before_a_note = format!(
        "id,puzzle,note\n1,{PUZZLE},\"oops\n2,{PUZZLE},\"two\nlines\"\n{}{}",
        ok(3),
        ok(4)
    );
    for (text, why) in [
        (
            before_a_note,
            "a quoted field spanning lines is followed by more than a delimiter, a stray quote? \
             (lines 2 to 3 would be one row)",
        ),
        (
            unclosed,
            "a quote in the row never closes (lines 2 to 5 would be one row)",
        ),
        (
            closed_later,
            "a quoted field spanning lines is followed by more than a delimiter, a stray quote? \
             (lines 2 to 4 would be one row)",
        ),
    ] {
        let out = bin()
            .args(["solve", "-O", "csv", "--no-timings", "-"])
            .write_stdin(text.as_str())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        // id and status of each record
        let stdout = String::from_utf8(out.stdout).unwrap();
        let records: Vec<(String, String)> = csv::Reader::from_reader(stdout.as_bytes())
            .records()
            .map(|row| {
                let row = row.unwrap();
                (row[0].to_string(), row[3].to_string())
            })
            .collect();
        let want = [
            ("1", "malformed"),
            ("2", "solved"),
            ("3", "solved"),
            ("4", "solved"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()));
        assert_eq!(records, want, "{stdout}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("<stdin>:2: {why}")), "{stderr}");
        // check: a problem, exit 1
        let out = bin()
            .args(["check", "-"])
            .write_stdin(text.as_str())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("4 records: 3 unique, 1 malformed"),
            "{stderr}"
        );
    }
}

/// A stray quote closed by a later quote at a line end or before a delimiter made one row of
/// the lines between, a malformed record, and lost every row in them with exit 0 (`check`: 20
/// records of 30). Such a row is malformed anyway (by its width, or a puzzle holding a line
/// end): it is read as a stray quote's row, and the lines after its first are rows again.
#[test]
fn a_stray_quote_closed_at_a_later_line_end_costs_no_other_row() {
    let row = |i: usize| -> String {
        match i {
            10 => format!("\"{PUZZLE},{SOLUTION}\n"),
            // closed at the end of the line: the row would have one field
            20 => format!("{PUZZLE},{SOLUTION}\"\n"),
            // closed before a delimiter: two fields, the puzzle holding line ends
            30 => format!("\"{PUZZLE},{SOLUTION}\n"),
            40 => format!("{PUZZLE}\",{SOLUTION}\n"),
            _ => format!("{PUZZLE},{SOLUTION}\n"),
        }
    };
    let text: String = std::iter::once("quizzes,solutions\n".to_string())
        .chain((1..=50).map(row))
        .collect();
    let dir = Workdir::new();
    let path = dir.write("quotes.csv", &text);
    let path = path.to_str().unwrap();
    // the file (read in chunks), and stdin (read in blocks)
    for (args, stdin) in [(vec![path], false), (vec!["-"], true)] {
        let mut cmd = bin();
        cmd.args([
            "solve",
            "-O",
            "jsonl",
            "--no-timings",
            "-j2",
            "--batch-size",
            "3",
        ])
        .args(&args);
        if stdin {
            cmd.write_stdin(text.as_str());
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let records = jsonl(&out.stdout);
        let lines: Vec<u64> = records
            .iter()
            .map(|r| r["line"].as_u64().unwrap())
            .collect();
        assert_eq!(lines, (2..=51).collect::<Vec<u64>>(), "stdin {stdin}");
        let malformed: Vec<u64> = records
            .iter()
            .filter(|r| r["status"] == "malformed")
            .map(|r| r["line"].as_u64().unwrap())
            .collect();
        // the lines with the quotes; the one closing the second holds it in its puzzle
        assert_eq!(malformed, [11, 31, 41], "stdin {stdin}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        for why in [
            ":11: a quoted field spans lines and the row has 1 field, the header has 2, a stray \
             quote? (lines 11 to 21 would be one row): the lines after the first are read as \
             rows of their own",
            ":31: a quoted field spans lines and the row holds a line end in its puzzle (column \
             1), a stray quote? (lines 31 to 41 would be one row)",
        ] {
            assert!(stderr.contains(why), "{stderr}");
        }
    }
    // check reads the given solutions: the one with the first quote's closing quote is wrong
    let out = bin().args(["check", path]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("50 records:"), "{stderr}");
}

/// The lines and statuses (verdicts for `check`) of a `cmd` run on `path`, with `args`.
fn lines_of(cmd: &str, args: &[&str], path: &std::path::Path) -> Vec<(u64, String)> {
    let out = bin()
        .args([cmd, "-O", "jsonl"])
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{cmd}");
    let key = if cmd == "check" { "verdict" } else { "status" };
    jsonl(&out.stdout)
        .iter()
        .map(|r| {
            let word = r[key].as_str().unwrap().to_string();
            (r["line"].as_u64().unwrap(), word)
        })
        .collect()
}

/// A stray quote opening a row's solution, closed at the end of a later line, cost `solve` the
/// rows between (exit 0), while `check`, which reads the solutions, kept them: the column named
/// as a solution column is looked at by both, read or not. A solution laid out in quotes as
/// 9 rows of 9 cells is no stray quote: one record (it was cut into 9 malformed ones).
#[test]
fn solve_and_check_cut_rows_alike_at_a_stray_quote_in_the_solutions() {
    let row = |i: usize| match i {
        3 => format!("{PUZZLE},\"{SOLUTION}\n"),
        5 => format!("{PUZZLE},{SOLUTION}\"\n"),
        _ => format!("{PUZZLE},{SOLUTION}\n"),
    };
    let text: String = std::iter::once("quizzes,solutions\n".to_string())
        .chain((2..=6).map(row))
        .collect();
    let dir = Workdir::new();
    let path = dir.write("quoted.csv", &text);
    let solved = lines_of("solve", &["--no-timings"], &path);
    let checked = lines_of("check", &[], &path);
    let lines = |records: &[(u64, String)]| records.iter().map(|r| r.0).collect::<Vec<_>>();
    assert_eq!(lines(&solved), [2, 3, 4, 5, 6]);
    assert_eq!(lines(&checked), [2, 3, 4, 5, 6]);
    assert_eq!(solved[1].1, "malformed");
    assert_eq!(checked[1].1, "malformed");
    // a solution written as a grid in quotes: one record each, in both
    let grid: Vec<&str> = (0..9).map(|r| &SOLUTION[r * 9..r * 9 + 9]).collect();
    let text = format!(
        "puzzle,solution\n{PUZZLE},\"{}\"\n{PUZZLE},{SOLUTION}\n",
        grid.join("\n")
    );
    let path = dir.write("grid.csv", &text);
    let solved = lines_of("solve", &["--no-timings"], &path);
    assert_eq!(solved, [(2, "solved".into()), (11, "solved".into())]);
    let checked = lines_of("check", &[], &path);
    assert_eq!(lines(&checked), [2, 11]);
}

#[test]
fn a_regular_file_read_in_chunks_gives_what_its_bytes_on_stdin_give() {
    // a file is read in chunks on the pool, as is stdin redirected from it, and a piped stdin as
    // a stream: the same records, lines and reasons, with quoted line ends, CRLF, blank lines and
    // rows over the cap across the cuts
    let text = rows_with_quoted_line_ends();
    let dir = Workdir::new();
    let path = dir.write("rows.csv", &text);
    let path = path.to_str().unwrap();
    let solve = ["solve", "--no-timings", "--max-record"];
    let runs: [&[&str]; 5] = [
        &[
            &solve[..],
            &["300", "-j2", "--batch-size", "3", "-O", "jsonl"],
        ]
        .concat(),
        &[
            &solve[..],
            &["300", "-j2", "--batch-size", "50", "-O", "csv"],
        ]
        .concat(),
        &[
            &solve[..],
            &["1000", "-j1", "--batch-size", "7", "-O", "jsonl"],
        ]
        .concat(),
        &["check", "-j2", "--max-record", "300", "-O", "jsonl"],
        &[
            "check",
            "-j2",
            "--max-record",
            "300",
            "--duplicates",
            "-O",
            "csv",
        ],
    ];
    for args in runs {
        let run = |input: &str, stdin: Stdin| {
            let out = match stdin {
                Stdin::None => bin().args(args).arg(input).output(),
                Stdin::Piped => bin()
                    .args(args)
                    .arg(input)
                    .write_stdin(text.as_str())
                    .output(),
                Stdin::Redirected => command(args)
                    .arg(input)
                    .stdin(std::fs::File::open(path).unwrap())
                    .output(),
            }
            .unwrap();
            // the reasons of malformed records and the counts, not the times
            let stderr = String::from_utf8_lossy(&out.stderr).replace("<stdin>", path);
            let stderr: Vec<String> = stderr
                .lines()
                .filter(|l| l.starts_with(path) || l.contains("records:"))
                .map(String::from)
                .collect();
            // the input's name aside (`<stdin>` is `path`)
            let stdout = String::from_utf8(out.stdout)
                .unwrap()
                .replace("<stdin>", path);
            (out.status.code(), stdout, stderr)
        };
        let from_file = run(path, Stdin::None);
        let from_stdin = run("-", Stdin::Piped);
        let redirected = run("-", Stdin::Redirected);
        // check finds problems: exit 1
        let code = if args[0] == "solve" { 0 } else { 1 };
        assert_eq!(from_file.0, Some(code), "{args:?}: {:?}", from_file.2);
        assert_eq!(from_file.0, from_stdin.0, "{args:?}");
        assert!(from_file.1 == from_stdin.1, "{args:?}: the outputs differ");
        assert_eq!(from_file.2, from_stdin.2, "{args:?}");
        assert_eq!(redirected, from_stdin, "{args:?}");
        assert!(
            from_file.1.len() > 2000 * 82 && from_file.2.len() > 20,
            "{args:?}"
        );
    }
}

/// How a run's stdin is given.
enum Stdin {
    None,
    /// The input's bytes, written to a pipe.
    Piped,
    /// The input file itself (`< rows.csv`).
    Redirected,
}

#[test]
fn stdin_redirected_from_a_file_is_read_from_where_it_stands_and_left_at_its_end() {
    // a regular file on stdin is read in chunks on the pool when read from its start; either
    // way the shell's next command finds stdin's offset at the end (`{ solve; cat; } < f`),
    // and a file handed over after its first line (`{ read -r header; solve; } < f`) is read
    // from there
    use std::io::{Seek, SeekFrom};
    let text = rows_with_quoted_line_ends();
    let header = text.find('\n').unwrap() + 1;
    let dir = Workdir::new();
    let path = dir.write("rows.csv", &text);
    let rows = dir.write("rows_only.csv", &text[header..]);
    let solve = [
        "solve",
        "--no-timings",
        "--max-record",
        "300",
        "-O",
        "jsonl",
    ];
    let named = ["--csv-columns", "id,puzzle,note"];
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
    let gz = dir.write("rows.csv.gz", gz.finish().unwrap());
    // `solve` on `input`, and on stdin redirected from `file` at byte `skip`: both succeed and
    // write the same (the input's name aside); stdin's offset after
    let same_as_named = |threads: &str,
                         input: &std::path::Path,
                         file: &std::path::Path,
                         skip: u64,
                         columns: &[&str]| {
        let expected = bin()
            .args(solve)
            .args([threads, "--batch-size", "7"])
            .args(columns)
            .arg(input)
            .output()
            .unwrap();
        let mut stdin = std::fs::File::open(file).unwrap();
        stdin.seek(SeekFrom::Start(skip)).unwrap();
        // the same open file: its offset is stdin's
        let mut offset = stdin.try_clone().unwrap();
        let out = command(&solve)
            .args([threads, "--batch-size", "7"])
            .args(columns)
            .arg("-")
            .stdin(stdin)
            .output()
            .unwrap();
        let what = format!("{threads} {} from byte {skip}", file.display());
        assert!(expected.status.success() && out.status.success(), "{what}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.replace("<stdin>", input.to_str().unwrap())
                == String::from_utf8(expected.stdout).unwrap(),
            "{what}: the outputs differ"
        );
        offset.stream_position().unwrap()
    };
    for threads in ["-j1", "-j2"] {
        for (skip, input, columns) in [(0, &path, &[][..]), (header, &rows, &named[..])] {
            let offset = same_as_named(threads, input, &path, skip as u64, columns);
            assert_eq!(offset, text.len() as u64, "{threads} from byte {skip}");
        }
        // a compressed file on stdin is decoded from its start, as when named
        same_as_named(threads, &gz, &gz, 0, &[]);
    }
}

#[test]
fn old_mac_line_ends_read_as_lines_in_every_layout() {
    let dir = Workdir::new();
    for (sample, format) in [
        ("data/kaggle_200.csv", "csv"),
        ("data/hardest_300.txt", "jsonl"),
        ("tests/fixtures/grids.txt", "jsonl"),
        ("tests/fixtures/mixed.csv", "jsonl"),
    ] {
        let text = std::fs::read(repo(sample)).unwrap();
        let cr: Vec<u8> = text
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        let path = dir.write("mac.in", &cr);
        let path = path.to_str().unwrap();
        let want = solved(&["-O", format, sample], None);
        let want = String::from_utf8(want).unwrap().replace(sample, path);
        let got = solved(&["-O", format, path], None);
        assert_eq!(String::from_utf8(got).unwrap(), want, "{sample}");
        // two threads, which read other files in chunks
        let got = bin()
            .args(["solve", "-q", "-j2", "--no-timings", "-O", format, path])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(got.stdout).unwrap(), want, "{sample} -j2");
        // on stdin, the same records
        let got = solved(&["-O", format], Some(&cr));
        assert_eq!(
            String::from_utf8(got).unwrap(),
            want.replace(path, "<stdin>"),
            "{sample} on stdin"
        );
    }
}

/// Old Mac line ends are told past a first line longer than the first block, and a stray CR in
/// the first line of an LF file does not make it a CR file (it read the first as one line, its
/// records lost with exit 0; the second as CR lines, a record made up and every line number
/// after it one off).
#[test]
fn cr_lines_are_told_by_the_input_not_its_first_block_or_a_stray_cr() {
    let dir = Workdir::new();
    let comment = format!("# {}", "c".repeat(70_000));
    let long_first = dir.write(
        "long.txt",
        format!("{comment}\r{PUZZLE}\r{PUZZLE}\r{PUZZLE}\r"),
    );
    let stray = dir.write(
        "stray.txt",
        format!("# exported\r v2\n{PUZZLE}\n{PUZZLE}X\n{PUZZLE}\n"),
    );
    let lines = |path: &std::path::Path| {
        let out = bin()
            .args(["solve", "-O", "jsonl", "--no-timings"])
            .arg(path)
            .output()
            .unwrap();
        jsonl(&out.stdout)
            .iter()
            .map(|r| {
                (
                    r["line"].as_u64().unwrap(),
                    r["status"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let solved = |n: u64| (n, "solved".to_string());
    assert_eq!(lines(&long_first), [solved(2), solved(3), solved(4)]);
    // CR lines, then LF lines (`cat mac.txt unix.txt`): every one read
    let mixed = dir.write(
        "mixed.txt",
        format!("{PUZZLE}\r{PUZZLE}\r{PUZZLE}\n{PUZZLE}\n"),
    );
    assert_eq!(lines(&mixed).len(), 4);
    assert_eq!(
        lines(&stray),
        [solved(2), (3, "malformed".to_string()), solved(4)]
    );
    // CR lines, then CRLF lines (`cat mac.txt dos.txt`): a CRLF is one line end, not two (a
    // grid was cut into nine one-row grids, every line number after it doubled)
    let crlf = dir.write(
        "crlf.txt",
        format!("{PUZZLE}\r{PUZZLE}\r{PUZZLE}\r\n{PUZZLE}\r\n"),
    );
    assert_eq!(lines(&crlf), [solved(1), solved(2), solved(3), solved(4)]);
    let rows: Vec<&str> = (0..9).map(|r| &PUZZLE[9 * r..9 * r + 9]).collect();
    let grids = dir.write(
        "grids.txt",
        format!("{}\r\r{}\r\n", rows.join("\r"), rows.join("\r\n")),
    );
    assert_eq!(lines(&grids), [solved(1), solved(11)]);
    // CSV's quoted fields may hold a CR, the first line's too: the file's lines end in LF (it
    // was read as CR lines, line numbers after it off and each quoted CR written back an LF)
    let quoted = format!("id,puzzle,note\nr1,{PUZZLE},\"a\rb\"\nr2,{PUZZLE},\"c\rd\"\nr3,x,y\n");
    for text in [quoted.clone(), quoted.replacen("note", "\"no\rte\"", 1)] {
        let path = dir.write("quoted.csv", &text);
        assert_eq!(
            lines(&path),
            [solved(2), solved(3), (4, "malformed".to_string())]
        );
        let out = bin()
            .args(["solve", "-q", "-O", "csv", "--no-timings"])
            .arg(&path)
            .output()
            .unwrap();
        let out = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.contains(",\"a\rb\",") && out.contains(",\"c\rd\","),
            "{out:?}"
        );
    }
}

/// A compressed file's first block is checked whole for text, as the plain file's is: an xz
/// file's decoder gave its first 34 KB only, so a byte the plain or gzipped file is refused for
/// passed (a malformed record, exit 0), the same data with two outcomes.
#[test]
fn a_compressed_files_first_block_is_checked_as_the_plain_ones() {
    for name in ["late_ff.txt.gz", "late_ff.txt.xz"] {
        let out = bin()
            .args(["solve", "-q"])
            .arg(format!("{COMPRESSED}/{name}"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains("not UTF-8 text (byte 0xFF at offset 41000, on line 501)"),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn a_run_an_input_error_stopped_says_so_in_its_stats_and_report() {
    // wrote its stats and report as for a run that reached the end (`interrupted: null`,
    // "Problems: 0 of ... records"; solve's stats left empty), and merge-stats added it up
    let dir = Workdir::new();
    let gz = gzipped("data/easy_300.txt", 30);
    let cut = dir.write("cut.txt.gz", &gz[..gz.len() * 3 / 4]);
    let cut = cut.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = bin().current_dir(dir.path("")).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("gzip data: "), "{stderr}");
    };
    let stopped = |json: &serde_json::Value, records: &serde_json::Value| {
        let stop = &json["interrupted"];
        assert_eq!(stop["signal"], "error", "{json}");
        assert!(
            stop["error"].as_str().unwrap().contains("gzip data: "),
            "{json}"
        );
        assert_eq!(stop["file"], cut, "{json}");
        // one puzzle a line: the last record's line is the count of records
        assert_eq!(&stop["line"], records, "{json}");
        assert!((1000..9000).contains(&records.as_u64().unwrap()), "{json}");
    };
    run(&[
        "solve",
        "-q",
        "-j1",
        cut,
        "-o",
        "/dev/null",
        "--stats",
        "s.json",
    ]);
    let solve: serde_json::Value = serde_json::from_str(&dir.read("s.json")).unwrap();
    stopped(&solve, &solve["records"]);
    run(&[
        "check", "-q", "-j1", cut, "--stats", "c.json", "--report", "r.md",
    ]);
    let check: serde_json::Value = serde_json::from_str(&dir.read("c.json")).unwrap();
    stopped(&check, &check["records"]);
    let report = dir.read("r.md");
    assert!(
        report.contains("**Incomplete:** stopped by an error ("),
        "{report}"
    );
    for stats in ["s.json", "c.json"] {
        let out = bin()
            .current_dir(dir.path(""))
            .args(["merge-stats", stats, "-o", "/dev/null"])
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains("INCOMPLETE: 1 of 1 part was stopped early:"),
            "{stderr}"
        );
    }
}

#[test]
fn a_column_name_held_twice_is_refused_until_one_is_chosen() {
    // the first of the two was taken without a word
    let dir = Workdir::new();
    let puzzle = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let puzzle = puzzle.lines().next().unwrap();
    let csv = dir.write("dup.csv", format!("id,quizzes,quizzes\n1,{puzzle},x\n"));
    let out = bin().arg("solve").arg(&csv).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "dup.csv:1: the header names \"quizzes\" twice (columns 2 and 3); choose one with \
             --column 2 or --column 3"
        ),
        "{stderr}"
    );
    let out = bin()
        .args(["solve", "-q", "-O", "line", "--column", "2"])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(out.status.success());
    // solved: the column chosen is the puzzle's ("x" would be malformed)
    let solution = String::from_utf8(out.stdout).unwrap();
    assert!(
        solution.len() > 81 && solution[..81].bytes().all(|b| (b'1'..=b'9').contains(&b)),
        "{solution}"
    );
    let out = bin()
        .args([
            "solve",
            "--csv-columns",
            "quizzes,id,quizzes",
            "data/easy_300.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("--csv-columns names \"quizzes\" twice"),
        "{stderr}"
    );
}

/// Runs ARGS on `data/kaggle_200.csv`, which must be refused (exit 2, nothing on stdout); its
/// stderr.
fn refused_on_kaggle(args: &[&str]) -> String {
    let out = bin()
        .args(args)
        .arg("data/kaggle_200.csv")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// Columns named with --csv-columns are the option's, not a header's: a missing puzzle or
/// solution column said "in the header" at line 1 of a file that has none.
#[test]
fn a_column_missing_from_csv_columns_names_the_option() {
    for (args, message) in [
        (
            vec!["solve", "--csv-columns", "id,foo"],
            "error: no puzzle column in --csv-columns (id, foo); name it puzzle/",
        ),
        (
            vec!["solve", "--csv-columns", "id,foo", "-c", "3"],
            "error: no column 3: --csv-columns has 2 columns (id, foo)",
        ),
        (
            vec![
                "check",
                "--csv-columns",
                "quizzes,x",
                "--solution-column",
                "y",
            ],
            "no column named \"y\" in --csv-columns (quizzes, x)",
        ),
    ] {
        let stderr = refused_on_kaggle(&args);
        assert!(stderr.contains(message), "{stderr}");
        assert!(!stderr.contains("header"), "{stderr}");
    }
}

#[test]
fn csv_columns_with_another_input_format_is_refused() {
    // rows of CSV and -I line or grid contradict each other: refused, not read as CSV
    for (format, pipe) in [("line", false), ("grid", false), ("line", true)] {
        let mut args = vec!["solve", "-I", format, "--csv-columns", "id,puzzle"];
        if pipe {
            args.push("--pipe");
        }
        let stderr = refused_on_kaggle(&args);
        assert!(
            stderr.contains(&format!("--csv-columns reads CSV rows, but -I {format}")),
            "{stderr}"
        );
    }
}

/// Headerless CSV's first rows holding `#` ids were passed over as comments before the first
/// row (no record, no message, exit 0; a `#` row later was read): every row is a record, from a
/// file and from a pipe alike; blank lines are still passed over.
#[test]
fn csv_columns_reads_leading_hash_rows_as_records() {
    let dir = Workdir::new();
    let text = format!("\n#a,{PUZZLE}\n\n#b,x\nr3,{PUZZLE}\n#d,{PUZZLE}\n");
    let path = dir.write("hash.csv", &text);
    let args = ["--csv-columns", "id,puzzle", "-O", "jsonl"];
    let want = [
        (2, "solved"),
        (4, "malformed"),
        (5, "solved"),
        (6, "solved"),
    ];
    for stdin in [None, Some(text.as_bytes())] {
        let mut args = args.to_vec();
        args.push(if stdin.is_some() {
            "-"
        } else {
            path.to_str().unwrap()
        });
        let got = outcomes(&solved(&args, stdin), "status");
        let want: Vec<(u64, String)> = want.iter().map(|&(l, s)| (l, s.to_string())).collect();
        assert_eq!(got, want, "{args:?}");
    }
}

/// The cells of `row` with a space between each two.
fn spaced(row: &str) -> String {
    row.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

/// Layouts people write that `-I auto` misread, each record of them now one record out: a 9-cell
/// first line before puzzles a line (four records were one malformed grid), grids drawn with
/// box lines and Project Euler's titled grids (each grid was malformed and a phantom short grid
/// followed), and CSV headers with a line end or a delimiter inside a quoted name (three records
/// for one; no puzzle column found).
#[test]
fn layouts_auto_misread_give_one_record_each() {
    let dir = Workdir::new();
    let text = |name: &str, contents: String| dir.write(name, contents).display().to_string();
    let lines = text(
        "nine.txt",
        format!(".........\n{PUZZLE}\n{PUZZLE}\n{PUZZLE}\n"),
    );
    let out = solved(&["-O", "jsonl", &lines], None);
    let expected: Vec<(u64, String)> = [
        (1, "malformed"),
        (2, "solved"),
        (3, "solved"),
        (4, "solved"),
    ]
    .map(|(line, status)| (line, status.to_string()))
    .into();
    assert_eq!(outcomes(&out, "status"), expected);

    let rows: Vec<String> = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|r| String::from_utf8(r.to_vec()).unwrap())
        .collect();
    let boxed_row = |r: &String| format!("|{}|{}|{}|", &r[..3], &r[3..6], &r[6..]);
    let framed = format!(
        "*-----------*\n{}\n|---+---+---|\n{}\n|---+---+---|\n{}\n*-----------*\n",
        rows[..3]
            .iter()
            .map(boxed_row)
            .collect::<Vec<_>>()
            .join("\n"),
        rows[3..6]
            .iter()
            .map(boxed_row)
            .collect::<Vec<_>>()
            .join("\n"),
        rows[6..]
            .iter()
            .map(boxed_row)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let euler = format!(
        "Grid 01\n{}\nGrid 02\n{}\n",
        rows.join("\n"),
        rows.join("\n")
    );
    let grids = text("grids.txt", format!("{framed}{framed}{euler}"));
    let out = solved(&["-O", "line", &grids], None);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("{SOLUTION}\n").repeat(4)
    );

    // a framed grid missing a row, then titles no number names: each grid one record, the
    // broken one malformed (it took the next grid's first row and came out solved; each title
    // was a row)
    let plus = "+-------+-------+-------+\n";
    let framed_rows: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "| {} | {} | {} |",
                spaced(&r[..3]),
                spaced(&r[3..6]),
                spaced(&r[6..])
            )
        })
        .collect();
    let frame = |rows: &[String]| {
        format!(
            "{plus}{}\n{plus}{}\n{plus}{}\n{plus}",
            rows[..3].join("\n"),
            rows[3..6].join("\n"),
            rows[6..].join("\n")
        )
    };
    let mut short = framed_rows.clone();
    short[7] = short[8].clone();
    let short = frame(&short).replacen(&format!("{}\n{}", short[8], short[8]), &short[8], 1);
    let titled = format!("Easy\n{}\n\nHard\n{}\n", rows.join("\n"), rows.join("\n"));
    let grids = text(
        "boxes.txt",
        format!("{short}{}{titled}", frame(&framed_rows)),
    );
    for args in [vec!["solve", "-O", "jsonl"], vec!["check", "-O", "jsonl"]] {
        let out = bin().args(&args).arg(&grids).output().unwrap();
        let key = if args[0] == "solve" {
            "status"
        } else {
            "verdict"
        };
        let first = if args[0] == "solve" {
            "solved"
        } else {
            "unique"
        };
        let expected: Vec<(u64, String)> =
            [(2, "malformed"), (14, first), (27, first), (38, first)]
                .map(|(line, status)| (line, status.to_string()))
                .into();
        assert_eq!(outcomes(&out.stdout, key), expected, "{args:?}");
    }
    // puzzles a line after grids, read as rows of one grid before: refused
    let out = bin().args(["solve", &grids, &lines]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("nine.txt:1: detected line but the first input is grid"),
        "{stderr}"
    );

    let header_break = text("break.csv", format!("\"my\nid\",puzzle\n1,{PUZZLE}\n"));
    let quoted_delimiter = text("quoted.csv", format!("\"a,b\";puzzle\nx;{PUZZLE}\n"));
    for (csv, header) in [
        (header_break, "\"my\nid\",puzzle"),
        (quoted_delimiter, "a,b;puzzle"),
    ] {
        let out = String::from_utf8(solved(&["-O", "csv", &csv], None)).unwrap();
        let (head, rows) = out.split_once("status").unwrap();
        assert!(head.starts_with(header), "{out}");
        assert_eq!(rows.matches(SOLUTION).count(), 1, "{out}");
        assert_eq!(
            out.matches(",solved,").count() + out.matches(";solved;").count(),
            1,
            "{out}"
        );
    }
}

/// `solve`'s records of the file `text` (as `name`): the line and status of each, and stderr.
fn lines_and_statuses(name: &str, text: &str) -> (Vec<(u64, String)>, String) {
    let dir = Workdir::new();
    let path = dir.write(name, text);
    let out = bin()
        .args(["solve", "-O", "jsonl", "--no-timings"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let records = jsonl(&out.stdout)
        .iter()
        .map(|r| {
            let status = r["status"].as_str().unwrap().to_string();
            (r["line"].as_u64().unwrap(), status)
        })
        .collect();
    (records, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A short line between grids (`..3.5`, `1 2 3`, `0 0 0 0 5`) was taken for a grid's number and
/// read past: no record, no word, exit 0. Only a number (`12`, `(3)`, `1/300`) is one now; any
/// other line is a record.
#[test]
fn a_short_line_between_grids_is_a_record_unless_it_is_a_number() {
    let grid = std::fs::read_to_string(repo("data/baekjoon_example1.in")).unwrap();
    for (line, malformed) in [
        ("..3.5", true),
        ("1 2 3", true),
        ("0 0 0 0 5", true),
        ("(3)", false),
        ("1/300", false),
    ] {
        let (records, _) = lines_and_statuses("grids.txt", &format!("{grid}\n{line}\n\n{grid}"));
        let mut want = vec![(1, "solved".to_string())];
        if malformed {
            want.push((11, "malformed".to_string()));
        }
        want.push((13, "solved".to_string()));
        assert_eq!(records, want, "{line:?}");
    }
}

/// A grid row with a note after it (`0 6 0 2 7 8 1 3 5  # note`) was read as a title line: the
/// grid came out as two malformed records ("grid has 2 rows", "grid has 6 rows"), the row named
/// by neither. It is a bad row of its grid now: one record, which names it.
#[test]
fn a_grid_row_with_a_note_is_a_bad_row_not_a_title() {
    let grid = std::fs::read_to_string(repo("data/baekjoon_example1.in")).unwrap();
    let mut rows: Vec<String> = grid.lines().map(str::to_string).collect();
    rows[2].push_str("  # note");
    let text = format!("{}\n\n{grid}", rows.join("\n"));
    let (records, stderr) = lines_and_statuses("noted.txt", &text);
    let want = [(1, "malformed"), (11, "solved")].map(|(l, s)| (l, s.to_string()));
    assert_eq!(records, want);
    assert!(stderr.contains("noted.txt:1: row 3: "), "{stderr}");
}

/// Format detection, four ways it went wrong: a one-column CSV whose first row is 9 cells was
/// read as line input (its header a record); a grid titled `Puzzle` was refused as a later
/// input ("detected csv"); a headerless `P;S` file took its first row for a header, and `-c 1`
/// then lost that puzzle without a word; `--column` failed on an empty shard, and named the
/// first input where another had fixed the format.
#[test]
fn detection_reads_what_the_lines_say_and_names_the_input_that_decided() {
    let dir = Workdir::new();
    let run = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stdout, stderr)
    };
    let path = |name: &str, text: &str| dir.write(name, text).to_str().unwrap().to_string();
    let csv = path(
        "one.csv",
        &format!("puzzle\n123456789\n{PUZZLE}\n{PUZZLE}\n"),
    );
    let (code, stdout, _) = run(&["solve", "--no-timings", &csv]);
    assert_eq!(code, Some(0));
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 4, "a header and 3 rows: {stdout}");
    assert!(rows[0].starts_with("puzzle,status"), "{stdout}");
    assert!(rows[1].starts_with("123456789,malformed"), "{stdout}");
    // a grid titled with a puzzle column's name, twice
    let rows: Vec<&str> = (0..9).map(|r| &PUZZLE[r * 9..r * 9 + 9]).collect();
    let grid = path("titled.txt", &format!("Puzzle\n{}\n", rows.join("\n")));
    let (code, stdout, stderr) = run(&["solve", &grid, &grid]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| !l.is_empty()).count(),
        18,
        "{stdout}"
    );
    // rows of puzzles with no header: refused, with or without --column
    let headerless = path(
        "rows.txt",
        &format!("{PUZZLE};{SOLUTION}\n{PUZZLE};{SOLUTION}\n"),
    );
    for args in [&["solve"][..], &["solve", "-c", "1"], &["check", "-c", "1"]] {
        let (code, stdout, stderr) = run(&[args, &[headerless.as_str()]].concat());
        assert_eq!(code, Some(2), "{args:?}");
        assert!(stdout.is_empty());
        assert!(
            stderr.contains("holds a puzzle, not column names"),
            "{stderr}"
        );
    }
    let (code, stdout, _) = run(&[
        "solve",
        "--csv-columns",
        "puzzle;solution",
        "-O",
        "line",
        &headerless,
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(stdout.lines().count(), 2);
    // --column on inputs with no content; on a later input that fixed another format
    let empty = path("empty.csv", "");
    let (code, _, stderr) = run(&["solve", "-c", "puzzle", &empty]);
    assert_eq!(code, Some(0), "{stderr}");
    let comments = path("comments.txt", "# nothing yet\n");
    let (code, _, stderr) = run(&["solve", "-c", "1", &comments, &grid]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(&format!("{grid} is grid input")),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["solve", "-I", "line", "-c", "1", &empty]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("but -I line was given"), "{stderr}");
}

/// Rows of CSV input whose columns `--csv-columns` names were said to differ from "the header",
/// which that input has not.
#[test]
fn rows_of_headerless_csv_are_measured_against_csv_columns() {
    let text = format!("{PUZZLE},x\n{PUZZLE}\n\"{PUZZLE},x\n{PUZZLE},x\"\n");
    for pipe in [false, true] {
        let mut cmd = bin();
        cmd.args(["solve", "--csv-columns", "puzzle,note", "-O", "jsonl"]);
        if pipe {
            cmd.arg("--pipe");
        }
        let out = cmd.write_stdin(text.as_str()).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let reasons: Vec<String> = jsonl(&out.stdout)
            .iter()
            .filter_map(|r| r["reason"].as_str().map(str::to_string))
            .collect();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said = |what: &str| match pipe {
            true => reasons.iter().any(|r| r.contains(what)),
            false => stderr.contains(what),
        };
        assert!(
            said("row has 1 field, --csv-columns names 2"),
            "{stderr}{reasons:?}"
        );
        assert!(!said("the header"), "{stderr}{reasons:?}");
        if !pipe {
            assert!(said(
                "the row has 1 field, --csv-columns names 2, a stray quote?"
            ));
        }
    }
}

/// Every command's `-O grid` output reads back with as many records as it was written with: a
/// record with no grid (malformed, unsolvable, contradictory) is its status word on a line,
/// which was read back as a title and skipped (the record gone, and `check` of the file saying
/// there was no problem).
#[test]
fn grid_output_reads_back_with_every_record() {
    let dir = Workdir::new();
    let unsolvable = format!("12{}", &PUZZLE[2..]).replacen('.', "2", 1);
    let contradiction = format!("11{}", &PUZZLE[2..]);
    let input = dir.write(
        "in.txt",
        format!("{PUZZLE}\ngarbage\n{unsolvable}\n{contradiction}\n{PUZZLE}\n"),
    );
    for args in [
        &["solve", "-O", "grid"][..],
        &["canon", "-O", "grid"],
        &["rate", "-O", "grid"],
        &["augment", "-n", "1", "-O", "grid"],
    ] {
        let written = output_fed(command(args).arg("-q").arg(&input), b"");
        assert!(written.status.success(), "{args:?}: {written:?}");
        let read = output_fed(
            &mut command(&["check", "-q", "-O", "jsonl", "-I", "grid", "-"]),
            &written.stdout,
        );
        let records = jsonl(&read.stdout);
        assert_eq!(records.len(), 5, "{args:?}: {records:?}");
        let malformed = records.iter().filter(|r| r["verdict"] == "malformed");
        let text = String::from_utf8_lossy(&written.stdout);
        assert!(malformed.count() >= 1, "{args:?}: {text}");
        assert_eq!(read.status.code(), Some(1), "{args:?}");
    }
}
