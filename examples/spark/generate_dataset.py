"""Make N new puzzles with Apache Spark and sudoku-batch, in P partitions.

Record i of `sudoku-batch generate --seed S` depends only on (S, i, the options), so partition k
runs `generate --start K -n M` for its own slice of the records and needs nothing from the
others: the partitions, in order, are the records of one run. Ship the binary with the job:

    spark-submit --master yarn --files target/release/sudoku-batch \\
        examples/spark/generate_dataset.py hdfs:///puzzles --count 10000000 --partitions 200 \\
        --seed 7 -- --clues 22..24

Arguments after `--` go to `generate` as they are (targets such as --clues, --symmetry,
--guesses). Output: CSV with a header (`puzzle,solution,givens,guesses,record,tries`), or
Parquet (`--output-format parquet`); `record` is the record's number in the stream.

Each partition runs with --no-dedupe: without it, a run from --start K would make the K records
before it again to leave out repeats of them (see `generate` in the README), so the last
partition would redo the whole job. Repeats are then not left out across partitions; plain
generation has shown none (none in a million records), and the Spark test checks the job's
records against one `generate -n N` run, byte for byte.
"""

import argparse
import os
import stat
import subprocess
import sys

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql.types import LongType, StringType, StructField, StructType

BINARY = "sudoku-batch"

SCHEMA = StructType(
    [
        StructField("puzzle", StringType()),
        StructField("solution", StringType()),
        StructField("givens", LongType()),
        StructField("guesses", LongType()),
        StructField("record", LongType()),
        StructField("tries", LongType()),
    ]
)


def slices(count, partitions):
    """(start, n) of each partition: the records 0..count cut into `partitions` runs of nearly
    equal length, in order."""
    return [
        (count * k // partitions, count * (k + 1) // partitions - count * k // partitions)
        for k in range(partitions)
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output-format", choices=["csv", "parquet"], default="csv")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the output if it exists (else an error)"
    )
    # what follows `--` goes to generate as it is
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[: len(argv) - len(extra) - (1 if "--" in argv else 0)])
    if args.count < 0 or args.partitions < 1:
        parser.error("--count must be 0 or more and --partitions 1 or more")
    # the records are read from generate's stdout: options that send them elsewhere or change
    # their columns would leave the job's rows empty or wrong
    taken = {"--output", "--output-format", "--quiet", "--count", "--start", "--seed",
             "--threads"}
    # long options, also as --name=value; short ones, also with a value attached (-o/x) or
    # bundled (-qo/x: every bundle of generate's short options starts with one of these)
    clash = [
        a for a in extra
        if a.split("=")[0] in taken
        or (a.startswith("-") and not a.startswith("--") and a[1:2] in "oOqnj" and a[1:2])
    ]
    if clash:
        parser.error(f"{' '.join(clash)} after --: the job sets these itself")

    spark = SparkSession.builder.appName("sudoku-batch generate").getOrCreate()
    local = spark.sparkContext.master.startswith("local")
    seed = args.seed

    def run(part):
        path = SparkFiles.get(BINARY) if local else "./" + BINARY
        # a shipped file may lose its executable bit
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        for start, n in part:
            if n == 0:
                continue
            out = subprocess.run(
                [path, "generate", "-q", "-j", "1", "-O", "csv", "--no-dedupe",
                 "--seed", str(seed), "--start", str(start), "-n", str(n), *extra],
                capture_output=True, text=True,
            )
            if out.returncode != 0:
                raise RuntimeError(f"generate --start {start} -n {n}: {out.stderr.strip()}")
            records = out.stdout.splitlines()[1:]
            # every record of the slice, or the job fails (not a success with rows missing)
            if len(records) != n:
                raise RuntimeError(
                    f"generate --start {start} -n {n} wrote {len(records)} records to stdout"
                )
            for line in records:
                p, s, g, q, r, t = line.split(",")[:6]
                yield (p, s, int(g), int(q), int(r), int(t))

    parts = slices(args.count, args.partitions)
    rows = spark.sparkContext.parallelize(parts, len(parts)).mapPartitions(run)
    frame = spark.createDataFrame(rows, SCHEMA)
    writer = frame.write.mode("overwrite" if args.overwrite else "errorifexists")
    if args.output_format == "parquet":
        writer.parquet(args.output)
    else:
        writer.option("header", True).option("escape", '"').csv(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
