"""Reference splits and paths of skfolio's CombinatorialPurgedCV for CombinatorialPurgedCVTests.

Dev-only; CI never runs it. Needs skfolio 1.12.2 from PyPI in a virtual environment:

    python3 -m venv /tmp/skf-venv && /tmp/skf-venv/bin/pip install skfolio==1.12.2
    /tmp/skf-venv/bin/python Tests/Fixtures/cpcv/make_goldens.py

For each case (bars, n_folds, n_test_folds, purged_size, embargo_size) it runs
`CombinatorialPurgedCV(...).split(np.zeros((bars, 1)))` and records every split's train indices
as ascending runs [first, last], its test folds as their index runs, and `recombined_paths`
(path p takes fold f's test from split recombined_paths[f][p]). Writes
Tests/Fixtures/cpcv/goldens.json.
"""
import json
import os

import numpy as np
import skfolio
from skfolio.model_selection import CombinatorialPurgedCV

CASES = [
    (100, 3, 2, 0, 0), (100, 3, 2, 1, 0), (100, 3, 2, 0, 1), (101, 4, 2, 2, 3), (250, 6, 2, 5, 5),
    (250, 6, 3, 3, 0), (1000, 10, 2, 10, 20), (1003, 10, 4, 7, 2), (97, 5, 4, 2, 1), (2148, 8, 3, 21, 5),
    (60, 12, 5, 1, 1), (30, 3, 2, 4, 4),
]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens.json")


def runs(index):
    out = []
    for i in index.tolist():
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


def main():
    cases = []
    for bars, n, k, p, e in CASES:
        cv = CombinatorialPurgedCV(n_folds=n, n_test_folds=k, purged_size=p, embargo_size=e)
        splits = []
        for train, tests in cv.split(np.zeros((bars, 1))):
            splits.append({"train": runs(train), "test": [runs(t)[0] for t in tests]})
        cases.append({"bars": bars, "groups": n, "test_groups": k, "purge": p, "embargo": e,
                      "splits": splits, "recombined_paths": cv.recombined_paths.tolist()})
    with open(OUT, "w") as f:
        json.dump({"skfolio": skfolio.__version__, "cases": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote", OUT, len(cases), "cases")


if __name__ == "__main__":
    main()
