// Pure parts of the chart: exit kinds and their glyphs, where a point's label goes, the y scale
// of a pane (linear and log).
import test from "node:test";
import assert from "node:assert/strict";
import { page, f64JSON } from "./page.mjs";

const P = page(["EXIT_KINDS", "EXIT_GLYPHS", "exitKindOf", "exitGlyph", "traceExitGlyph", "decodeTrades", "placeLabel", "paneScale"]);

/** A path that records its calls, for the glyphs. */
function recorder() {
  const calls = [];
  const rec = (name) => (...args) => calls.push([name, ...args.map(v => Math.round(v * 1000) / 1000)]);
  return { calls, moveTo: rec("M"), lineTo: rec("L"), arc: rec("A"), closePath: rec("Z") };
}

test("exit kinds: bt's ExitKind names in legend order, defaults when the data leaves them out", () => {
  assert.deepEqual([...P.EXIT_KINDS], ["signal", "stop", "stop-gap", "target", "target-gap", "trail", "time", "end", "rebalance"]);
  assert.equal(P.exitKindOf("trail", false), "trail");
  assert.equal(P.exitKindOf(undefined, false), "signal");
  assert.equal(P.exitKindOf(null, true), "end");
  assert.equal(P.exitKindOf("", true), "end");
  // A kind this page does not know is shown as given, with the signal's glyph.
  assert.equal(P.exitKindOf("margin-call", false), "margin-call");
  assert.equal(P.exitGlyph("margin-call"), P.EXIT_GLYPHS.signal);
});

test("every exit kind has its own glyph: a distinct shape, or the same shape filled for the gap variant", () => {
  const signatures = new Set();
  for (const kind of P.EXIT_KINDS) {
    const r = recorder();
    P.traceExitGlyph(r, kind, 10, 20, 4);
    assert.ok(r.calls.length >= 2, `${kind} draws something`);
    const g = P.exitGlyph(kind);
    signatures.add(JSON.stringify(r.calls) + (g.filled ? " filled" : ""));
    // The glyph stays within about 2r of its centre, so markers do not reach their neighbours.
    for (const [op, ...xy] of r.calls) {
      if (op === "M" || op === "L") assert.ok(Math.abs(xy[0] - 10) <= 5 && Math.abs(xy[1] - 20) <= 5, `${kind} ${op} ${xy}`);
    }
  }
  assert.equal(signatures.size, P.EXIT_KINDS.length, "two kinds share a glyph");
  assert.equal(P.exitGlyph("stop").shape, P.exitGlyph("stop-gap").shape);
  assert.ok(P.exitGlyph("stop-gap").filled && !P.exitGlyph("stop").filled);
});

test("trades: exit kinds from the data or their defaults, the kinds present, symbols, and whether entries and exits ascend", () => {
  const T = P.decodeTrades({ entry_index: [1, 5, 7], exit_index: [3, 9, 9], is_open: [false, false, true],
    exit_kind: ["stop", "target-gap", "end"], pnl: f64JSON([-1, 2, 1]) }, 10);
  assert.deepEqual([...T.kind], ["stop", "target-gap", "end"]);
  assert.deepEqual([...T.kinds], ["stop", "target-gap", "end"]);
  assert.equal(T.symbol, null);
  assert.ok(T.sorted && T.exitSorted);
  // Without exit_kind (a sweep curve whose trades all ended as their defaults).
  const D = P.decodeTrades({ entry_index: [0, 4], exit_index: [2, 6], is_open: [false, true] }, 7);
  assert.deepEqual([...D.kind], ["signal", "end"]);
  // A portfolio's: symbols, in the order they closed (entries out of order).
  const F = P.decodeTrades({ symbol: ["B", "A", "B"], entry_index: [4, 1, 6], exit_index: [5, 8, 9],
    exit_kind: ["rebalance", "trail", "signal"] }, 10);
  assert.deepEqual([...F.symbol], ["B", "A", "B"]);
  assert.deepEqual([...F.kinds], ["signal", "trail", "rebalance"], "legend order, not data order");
  assert.ok(!F.sorted && F.exitSorted);
});

test("a label goes where no line and no other label is, else beside the pane (null)", () => {
  const bounds = { left: 0, right: 400, top: 0, bottom: 200 };
  const inside = (at, w, h) => at.x >= bounds.left && at.x + w <= bounds.right && at.y >= bounds.top && at.y + h <= bounds.bottom;
  // A flat line at y = 100 across the pane: the label of a point on it goes above it (or below when asked).
  const flat = () => [[98, 102]];
  let at = P.placeLabel(200, 100, 60, 14, flat, [], bounds, false);
  assert.deepEqual({ ...at }, { x: 208, y: 79 });
  at = P.placeLabel(200, 100, 60, 14, flat, [], bounds, true);
  assert.deepEqual({ ...at }, { x: 208, y: 107 });
  // A point at the right edge: the label goes left of it.
  at = P.placeLabel(395, 100, 60, 14, flat, [], bounds, false);
  assert.ok(at.x + 60 <= 395 && inside(at, 60, 14));
  // A rising line: a point's label never meets the line's band over the label's own columns.
  const rising = (x1, x2) => [[200 - x2 / 4 - 2, 200 - x1 / 4 + 2]];
  for (const px of [20, 100, 250, 390]) {
    for (const below of [false, true]) {
      const p = P.placeLabel(px, 200 - px / 4, 80, 14, rising, [], bounds, below);
      assert.ok(p && inside(p, 80, 14), `room for the label of x=${px}`);
      const [[top, bottom]] = rising(p.x - 3, p.x + 83);
      assert.ok(p.y + 14 <= top - 3 || p.y >= bottom + 3, `label at ${JSON.stringify(p)} meets the line [${top}, ${bottom}]`);
    }
  }
  // A label already there takes the spot: the next goes elsewhere, without overlapping it.
  const first = P.placeLabel(200, 100, 60, 14, flat, [], bounds, false);
  const second = P.placeLabel(200, 100, 60, 14, flat, [{ ...first, w: 60, h: 14 }], bounds, false);
  assert.ok(second && (second.x + 60 + 4 <= first.x || second.x >= first.x + 60 + 4 || second.y + 14 + 2 <= first.y || second.y >= first.y + 14 + 2));
  // Lines filling the pane's height leave no room: the label goes beside the pane.
  assert.equal(P.placeLabel(200, 100, 60, 14, () => [[-5, 205]], [], bounds, false), null);
  // Two lines far apart: the label goes between them, level with its point.
  const two = () => [[48, 52], [148, 152]];
  assert.deepEqual({ ...P.placeLabel(200, 150, 60, 14, two, [], bounds, false) }, { x: 208, y: 129 });
  // Room only far from the point (lines from 70 to 200 px below it): beside the pane, not far away.
  assert.equal(P.placeLabel(200, 10, 60, 14, () => [[-5, 15], [20, 190]], [], bounds, false), null);
  // A pane too short for a label: beside it too.
  assert.equal(P.placeLabel(200, 5, 60, 14, () => [], [], { left: 0, right: 400, top: 0, bottom: 12 }, false), null);
});

test("a pane's scale: linear with padding, log only when wanted, allowed and every value is positive", () => {
  const h = 300;
  const lin = P.paneScale(100, 200, h, {});
  assert.equal(lin.log, false);
  const y = (s, v) => h - (s.log ? Math.log(v) - s.lmin : v - s.vmin) * s.k;
  assert.ok(y(lin, 100) < h && y(lin, 200) > 0, "the values are inside, padded");
  assert.ok(Math.abs((y(lin, 100) - y(lin, 150)) - (y(lin, 150) - y(lin, 200))) < 1e-9, "equal steps, equal distances");
  // Log: equal ratios at equal distances; 1-2-5 ticks over decades.
  const log = P.paneScale(100, 100000, h, { logWanted: true, logAllowed: true });
  assert.equal(log.log, true);
  assert.ok(Math.abs((y(log, 100) - y(log, 1000)) - (y(log, 1000) - y(log, 10000))) < 1e-9);
  assert.ok(y(log, 100) < h && y(log, 100000) > 0);
  assert.ok(log.ticks.ticks.includes(1000) && log.ticks.ticks.includes(10000));
  // Not wanted, not allowed, or a value at or below zero: linear.
  assert.equal(P.paneScale(100, 100000, h, { logWanted: false, logAllowed: true }).log, false);
  assert.equal(P.paneScale(100, 100000, h, { logWanted: true, logAllowed: false }).log, false);
  assert.equal(P.paneScale(-5, 100000, h, { logWanted: true, logAllowed: true }).log, false);
  // Room for a label above the top value: padTopPx pixels more than the 6% share, in both scales.
  for (const o of [{}, { logWanted: true, logAllowed: true }]) {
    const plain = P.paneScale(100, 200, h, o), padded = P.paneScale(100, 200, h, { ...o, padTopPx: 18 });
    assert.ok(y(padded, 200) >= y(plain, 200) + 15, `${JSON.stringify(o)}: the top value is lower with room above it`);
    assert.ok(Math.abs(y(padded, 100) - y(plain, 100)) < 4, "the bottom barely moves");
  }
  // includeZero keeps 0 in view; a fixed range is always shown; guides are labelled.
  const dd = P.paneScale(-0.3, 0, h, { includeZero: true, padTopPx: 5, padBottomPx: 20 });
  assert.ok(y(dd, 0) > 0 && y(dd, -0.3) <= h - 19, "room below the trough for its label");
  const rsi = P.paneScale(40, 60, h, { fixed: [0, 100], guides: [30, 70] });
  assert.ok(y(rsi, 0) <= h && y(rsi, 100) >= 0);
  assert.ok(rsi.ticks.ticks.includes(30) && rsi.ticks.ticks.includes(70));
  // A flat series still gets a range.
  const flat = P.paneScale(5, 5, h, {});
  assert.ok(Number.isFinite(flat.k) && flat.k > 0);
});
