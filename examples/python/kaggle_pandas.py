"""A Kaggle-style CSV (a puzzle column, a solution column) in, the dataset's columns plus
sudoku-batch's verdict, detail, guesses and canonical hash out; duplicates up to symmetry are
counted on the way.

    pip install ./python pandas
    python examples/python/kaggle_pandas.py data/kaggle_200.csv checked.csv
"""

import sys

import pandas as pd

import sudoku_batch as sb


def main(source: str, target: str, puzzle: str = "quizzes", solution: str = "solutions") -> None:
    # dtype=str keeps the leading zeros of the 81-digit strings
    df = pd.read_csv(source, dtype=str)
    checked = sb.check(df[puzzle], df[solution])
    df["verdict"] = checked["verdict"]
    df["detail"] = checked["detail"]
    df["guesses"] = checked["guesses"]
    forms = sb.canonical(df[puzzle])
    # a malformed row has no form (its hash 0 in numpy output): left empty, as the CLI leaves it
    df["canonical_hash"] = [
        f"{h:016x}" if form else "" for h, form in zip(forms["hash"], forms["canonical"])
    ]
    df.to_csv(target, index=False)
    hashed = df["canonical_hash"][df["canonical_hash"] != ""]
    repeats = int(hashed.duplicated().sum())
    counts = df["verdict"].value_counts().to_dict()
    print(f"{len(df)} rows: {counts}; {repeats} isomorphic repeats", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:3])
