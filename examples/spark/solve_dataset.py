"""Solve, check or rate a sudoku dataset with Apache Spark and sudoku-batch.

The binary does the work, one process per partition, through Spark's record pipe: every input
line goes in, exactly one output record comes out (`sudoku-batch solve --pipe`), so each record
keeps its key columns. Ship the binary with the job:

    spark-submit --master yarn --files target/release/sudoku-batch \\
        examples/spark/solve_dataset.py hdfs:///puzzles.txt hdfs:///solved --output-format parquet

Input: a text file of puzzles (one a line, other fields allowed: `KEY PUZZLE RATING`), or a CSV
file with a header row (`--input-format csv`). Output: CSV or Parquet, the input's columns (for
text: the whole line as `input` and its first field as `key`) then `status`, `solution` (`answer`
for CSV input), `guesses`, `reason`; with `--command rate`, `er`, `ep`, `ed` and `hardest` (Sudoku
Explainer's ratings, the job that most needs a cluster: milliseconds a puzzle, seconds for some)
instead of the solution and guesses, as the CLI writes them (`rate_dataset.py` makes them numbers,
with `--max-er` and a count by band).

Two routes, same records: SQL's `TRANSFORM ... USING` (the default: lines stay in the JVM from
the file to the writer) and `RDD.pipe` (`--route rdd`: PySpark pipes from its Python workers,
so every line also crosses into Python and back, several times slower on easy data).
"""

import argparse
import csv
import os
import shlex
import stat
import sys
import time

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import LongType, StringType, StructField, StructType

BINARY = "sudoku-batch"

# the records --pipe writes, as Spark schemas: jsonl for text input, CSV for CSV input
JSON_FIELDS = {
    "solve": ["file", "line", "puzzle", "input", "status", "solution", "guesses", "reason"],
    "check": ["file", "line", "puzzle", "input", "verdict", "detail", "solution"],
    "rate": ["file", "line", "puzzle", "input", "status", "er", "ep", "ed", "hardest", "reason"],
}
CSV_APPENDED = {
    "solve": ["status", "answer", "guesses", "micros", "reason"],
    "check": ["verdict", "detail", "answer", "redundant"],
    "rate": ["status", "er", "ep", "ed", "hardest", "micros", "reason"],
}
# the answer's columns kept from each command's records (ratings stay strings: `--max-er X`
# writes ">X" for a value known only to lie above X)
ANSWER = {
    "solve": ["solution", "guesses"],
    "check": ["solution"],
    "rate": ["er", "ep", "ed", "hardest"],
}


def binary_path(spark):
    """Where the shipped binary is on the executors: their working folder on a cluster (where
    --files puts it), the SparkFiles folder in local mode."""
    if spark.sparkContext.master.startswith("local"):
        path = SparkFiles.get(BINARY)
        # a shipped file may lose its executable bit
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path
    return "./" + BINARY


def file_system(spark, path):
    """The Hadoop file system of `path`, and `path` as a Hadoop path."""
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), hadoop_path


def matches(spark, path):
    """The paths `path` names: what a glob (`data/*.txt`, `d[12]`) matches, else itself."""
    fs, hadoop_path = file_system(spark, path)
    found = fs.globStatus(hadoop_path)
    return fs, [status.getPath() for status in found] if found else [hadoop_path]


def split_into(spark, path, partitions):
    """Asks Spark to cut the input into about `partitions` splits (it cuts at 128 MiB by default,
    which leaves a small file in one partition and one core busy). A glob's files are added up."""
    if partitions < 1:
        raise ValueError(f"--partitions must be 1 or more, not {partitions}")
    fs, paths = matches(spark, path)
    size = sum(fs.getContentSummary(p).getLength() for p in paths)
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(max(1, -(-size // partitions))))


def real_paths(spark, path):
    """Where the paths `path` names really are: a glob expanded, qualified (scheme, absolute,
    `..` resolved), and for local files every symbolic link followed."""
    fs, paths = matches(spark, path)
    real = []
    for p in paths:
        uri = fs.makeQualified(p).toUri()
        if uri.getScheme() == "file":
            real.append("file:" + os.path.realpath(uri.getPath()))
        else:
            real.append(fs.makeQualified(p).toString().rstrip("/"))
    return real


def refuse_output_over_input(spark, inputs, output, overwrite):
    """Refuses an output that is an input or a folder holding one when it would be replaced
    (`overwrite`): Spark empties the output before it reads the input, so the job lost its
    input, and any other file in that folder, and then failed. Paths are compared where they
    really are (a symbolic link or a glob named the input's folder otherwise unseen). Without
    `overwrite` an existing output is refused by Spark itself, before anything is written."""
    if output is None or not overwrite:
        return
    outs = real_paths(spark, output)
    for path in inputs:
        for source in real_paths(spark, path):
            if any(source == out or source.startswith(out.rstrip("/") + "/") for out in outs):
                raise ValueError(
                    f"the output {output} is the input {path} or a folder holding it: "
                    "--overwrite would delete it before it is read"
                )


def sql_string(text):
    """`text` as a Spark SQL string literal: backslashes and quotes escaped, so that a quote in
    it (a shell-quoted CSV header) cannot end the literal. (Spark SQL joins adjacent literals:
    unescaped, `'a' 'b'` dropped the shell's quotes and ran a header as shell code.)"""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def pipe(lines, command, route, raw_rows=False):
    """One output record (a string column `record`) per row of `lines` (a string column
    `value`), by the command line `command` run once per partition. A process that exits with
    an error fails the job on either route. `raw_rows`: the records carry their rows as they
    are (CSV), not escaped (JSON)."""
    # a CSV row is a line: a quoted field that holds a line end comes back as two malformed
    # records, the first saying so (the binary's --pipe reads a row a line)
    if route == "rdd":
        # checkCode: PySpark ignores the exit status by default (a failed binary gave an empty
        # or partial output with exit 0)
        records = lines.rdd.map(lambda row: row.value).pipe(command, checkCode=True)
        # with the schema given, Spark does not sample the records (a sample stops a pipe early)
        return lines.sparkSession.createDataFrame(
            records.map(lambda record: (record,)), "record STRING"
        )
    # SQL TRANSFORM: rows written to the process's stdin a line each, its stdout lines read
    # back; fields split at \u0001, which the JSON records escape; a CSV row holding one raw is
    # refused (its record would come back cut at it)
    guarded = lines.select(
        F.when(
            F.lit(raw_rows) & F.col("value").contains("\u0001"),
            F.raise_error(
                F.concat(
                    F.lit("a row holds the byte \\u0001, which SQL's TRANSFORM splits records at: "
                          "use --route rdd for it: "),
                    F.col("value"),
                )
            ),
        )
        .otherwise(F.col("value"))
        .alias("value")
    )
    guarded.createOrReplaceTempView("sudoku_lines")
    return lines.sparkSession.sql(
        "SELECT TRANSFORM(value) "
        "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\u0001' "
        f"USING {sql_string(command)} AS (record STRING) "
        "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\u0001' "
        "FROM sudoku_lines"
    )


def whole(records, parsed, status):
    """`parsed` (the struct parsed from the column `record` of `records`) as columns, failing the
    job on a record that did not parse (its `status` null): a record is never written as nulls."""
    return records.select(
        F.when(
            parsed.isNull() | parsed.getField(status).isNull(),
            F.raise_error(F.concat(F.lit("a record of the binary did not parse: "), F.col("record"))),
        )
        .otherwise(parsed)
        .alias("r")
    )


def command_line(binary, command, *arguments):
    """The shell line that runs `command` of the binary with these arguments (options such as
    `--max-er 7.0` included), quoted."""
    timings = [] if command == "check" else ["--no-timings"]
    return " ".join(shlex.quote(a) for a in [binary, command, "--pipe", *arguments, *timings])


def solve_text(spark, path, binary, command, route, options=()):
    """Text input: each line with its answer; the first field of the line as `key`. `options`
    go to the command as they are."""
    lines = spark.read.text(path)
    line = command_line(binary, command, "-I", "line", "--echo", "line", "-O", "jsonl", *options)
    types = {"line": LongType(), "guesses": LongType()}
    schema = StructType([StructField(n, types.get(n, StringType())) for n in JSON_FIELDS[command]])
    records = pipe(lines, line, route)
    status = "verdict" if command == "check" else "status"
    r = whole(records, F.from_json("record", schema), status)
    verdict = "r.verdict" if command == "check" else "r.status"
    detail = "r.detail" if command == "check" else "r.reason"
    return r.select(
        F.col("r.input").alias("input"),
        F.split(F.trim(F.col("r.input")), r"[\s:,]+").getItem(0).alias("key"),
        F.col(verdict).alias("status"),
        *[F.col(f"r.{name}").alias(name) for name in ANSWER[command]],
        F.col(detail).alias("reason"),
    )


def solve_csv(spark, path, binary, command, route, options=()):
    """CSV input with a header row: every column kept, the answer's columns appended. `options`
    go to the command as they are."""
    lines = spark.read.text(path)
    first = lines.first()
    if first is None:
        raise ValueError(f"{path}: empty: CSV input starts with a header row")
    header = first.value
    # the header as CSV: quoted names (`"id","puzzle"`, as R and Excel write them) unquoted
    columns = next(csv.reader([header.lstrip("\ufeff")]))
    if any("," in name or '"' in name or "`" in name for name in columns):
        raise ValueError(f"{path}: a column name holds a comma, quote or backquote: {header}")
    # the columns the job adds, under their names in the output (and rate_dataset's `above`)
    added = set(CSV_APPENDED[command]) | {"status", "reason"} | ({"above"} if command == "rate" else set())
    clash = [name for name in columns if name in added]
    if clash:
        raise ValueError(
            f"{path}: the column{'s' if len(clash) > 1 else ''} {', '.join(clash)} of the input "
            f"would clash with what the job adds ({', '.join(sorted(added))}): rename "
            f"{'them' if len(clash) > 1 else 'it'} in the header"
        )
    rows = lines.filter(F.col("value") != header)
    line = command_line(
        binary, command, "--csv-columns", ",".join(columns), "-O", "csv", *options
    )
    names = columns + CSV_APPENDED[command]
    schema = ", ".join(f"`{name}` STRING" for name in names)
    status = "verdict" if command == "check" else "status"
    # the CLI writes RFC 4180 CSV: a quote in a field is doubled, a backslash is a character
    parsed = F.from_csv("record", schema, {"escape": '"'})
    r = whole(pipe(rows, line, route, raw_rows=True), parsed, status).select("r.*")
    if command == "check":
        r = r.withColumnRenamed("verdict", "status").withColumnRenamed("detail", "reason")
    elif command == "solve":
        r = r.withColumn("guesses", F.col("guesses").cast(LongType()))
    return r.drop("micros", "redundant")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output", nargs="?", help="not needed with --output-format summary")
    parser.add_argument("--input-format", choices=["text", "csv"], default="text")
    parser.add_argument(
        "--output-format",
        choices=["csv", "parquet", "summary"],
        default="csv",
        help="summary: write nothing, print the count of each status",
    )
    parser.add_argument("--command", choices=["solve", "check", "rate"], default="solve")
    parser.add_argument("--route", choices=["sql", "rdd"], default="sql")
    parser.add_argument(
        "--partitions", type=int, help="cut the input into about this many splits"
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the output if it exists (else an error)"
    )
    args = parser.parse_args()
    if args.output is None and args.output_format != "summary":
        parser.error("an output path is needed (or --output-format summary)")
    if args.partitions is not None and args.partitions < 1:
        parser.error("--partitions must be 1 or more")

    spark = SparkSession.builder.appName("sudoku-batch").getOrCreate()
    refuse_output_over_input(spark, [args.input], args.output, args.overwrite)
    if args.partitions:
        split_into(spark, args.input, args.partitions)
    binary = binary_path(spark)
    read = solve_csv if args.input_format == "csv" else solve_text
    df = read(spark, args.input, binary, args.command, args.route)
    write(df, args.output, args.output_format, "status", "solve_dataset", args.overwrite)
    spark.stop()


def write(df, output, output_format, count_by, job, overwrite=False):
    """Writes `df` to `output` as CSV (with a header) or Parquet, or for `summary` prints the
    count of each value of the column `count_by` (most first, a `VALUE<tab>COUNT` line each);
    then how long it took on stderr, from `job`. An existing output is an error unless
    `overwrite` (Spark's "overwrite" mode replaced any folder, an input in it included)."""
    started = time.perf_counter()
    if output_format == "summary":
        counts = df.groupBy(count_by).count().collect()
        for row in sorted(counts, key=lambda r: (-r["count"], r[count_by])):
            print(f"{row[count_by]}\t{row['count']}")
        done = f"counted each {count_by}"
    else:
        writer = df.write.mode("overwrite" if overwrite else "errorifexists")
        if output_format == "parquet":
            writer.parquet(output)
        else:
            # RFC 4180, as the CLI writes and the job reads: a quote doubled (Spark's default
            # escapes it with a backslash, which other readers take apart)
            writer.option("header", True).option("escape", '"').csv(output)
        done = f"wrote {output}"
    elapsed = time.perf_counter() - started
    print(f"{job}: {done} in {elapsed:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
