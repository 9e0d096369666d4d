// A replay page's data: its points, series and fills decoded; times to the millisecond.
import test from "node:test";
import assert from "node:assert/strict";
import { page, f64JSON } from "./page.mjs";

const P = page(["decodeReplay", "fmtTime", "timeTickLabel", "TIME_STEPS", "traceSeries"]);

test("decodeReplay: points in seconds with their fraction, the mid as the close, quotes with gaps, fills with side and liquidity", () => {
  const t0 = 1700000000.1;
  const rp = {
    symbol: "SYN", time: f64JSON([t0, t0 + 0.1, t0 + 0.2]), mid: f64JSON([1000, 1000.5, 999.5]),
    bid_quote: f64JSON([999, NaN, 999]), ask_quote: f64JSON([1001, 1001, NaN]), position: f64JSON([0, 0.5, -0.25]),
    fills: { index: [1, 2, 9], exchange_time: f64JSON([t0 + 0.15, t0 + 0.25, t0 + 0.3]), side: ["buy", "sell", "sell"],
      price: [999, 1001, 1001.5], quantity: [0.5, 0.75, 0.001], liquidity: ["maker", "taker", "maker"] },
  };
  const { series, arrays, fills } = P.decodeReplay(rp);
  assert.equal(series.n, 3);
  assert.deepEqual(Array.from(series.t), [t0, t0 + 0.1, t0 + 0.2]);
  assert.equal(series.c, arrays.mid);
  assert.equal(series.hasOHLC, false);
  assert.equal(series.timeframe, null);
  assert.deepEqual(Array.from(arrays.position), [0, 0.5, -0.25]);
  assert.ok(Number.isNaN(arrays.bid_quote[1]) && Number.isNaN(arrays.ask_quote[2]));
  assert.equal(fills.n, 3);
  assert.deepEqual(Array.from(fills.index), [1, 2, 2], "an index past the last point is clamped to it");
  assert.deepEqual(Array.from(fills.price), [999, 1001, 1001.5]);
  assert.deepEqual(Array.from(fills.buy), [true, false, false]);
  assert.deepEqual(Array.from(fills.maker), [true, false, true]);
  assert.deepEqual(Array.from(fills.time), [t0 + 0.15, t0 + 0.25, t0 + 0.3]);
});

test("decodeReplay: no fills and no points decode to an empty chart", () => {
  const { series, fills } = P.decodeReplay({ time: f64JSON([]), mid: f64JSON([]), fills: { index: [] } });
  assert.equal(series.n, 0);
  assert.equal(fills, null);
  assert.equal(P.decodeReplay(undefined).series.n, 0);
});

test("fmtTime shows milliseconds for times with a fraction, and whole times as before", () => {
  const t = Date.UTC(2023, 10, 14, 22, 13, 20) / 1000;
  assert.equal(P.fmtTime(t + 0.1), "2023-11-14 22:13:20.100");
  assert.equal(P.fmtTime(t + 5.007), "2023-11-14 22:13:25.007");
  // Rounding to the millisecond can carry into the next second.
  assert.equal(P.fmtTime(t + 0.9999999), "2023-11-14 22:13:21");
  assert.equal(P.fmtTime(t), "2023-11-14 22:13:20");
  assert.equal(P.fmtTime(Date.UTC(2023, 10, 14) / 1000), "2023-11-14");
});

test("time ticks in seconds below a minute: labelled with the seconds", () => {
  const steps = Array.from(P.TIME_STEPS.filter(s => s[1] === "s"), s => s[0]);
  assert.deepEqual(steps, [1, 5, 10, 15, 30]);
  const t = Date.UTC(2023, 10, 14, 22, 13, 20) / 1000;
  assert.deepEqual({ ...P.timeTickLabel(t, [10, "s", 10]) }, { text: "22:13:20", major: false });
  assert.deepEqual({ ...P.timeTickLabel(t, [60, "m", 1]) }, { text: "22:13", major: false });
  assert.equal(P.timeTickLabel(Date.UTC(2023, 10, 15) / 1000, [10, "s", 10]).major, true);
});

test("traceSeries with step: each value held until the next bar (a replay's quote), gaps kept; without it a straight line", () => {
  const vals = new Float64Array([10, 12, NaN, 11, 13]);
  // A chart of 5 bars, 10 pixels each, y = -value.
  const ch = { ppb: 10, x0: 0, x1: 5, plot: { left: 0 }, xOf: i => (i + 0.5) * 10 };
  const pane = { y: v => -v };
  const trace = (step) => {
    const calls = [];
    const ctx = { moveTo: (x, y) => calls.push(["M", x, y]), lineTo: (x, y) => calls.push(["L", x, y]) };
    P.traceSeries(ch, pane, "k", vals, ctx, false, step);
    return calls;
  };
  assert.deepEqual(trace(true), [["M", 5, -10], ["L", 15, -10], ["L", 15, -12], ["M", 35, -11], ["L", 45, -11], ["L", 45, -13]]);
  assert.deepEqual(trace(false), [["M", 5, -10], ["L", 15, -12], ["M", 35, -11], ["L", 45, -13]]);
});
