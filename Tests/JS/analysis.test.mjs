// Pure computations of the page: drawdown episodes, in-page resampling, decimation pyramids,
// axis ticks, number formats and colour scales.
import test from "node:test";
import assert from "node:assert/strict";
import { page } from "./page.mjs";

const P = page(["analyseEquity", "aggregate", "lastInBucket", "timeframeNamed", "inferTimeframe", "bucketStart", "makeSeries",
  "Pyramid", "prefixSums", "niceStep", "linearTicks", "logTicks", "fmtInt", "fmtFixed", "fmtSig", "fmtPct", "fmtExact",
  "fmtCompact", "fmtTime", "fmtUnit", "makeScale", "rampColor"]);

test("the drawdown series starts its peak at the initial cash; episodes are bt's, as given", () => {
  // 100 -> 90 (below the initial cash) -> 110 (recovered, new peak) -> 99 -> 88 (deepest) -> 95 (open at the end).
  const eq = new Float64Array([100, 90, 110, 99, 88, 95]), t = new Float64Array([0, 1, 2, 3, 4, 5].map(d => d * 86400));
  const deepest = { peak: 2, trough: 4, end: 5, depth: (88 - 110) / 110, recovered: false };
  const A = P.analyseEquity(eq, 100, t, { deepest, longest: { ...deepest } });
  assert.deepEqual([A.deepest.peak, A.deepest.trough, A.deepest.end, A.deepest.bars, A.deepest.recovered], [2, 4, 5, 3, false]);
  assert.equal(A.longest, A.deepest, "the same episode is one object (shaded once)");
  assert.equal(A.maxDrawdown, (88 - 110) / 110);
  assert.equal(A.maxDrawdownBars, 3);
  assert.equal(A.maxDrawdownDays, 3);
  assert.equal(A.peak, 110);
  assert.equal(A.peakIndex, 2);
  assert.equal(A.final, 95);
  assert.deepEqual(Array.from(A.dd).map(v => +v.toFixed(12)), [0, -0.1, 0, -0.1, -0.2, +((95 - 110) / 110).toFixed(12)]);
  // A longer, shallower episode is its own; indices outside the curve are clamped onto it.
  const B = P.analyseEquity(eq, 100, t, { deepest, longest: { peak: 0, trough: 1, end: 99, depth: -0.1, recovered: true } });
  assert.notEqual(B.longest, B.deepest);
  assert.deepEqual([B.longest.peak, B.longest.end, B.longest.bars], [0, 5, 5]);
  // Without episodes in the data nothing is shaded, and the series is still drawn.
  const C = P.analyseEquity(new Float64Array([95, 97, 101]), 100, new Float64Array([0, 60, 120]));
  assert.equal(C.deepest, null);
  assert.equal(C.maxDrawdown, 0);
  assert.deepEqual(Array.from(C.dd), [-0.05, -0.03, 0]);
});

test("a thinned chart's episodes give their length in the run's own bars and seconds", () => {
  // Three drawn bars standing for 30,000 bars: the episode spans drawn bars 0..2, 29,000 bars, 20 days.
  const eq = new Float64Array([100, 80, 90]), t = new Float64Array([0, 600, 1200]);
  const deepest = { peak: 0, trough: 1, end: 2, depth: -0.2, recovered: false, bars: 29000, seconds: 20 * 86400 };
  const A = P.analyseEquity(eq, 100, t, { deepest, longest: { ...deepest } });
  assert.equal(A.maxDrawdownBars, 29000);
  assert.equal(A.maxDrawdownDays, 20);
  assert.deepEqual([A.deepest.peak, A.deepest.trough, A.deepest.end], [0, 1, 2], "the indices stay the drawn bars");
});

test("daily bars resample into Monday weeks: first open, max high, min low, last close, summed volume", () => {
  // Thursday 1970-01-01 .. Wednesday 1970-01-14, one bar a day.
  const n = 14, day = 86400;
  const src = { time_deltas: [0, ...new Array(n - 1).fill(day)], open: [], high: [], low: [], close: [], volume: [] };
  for (let i = 0; i < n; i++) { src.open.push(10 + i); src.high.push(12 + i); src.low.push(9 + i); src.close.push(11 + i); src.volume.push(100); }
  const s = P.makeSeries(src);
  assert.equal(s.timeframe.name, "1d");
  const w = P.aggregate(s, P.timeframeNamed("1w"));
  assert.equal(w.n, 3);
  assert.deepEqual(Array.from(w.t), [-3 * day, 4 * day, 11 * day]);  // Mondays 1969-12-29, 1970-01-05, 1970-01-12
  assert.deepEqual(Array.from(w.o), [10, 14, 21]);
  assert.deepEqual(Array.from(w.h), [15, 22, 25]);
  assert.deepEqual(Array.from(w.l), [9, 13, 20]);
  assert.deepEqual(Array.from(w.c), [14, 21, 24]);
  assert.deepEqual(Array.from(w.v), [400, 700, 300]);
  assert.deepEqual(Array.from(w.first), [0, 4, 11, 14]);
  assert.equal(w.map[10], 1);
  assert.deepEqual(Array.from(P.lastInBucket(new Float64Array(s.c), w)), [14, 21, 24]);
  const m = P.aggregate(s, P.timeframeNamed("1M"));
  assert.equal(m.n, 1);
  assert.equal(P.bucketStart(P.timeframeNamed("1M"), Date.UTC(2024, 1, 29, 13) / 1000), Date.UTC(2024, 1, 1) / 1000);
  assert.equal(P.inferTimeframe(new Float64Array([0, 3600, 7200, 14400, 18000])).name, "1h");
  assert.equal(P.inferTimeframe(new Float64Array([0, 7])), null);
});

test("the min/max pyramid answers every range like a scan, NaN ignored", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const v = new Float64Array(257).map(() => (rand() < 0.1 ? NaN : rand() * 100 - 50));
  const p = new P.Pyramid(v);
  for (let a = 0; a < v.length; a += 3) {
    for (let b = a + 1; b <= v.length; b += 5) {
      const xs = Array.from(v.subarray(a, b)).filter(x => x === x);
      const lo = xs.length ? Math.min(...xs) : NaN, hi = xs.length ? Math.max(...xs) : NaN;
      assert.ok(Object.is(p.min(a, b), lo) && Object.is(p.max(a, b), hi), `[${a}, ${b})`);
    }
  }
  assert.deepEqual(Array.from(P.prefixSums([1, NaN, 2])), [0, 1, 1, 3]);
});

test("axis ticks are round, inside the range and at least two", () => {
  assert.equal(P.niceStep(10, 5), 2);
  assert.equal(P.niceStep(1, 4), 0.25);
  for (const [lo, hi] of [[0, 1], [-3.7, 12.2], [99.5, 100.5], [1e6, 1.3e6], [0.0001, 0.00013]]) {
    const t = P.linearTicks(lo, hi, 5);
    assert.ok(t.ticks.length >= 2, `${lo}..${hi}: ${t.ticks}`);
    assert.ok(t.ticks.every(x => x >= lo - t.step * 1e-9 && x <= hi + t.step * 1e-9));
    t.ticks.slice(1).forEach((x, i) => assert.ok(Math.abs(x - t.ticks[i] - t.step) < t.step * 1e-9));
  }
  const log = P.logTicks(1, 1000, 5);
  assert.ok(log.ticks.includes(10) && log.ticks.includes(100), String(log.ticks));
});

test("number formats: grouping, fixed and significant digits, percentages, n/a", () => {
  assert.equal(P.fmtInt(1234567.4), "1,234,567");
  assert.equal(P.fmtInt(-0.4), "0");
  assert.equal(P.fmtFixed(-1234.5678, 2), "-1,234.57");
  assert.equal(P.fmtFixed(-0.001, 2), "0.00");
  assert.equal(P.fmtSig(0.000123456, 3), "0.000123");
  assert.equal(P.fmtSig(1e-7, 3), "1.00e-7");
  assert.equal(P.fmtPct(0.25), "25.00%");
  assert.equal(P.fmtPct(NaN), "n/a");
  assert.equal(P.fmtExact(1234567.125), "1,234,567.125");
  assert.equal(P.fmtCompact(2.5e6), "2.50M");
  assert.equal(P.fmtTime(1092873600), "2004-08-19");
  assert.equal(P.fmtTime(1092873600 + 14 * 3600 + 30 * 60), "2004-08-19 14:30");
  assert.equal(P.fmtUnit(0.1234, "fraction"), "12.34%");
  assert.equal(P.fmtUnit(42, "count"), "42");
  assert.equal(P.fmtUnit(null, "ratio"), "n/a");
});

test("colour scales: diverging is symmetric around zero, sequential spans the range", () => {
  const d = P.makeScale("diverging", -1, 3);
  assert.equal(d.lo, -3);
  assert.equal(d.hi, 3);
  const mid = d.rgb(0), pos = d.rgb(3), neg = d.rgb(-3);
  assert.ok(mid.every(c => c > 230), `zero is near white: ${mid}`);
  assert.ok(pos[2] > pos[0] && neg[0] > neg[2], "positive blue, negative orange");
  const s = P.makeScale("sequential", 5, 5);
  assert.deepEqual([...s.rgb(5)].map(Math.round), [68, 1, 84]);
  assert.deepEqual([...P.rampColor([[0, 0, 0], [100, 200, 50]], 0.5)], [50, 100, 25]);
});
