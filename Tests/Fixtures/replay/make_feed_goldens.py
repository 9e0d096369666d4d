"""Dev-only generator of `feed_latency_goldens.json`: the order-latency rows hftbacktest 2.4.4's
`generate_order_latency` makes from a recording's feed latency, which `bt replay --latency
feed:M,C` makes the same way (`FeedLatency`, docs/guide/replay.md#latency).

The feed: a seeded stream of 3,000 events over about 90 s of exchange time (whole
milliseconds, several a millisecond, in exchange-time order as bt replays them), each received
2 to 15 ms later (nanoseconds), with spikes of 80 to 300 ms, bursts received together (one local
time for several events, as a depth sync records them), a few received before their exchange
time (the clocks disagree: bt takes such an event as received at its exchange time, and so does
the feed given to hftbacktest here) and a few without a local time (an event bt's recorder
wrote without one: hftbacktest sees them as exchange-only events, which its generator leaves
out, as bt does).

hftbacktest's generator groups the events by whole seconds of local time (polars
`group_by_dynamic(every='1000000000i')`, the events sorted by local time: a stable sort of the
exchange-ordered stream, so ties keep bt's reading order), keeps the last of each second, and
writes req_ts = local_ts, exch_ts = req_ts + M x feed + C, resp_ts = exch_ts + M x feed + C (in
doubles). Four (M, C) cases. The Swift test (`FeedLatencyTests`) makes the rows from the same
events and compares: the same seconds and request times, exchange and response times within
512 ns (hftbacktest adds the latency to epoch nanoseconds in doubles: 256 ns steps at 2023's
times).

    python3 -m venv .venv && echo '*' > .venv/.gitignore
    .venv/bin/pip install hftbacktest==2.4.4 numpy
    .venv/bin/python Tests/Fixtures/replay/make_feed_goldens.py
"""
import json
import os
import random
import tempfile

import numpy as np
from hftbacktest.data.utils.feed_order_latency import generate_order_latency
from hftbacktest.types import event_dtype, EXCH_EVENT, LOCAL_EVENT, DEPTH_EVENT

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [(1.0, 0), (1.5, 2_000_000), (0.0, 5_000_000), (3.0, 250_000)]


def feed(seed=47, n=3000, start_ms=1_700_000_000_000):
    rng = random.Random(seed)
    events = []  # (exch_ms, local_ns or None), exchange-time order
    t = start_ms
    burst_local = None
    for _ in range(n):
        t += rng.choice([0, 0, 1, 3, 7, 20, 45, 90])
        exch_ns = t * 1_000_000
        r = rng.random()
        if r < 0.02:
            local = None
        elif r < 0.04:
            local = exch_ns - rng.randint(1, 3_000_000)  # before its exchange time
        elif r < 0.07:
            local = exch_ns + rng.randint(80_000_000, 300_000_000)
        else:
            local = exch_ns + rng.randint(2_000_000, 15_000_000)
        if local is not None and burst_local is not None and rng.random() < 0.3 and burst_local >= exch_ns:
            local = burst_local  # received together with the one before
        if local is not None:
            burst_local = local
        events.append((t, local))
    return events


def main():
    events = feed()
    seen = [(e, max(l, e * 1_000_000) if l is not None else None) for e, l in events]
    # hftbacktest's data: the events sorted by local time (stable), exchange-only ones flagged so.
    order = sorted(range(len(seen)), key=lambda i: seen[i][1] if seen[i][1] is not None else seen[i][0] * 1_000_000)
    arr = np.zeros(len(seen), dtype=event_dtype)
    for k, i in enumerate(order):
        e, l = seen[i]
        ev = EXCH_EVENT | DEPTH_EVENT | (LOCAL_EVENT if l is not None else 0)
        arr[k] = (ev, e * 1_000_000, l if l is not None else e * 1_000_000, 100.0, 1.0, 0, 0, 0.0)
    cases = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'feed.npz')
        np.savez_compressed(path, data=arr)
        for m, c in CASES:
            rows = generate_order_latency(path, mul_entry=m, offset_entry=float(c), mul_resp=m, offset_resp=float(c))
            cases.append({'multiplier': m, 'offset_ns': c,
                          'rows': [[int(r['req_ts']), int(r['exch_ts']), int(r['resp_ts'])] for r in rows]})
    out = {'source': 'hftbacktest 2.4.4 generate_order_latency (make_feed_goldens.py)',
           'events': [[e, l] for e, l in events], 'cases': cases}
    with open(os.path.join(HERE, 'feed_latency_goldens.json'), 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(len(events), 'events;', [len(c['rows']) for c in cases], 'rows')


if __name__ == '__main__':
    main()
