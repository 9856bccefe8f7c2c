"""The Spark example, run for real: pyspark from PyPI on local[2], the sudoku-batch binary
shipped with --files, over samples with blank lines, comments, a header, malformed rows and
several partitions. Run by .ci/run through examples/spark/ci.sh; SUDOKU_BATCH names the binary.
"""

import csv
import json
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
BINARY = pathlib.Path(os.environ.get("SUDOKU_BATCH", REPO / "target" / "debug" / "sudoku-batch"))


def puzzles(n):
    """The first n puzzles of data/hardest_300.txt."""
    return (REPO / "data" / "hardest_300.txt").read_text().split()[:n]


def truth(cells):
    """What sudoku-batch itself says of these puzzles, run directly: status and solution."""
    out = subprocess.run(
        [str(BINARY), "solve", "-q", "-I", "line", "-O", "jsonl", "--no-timings", "-"],
        input="\n".join(cells) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [(r["status"], r["solution"]) for r in map(json.loads, out.splitlines())]


def spark_submit(*args, script="solve_dataset.py", succeed=True):
    """Runs the example on local[2] in 3 partitions; the run must succeed (with `succeed`; else
    the finished process is returned). Its standard output."""
    command = [
        os.path.join(os.path.dirname(sys.executable), "spark-submit"),
        "--master",
        "local[2]",
        "--files",
        str(BINARY),
        str(HERE / script),
        "--partitions",
        "3",
        *map(str, args),
    ]
    # spark-submit finds Spark and Python through PATH: the venv's first
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYSPARK_PYTHON"] = sys.executable
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if not succeed:
        return done
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


def read_output(spark, path, output_format):
    """The job's output rows as dicts (read back with Spark: CSV with its header, or Parquet)."""
    # the input was cut into several partitions, each piped through its own process
    parts = [p for p in path.iterdir() if p.name.startswith("part-")]
    assert len(parts) >= 2, sorted(p.name for p in path.iterdir())
    if output_format == "parquet":
        df = spark.read.parquet(str(path))
    else:
        # the jobs write RFC 4180 CSV: a quote doubled
        df = spark.read.option("header", True).option("escape", '"').csv(str(path))
    return [row.asDict() for row in df.collect()]


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = SparkSession.builder.master("local[1]").appName("read-back").getOrCreate()
    yield session
    session.stop()


def text_sample(tmp_path):
    """KEY PUZZLE RATING lines among blank lines, comments and broken lines; the truth by key."""
    cells = puzzles(60)
    lines, keys = [], {}
    answers = truth(cells)
    for i, (puzzle, answer) in enumerate(zip(cells, answers)):
        # tab-separated now and then: tabs must cross the pipe untouched
        sep = "\t" if i % 6 == 0 else " "
        lines.append(f"key{i}{sep}{puzzle}{sep}{i % 9}.5")
        keys[f"key{i}"] = answer
        if i % 10 == 0:
            lines.append("")
        if i % 13 == 0:
            lines.append("# a comment")
        if i % 17 == 0:
            lines.append(f"bad{i} {puzzle[:75]} 1.0")
            keys[f"bad{i}"] = ("malformed", None)
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, lines, keys


@pytest.mark.parametrize(
    "output_format,route,command",
    [("csv", "sql", "solve"), ("parquet", "rdd", "solve"), ("csv", "sql", "check")],
)
def test_text_input_every_line_comes_back_with_its_key_and_answer(
    tmp_path, spark, output_format, route, command
):
    path, lines, keys = text_sample(tmp_path)
    out = tmp_path / "out"
    spark_submit(path, out, "--output-format", output_format, "--command", command, "--route", route)
    rows = read_output(spark, out, output_format)
    # one output row per input line, whatever the line holds
    assert len(rows) == len(lines)
    assert sorted(r["input"] or "" for r in rows) == sorted(lines)
    by_key = {}
    for row in rows:
        line = row["input"] or ""
        if not line.strip():
            assert row["status"] == "malformed" and row["reason"] == "blank line"
        elif line.startswith("#"):
            assert row["status"] == "malformed" and row["reason"] == "comment line"
        else:
            by_key[row["key"]] = row
    assert set(by_key) == set(keys)
    for key, (status, solution) in keys.items():
        row = by_key[key]
        if status == "malformed":
            assert row["status"] == "malformed", key
            assert "found 75 cells" in row["reason"], key
        else:
            # check says unique where solve says solved; both give the only solution
            assert row["status"] == ("unique" if command == "check" else status), key
            assert row["solution"] == solution, key


def test_rate_gives_every_line_its_key_and_its_ratings(tmp_path, spark):
    """`--command rate` through the pipe: each line's ratings as the binary gives them directly,
    malformed and blank lines kept with their reason."""
    cells = (REPO / "data" / "easy_300.txt").read_text().split()[:30]
    out = subprocess.run(
        [str(BINARY), "rate", "-q", "-I", "line", "-O", "jsonl", "--no-timings", "-"],
        input="\n".join(cells) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ratings = [(r["er"], r["ep"], r["ed"], r["hardest"]) for r in map(json.loads, out.splitlines())]
    lines, expected = [], {}
    for i, (puzzle, rating) in enumerate(zip(cells, ratings)):
        lines.append(f"key{i} {puzzle}")
        expected[f"key{i}"] = rating
        if i % 7 == 0:
            lines.append("")
            lines.append(f"bad{i} {puzzle[:70]}")
            expected[f"bad{i}"] = None
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    result = tmp_path / "out"
    spark_submit(path, result, "--output-format", "parquet", "--command", "rate")
    rows = read_output(spark, result, "parquet")
    assert len(rows) == len(lines)
    by_key = {r["key"]: r for r in rows if (r["input"] or "").strip()}
    assert set(by_key) == set(expected)
    assert sum(1 for r in rows if r["reason"] == "blank line") == lines.count("")
    for key, rating in expected.items():
        row = by_key[key]
        if rating is None:
            assert row["status"] == "malformed" and "found 70 cells" in row["reason"], key
        else:
            assert row["status"] == "unique", key
            got = (float(row["er"]), float(row["ep"]), float(row["ed"]), row["hardest"])
            assert got == rating, key


def rate_sample():
    """Puzzles from 2.0 to 7.2 (serate's sample of the Sudoku Exchange's hard list), one with
    several solutions, one with two equal givens in a row, and a malformed one, in that order."""
    cells = (REPO / "tests" / "fixtures" / "se" / "in" / "exchange_hard.txt").read_text().split()
    cells = cells[:45]
    return cells + [cells[0][:54] + "." * 27, "55" + "." * 79, cells[1][:70]]


def plain_rate(path, *options):
    """One plain `rate` run on a file, as jsonl records."""
    out = subprocess.run(
        [str(BINARY), "rate", "-q", "-O", "jsonl", "--no-timings", *options, str(path)],
        capture_output=True, text=True, check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def typed(record):
    """A plain run's `status, er, ep, ed, above, hardest` as rate_dataset.py writes them: the
    CLI's `>X` as no value, X in `above`."""
    values, above = [], None
    for key in ("er", "ep", "ed"):
        v = record[key]
        if isinstance(v, str):
            above, v = float(v.lstrip(">")), None
        values.append(v)
    return (record["status"], *values, above, record["hardest"])


def spark_typed(row):
    """A rate_dataset.py row's `status, er, ep, ed, above, hardest` (CSV output reads back as
    strings)."""
    number = lambda v: None if v is None else float(v)
    return (row["status"], *(number(row[k]) for k in ("er", "ep", "ed", "above")), row["hardest"])


@pytest.mark.parametrize("output_format,route,max_er", [("parquet", "sql", "4.4"), ("csv", "rdd", None)])
def test_rate_dataset_gives_every_line_the_ratings_of_one_plain_rate_run(
    tmp_path, spark, output_format, route, max_er
):
    """rate_dataset.py over KEY PUZZLE lines (blank and comment lines among them) against one
    plain `rate` run on the same file: the same status, ratings and technique for each key."""
    cells = rate_sample()
    lines = []
    for i, puzzle in enumerate(cells):
        lines.append(f"key{i} {puzzle}")
        if i % 9 == 0:
            lines += ["", "# a comment"]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    options = ["--max-er", max_er] if max_er else []
    plain = plain_rate(path, "--echo", "line", *options)
    # the plain run leaves blank and comment lines out: one record per key
    expected = {r["input"].split()[0]: typed(r) for r in plain}
    assert len(expected) == len(cells)
    assert [expected[f"key{i}"][0] for i in range(len(cells) - 3, len(cells))] == [
        "multiple", "contradiction", "malformed"
    ]
    if max_er:
        assert sum(1 for r in expected.values() if r[4] == float(max_er)) > 5
    result = tmp_path / "rated"
    spark_submit(
        path, result, "--output-format", output_format, "--route", route, *options,
        script="rate_dataset.py",
    )
    rows = read_output(spark, result, output_format)
    assert len(rows) == len(lines)
    by_key = {r["key"]: r for r in rows if r["key"] and not r["key"].startswith("#")}
    assert {k: spark_typed(r) for k, r in by_key.items()} == expected
    assert "found 70 cells" in by_key[f"key{len(cells) - 1}"]["reason"]
    skipped = sorted(r["reason"] for r in rows if not r["key"] or r["key"].startswith("#"))
    assert skipped == sorted(["blank line", "comment line"] * lines.count(""))


def test_rate_dataset_summary_counts_the_bands_of_one_plain_rate_run(tmp_path):
    """CSV input with a header: the summary's counts are those of one plain `rate` run."""
    cells = rate_sample()
    path = tmp_path / "puzzles.csv"
    path.write_text("id,puzzle\n" + "".join(f"{i},{p}\n" for i, p in enumerate(cells)))
    counts = {}
    for r in plain_rate(path, "--max-er", "6.6"):
        status, er, _, _, above, _ = typed(r)
        band = (
            status if status != "unique" else f"above {above}" if above is not None
            else "ER below 6.5" if er < 6.5 else "ER 6.5 to 7.9" if er < 8.0 else "ER 8.0 and up"
        )
        counts[band] = counts.get(band, 0) + 1
    assert {"ER below 6.5", "ER 6.5 to 7.9", "above 6.6", "multiple", "malformed"} <= set(counts)
    out = spark_submit(
        path, "--input-format", "csv", "--output-format", "summary", "--max-er", "6.6",
        script="rate_dataset.py",
    )
    got = dict(line.split("\t") for line in out.splitlines() if "\t" in line)
    assert {band: int(n) for band, n in got.items()} == counts


# notes as a CSV file holds them (RFC 4180: a quote doubled, a backslash a character), and
# as they read
NOTES = [
    ('"he said ""hi"""', 'he said "hi"'),
    ('"C:\\temp,x\\"', "C:\\temp,x\\"),
    ("plain", "plain"),
    ('"a,b"', "a,b"),
]


def test_csv_input_keeps_every_column_and_pairs_rows_with_answers(tmp_path, spark):
    cells = puzzles(45)
    answers = truth(cells)
    lines = ["id,puzzle,rating,note"]
    expected = {}
    for i, (puzzle, answer) in enumerate(zip(cells, answers)):
        lines.append(f"{i},{puzzle},{i % 7},{NOTES[i % len(NOTES)][0]}")
        expected[str(i)] = answer
        if i % 8 == 0:
            lines.append(f"x{i},{puzzle[:60]},0")
            expected[f"x{i}"] = ("malformed", None)
        if i % 11 == 0:
            lines.append("")
    path = tmp_path / "puzzles.csv"
    path.write_text("\n".join(lines) + "\n")
    for output_format, route in [("parquet", "sql"), ("csv", "rdd")]:
        out = tmp_path / f"out-{output_format}"
        spark_submit(
            path, out, "--input-format", "csv", "--output-format", output_format, "--route", route
        )
        rows = read_output(spark, out, output_format)
        # every line but the header: data rows and blank lines alike
        assert len(rows) == len(lines) - 1
        blank = [r for r in rows if r["status"] == "malformed" and r["reason"] == "blank line"]
        assert len(blank) == sum(1 for line in lines if not line)
        by_id = {r["id"]: r for r in rows if r["id"]}
        assert set(by_id) == set(expected)
        for key, (status, solution) in expected.items():
            row = by_id[key]
            assert row["status"] == status, key
            assert row["answer"] == solution, key
            assert row["rating"] is not None, key
            if not key.startswith("x"):
                # the CLI's CSV read back in its own dialect: a note with quotes, commas and
                # backslashes came back altered, or shifted the answer's columns to null
                assert row["note"] == NOTES[int(key) % len(NOTES)][1], key


def test_a_csv_header_never_reaches_a_shell(tmp_path, spark):
    """A header is passed to the binary as an argument: a quote in it ended the SQL literal the
    shell line stood in, and the rest ran as shell code (and the job said it succeeded)."""
    marker = tmp_path / "PWNED"
    cells = puzzles(6)
    lines = [f"id,puzzle,it's; touch {marker}; echo "]
    lines += [f"{i},{p},n{i}" for i, p in enumerate(cells)]
    path = tmp_path / "evil.csv"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    spark_submit(path, out, "--input-format", "csv", "--output-format", "csv")
    assert not marker.exists()
    rows = read_output(spark, out, "csv")
    assert sorted(r["id"] for r in rows) == [str(i) for i in range(6)]
    assert all(r["status"] == "solved" for r in rows)
    # a quoted header, as R and Excel write it
    path.write_text('"id","puzzle"\n' + "".join(f"{i},{p}\n" for i, p in enumerate(cells)))
    out = tmp_path / "out-quoted"
    spark_submit(path, out, "--input-format", "csv", "--output-format", "csv", "--route", "rdd")
    rows = read_output(spark, out, "csv")
    assert sorted(r["id"] for r in rows) == [str(i) for i in range(6)]


def test_a_failing_binary_fails_the_job_on_either_route(tmp_path):
    """RDD.pipe ignores the exit status by default: a binary that refused its options left an
    empty output and the job exit 0."""
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(puzzles(10)) + "\n")
    for route in ["rdd", "sql"]:
        done = spark_submit(
            path, tmp_path / f"out-{route}", "--max-er", "99", "--route", route,
            script="rate_dataset.py", succeed=False,
        )
        assert done.returncode != 0, route
        assert not (tmp_path / f"out-{route}" / "_SUCCESS").exists(), route


def test_an_output_is_never_replaced_by_mistake_nor_an_input_deleted(tmp_path):
    """Spark's "overwrite" mode emptied the output folder before reading: an output naming the
    input's folder deleted the input (and every other file there), then the job failed."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "puzzles.txt"
    path.write_text("\n".join(puzzles(10)) + "\n")
    (folder / "notes.txt").write_text("keep me\n")
    # an existing output is refused, and left as it was
    done = spark_submit(path, folder, succeed=False)
    assert done.returncode != 0
    # --overwrite never replaces the input's own folder, however the input is spelled: through
    # a symbolic link to the folder, or a glob (both got past a comparison of names)
    link = tmp_path / "link"
    link.symlink_to(folder)
    for spelling in [path, link / "puzzles.txt", tmp_path / "d[a]ta" / "puzzles.txt"]:
        done = spark_submit(spelling, folder, "--overwrite", succeed=False)
        assert done.returncode != 0, spelling
        # (spark-submit passes the driver's traceback on to its stdout)
        assert "would delete it before it is read" in done.stdout + done.stderr, spelling
    assert path.read_text().count("\n") == 10
    assert (folder / "notes.txt").read_text() == "keep me\n"
    # and replaces an earlier output when asked
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("old\n")
    spark_submit(path, out, "--overwrite")
    assert not (out / "old.txt").exists() and (out / "_SUCCESS").exists()


def test_map_in_arrow_keeps_every_column_and_pairs_each_puzzle_with_its_solution(tmp_path):
    """The package route: mapInArrow over a CSV with three partitions, a malformed row and a
    missing puzzle; every row comes back with its own columns and its own answer."""
    cells = puzzles(40)
    rows = [(f"k{i}", p, f"r{i}") for i, p in enumerate(cells)]
    rows.insert(7, ("kbad", "12x", "r-bad"))
    rows.insert(20, ("kmissing", "", "r-missing"))
    source = tmp_path / "in.csv"
    with open(source, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["key", "quizzes", "rating"])
        w.writerows(rows)
    out = tmp_path / "out"
    command = [
        os.path.join(os.path.dirname(sys.executable), "spark-submit"),
        "--master", "local[2]",
        "--conf", "spark.sql.files.maxPartitionBytes=1500",
        str(HERE / "map_in_arrow.py"), str(source), str(out),
    ]
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYSPARK_PYTHON"] = sys.executable
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    counts = [line for line in done.stdout.splitlines() if line.startswith("statuses:")]
    assert counts == ["statuses: {'malformed': 2, 'solved': 40}"]
    parts = list(out.glob("part-*.parquet"))
    assert len(parts) >= 2, "several partitions"
    import pyarrow.parquet as pq
    table = pa_concat([pq.read_table(p) for p in parts])
    got = {r["key"]: r for r in table.to_pylist()}
    assert len(got) == len(rows)
    answers = dict(zip((k for k, _, _ in rows if k.startswith("k") and k[1:].isdigit()),
                       truth(cells)))
    for key, puzzle, rating in rows:
        r = got[key]
        assert (r["quizzes"] or "", r["rating"]) == (puzzle, rating)
        if key in answers:
            assert (r["status"], r["solution"]) == answers[key]
        else:
            assert r["status"] == "malformed"


def pa_concat(tables):
    import pyarrow as pa
    return pa.concat_tables(tables)


@pytest.mark.parametrize("output_format,partitions", [("csv", 4), ("parquet", 3)])
def test_generate_in_partitions_equals_one_generate_run(tmp_path, spark, output_format, partitions):
    n, seed = 1000, 11
    out = tmp_path / "generated"
    command = [
        os.path.join(os.path.dirname(sys.executable), "spark-submit"),
        "--master", "local[2]", "--files", str(BINARY), str(HERE / "generate_dataset.py"),
        str(out), "--count", str(n), "--partitions", str(partitions), "--seed", str(seed),
        "--output-format", output_format, "--", "--clues", "22..26",
    ]
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYSPARK_PYTHON"] = sys.executable
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    rows = read_output(spark, out, output_format)
    rows.sort(key=lambda r: int(r["record"]))
    whole = subprocess.run(
        [str(BINARY), "generate", "-q", "-O", "csv", "-n", str(n), "--seed", str(seed), "--clues", "22..26"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()[1:]
    # one run's records, every one of them, in order, byte for byte (repeats none left out)
    assert len(rows) == n == len(whole)
    assert [
        ",".join(str(r[c]) for c in ("puzzle", "solution", "givens", "guesses", "record", "tries"))
        for r in rows
    ] == whole


def test_the_csv_written_reads_back_in_rfc_4180_and_added_names_may_not_clash(tmp_path):
    """The jobs wrote CSV with Spark's backslash escape (`"say \\"hi\\""`), which Python's csv
    module and pandas take apart into shifted columns; and an input column named like one the
    job adds (`micros`) was dropped, or doubled (`answer`), with exit 0."""
    cells = puzzles(4)
    path = tmp_path / "notes.csv"
    path.write_text("id,quizzes,note\n" + "".join(
        f"{i},{p},{NOTES[i][0]}\n" for i, p in enumerate(cells)
    ))
    out = tmp_path / "out"
    spark_submit(path, out, "--input-format", "csv", "--output-format", "csv")
    rows = []
    for part in sorted(out.glob("part-*.csv")):
        with open(part, newline="") as f:
            rows += list(csv.DictReader(f))
    assert sorted((r["id"], r["note"], r["status"]) for r in rows) == sorted(
        (str(i), NOTES[i][1], "solved") for i in range(4)
    )
    clash = tmp_path / "clash.csv"
    clash.write_text("micros,quizzes\n" + "".join(f"{i},{p}\n" for i, p in enumerate(cells)))
    done = spark_submit(clash, tmp_path / "out-clash", "--input-format", "csv", succeed=False)
    assert done.returncode != 0
    assert "would clash with what the job adds" in done.stdout + done.stderr


def test_a_glob_input_is_cut_into_partitions(tmp_path, spark):
    """--partitions measured the input by its name: a glob was "no such file"."""
    cells = puzzles(20)
    for k in range(2):
        (tmp_path / f"part{k}.txt").write_text("\n".join(cells[10 * k:10 * k + 10]) + "\n")
    out = tmp_path / "out"
    spark_submit(tmp_path / "part*.txt", out)
    rows = read_output(spark, out, "csv")
    assert sorted(r["input"] for r in rows) == sorted(cells)


def test_generate_refuses_options_that_send_the_records_elsewhere(tmp_path):
    """`-- -o/x` (a value attached) got past the check: the records went to a file on each
    executor, the job wrote none and said it succeeded."""
    for extra in ["-o/tmp/elsewhere.csv", "-qo/tmp/x", "--output=/tmp/x", "-n5"]:
        done = spark_submit(
            tmp_path / "gen", "--count", "10", "--", extra,
            script="generate_dataset.py", succeed=False,
        )
        assert done.returncode != 0, extra
        assert "the job sets these itself" in done.stdout + done.stderr, extra
