#!/usr/bin/env python3
"""Dev-only: writes the committed equity curves and empyrical's statistics for them.

Run by hand from this directory (needs empyrical-reloaded 0.7.1, numpy, pandas):
    python3 make_goldens.py
Swift tests (Tests/BacktestAnalysisTests/Stats/EmpyricalGoldenTests.swift) read the CSVs; CI has no Python.

Each curve_<name>.csv has columns time (UTC seconds), equity, benchmark (a price the curve is
compared against for alpha/beta). Returns are anchored at the initial cash, as bt does:
r_0 = equity_0 / initial - 1, r_t = equity_t / equity_{t-1} - 1.
goldens.csv has one row per curve: name, initial, periods_per_year, then empyrical's values.
"""
import numpy as np
import pandas as pd
import empyrical as ep

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."


def goog_buy_and_hold():
    df = pd.read_csv(f"{HERE}/../../../data/GOOG.csv", index_col=0, parse_dates=True)
    t = ((df.index - pd.Timestamp("1970-01-01")) // pd.Timedelta("1s")).to_numpy()
    close = df["Close"].to_numpy()
    equity = 10_000 / close[0] * close
    return "goog_buy_hold", t, equity, close, 10_000.0, 252


def random_with_flats():
    rng = np.random.RandomState(20240101)
    n = 600
    r = rng.standard_t(4, n) * 0.01 + 0.0004
    r[50:120] = 0.0          # flat: out of the market
    r[300:310] = 0.0
    r[480:560] = 0.0
    equity = 1_000.0 * np.cumprod(1 + r)
    t = 1_704_067_200 + 86_400 * np.arange(n)   # every calendar day from 2024-01-01
    bench = 100 * np.cumprod(1 + rng.normal(0.0003, 0.012, n))
    return "random_flats", t, equity, bench, 1_000.0, 365


def eurusd_half_invested():
    df = pd.read_csv(f"{HERE}/../../../data/EURUSD.csv", index_col=0, parse_dates=True)
    t = ((df.index - pd.Timestamp("1970-01-01")) // pd.Timedelta("1s")).to_numpy()
    close = df["Close"].to_numpy()
    bh = np.diff(close, prepend=close[0]) / np.concatenate(([close[0]], close[:-1]))
    invested = (np.arange(len(close)) // 250) % 2 == 1   # in and out every 250 bars
    r = np.where(invested, bh, 0.0)
    equity = 50_000.0 * np.cumprod(1 + r)
    return "eurusd_half_invested", t, equity, close, 50_000.0, 252 * 24


def main():
    rows = []
    for name, t, equity, bench, initial, ppy in (goog_buy_and_hold(), random_with_flats(), eurusd_half_invested()):
        pd.DataFrame({"time": t, "equity": equity, "benchmark": bench}).to_csv(
            f"{HERE}/curve_{name}.csv", index=False, float_format="%.17g")
        equity = pd.read_csv(f"{HERE}/curve_{name}.csv")["equity"].to_numpy()  # exactly what Swift reads
        bench = pd.read_csv(f"{HERE}/curve_{name}.csv")["benchmark"].to_numpy()
        prev = np.concatenate(([initial], equity[:-1]))
        r = equity / prev - 1
        b = np.concatenate(([0.0], bench[1:] / bench[:-1] - 1))
        alpha, beta = ep.alpha_beta(r, b, annualization=ppy)
        rows.append({
            "name": name, "initial": initial, "periods_per_year": ppy,
            "sharpe": ep.sharpe_ratio(r, annualization=ppy),
            "sortino": ep.sortino_ratio(r, annualization=ppy),
            "volatility_ann": ep.annual_volatility(r, annualization=ppy),
            "cagr": ep.cagr(r, annualization=ppy),
            "max_drawdown": ep.max_drawdown(r),
            "calmar": ep.calmar_ratio(r, annualization=ppy),
            "omega": ep.omega_ratio(r, annualization=ppy),
            "alpha": alpha, "beta": beta,
        })
    pd.DataFrame(rows).to_csv(f"{HERE}/goldens.csv", index=False, float_format="%.17g")


if __name__ == "__main__":
    main()
