//! Reader and writer throughput, without the solver: what the pipeline costs around it.
//! Reads the big shared corpora when `../shared/data` is there, else the small samples in `data/`.
//!
//!     cargo bench --bench io

use std::path::{Path, PathBuf};

use sudoku_batch::input::{Block, InputFormat, Reader, ReaderOptions, Record, Source};
use sudoku_batch::output::{OutputFormat, OutputOptions, sink};
use sudoku_batch::status::{Answer, Status};

fn main() {
    divan::main();
}

fn corpus(shared: &str, fallback: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let big = root.join("../shared/data").join(shared);
    if big.exists() {
        big
    } else {
        root.join("data").join(fallback)
    }
}

/// The input read by the reading benchmarks for `format` (`line` or `csv`): the file named by
/// `IO_BENCH_LINE` or `IO_BENCH_CSV` when set (`benches/scaling.sh` sets them to its 1M-row
/// inputs), else a corpus.
fn input(format: &str) -> PathBuf {
    let (variable, shared, fallback) = match format {
        "line" => (
            "IO_BENCH_LINE",
            "sudoku_exchange/hard.txt",
            "exchange_hard_200.txt",
        ),
        _ => (
            "IO_BENCH_CSV",
            "csv/kaggle_quizzes_solutions_20k.csv",
            "kaggle_200.csv",
        ),
    };
    match std::env::var_os(variable) {
        Some(path) => PathBuf::from(path),
        None => corpus(shared, fallback),
    }
}

/// A reader of `path`, its format detected.
fn open(path: &Path) -> Reader {
    let options = ReaderOptions {
        format: InputFormat::Auto,
        column: None,
        ..ReaderOptions::default()
    };
    Reader::open(vec![Source::Path(path.to_path_buf())], &options).expect("open")
}

fn read_all(path: &Path) -> Vec<Record> {
    let mut reader = open(path);
    let mut records = Vec::new();
    while reader.read_batch(4096, &mut records).expect("read") > 0 {}
    records
}

#[divan::bench(args = ["line", "csv"])]
fn read(bencher: divan::Bencher, format: &str) {
    let path = input(format);
    let n = read_all(&path).len();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| read_all(&path).len());
}

/// Reading the way `solve` does: batches of 2048 records refilled in place, nothing kept.
#[divan::bench(args = ["line", "csv"])]
fn refill(bencher: divan::Bencher, format: &str) {
    let path = input(format);
    let n = read_all(&path).len();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            let mut reader = open(&path);
            let mut batch = Vec::new();
            let mut total = 0;
            while let n @ 1.. = reader.refill_batch(2048, &mut batch).expect("read") {
                total += n;
            }
            total
        });
}

/// The serial stage of `solve`: input cut into blocks of 2048 records' worth of bytes at record
/// boundaries, not parsed (parsing is the pool's). Its throughput caps a run on any core count.
#[divan::bench(args = ["line", "csv"])]
fn read_blocks(bencher: divan::Bencher, format: &str) {
    blocks(bencher, format, false);
}

/// What the pool does to a block before solving: the blocks of `read_blocks`, each parsed into
/// its records ([`Block::parse`]). Less `read_blocks`, the cost a record pays outside the solver
/// and the writer.
#[divan::bench(args = ["line", "csv"])]
fn parse_blocks(bencher: divan::Bencher, format: &str) {
    blocks(bencher, format, true);
}

/// Reads the input of `format` in blocks, as `solve` does, parsing each when `parse`.
fn blocks(bencher: divan::Bencher, format: &str, parse: bool) {
    let path = input(format);
    let n = read_all(&path).len();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            let mut reader = open(&path);
            let mut block = Block::default();
            let mut records = 0;
            while reader.read_block(&mut block, 2048).expect("read") {
                if parse {
                    block.parse();
                    records += block.records().len();
                }
                divan::black_box(&block);
            }
            records
        });
}

#[divan::bench(args = ["line", "csv", "jsonl"])]
fn write(bencher: divan::Bencher, format: &str) {
    let records = read_all(&corpus(
        "csv/kaggle_quizzes_solutions_20k.csv",
        "kaggle_200.csv",
    ));
    let solution =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let answer = Answer {
        status: Status::Solved,
        solution: solution.parse().ok(),
        guesses: 3,
        nanos: 12_345,
    };
    let header = ["quizzes".to_string(), "solutions".to_string()];
    let format = match format {
        "line" => OutputFormat::Line,
        "csv" => OutputFormat::Csv,
        _ => OutputFormat::Jsonl,
    };
    bencher
        .counter(divan::counter::ItemsCount::new(records.len()))
        .bench(|| {
            let mut out = sink(
                format,
                Box::new(std::io::sink()),
                Some(&header),
                &OutputOptions::default(),
            );
            for r in &records {
                out.write(r, &answer).expect("write");
            }
            out.finish().expect("flush");
        });
}
