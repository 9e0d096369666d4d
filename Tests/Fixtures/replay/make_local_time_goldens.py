"""Dev-only generator of `local_time_goldens.json`: hftbacktest 2.4.4's fills for the
synthetic market of `make_goldens.py` received 3 ms after it was made (local_ts = exch_ts +
3 ms for every event), as a `bt live` recording replays: the strategy (its steps, the book it
quotes from) sees each event at its local time, the exchange takes it at its exchange time.

The ten whole-fill cases of `make_goldens.py` (its CASES: quotes at the touch and a tick
behind, every 37/100/250 ms, latencies 0/0 to 20/40 ms, riskaverse, prob:2, prob:3, logprob),
run by its own `run_case`: the same events, conventions and strategy loop (hftbacktest's clock, and the first step, at the first event's exchange time). `ReplayGoldenTests.localTimes` gives bt the same events with
receive times 3 ms after their exchange times and checks every fill, position, PnL and count.

    .venv/bin/python Tests/Fixtures/replay/make_local_time_goldens.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_goldens as mg  # noqa: E402

DELAY_MS = 3


def main():
    book = mg.read_jsonl(os.path.join(HERE, "synthetic_book.jsonl"))
    trades = mg.read_jsonl(os.path.join(HERE, "synthetic_trades.jsonl"))
    events = mg.to_hbt(book, trades)
    events["local_ts"] += DELAY_MS * 1_000_000
    first_ms = min(mg.parse_iso(book[0]["time"]), mg.parse_iso(trades[0]["time"]))
    last_ms = max(mg.parse_iso(book[-1]["time"]), mg.parse_iso(trades[-1]["time"]))
    out = {"source": "synthetic_book.jsonl + synthetic_trades.jsonl, every event received 3 ms after it was made",
           "reference": "hftbacktest 2.4.4 (make_goldens.run_case, local_ts = exch_ts + delay_ms)",
           "lot": mg.LOT, "delay_ms": DELAY_MS, "cases": []}
    for case in mg.cases_for(1.0, []):
        result = mg.run_case(events, first_ms, last_ms, case)
        case = {k: v for k, v in case.items() if k not in ("latency_ns", "strategy")}
        case.update(result)
        out["cases"].append(case)
        print(f"{case['name']}: {len(result['fills'])} fills, pnl {result['pnl']:.6g}, steps {result['steps']}", file=sys.stderr)
    mg.dump(os.path.join(HERE, "local_time_goldens.json"), out)


if __name__ == "__main__":
    main()
