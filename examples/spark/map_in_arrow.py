"""The second Spark route: the sudoku_batch Python package inside the executors' Python workers
through mapInArrow, keeping every column of the dataset (the CLI route, solve_dataset.py, pipes
lines through the binary instead). Each Arrow batch of the puzzle column is solved in one call,
on the worker's cores with the GIL released, and the batch comes back with status, solution and
guesses columns added.

    pip install ./python pyarrow pandas    # on the driver and every executor
    spark-submit examples/spark/map_in_arrow.py INPUT.csv OUTPUT_DIR [--column quizzes]

INPUT is a CSV with a header; OUTPUT_DIR gets Parquet. Prints the status counts.
"""

import argparse
import os
import sys

import pyarrow as pa
from pyspark.sql import SparkSession

import sudoku_batch as sb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import solve_dataset  # noqa: E402  (the output checks, shared with the CLI route)


def solve_batches(column: str, threads):
    """The mapInArrow function: each record batch with the answers of its puzzle column."""

    def run(batches):
        for batch in batches:
            # Arrow in, Arrow out: the answers come back as a pyarrow.Table built over the
            # package's own buffers, no Python object per row
            out = sb.solve(batch.column(column), threads=threads, output="arrow")
            # the types Spark's schema below names: plain strings, and signed longs (Spark has
            # no unsigned ones)
            answers = [
                out.column(name).cast(kind).combine_chunks()
                for name, kind in [
                    ("status", pa.string()),
                    ("solution", pa.string()),
                    ("guesses", pa.int64()),
                ]
            ]
            yield pa.RecordBatch.from_arrays(
                batch.columns + answers,
                names=batch.schema.names + ["status", "solution", "guesses"],
            )

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--column", default="quizzes", help="the puzzle column")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads per Python worker (Spark runs one worker a core)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the output if it exists (else an error)")
    args = parser.parse_args(argv)
    spark = SparkSession.builder.appName("sudoku-batch mapInArrow").getOrCreate()
    # Spark empties the output before reading the input: never an input's own folder
    solve_dataset.refuse_output_over_input(spark, [args.input], args.output, args.overwrite)
    # every column read as a string: puzzles keep their leading zeros
    df = spark.read.option("header", True).csv(args.input)
    schema = df.schema.simpleString()[len("struct<"):-1]
    solved = df.mapInArrow(
        solve_batches(args.column, args.threads),
        f"{schema},status string,solution string,guesses long",
    )
    solved.write.mode("overwrite" if args.overwrite else "errorifexists").parquet(args.output)
    counts = spark.read.parquet(args.output).groupBy("status").count().collect()
    print("statuses:", dict(sorted((r["status"], r["count"]) for r in counts)))
    spark.stop()


if __name__ == "__main__":
    main()
