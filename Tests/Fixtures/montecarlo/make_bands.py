"""Reference equity bands for `bt run --monte-carlo`'s report chart (MonteCarloTests), numpy alone.

Dev-only; CI never runs it. Needs numpy. From the repository root:

    python3 Tests/Fixtures/montecarlo/make_bands.py

The synthetic series of regimes of make_goldens.py (50 bars up 1%, 50 down 0.9%, 1,000 bars from
10,000 cash) resampled by the same stationary bootstrap, element by element, independently of bt's
code and generator (numpy's PCG64): RESAMPLES paths of equity bar by bar (each the compounded
resampled returns from the initial cash). At each checkpoint (min(n, 500) bars evenly spaced over
the n bars, index round(j (n - 1) / (k - 1)), the first and the last included, as bt's
`MonteCarlo.Bands`), the 5th, 50th and 95th percentiles (numpy's linear) of the paths' equity,
each with the standard error of the same percentile estimated from TEST_RESAMPLES paths (the spread
over batches of that size). Writes Tests/Fixtures/montecarlo/bands.json.
"""
import json
import math
import os

import numpy as np

RESAMPLES = 200_000
TEST_RESAMPLES = 4_000
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bands.json")


def main():
    n, initial = 1000, 10_000.0
    returns = np.array([0.01 if (i // 50) % 2 == 0 else -0.009 for i in range(n)])
    L = max(1.0, round(n ** (1 / 3)))
    k = min(n, 500)
    checkpoints = [int(math.floor(j * (n - 1) / (k - 1) + 0.5)) for j in range(k)]
    at = {c: j for j, c in enumerate(checkpoints)}
    rng = np.random.default_rng(20261209)
    index = rng.integers(0, n, size=RESAMPLES)
    eq = np.full(RESAMPLES, initial)
    values = np.empty((k, RESAMPLES))
    for t in range(n):
        if t > 0:
            jump = rng.random(RESAMPLES) < 1 / L
            index = np.where(jump, rng.integers(0, n, size=RESAMPLES), (index + 1) % n)
        eq = eq * (1 + returns[index])
        if t in at:
            values[at[t]] = eq
    batches = RESAMPLES // TEST_RESAMPLES
    bands = {}
    for q in (5, 50, 95):
        value = np.percentile(values, q, axis=1)
        per_batch = np.stack([np.percentile(values[:, b * TEST_RESAMPLES:(b + 1) * TEST_RESAMPLES], q, axis=1)
                              for b in range(batches)])
        bands["p%d" % q] = {"value": [float(v) for v in value], "se": [float(v) for v in per_batch.std(axis=0, ddof=1)]}
    golden = {"bars": n, "initial_cash": initial, "up": 0.01, "down": -0.009, "regime": 50, "block_length": L,
              "resamples": RESAMPLES, "test_resamples": TEST_RESAMPLES, "checkpoints": checkpoints, "bands": bands}
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
