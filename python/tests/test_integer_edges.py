"""Integer settings and exit distances through btcore: integer settings at 0, 1, the series' length
and Int64.max never abort the interpreter (bt.h: nothing aborts the host); each runs, a count
beyond the series being the series' length, or raises InputError. An exit distance never positive
on the bars raises InputError naming the setting. The calls run in a child interpreter, which must
finish."""
import json
import os
import subprocess
import sys

import btcore

INT64_MAX = 2**63 - 1

CHILD = r'''
import json, sys
import btcore

df = btcore.read("GOOG", db=sys.argv[1])
n = len(df)
sig = btcore.signals(df, entry="cross_above(sma(close, 10), sma(close, 30))", exit="cross_below(sma(close, 10), sma(close, 30))")
results = {}

def outcome(name, call):
    try:
        run = call()
        results[name] = ["ran", run.stats["trades"], run.stats["total_return"]]
    except btcore.InputError as e:
        results[name] = ["refused", "", str(e)]
    except Exception as e:
        results[name] = ["wrong", type(e).__name__, str(e)]

for value in (0, 1, n, 2**63 - 1):
    outcome(f"exit_after {value}", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="none", exit_after=value))
    outcome(f"order_bars {value}", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="none", order_bars=value,
                                                            entry_limit="close * 0.99"))
    outcome(f"pyramid {value}", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="none", pyramid=value))
    outcome(f"strategy exit_after {value}", lambda: btcore.backtest(df, strategy="ma-cross", depth="none", exit_after=value))
    outcome(f"spread_window {value}", lambda: btcore.backtest(df, sig.entry, sig.exit, spread_window=value))
    outcome(f"impact_window {value}", lambda: btcore.backtest(df, sig.entry, sig.exit, impact_window=value))
    outcome(f"offset {value}", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="none", sl=f"close[{value}] * 0.05"))
for text in ("-atr(14)", "1/0", "close/0", "log(0)", "close[1000000]"):
    for setting in ("sl", "tp", "trail"):
        outcome(f"{setting} {text}", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="none", **{setting: text}))
print(json.dumps(results))
'''


def test_integer_edges_and_exit_distances_never_abort_the_interpreter(store, tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    done = subprocess.run([sys.executable, str(script), store], capture_output=True, text=True, timeout=600, env=os.environ)
    assert done.returncode == 0, f"the child interpreter died ({done.returncode}):\n{done.stderr[-3000:]}"
    results = json.loads(done.stdout.strip().splitlines()[-1])
    wrong = {name: r for name, r in results.items() if r[0] == "wrong"}
    assert not wrong, wrong
    n = 2148
    for setting in ("exit_after", "order_bars", "pyramid", "strategy exit_after"):
        assert results[f"{setting} 0"][0] == "refused", results[f"{setting} 0"]
        assert results[f"{setting} 1"][0] == "ran", results[f"{setting} 1"]
        # A count beyond the series is the series' length: the same run.
        assert results[f"{setting} {INT64_MAX}"] == results[f"{setting} {n}"], setting
        assert results[f"{setting} {INT64_MAX}"][0] == "ran"
    for setting in ("spread_window", "impact_window"):
        assert results[f"{setting} {INT64_MAX}"][0] == "refused"  # a C int: refused before the call
        assert results[f"{setting} {n}"][0] == "ran"
    assert results[f"offset {INT64_MAX}"][0] == "refused" and results["offset 1"][0] == "ran"
    for text in ("-atr(14)", "1/0", "close/0", "log(0)", "close[1000000]"):
        for setting in ("sl", "tp", "trail"):
            r = results[f"{setting} {text}"]
            assert r[0] == "refused" and r[2].startswith(f"{setting} '{text}': a distance in price must be a positive number"), r
