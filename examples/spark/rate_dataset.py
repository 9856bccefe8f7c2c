"""Rate a sudoku dataset on Sudoku Explainer's scale with Apache Spark and sudoku-batch.

Rating is the job that most needs a cluster: from tens of microseconds to seconds a puzzle. The
binary does the work, one process per partition, through Spark's record pipe (`sudoku-batch rate
--pipe`: every input line in, exactly one record out, so each keeps its key columns; the plumbing
is solve_dataset.py's). Ship the binary with the job:

    spark-submit --master yarn --files target/release/sudoku-batch \\
        examples/spark/rate_dataset.py hdfs:///puzzles.txt hdfs:///rated --max-er 7.0 \\
        --output-format parquet

Input: a text file of puzzles (one a line, other fields allowed: `KEY PUZZLE ...`), or a CSV file
with a header row (`--input-format csv`). Output: CSV or Parquet, the input's columns (for text:
the whole line as `input` and its first field as `key`) then the columns of the Python package's
`sudoku_batch.rate`: `status` (`unique` for a rated puzzle, else the CLI's word for why there is
no rating), `er`, `ep`, `ed` (doubles, one decimal), `above`, `hardest`, `reason`. A value the CLI
writes `>X` (known only to lie above X: `--max-er`'s bound, or 9.4 for a path stuck with every
technique tried) is null, with X in `above`. `--output-format summary` writes nothing and prints
the count of each band (ER below 6.5, 6.5 to 7.9, 8.0 and up, above X) and of each status without
a rating.
"""

import argparse
import os
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import solve_dataset  # noqa: E402  (the pipe, shared with the solve and check job)

VALUES = ["er", "ep", "ed"]


def typed(df):
    """The CLI's rating strings (`7.2`, `>7.0`, null) as doubles, null where only bounded, and
    the bound in `above`; the columns in the Python package's order."""
    bounded = {c: F.col(c).startswith(">") for c in VALUES}
    above = F.coalesce(
        *[F.when(bounded[c], F.expr(f"substring({c}, 2)").cast("double")) for c in VALUES]
    )
    rest = [c for c in df.columns if c not in ["status", *VALUES, "hardest", "reason"]]
    return df.select(
        *rest,
        "status",
        *[F.when(~bounded[c], F.col(c).cast("double")).alias(c) for c in VALUES],
        above.alias("above"),
        "hardest",
        "reason",
    )


def band(df):
    """Each row's band: its status when it has no rating, `above X`, or ER's band."""
    er = F.col("er")
    return (
        F.when(F.col("status") != "unique", F.col("status"))
        .when(F.col("above").isNotNull(), F.concat(F.lit("above "), F.col("above").cast("string")))
        .when(er < 6.5, "ER below 6.5")
        .when(er < 8.0, "ER 6.5 to 7.9")
        .otherwise("ER 8.0 and up")
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output", nargs="?", help="not needed with --output-format summary")
    parser.add_argument("--input-format", choices=["text", "csv"], default="text")
    parser.add_argument("--output-format", choices=["csv", "parquet", "summary"], default="csv")
    parser.add_argument("--route", choices=["sql", "rdd"], default="sql")
    parser.add_argument("--partitions", type=int, help="cut the input into about this many splits")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the output if it exists (else an error)"
    )
    parser.add_argument(
        "--max-er", metavar="X",
        help="stop rating a puzzle once its ER is known to lie above X (the CLI's --max-er)",
    )
    args = parser.parse_args()
    if args.output is None and args.output_format != "summary":
        parser.error("an output path is needed (or --output-format summary)")
    if args.partitions is not None and args.partitions < 1:
        parser.error("--partitions must be 1 or more")

    spark = SparkSession.builder.appName("sudoku-batch rate").getOrCreate()
    solve_dataset.refuse_output_over_input(spark, [args.input], args.output, args.overwrite)
    # the RDD route's functions live in solve_dataset: the Python workers import it
    spark.sparkContext.addPyFile(solve_dataset.__file__)
    if args.partitions:
        solve_dataset.split_into(spark, args.input, args.partitions)
    binary = solve_dataset.binary_path(spark)
    read = solve_dataset.solve_csv if args.input_format == "csv" else solve_dataset.solve_text
    options = ["--max-er", args.max_er] if args.max_er is not None else []
    df = typed(read(spark, args.input, binary, "rate", args.route, options))
    if args.output_format == "summary":
        df = df.select(band(df).alias("band"))
    solve_dataset.write(
        df, args.output, args.output_format, "band", "rate_dataset", args.overwrite
    )
    spark.stop()


if __name__ == "__main__":
    main()
