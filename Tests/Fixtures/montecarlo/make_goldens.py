"""Reference percentiles for `bt run --monte-carlo` (MonteCarloCommandTests), computed with numpy alone.

Dev-only; CI never runs it. Needs numpy. From the repository root:

    bt data import data/GOOG.csv --db /tmp/mc.db
    bt run ma-cross GOOG --db /tmp/mc.db --depth none --out /tmp/mc-goog --force
    python3 Tests/Fixtures/montecarlo/make_goldens.py /tmp/mc-goog

It reads the run's own files (trades.csv, equity.csv, stats.json), not bt's Monte Carlo, and
resamples them independently of bt's code and generator (numpy's PCG64):

- trades: each trade's return on the equity before it, pnl / equity[entry_index - 1] (the
  initial cash for a trade entered on bar 0); a resample draws as many trades as the run made,
  uniformly with replacement, compounds them from the initial cash and measures the drawdown
  after each trade;
- bars: the per-bar returns (anchored at the initial cash) by the stationary bootstrap of
  Politis and Romano, element by element: the next return follows the previous one (wrapping)
  with probability 1 - 1/L, else starts at a uniform index; L = round(n^(1/3)).

For each: the 5th, 50th and 95th percentiles (numpy's linear) of final equity, maximum drawdown
(negative) and CAGR ((final / initial)^(periods_per_year / n) - 1), and the share of resamples
whose drawdown is 50% or deeper, from RESAMPLES resamples; with each figure the standard error
of the same figure estimated from TEST_RESAMPLES resamples (the spread over batches of that
size), which the test's tolerance is built from. Then the same bar bootstrap of a synthetic
series of regimes (`synthetic`: 50 bars up 1%, 50 down 0.9%, 1,000 bars), where the block length
changes the drawdowns. Writes Tests/Fixtures/montecarlo/goldens.json.
"""
import csv
import json
import os
import sys

import numpy as np

RESAMPLES = 200_000
TEST_RESAMPLES = 4_000
RUIN = 0.5
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens.json")


def figures(final, worst, initial, years):
    cagr = np.where(final > 0, np.power(np.maximum(final, 1e-300) / initial, 1 / years) - 1, -1.0)
    return {"final_equity": final, "max_drawdown": worst, "cagr": cagr}


def summarise(fig, ruined):
    out = {}
    batches = RESAMPLES // TEST_RESAMPLES
    for name, values in fig.items():
        entry = {}
        for q in (5, 50, 95):
            per_batch = [np.percentile(values[b * TEST_RESAMPLES:(b + 1) * TEST_RESAMPLES], q) for b in range(batches)]
            entry["p%d" % q] = {"value": float(np.percentile(values, q)), "se": float(np.std(per_batch, ddof=1))}
        out[name] = entry
    per_batch = [ruined[b * TEST_RESAMPLES:(b + 1) * TEST_RESAMPLES].mean() for b in range(batches)]
    out["ruin_probability"] = {"value": float(ruined.mean()), "se": float(np.std(per_batch, ddof=1))}
    return out


def bars_bootstrap(returns, initial, years, L, rng):
    """The stationary bootstrap of `returns`, element by element, RESAMPLES paths at once."""
    n = len(returns)
    index = rng.integers(0, n, size=RESAMPLES)
    eq = np.full(RESAMPLES, initial)
    peak = eq.copy()
    worst = np.zeros(RESAMPLES)
    for t in range(n):
        if t > 0:
            jump = rng.random(RESAMPLES) < 1 / L
            index = np.where(jump, rng.integers(0, n, size=RESAMPLES), (index + 1) % n)
        eq = eq * (1 + returns[index])
        peak = np.maximum(peak, eq)
        worst = np.minimum(worst, eq / peak - 1)
    return summarise(figures(eq, worst, initial, years), worst <= -RUIN)


def main(run_dir):
    with open(os.path.join(run_dir, "stats.json")) as f:
        stats = json.load(f)
    initial = stats["stats"]["initial_cash"]
    with open(os.path.join(run_dir, "equity.csv")) as f:
        equity = np.array([float(r["equity"]) for r in csv.DictReader(f)])
    with open(os.path.join(run_dir, "trades.csv")) as f:
        trades = [(int(r["entry_index"]), float(r["pnl"])) for r in csv.DictReader(f)]
    n = len(equity)
    ppy = stats["stats"]["periods_per_year"]
    years = n / ppy
    rng = np.random.default_rng(20261207)

    before = [equity[i - 1] if i > 0 else initial for i, _ in trades]
    trade_returns = np.array([pnl / b for (_, pnl), b in zip(trades, before)])
    picks = rng.integers(0, len(trade_returns), size=(RESAMPLES, len(trade_returns)))
    paths = initial * np.cumprod(1 + trade_returns[picks], axis=1)
    peaks = np.maximum(np.maximum.accumulate(paths, axis=1), initial)
    worst = np.minimum((paths / peaks - 1).min(axis=1), 0)
    trades_out = summarise(figures(paths[:, -1], worst, initial, years), worst <= -RUIN)

    returns = np.empty(n)
    returns[0] = equity[0] / initial - 1
    returns[1:] = np.where(equity[:-1] == 0, 0, equity[1:] / np.where(equity[:-1] == 0, 1, equity[:-1]) - 1)
    L = max(1.0, round(n ** (1 / 3)))
    bars_out = bars_bootstrap(returns, initial, years, L, rng)

    # A series of regimes (50 bars up 1% a bar, then 50 down 0.9%, ...), where the block length
    # shows: whole blocks keep runs of losses together, single bars would not.
    synthetic_n = 1000
    synthetic = np.array([0.01 if (i // 50) % 2 == 0 else -0.009 for i in range(synthetic_n)])
    synthetic_L = max(1.0, round(synthetic_n ** (1 / 3)))
    synthetic_out = bars_bootstrap(synthetic, 10_000.0, synthetic_n / 252, synthetic_L,
                                   np.random.default_rng(20261208))

    golden = {
        "run": "bt run ma-cross GOOG --depth none",
        "trades_count": len(trades), "bars": n, "initial_cash": initial, "final_equity": float(equity[-1]),
        "periods_per_year": ppy, "block_length": L, "ruin": RUIN,
        "resamples": RESAMPLES, "test_resamples": TEST_RESAMPLES,
        "trade_returns": [float(r) for r in trade_returns],
        "trades": trades_out, "bars_bootstrap": bars_out,
        "synthetic": {"bars": synthetic_n, "initial_cash": 10_000.0, "periods_per_year": 252,
                      "block_length": synthetic_L, "up": 0.01, "down": -0.009, "regime": 50,
                      "bars_bootstrap": synthetic_out},
    }
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/mc-goog")
