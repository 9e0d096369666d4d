#!/usr/bin/env python3
"""Dev-only: writes the PBO (CSCV) goldens the Swift tests compare against.

An independent, direct implementation of Bailey, Borwein, Lopez de Prado & Zhu (2015), written
from the paper with numpy and itertools (no shared code with bt): for each of the C(S, S/2)
splits, concatenate the in-sample blocks' rows, take each trial's Sharpe (mean / sample sd),
pick the in-sample best, rank its out-of-sample Sharpe among all trials (average rank for
ties), omega = rank / (N + 1), lambda = logit(omega); PBO = share of lambda <= 0.

Run by hand:  python3 Tests/Fixtures/overfitting/make_goldens.py
"""
import itertools
import os

import numpy as np
from scipy.stats import rankdata

HERE = os.path.dirname(os.path.abspath(__file__))


def sharpe(m):
    sd = m.std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = m.mean(axis=0) / sd
    s[~np.isfinite(s)] = -np.inf
    return s


def pbo(matrix, s):
    t, n = matrix.shape
    bounds = [k * t // s for k in range(s + 1)]
    blocks = [matrix[bounds[k]:bounds[k + 1]] for k in range(s)]
    logits = []
    # Splits in increasing bit-mask order, like the Swift code: enumerate masks.
    for mask in range(1 << s):
        if bin(mask).count("1") != s // 2:
            continue
        ins = [k for k in range(s) if mask & (1 << k)]
        outs = [k for k in range(s) if not mask & (1 << k)]
        is_m = np.vstack([blocks[k] for k in ins])
        oos_m = np.vstack([blocks[k] for k in outs])
        best = int(np.argmax(sharpe(is_m)))
        ranks = rankdata(sharpe(oos_m), method="average")
        omega = ranks[best] / (n + 1)
        logits.append(np.log(omega / (1 - omega)))
    logits = np.array(logits)
    return float(np.mean(logits <= 0)), logits


def write_case(name, matrix, s):
    np.savetxt(os.path.join(HERE, f"{name}_returns.csv"), matrix, delimiter=",", fmt="%.17g")
    p, logits = pbo(matrix, s)
    with open(os.path.join(HERE, f"{name}_pbo.csv"), "w") as f:
        f.write(f"blocks,{s}\npbo,{p!r}\nsplits,{len(logits)}\nmean_logit,{float(np.mean(logits))!r}\n")
        if len(logits) <= 100:
            for v in logits:
                f.write(f"logit,{float(v)!r}\n")
    print(name, matrix.shape, "S =", s, "PBO =", p)


rng = np.random.default_rng(20261130)
# Pure noise: every trial is luck, PBO should be near 0.5.
write_case("noise", rng.normal(0.0, 0.01, size=(480, 12)), 8)
# One trial with real skill among noise: PBO should be near 0.
skill = rng.normal(0.0, 0.01, size=(480, 12))
skill[:, 5] += 0.004
write_case("skill", skill, 8)
# Overfit-like: trials strong in the first half, weak in the second.
over = rng.normal(0.0, 0.01, size=(320, 10))
over[:160, :5] += 0.003
over[160:, :5] -= 0.003
write_case("overfit", over, 16)
