//! Command-line types (clap). The only place that knows clap: each subcommand maps its arguments onto
//! library types in `cmd/`.

use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use sudoku_batch::bench;
use sudoku_batch::check::DuplicateMode;
use sudoku_batch::check::report::ReportFormat;
use sudoku_batch::generate::{
    Bounds, DEFAULT_MAX_TRIES, DEFAULT_MAX_TRIES_GUESSES, DEFAULT_MAX_TRIES_SYMMETRY, Symmetry,
};
use sudoku_batch::input::{Column, DEFAULT_MAX_RECORD, Echo, InputFormat};
use sudoku_batch::output::{CheckFormat, OutputFormat};
use sudoku_batch::pipeline::DEFAULT_BATCH_SIZE;

/// Solve, check and benchmark sudoku puzzle datasets fast, on every core, streaming.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the command line. A negative number after an option is taken as its value, to be
    /// refused by the option itself (`generate -n -5`: "invalid value '-5' for '--count'"),
    /// rather than told to be written `-- -5`, which makes it an input's name.
    pub fn from_command_line() -> Result<Cli, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let command = Cli::command().mut_subcommands(|sub| {
            sub.mut_args(|arg| match arg.get_action().takes_values() {
                true => arg.allow_negative_numbers(true),
                false => arg,
            })
        });
        Cli::from_arg_matches(&command.try_get_matches()?)
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of the inputs; one output record per input record, in input order.
    #[command(after_help = SOLVE_AFTER_HELP)]
    Solve(SolveArgs),
    /// Validate datasets: a verdict per record (uniqueness always checked), given solutions
    /// compared, problems listed on stderr with file and line.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Benchmark the solver on datasets held in memory; a Markdown table on stdout, other reports
    /// with --export-*.
    #[command(after_help = BENCH_AFTER_HELP)]
    Bench(BenchArgs),
    /// Canonical (minlex) form of every puzzle and its 64-bit hash: isomorphic puzzles (equal up
    /// to relabelling digits, moving rows, columns, bands, stacks, transposing) get the same.
    #[command(after_help = CANON_AFTER_HELP)]
    Canon(CanonArgs),
    /// Augment a dataset: each puzzle, and its given solution the same way, under N seeded
    /// random symmetries, other columns kept, the transform recorded.
    #[command(after_help = AUGMENT_AFTER_HELP)]
    Augment(AugmentArgs),
    /// Rate how hard each puzzle is for a person on Sudoku Explainer's scale: ER (hardest
    /// step), EP (hardest up to the first placed digit), ED (first step), as serate does.
    #[command(after_help = RATE_AFTER_HELP)]
    Rate(RateArgs),
    /// Split a dataset into train and test parts with no puzzle of one isomorphic to a puzzle of
    /// the other (whole classes of the same puzzle go to one part), seeded.
    #[command(
        after_help = SPLIT_AFTER_HELP,
        mut_arg("pipe", |a| a.hide(true)),
        mut_arg("echo", |a| a.hide(true))
    )]
    Split(SplitArgs),
    /// Generate new puzzles: each with one solution, minimal, made from --seed and its place in
    /// the stream alone (any record can be made again on its own), never two the same up to
    /// symmetry; with targets for givens, symmetry, clue pattern, guesses, exclusions.
    #[command(after_help = GENERATE_AFTER_HELP)]
    Generate(GenerateArgs),
    /// Add up the --stats JSON of runs made side by side (the partitions of a Spark job) into
    /// one summary, percentiles included: JSON on stdout, the summary on stderr (check's
    /// --stats files too).
    #[command(after_help = MERGE_STATS_AFTER_HELP)]
    MergeStats(MergeStatsArgs),
    /// Print the shell completion script for bash, zsh, fish, elvish or PowerShell.
    #[command(after_help = COMPLETIONS_AFTER_HELP)]
    Completions(CompletionsArgs),
    /// Print the man page (roff), or write one page per subcommand into a folder.
    #[command(after_help = MAN_AFTER_HELP)]
    Man(ManArgs),
}

const COMPLETIONS_AFTER_HELP: &str = "\
Install (one of):
  sudoku-batch completions bash > ~/.local/share/bash-completion/completions/sudoku-batch
  sudoku-batch completions zsh > \"${fpath[1]}/_sudoku-batch\"
  sudoku-batch completions fish > ~/.config/fish/completions/sudoku-batch.fish";

const MAN_AFTER_HELP: &str = "\
Examples:
  sudoku-batch man | man -l -
  sudoku-batch man solve | man -l -
  sudoku-batch man --dir ~/.local/share/man/man1    # sudoku-batch.1, sudoku-batch-solve.1, ...";

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The page of this subcommand (`solve`: sudoku-batch-solve(1)) instead of the main page.
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "dir")]
    pub page: Option<String>,

    /// Write `sudoku-batch.1` and a `sudoku-batch-SUBCOMMAND.1` per subcommand into DIR (an
    /// existing folder) instead of printing one page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

const SOLVE_AFTER_HELP: &str = "\
Status words (the same in every output format):
  solved         a solution was found (uniqueness not checked)
  unique         exactly one solution (--unique)
  multiple       two or more solutions (--unique); the first one found is reported
  unsolvable     well formed, consistent givens, no solution
  contradiction  two equal givens in a row, column or box
  malformed      not readable as a puzzle; the reason goes to stderr as FILE:LINE: reason

Inputs may be gzip, zstd, xz or bzip2 compressed, or a zip holding one data file (told by
their first bytes, on stdin too). A record longer than --max-record is malformed.

Ctrl-C, SIGTERM or SIGHUP stop reading; the records read are still written, whole and in
order, and the summary says where the output ends. A second one exits at once (one within
0.1 s of the first, as `timeout` sends, counts as the first).

Exit status: 0 when every record was read and written (a record's failure is its status),
2 for usage, I/O or format errors; 130, 143, 129 when stopped by SIGINT, SIGTERM, SIGHUP.
A closed output pipe (`| head`) ends the run with 0, no error: the summary (unless -q) says
which records were written whole (the reader may have read some of the next batch).

Examples:
  sudoku-batch solve < data/baekjoon_example1.in
  sudoku-batch solve data/hardest_300.txt -o solutions.txt
  sudoku-batch solve --unique -O jsonl data/kaggle_200.csv
  cat *.txt | sudoku-batch solve -j2 -O csv --stats stats.json - > out.csv";

const CHECK_AFTER_HELP: &str = "\
Verdicts (the same in every output):
  unique          exactly one solution (and the given solution, if any, is it)
  multiple        two or more solutions; the detail names the cells where two of them differ
  unsolvable      well formed, consistent givens, no solution
  contradiction   two equal givens in a row, column or box
  malformed       not readable as a puzzle
  wrong_solution  the given solution is not 81 cells, leaves a cell blank, changes a given,
                  repeats a digit in a unit, or differs from the only solution
  duplicate       same puzzle as an earlier record, or isomorphic to it (--duplicates=iso);
                  not searched again

Given solutions: the CSV column named solution, else solutions, answer, answers (or
--solution-column); in line files the field after the puzzle that has 81 characters
(PUZZLE SOLUTION, tdoku's puzzle:count:solution) or 41+ cell characters. Grids have none.

Output: problem records on stderr as FILE:LINE: verdict: detail (at most --max-problems;
with --minimal also unique puzzles that are not minimal), then the counts. Nothing on stdout
unless -O jsonl|csv (one record per input record, in input order) or -o FILE.jsonl|FILE.csv;
with --pipe, -O jsonl is the default.
--report FILE writes every finding and the counts as JSON, CSV, Markdown or SVG charts;
--stats FILE the counts as JSON that merge-stats adds up across runs.

--rate rates every unique puzzle as `rate` does (Sudoku Explainer's ER, EP, ED): the stream
gains er, ep, ed, hardest (empty or null for records that are not unique; >9.4 for a path stuck
with every technique tried), the counts a line of ratings by band of ER (below 6.5, 6.5 to
7.9, 8.0 and up). merge-stats adds up rated runs, and refuses to mix rated and unrated ones.

Inputs are read as for solve (compressed, zipped, --max-record); Ctrl-C stops as for solve,
with the counts and report of what was checked.

Exit status: 0 when every record is unique (and its given solution right), 1 when any
problem was found, 2 for usage, I/O or format errors; 130, 143, 129 when stopped by
SIGINT, SIGTERM, SIGHUP.

Examples:
  sudoku-batch check data/kaggle_200.csv
  sudoku-batch check --duplicates --report report.md puzzles.txt
  sudoku-batch check --minimal -O jsonl data/17clue_300.txt > verdicts.jsonl
  sudoku-batch check --rate -O csv --stats stats.json data/exchange_hard_200.txt";

/// Input options shared by the subcommands that read datasets.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files, read in order; `-` or none for standard input.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub format: FormatArgs,

    /// Solver threads (default: $RAYON_NUM_THREADS when set, else all cores). At most 4 per
    /// logical CPU (at least 64): more are capped, with a warning.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_count::<NonZeroUsize>)]
    pub threads: Option<NonZeroUsize>,

    /// Progress bar on stderr: auto shows it when stderr is a terminal.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    pub progress: ProgressArg,

    /// No progress bar and no summary on stderr (problem records and errors are still reported).
    #[arg(short, long)]
    pub quiet: bool,

    /// Records per batch handed to the thread pool.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH_SIZE, hide = true,
          value_parser = parse_count::<NonZeroUsize>)]
    pub batch_size: NonZeroUsize,

    /// The contract of record-pipe engines (Spark's RDD.pipe, SQL TRANSFORM): every input line
    /// gives exactly one output line (blank and # lines are malformed records), no CSV header
    /// out, the malformed reason in each record of -O csv and jsonl (-O line writes the status
    /// word alone: no reason), nothing on stderr unless the run fails, exit 0
    /// whatever the records hold, one thread unless -j is given, line input unless
    /// --csv-columns names the columns of headerless CSV rows (-I csv alone is refused: no
    /// header line comes with an engine's chunk).
    #[arg(long)]
    pub pipe: bool,

    /// Keep, from each line of line input, the whole line (`line`: output key/column `input`)
    /// or some of its fields (`1,3`: `field1`, `field3`; split on whitespace, `:` and `,`, a
    /// run of them one split, so `a::b` has two fields), so keys, hashes and ratings come back
    /// with the answers: after the puzzle (csv, jsonl), at the end of the record's line (line;
    /// grid: its `#` line, one made for a solved grid). Line input only: CSV output keeps every
    /// column of CSV input; the whole line comes back without the spaces around it.
    #[arg(long, value_name = "line|N,N...", value_parser = parse_echo)]
    pub echo: Option<Echo>,
}

impl InputArgs {
    /// Nothing on stderr but errors: `-q`, or pipe mode (where even problem records stay off
    /// stderr: their reasons are in the records).
    pub fn silent(&self) -> bool {
        self.quiet || self.pipe
    }
}

/// `--echo` text: `line`, or 1-based field numbers separated by commas.
pub fn parse_echo(text: &str) -> Result<Echo, String> {
    if text.eq_ignore_ascii_case("line") {
        return Ok(Echo::Line);
    }
    let numbers: Result<Vec<usize>, _> = text
        .split(',')
        .map(|n| match n.trim().parse::<usize>() {
            Ok(0) | Err(_) => Err(format!(
                "expected `line` or field numbers from 1 such as 1,3, not {text:?}"
            )),
            Ok(n) => Ok(n),
        })
        .collect();
    let numbers = numbers?;
    // each field once: a JSON object cannot hold one key twice
    if let Some(n) = numbers
        .iter()
        .enumerate()
        .find_map(|(i, n)| numbers[..i].contains(n).then_some(n))
    {
        return Err(format!("field {n} is named twice in {text:?}"));
    }
    Ok(Echo::Fields(numbers))
}

/// How to read an input: its layout and CSV puzzle column.
#[derive(Debug, Args)]
pub struct FormatArgs {
    /// Input layout: line (81 cells a line), csv (header row, puzzle column), grid (9 rows of 9);
    /// auto decides from the content.
    #[arg(short = 'I', long, value_enum, default_value_t = InputFormatArg::Auto)]
    pub input_format: InputFormatArg,

    /// CSV puzzle column, by header name or 1-based position (default: the first column named
    /// puzzle, quizzes, quiz, question, sudoku, ...).
    #[arg(short = 'c', long, value_name = "NAME|INDEX", value_parser = parse_column)]
    pub column: Option<Column>,

    /// The column names of CSV input that has no header row (a chunk of a CSV file, as an
    /// engine hands it over), separated by commas; implies -I csv (-I line or grid is refused).
    /// Names separated by `;` or a tab instead ('id;puzzle') say that the rows' fields are
    /// separated by it too.
    #[arg(long, value_name = "NAME,NAME...", value_delimiter = ',')]
    pub csv_columns: Option<Vec<String>>,

    /// Longest record (a line, a grid row, a CSV row) read, in bytes (K, M, G: KiB, MiB, GiB),
    /// the CR of a CRLF line end counted, its LF not. A longer one is a malformed record, read
    /// past in bounded memory.
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(DEFAULT_MAX_RECORD),
          value_parser = parse_size)]
    pub max_record: ByteSize,
}

/// A size in bytes, written with an optional binary suffix (`64K`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSize(pub usize);

impl std::fmt::Display for ByteSize {
    /// The largest suffix that divides the size exactly: `64K`, `1M`, `1000`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0;
        for (suffix, unit) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] {
            if n >= unit && n % unit == 0 {
                return write!(f, "{}{suffix}", n / unit);
            }
        }
        write!(f, "{n}")
    }
}

/// `--max-record` text: a positive whole number of bytes, with an optional suffix K, M or G (or
/// KiB, MiB, GiB; any case) for binary multiples.
pub fn parse_size(text: &str) -> Result<ByteSize, String> {
    let lower = text.trim().to_ascii_lowercase();
    let digits = lower.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit: usize = match &lower[digits.len()..] {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "expected a size such as 65536, 64K or 1M, not {text:?}"
            ));
        }
    };
    match digits.trim().parse::<usize>() {
        Ok(n) if n > 0 => n
            .checked_mul(unit)
            .map(ByteSize)
            .ok_or_else(|| format!("{text} is too large")),
        _ => Err(format!(
            "expected a size such as 65536, 64K or 1M, not {text:?}"
        )),
    }
}

/// Where and how `solve` and `canon` write their records.
#[derive(Debug, Args)]
pub struct RecordOutputArgs {
    /// Output layout; auto mirrors the input (line for line, csv for csv, grid for grid).
    #[arg(short = 'O', long, value_enum, default_value_t = OutputFormatArg::Auto)]
    pub output_format: OutputFormatArg,

    /// Write the output to FILE instead of standard output (`-` for standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: RecordOutputArgs,

    /// Check uniqueness (search for a second solution): statuses unique / multiple instead of solved.
    #[arg(short, long)]
    pub unique: bool,

    /// Write the run's summary (counts, times, percentiles) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// Leave per-record solve times out of csv and jsonl output (the column stays, empty in csv,
    /// null in jsonl), so runs give identical bytes.
    #[arg(long)]
    pub no_timings: bool,
}

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    /// CSV column of the dataset's solutions, by header name or 1-based position (default: the
    /// column named solution, else solutions, answer, answers, in that order of names; none:
    /// solutions not checked).
    #[arg(long, value_name = "NAME|INDEX", value_parser = parse_column)]
    pub solution_column: Option<Column>,

    /// Flag records whose puzzle repeats an earlier one (verdict duplicate, naming the first
    /// line): exact (equal cells; the default) or iso (isomorphic: the same puzzle up to
    /// relabelling digits, moving rows, columns, bands, stacks, transposing; see `canon`).
    /// Takes 38 to 75 bytes of memory per distinct puzzle (exact), 74 to 148 (iso, which keeps
    /// the puzzle packed); measured at the peak on 552k puzzles: 69 and 131.
    #[arg(
        long,
        value_enum,
        value_name = "exact|iso",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "exact"
    )]
    pub duplicates: Option<DuplicatesArg>,

    /// Also test whether each puzzle with one solution is minimal, and count its redundant givens.
    /// Costs one more search per given: measured 4 times the time of a plain check on the hardest
    /// puzzles, 30 times on 17-clue ones.
    #[arg(long)]
    pub minimal: bool,

    /// Also rate each unique puzzle on Sudoku Explainer's scale, as `rate` does: er, ep, ed and
    /// hardest in the per-record stream, counts by band of ER in the summary, --report and
    /// --stats. Rating costs far more than checking (from tens of microseconds to a second a
    /// puzzle, for the hardest); records that are not unique get no rating.
    #[arg(long)]
    pub rate: bool,

    /// With --rate, stop rating a puzzle once its ER is known to lie above X (0 to 20, one
    /// decimal at most), as `rate --max-er` does: such values are written >X and counted apart
    /// ("above X") in the summary, --report and --stats. Far faster on hard datasets.
    #[arg(long, value_name = "X", value_parser = parse_rating, requires = "rate")]
    pub max_er: Option<u32>,

    /// Stream every record's verdict, in input order: jsonl or csv (default: none, or from the
    /// extension of --output).
    #[arg(short = 'O', long, value_enum)]
    pub output_format: Option<CheckFormatArg>,

    /// Write the per-record stream to FILE instead of standard output (`-` for standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Problem records listed on stderr, at most (the count of the others is given).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_problems: usize,

    /// Write every finding and the counts to FILE; the format follows its extension (.json,
    /// .csv, .md) or --report-format.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Format of --report.
    #[arg(long, value_enum, requires = "report")]
    pub report_format: Option<ReportFormatArg>,

    /// Write the run's counts (verdicts, givens, guesses, minimality, threads, wall time) as
    /// JSON to FILE (`-`: standard output, when the verdicts go to a file or nowhere); the files
    /// of runs made side by side add up with `merge-stats`.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
}

/// `check --output-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormatArg {
    /// One JSON object per record.
    Jsonl,
    /// Input columns plus verdict, detail, solution, redundant.
    Csv,
}

/// `--report-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormatArg {
    /// One JSON object: findings, then totals.
    Json,
    /// A table of the findings.
    Csv,
    /// Markdown tables of the findings, totals and the dataset's givens, guesses and duplicates.
    #[value(alias = "md")]
    Markdown,
    /// SVG bar charts of the dataset's givens and guesses.
    Svg,
}

impl From<CheckFormatArg> for CheckFormat {
    fn from(a: CheckFormatArg) -> CheckFormat {
        match a {
            CheckFormatArg::Jsonl => CheckFormat::Jsonl,
            CheckFormatArg::Csv => CheckFormat::Csv,
        }
    }
}

impl From<ReportFormatArg> for ReportFormat {
    fn from(a: ReportFormatArg) -> ReportFormat {
        match a {
            ReportFormatArg::Json => ReportFormat::Json,
            ReportFormatArg::Csv => ReportFormat::Csv,
            ReportFormatArg::Markdown => ReportFormat::Markdown,
            ReportFormatArg::Svg => ReportFormat::Svg,
        }
    }
}

const BENCH_AFTER_HELP: &str = "\
Each dataset (one per input) is read into memory (parse time reported apart; malformed records
are skipped and counted), solved once as a warm-up that checks every solution (a wrong one is an
error, exit 2), solved once more with each puzzle timed alone (the p50/p99/max distribution), then
timed in --rounds rounds of whole passes lasting at least --min-seconds each. puzzles/s and
µs/puzzle come from the best round; the median round is shown beside it.

Reports: a Markdown table on stdout; --export-json (a top-level `datasets` array and the run
info), --export-csv (a row per dataset), --export-markdown, --export-svg (a chart). The checksum
is FNV-1a 64 of what `solve -O line` prints for the same puzzles: equal checksums, equal answers.

Examples:
  sudoku-batch bench data/hardest_300.txt data/kaggle_200.csv
  sudoku-batch bench --limit 2 --shuffle 1 --export-json run.json puzzles.txt
  sudoku-batch bench --limit 2 --shuffle 1 --baseline run.json puzzles.txt
  sudoku-batch bench --sample 1000 --shuffle 7 --write-puzzles same.txt big.csv";

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Datasets, one per input (`-` for standard input).
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub format: FormatArgs,

    /// Solver threads: 1 measures the solver's own speed, more the parallel throughput
    /// ($RAYON_NUM_THREADS is not read: the default is 1). Capped as for solve.
    #[arg(short = 'j', long, value_name = "N", default_value_t = bench::DEFAULT_THREADS,
          value_parser = parse_count::<NonZeroUsize>)]
    pub threads: NonZeroUsize,

    /// Solutions to search for: 1 (the first) or 2 (proof of uniqueness).
    #[arg(long, value_name = "1|2", default_value_t = bench::DEFAULT_LIMIT,
          value_parser = clap::value_parser!(u32).range(1..=2))]
    pub limit: u32,

    /// Each round runs whole passes over the dataset until this many seconds have gone by (0 to
    /// 86400, a day).
    #[arg(long, value_name = "SECS", default_value_t = bench::DEFAULT_MIN_SECONDS,
          value_parser = parse_seconds)]
    pub min_seconds: f64,

    /// Timed rounds per dataset (the best and the median are reported), 1 to 1000.
    #[arg(long, value_name = "N", default_value_t = bench::DEFAULT_ROUNDS,
          value_parser = parse_rounds)]
    pub rounds: NonZeroU32,

    /// Transform each puzzle at random, seeded: digits relabelled, bands, rows within bands,
    /// stacks and columns within stacks permuted, maybe transposed (the answers stay valid).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,

    /// Time a random subset of N puzzles of each dataset (in input order), chosen with --seed.
    #[arg(long, value_name = "N", value_parser = parse_count::<NonZeroUsize>)]
    pub sample: Option<NonZeroUsize>,

    /// Seed of --sample.
    #[arg(long, value_name = "SEED", default_value_t = bench::DEFAULT_SEED)]
    pub seed: u64,

    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,

    /// Write the report as CSV (a row per dataset) to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,

    /// Write the Markdown table to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,

    /// Draw the chart (µs/puzzle per dataset, time distribution) as SVG to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_svg: Option<PathBuf>,

    /// Compare with an earlier --export-json report: ratio of µs/puzzle per dataset (by name).
    #[arg(long, value_name = "FILE.json")]
    pub baseline: Option<PathBuf>,

    /// Write the puzzles as timed (after --sample and --shuffle) to FILE, 81 characters a line,
    /// so another solver can be timed on exactly the same puzzles. When FILE is an existing
    /// folder, each dataset goes to a file of its own there: its file name followed by `.txt`.
    #[arg(long, value_name = "FILE|DIR")]
    pub write_puzzles: Option<PathBuf>,

    /// No table on stdout and no notes on stderr (exports are still written; errors reported).
    #[arg(short, long)]
    pub quiet: bool,
}

const GENERATE_AFTER_HELP: &str = "\
Record i (from 1) of a stream depends only on --seed, i and the options: never on -j, timing or
--start, so `--start K -n N` writes records K+1..K+N of the stream that `-n K+N` writes whole.
No two records written are isomorphic (the same puzzle up to relabelling digits, moving rows,
columns, bands, stacks, transposing): records are numbered as made, and a record isomorphic to
an earlier one of the stream is not written (a repeat; counted in the summary), so -n N writes
N records less its repeats. To leave out the same repeats, a run from --start K makes records
1..K first (their classes only; --no-dedupe skips that, and the check). A record isomorphic to
a puzzle of an --exclude file is never made: that record takes another try. The stream may
change between versions of sudoku-batch, never within one.

Output per record (blanks as `.` in the puzzle, `0` in grid rows):
  line   PUZZLE SOLUTION GIVENS GUESSES [ER EP ED]
  csv    puzzle,solution,givens,guesses,record,tries[,symmetry][,er,ep,ed,hardest]
  jsonl  {\"puzzle\",\"solution\",\"givens\",\"guesses\",\"record\",\"tries\"[,\"symmetry\"]
         [,\"er\",\"ep\",\"ed\",\"hardest\"]}
  grid   # RECORD GIVENS GUESSES SOLUTION [SYMMETRY] [ER EP ED], then the puzzle's 9 rows
GUESSES is what `solve --unique` reports for the puzzle as written (a difficulty proxy); RECORD
the record's place in the stream, from 1; TRIES the candidate puzzles it took; ER EP ED (with
--rating) its rating as `rate` writes it, HARDEST the technique of its hardest step.

Targets: --clues A..B (both ends included; A.. and ..B too), --symmetry KIND, --pattern (givens
exactly on the marked cells), --from FILE (solution grids to carve, or puzzles whose givens are
kept; record i starts from entry i, from the first again once they run out), --guesses A..B
(reached by a seeded hill climb), --rating A..B (Sudoku Explainer's ER as `rate` gives it, 1.0
to 9.4; from 8.5 up by the hill climb), --exclude FILE... A record takes tries until one
meets every target; after --max-tries the run stops with a message and exit 1, the records
before it written.

Ctrl-C, SIGTERM or SIGHUP stop the run: the records made are written, whole and in order, and the
summary says where the output ends; exit 130, 143, 129. A second one exits at once.

Exit status: 0 when every record was made; 1 when a record met no target within --max-tries; 2
for usage, I/O or format errors (a malformed --from or --exclude file); 130, 143, 129 as above.
A closed output pipe (`| head`) stops the run with 0, as for solve: the summary says which
records were written whole.

Examples:
  sudoku-batch generate -n 1000 --seed 7 -o puzzles.txt
  sudoku-batch generate --seed 7 --start 500 -n 500     # records 501..1000 of the first
  sudoku-batch generate -n 100 --clues 22..24 --symmetry rot180 -O csv
  sudoku-batch generate -n 10 --clues 30 --no-minimal
  sudoku-batch generate -n 5 --pattern pattern.txt     # x: a given; 81 cells or 9 rows
  sudoku-batch generate -n 20 --from solutions.txt --exclude train.csv test.csv
  sudoku-batch generate -n 20 --guesses 50.. -O jsonl -o hard.jsonl
  sudoku-batch generate -n 20 --rating 8.0.. -O csv
  sudoku-batch generate -n 100 --rating 2.0..4.0 --clues 24..
  sudoku-batch generate -n 100 --exclude kaggle.csv -c quizzes --max-tries 1000
  sudoku-batch generate -n 100000000 --no-dedupe -j 2 --progress never -q -o big.txt";

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Records to make (from the stream's start, or after --start), repeats of earlier ones
    /// left out. E.g. -n 1000.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1)]
    pub count: u64,

    /// Seed of the stream: the same seed and options give the same records. E.g. --seed 7.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Begin after the first K records of the stream: write records K+1..K+N, exactly as a
    /// run from record 1 writes them. E.g. --start 5000 -n 5000.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub start: u64,

    /// Givens each puzzle has: A..B (both included), A.., ..B or A. E.g. --clues 22..25.
    #[arg(long, value_name = "A..B", value_parser = parse_bounds)]
    pub clues: Option<Bounds>,

    /// Stop removing givens at a number drawn from --clues (unique, not minimal). E.g.
    /// --clues 30..35 --no-minimal.
    #[arg(long)]
    pub no_minimal: bool,

    /// Symmetry of each puzzle's pattern of givens: kept by a half turn (rot180), a quarter
    /// turn (rot90), mirroring about the middle row (mirror-h) or column (mirror-v) or both,
    /// about the main diagonal (diagonal) or the other (antidiagonal) or both, all eight maps
    /// (dihedral); random draws one of those for each try, so each comes out as often as its
    /// tries succeed (seed 5, 2,000 records: diagonal and antidiagonal 31% each, rot180 16%,
    /// mirrors 10% each, rot90 and dihedral under 0.5%). E.g. --symmetry rot180.
    #[arg(long, value_name = "KIND", default_value = "none", value_parser = symmetry_parser())]
    pub symmetry: Symmetry,

    /// Givens exactly on the marked cells: 81 cells, marks (x X * # o O @ or a digit) and blanks
    /// (. 0 - _), as one argument or a file of them (9 rows of 9 are fine; - for stdin). E.g. --pattern
    /// pattern.txt.
    #[arg(long, value_name = "PATTERN|FILE")]
    pub pattern: Option<String>,

    /// Starting points, read like solve's inputs: a solution grid is carved into minimal
    /// puzzles of it; a puzzle keeps its givens (and, with --symmetry, the cells the symmetry
    /// puts with them: the puzzle is minimal apart from those). Record i starts from entry i
    /// (both from 1), from the first again once the entries run out. E.g. --from grids.txt.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,

    /// Guesses `solve --unique` needs for each puzzle: A..B, A.. or ..B, reached by a seeded
    /// hill climb. E.g. --guesses 50..
    #[arg(long, value_name = "A..B", value_parser = parse_bounds)]
    pub guesses: Option<Bounds>,

    /// ER of each puzzle on Sudoku Explainer's scale, as `rate` gives it: A..B, A.. or ..B
    /// with one decimal at most, from 1.0 to 9.4; adds er, ep, ed (and hardest) to the output.
    /// Ranges from 8.5 up are reached by the hill climb, lower ones by carving until one is in
    /// range. E.g. --rating 7.0..
    #[arg(long, value_name = "A..B", value_parser = parse_rating_range)]
    pub rating: Option<Bounds>,

    /// Make no puzzle isomorphic to one in these files (read like solve's inputs). E.g.
    /// --exclude train.txt test.txt.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub exclude: Vec<PathBuf>,

    /// Tries a record may take before the run gives up on it (a try: one puzzle carved and
    /// tested, or one step of the --guesses or --rating climb).
    #[arg(long, value_name = "N", help = max_tries_help())]
    pub max_tries: Option<u64>,

    /// Do not keep the run's classes of puzzles: memory stays flat on endless runs, --start
    /// does not make the records before it, and two records may then be isomorphic (never
    /// seen with plain generation; see the README). E.g. -n 100000000 --no-dedupe.
    #[arg(long)]
    pub no_dedupe: bool,

    #[command(flatten, next_help_heading = "Reading --from and --exclude files")]
    #[allow(missing_docs)]
    pub format: FormatArgs,

    /// Threads (default: $RAYON_NUM_THREADS when set, else all cores). The records are the
    /// same for any number. E.g. -j 2.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_count::<NonZeroUsize>)]
    pub threads: Option<NonZeroUsize>,

    /// Progress bar on stderr: auto shows it when stderr is a terminal. E.g. --progress
    /// never.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    pub progress: ProgressArg,

    /// No progress bar and no summary on stderr (errors are still reported). E.g. -q.
    #[arg(short, long)]
    pub quiet: bool,

    /// Records per batch handed to the thread pool (default: 256, or 1 for the slow targets:
    /// --guesses, --pattern, --from puzzles).
    #[arg(long, value_name = "N", hide = true, value_parser = parse_count::<NonZeroUsize>)]
    pub batch_size: Option<NonZeroUsize>,

    /// Output layout (see below). E.g. -O jsonl.
    #[arg(short = 'O', long, value_enum, default_value_t = GenerateFormatArg::Auto)]
    pub output_format: GenerateFormatArg,

    /// Write the output to FILE instead of standard output (`-` for standard output); never
    /// a file read by --from or --exclude. E.g. -o puzzles.csv (csv, by its name).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The --max-tries help, with the defaults from the library.
fn max_tries_help() -> String {
    format!(
        "Tries a record may take before the run gives up on it and stops (exit 1): one try is \
         one puzzle carved and tested (and rated, with --rating), or one step of the --guesses \
         or --rating climb. E.g. --max-tries 5000000 [default: {DEFAULT_MAX_TRIES}; \
         {DEFAULT_MAX_TRIES_GUESSES} with --guesses; {DEFAULT_MAX_TRIES_SYMMETRY} with \
         --symmetry]"
    )
}

/// `generate`'s `--output-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormatArg {
    /// csv or jsonl when -o FILE's extension says so, else line.
    Auto,
    /// PUZZLE SOLUTION GIVENS GUESSES, one line per record.
    Line,
    /// A header, then puzzle, solution, givens, guesses, record, tries.
    Csv,
    /// One JSON object per record.
    Jsonl,
    /// A `#` line, then the puzzle's 9 rows; a blank line between records.
    Grid,
}

impl From<GenerateFormatArg> for OutputFormat {
    fn from(a: GenerateFormatArg) -> OutputFormat {
        match a {
            GenerateFormatArg::Auto => OutputFormat::Auto,
            GenerateFormatArg::Line => OutputFormat::Line,
            GenerateFormatArg::Csv => OutputFormat::Csv,
            GenerateFormatArg::Jsonl => OutputFormat::Jsonl,
            GenerateFormatArg::Grid => OutputFormat::Grid,
        }
    }
}

/// `--symmetry` text: a [`Symmetry`] by its name, the names offered in `--help` and shell
/// completions (the library owns the names, so that the CLI and the output columns agree).
fn symmetry_parser() -> impl clap::builder::TypedValueParser<Value = Symmetry> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Symmetry::ALL.map(Symmetry::name)).map(
        |name: String| {
            // only the names just offered get here
            Symmetry::from_name(&name).unwrap_or(Symmetry::None)
        },
    )
}

/// `--rating` text: a range of ratings, each end as [`parse_rating`] reads it (`7.0..`,
/// `..4.0`, `2.0..4.0`, `7.2`), in tenths.
pub fn parse_rating_range(text: &str) -> Result<Bounds, String> {
    text.parse::<sudoku_batch::generate::RatingRange>()
        .map(|r| r.0)
}

/// `--clues` and `--guesses` text: a range (see [`Bounds`]).
pub fn parse_bounds(text: &str) -> Result<Bounds, String> {
    text.parse::<Bounds>().map_err(|e| e.to_string())
}

const MERGE_STATS_AFTER_HELP: &str = "\
Counts and solve-time histograms add up; the wall time is the longest run's (they ran at the
same time), so puzzles/s is the whole job's; threads add up. The result can be merged again.
Takes the --stats files of solve runs, or of check runs (verdicts, givens, guesses add up; with
check --rate the ratings by band too, and rated and unrated runs are refused together), not
both. A part stopped by a signal or an input error leaves `interrupted` set and is named in
`interrupted_parts`, and the summary says INCOMPLETE. Each run names itself in its stats
(`runs`), so a run counted twice (a copy of a part, a merged file beside one of its parts) is
refused.

Example:
  sudoku-batch merge-stats part-*.json > job.json";

const CANON_AFTER_HELP: &str = "\
The form is the minlex form: of every grid the rules' symmetries make of the puzzle, the one
whose 81 digits (blank = 0) are smallest. Two puzzles are the same puzzle exactly when their
forms are equal. Any grid has one: any number of givens, many solutions or none.

Output per record (status ok, or malformed with the reason on stderr):
  line   FORM HASH [TRANSFORM]     or the word malformed
  csv    input columns, status, canonical, hash [, transform]
  jsonl  file, line, puzzle, status, canonical, hash [, transform]
  grid   # HASH [TRANSFORM], then the form's 9 rows
HASH is FNV-1a 64 of the form's 81 ASCII digits, as 16 hex digits. TRANSFORM (--transform)
maps the input onto its form: T if transposed last, R then the source row of each row, C the
source column of each column, D the new digit of digits 1 to 9.

Examples:
  sudoku-batch canon data/17clue_300.txt
  sudoku-batch canon --transform -O jsonl data/kaggle_200.csv
  sudoku-batch check --duplicates=iso train.csv test.csv";

/// Arguments of `canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: RecordOutputArgs,

    /// Also write the transform that maps each puzzle onto its form.
    #[arg(long)]
    pub transform: bool,
}

const RATE_AFTER_HELP: &str = "\
The rating is the one Sudoku Explainer's command line `serate` (2022.3.24, 1to9only's fork,
commit b1f9ed4) prints by default: the puzzle is solved one step at a time, each step the first
hint of the easiest family of techniques that has one (hidden single 1.0 ... nested forcing
chains 9.5 and up), in Explainer's order and with its difficulties and chain-length bonus. ER is
the hardest step, EP the hardest up to the first placed digit, ED the first step.

Only puzzles with exactly one solution are rated (the uniqueness techniques rely on it; serate
itself rates any grid and prints 20.0 when it gets stuck): the others get solve's status words
multiple, unsolvable, contradiction or malformed, and no rating.

Output per record:
  line   ER EP ED HARDEST          or the status word
  csv    input columns, status, er, ep, ed, hardest, micros
  jsonl  file, line, puzzle, status, er, ep, ed, hardest, micros
  grid   # ER EP ED HARDEST, then the puzzle's 9 rows
Values have one decimal as serate prints them; with --max-er X a value known only to lie above
X is written >X (a string in jsonl) and the hardest technique is left out. --explain (line and
jsonl) follows each record with its path, one step a line: difficulty, technique, the digit
placed, the candidates removed. The summary on stderr names the rater and counts the ratings.

Examples:
  sudoku-batch rate data/easy_300.txt
  sudoku-batch rate --max-er 6.5 -O jsonl data/exchange_hard_200.txt
  sudoku-batch rate --explain data/hardest_300.txt | head";

/// Arguments of `rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: RecordOutputArgs,

    /// Stop rating a puzzle once its ER is known to lie above X (0 to 20, one decimal at most):
    /// such values are written >X. Filters such as "everything up to 7.0" run far faster.
    #[arg(long, value_name = "X", value_parser = parse_rating)]
    pub max_er: Option<u32>,

    /// Follow each record with its solving path, one step a line (line and jsonl output).
    #[arg(long)]
    pub explain: bool,

    /// Write the run's summary (the rater and its settings, counts by band, the hardest
    /// rating) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// Leave per-record rating times out of csv and jsonl output (the column stays, empty in
    /// csv, null in jsonl), so runs give identical bytes.
    #[arg(long)]
    pub no_timings: bool,
}

/// `--max-er` text: a rating from 0 to 20 with at most one decimal, in tenths.
pub fn parse_rating(text: &str) -> Result<u32, String> {
    sudoku_batch::ratings::parse_tenths(text)
}

const AUGMENT_AFTER_HELP: &str = "\
Each copy applies one symmetry of the rules (digits relabelled, rows moved inside bands, bands
moved, columns inside stacks, stacks, maybe a transpose) to the puzzle and to its solution: the
copy is as valid, as hard and has as many solutions as the original. A record's copies depend
only on --seed and where the record is (input and line): the same for any -j or batch size.
Copies are streamed: memory stays bounded for any -n (a few MiB), and Ctrl-C stops within a
record's copies, the summary saying which copy the output ends with.

Output per copy (status ok), or once for a record without copies: malformed (the puzzle), or
bad_solution (the given solution is not a grid, or does not solve the puzzle); such records are listed on stderr as
FILE:LINE: reason (even with -q) and counted in the summary.
  csv    input columns (puzzle and solution replaced), status, copy, transform
  line   PUZZLE [SOLUTION] TRANSFORM
  jsonl  file, line, copy, status, puzzle, solution, transform
  grid   # COPY TRANSFORM [SOLUTION], then the copy's 9 rows; a blank line between copies
TRANSFORM as in canon: T if transposed, R source rows, C source columns, D new digits.

--echo keeps fields of each line of line input in every format: after the puzzle (csv,
jsonl), at the end of the line (line, grid's # line). --pipe takes -n 1 without
--keep-original (one output line per input line) and adds the reason (csv, jsonl).

Examples:
  sudoku-batch augment -n 4 --seed 7 data/kaggle_200.csv -o augmented.csv
  sudoku-batch augment -n 2 --keep-original -O jsonl data/hardest_300.txt";

/// Arguments of `augment`.
#[derive(Debug, Args)]
pub struct AugmentArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: RecordOutputArgs,

    /// Random copies of each record, 1 or more (any number: copies are streamed in bounded
    /// memory). With --pipe, 1.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub copies: u64,

    /// Seed of the random symmetries (the same seed gives the same copies).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// Also write each record as it is, as copy 0, before its copies.
    #[arg(long)]
    pub keep_original: bool,

    /// CSV column of the dataset's solutions, by header name or 1-based position (default: the
    /// column named solution, else solutions, answer, answers, in that order of names).
    #[arg(long, value_name = "NAME|INDEX", value_parser = parse_column)]
    pub solution_column: Option<Column>,
}

const SPLIT_AFTER_HELP: &str = "\
Each puzzle's class (its minlex form, see canon) is drawn into the test part with probability
--test-fraction, from the form's hash and --seed: every puzzle of a class lands in the same part,
so the parts are inequivalent, and the draw needs no memory (any dataset size, streaming). The
fraction is of classes, so the parts' sizes are close to it, not exact.

Records keep their input order and layout: a CSV header in each part, lines written back whole
(spaces around them dropped), grids as 9 rows of 9 cells and a blank line; each part starts with
a UTF-8 BOM when the input does, and its lines end with CRLF when the input's first line does.
Malformed records are in neither part: they are listed on stderr as FILE:LINE: reason (even with
-q) and counted. Blank and # comment lines of line and grid input are no records: they are in
neither part either (a source or licence header is to be copied by hand). --pipe and --echo do
not apply (a record goes to one of two files, whole).

Ctrl-C, SIGTERM or SIGHUP stop reading; the records read are still written and the summary says
where the parts end (every record up to FILE:LINE is in one of them). A part that cannot be
written, a closed pipe included, is an error (exit 2): the other part stops with it (the
message says where each ends; a record after the earlier of the two ends may be in neither).

Example:
  sudoku-batch split --seed 1 data/kaggle_200.csv --train train.csv --test test.csv
  sudoku-batch check --duplicates=iso train.csv test.csv    # no duplicate across the parts";

/// Arguments of `split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    /// The train part: FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub train: PathBuf,

    /// The test part: FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub test: PathBuf,

    /// Share of the classes drawn into the test part, above 0 and below 1.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub test_fraction: f64,

    /// Seed of the draw (the same seed gives the same parts).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
}

/// Arguments of `merge-stats`.
#[derive(Debug, Args)]
pub struct MergeStatsArgs {
    /// The --stats JSON files of the runs (`-` for standard input, one JSON document).
    #[arg(value_name = "STATS.json", required = true)]
    pub inputs: Vec<PathBuf>,

    /// Write the merged JSON to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// No summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--duplicates` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DuplicatesArg {
    /// Equal cells.
    Exact,
    /// Isomorphic puzzles (equal minlex forms).
    Iso,
}

impl From<DuplicatesArg> for DuplicateMode {
    fn from(arg: DuplicatesArg) -> DuplicateMode {
        match arg {
            DuplicatesArg::Exact => DuplicateMode::Exact,
            DuplicatesArg::Iso => DuplicateMode::Isomorphic,
        }
    }
}

/// `--input-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormatArg {
    /// Decide from the content.
    Auto,
    /// One puzzle a line.
    Line,
    /// CSV with a header row.
    Csv,
    /// 9 lines of 9 cells.
    Grid,
}

impl InputFormatArg {
    /// The name of a format asked for that is not CSV (`line`, `grid`), `None` for csv and auto.
    pub fn not_csv(self) -> Option<&'static str> {
        match self {
            InputFormatArg::Line => Some("line"),
            InputFormatArg::Grid => Some("grid"),
            InputFormatArg::Auto | InputFormatArg::Csv => None,
        }
    }
}

/// `--output-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormatArg {
    /// Mirror the input.
    Auto,
    /// One line per record: the command's answer (solve: the 81-digit solution or a status word;
    /// the command's help says what each writes).
    Line,
    /// A header row, then per record the input's columns plus the command's (solve: status,
    /// solution, guesses, micros).
    Csv,
    /// One JSON object per record.
    Jsonl,
    /// 9 lines of 9 cells per record (canon, rate and augment: after a `#` line of their
    /// figures), a blank line between records.
    Grid,
}

/// `--progress` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgressArg {
    /// When stderr is a terminal.
    Auto,
    /// Always (even when stderr is redirected).
    Always,
    /// Never.
    Never,
}

impl From<InputFormatArg> for InputFormat {
    fn from(a: InputFormatArg) -> InputFormat {
        match a {
            InputFormatArg::Auto => InputFormat::Auto,
            InputFormatArg::Line => InputFormat::Line,
            InputFormatArg::Csv => InputFormat::Csv,
            InputFormatArg::Grid => InputFormat::Grid,
        }
    }
}

impl From<OutputFormatArg> for OutputFormat {
    fn from(a: OutputFormatArg) -> OutputFormat {
        match a {
            OutputFormatArg::Auto => OutputFormat::Auto,
            OutputFormatArg::Line => OutputFormat::Line,
            OutputFormatArg::Csv => OutputFormat::Csv,
            OutputFormatArg::Jsonl => OutputFormat::Jsonl,
            OutputFormatArg::Grid => OutputFormat::Grid,
        }
    }
}

/// The longest `--min-seconds`: a day a round. More is a slip (`1e300` ran for ever, while
/// `inf` was refused), not a benchmark.
const MAX_SECONDS: f64 = 86_400.0;

/// `--min-seconds` text: a number of seconds from 0 to [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        // `+ 0.0` makes -0 the 0 it is (it was written `-0 s`)
        Ok(s) if (0.0..=MAX_SECONDS).contains(&s) => Ok(s + 0.0),
        _ => Err(format!(
            "expected a number of seconds from 0 to {MAX_SECONDS} (a day), not {text:?}"
        )),
    }
}

/// A count that must be at least 1 (`-j`, `--rounds`, `--sample`, `--batch-size`), with messages
/// that say what is wrong: zero, too large, or not a whole number.
pub fn parse_count<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr<Err = std::num::ParseIntError>,
{
    use std::num::IntErrorKind;
    text.parse::<T>().map_err(|e| match e.kind() {
        IntErrorKind::Zero => "must be at least 1".to_string(),
        IntErrorKind::PosOverflow => format!("{text} is too large"),
        _ => format!("expected a whole number of at least 1, not {text:?}"),
    })
}

/// Rounds `bench` may be asked for: each is a whole pass at least, so a count past this (it
/// took up to 4294967295, years of work that printed nothing) is refused.
pub const MAX_ROUNDS: u32 = 1000;

/// `--rounds`: a count from 1 to [`MAX_ROUNDS`].
fn parse_rounds(text: &str) -> Result<NonZeroU32, String> {
    let rounds = parse_count::<NonZeroU32>(text)?;
    if rounds.get() > MAX_ROUNDS {
        return Err(format!("{text} is too many: at most {MAX_ROUNDS} rounds"));
    }
    Ok(rounds)
}

/// `--column` text: a number is a 1-based position, anything else a header name.
pub fn parse_column(text: &str) -> Result<Column, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("column positions start at 1".to_string()),
        Ok(i) => Ok(Column::Index(i)),
        Err(_) if text.is_empty() => Err("empty column name".to_string()),
        Err(_) => Ok(Column::Name(text.to_string())),
    }
}
