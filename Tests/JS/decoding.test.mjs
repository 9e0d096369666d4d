// Data decoding: numeric arrays in both encodings, times, trades, fills and ledger curves.
import test from "node:test";
import assert from "node:assert/strict";
import { page, f64JSON } from "./page.mjs";

const P = page(["f64", "numLength", "decodeTime", "ledgerCurve", "decodeTrades", "decodeFills", "positionFromFills"]);

test("f64 reads JSON arrays (null as NaN) and base64 doubles alike, exactly", () => {
  const values = [0.1 + 0.2, -0, 1e-310, 123456789.123456789, NaN];
  const fromBase64 = Array.from(P.f64(f64JSON(values)));
  const fromJSON = Array.from(P.f64([0.1 + 0.2, -0, 1e-310, 123456789.123456789, null]));
  for (const decoded of [fromBase64, fromJSON]) {
    assert.equal(decoded.length, 5);
    values.slice(0, 4).forEach((v, i) => assert.ok(Object.is(decoded[i], v), `${decoded[i]} !== ${v}`));
    assert.ok(Number.isNaN(decoded[4]));
  }
  assert.equal(P.numLength(f64JSON([1, 2, 3])), 3);
  assert.equal(P.numLength([1, 2]), 2);
  assert.equal(P.numLength(new Float64Array(7)), 7);
  assert.equal(P.numLength(null), 0);
  // A length mismatch pads with NaN rather than reading past the data.
  const padded = P.f64(f64JSON([1, 2]), 4);
  assert.equal(padded.length, 4);
  assert.ok(Number.isNaN(padded[3]));
});

test("time_deltas add up to epoch seconds", () => {
  assert.deepEqual(Array.from(P.decodeTime({ time_deltas: [1092873600, 86400, 259200] })), [1092873600, 1092960000, 1093219200]);
  assert.deepEqual(Array.from(P.decodeTime({ time: ["1970-01-02T00:00:00Z", 172800] })), [86400, 172800]);
  assert.equal(P.decodeTime({}).length, 0);
});

test("a ledger curve is cash + position x close at every bar, from the steps or implied by the fills", () => {
  const close = new Float64Array([10, 10.5, 11.25, 10.75, 12, 12.5]);
  // Bought 3 at bar 1, sold at bar 4.
  const explicit = P.ledgerCurve({ at: [0, 1, 4], cash: f64JSON([100, 68.2, 104.1]), position: f64JSON([0, 3, 0]) }, close, 6);
  const expected = [100, 68.2 + 3 * 10.5, 68.2 + 3 * 11.25, 68.2 + 3 * 10.75, 104.1, 104.1];
  assert.deepEqual(Array.from(explicit.equity), expected);
  assert.deepEqual(Array.from(explicit.position), [0, 3, 3, 3, 0, 0]);
  const fills = P.decodeFills({ index: [1, 4], price: f64JSON([10.6, 11.9]), quantity: f64JSON([3, -3]) }, 6);
  const implied = P.ledgerCurve({ cash: f64JSON([100, 68.2, 104.1]) }, close, 6, fills);
  assert.deepEqual(Array.from(implied.equity), expected);
  assert.deepEqual(Array.from(implied.position), [0, 3, 3, 3, 0, 0]);
  // Two fills on one bar make one step; the position is their running sum.
  const two = P.decodeFills({ index: [2, 2], price: f64JSON([11, 11]), quantity: f64JSON([2, 1.5]) }, 6);
  const c2 = P.ledgerCurve({ cash: f64JSON([100, 61.5]) }, close, 6, two);
  assert.deepEqual(Array.from(c2.position), [0, 0, 3.5, 3.5, 3.5, 3.5]);
  // Malformed ledgers draw nothing rather than a wrong curve.
  assert.equal(P.ledgerCurve({ at: [1, 2], cash: f64JSON([1, 2]), position: f64JSON([0, 0]) }, close, 6), null);
  assert.equal(P.ledgerCurve({ at: [0, 4, 2], cash: f64JSON([1, 2, 3]), position: f64JSON([0, 0, 0]) }, close, 6), null);
  assert.equal(P.ledgerCurve({}, close, 6), null);
});

test("fills: a side column, or signed quantities (buys positive)", () => {
  const sided = P.decodeFills({ index: [0, 3], side: ["buy", "sell"], price: [1, 2], quantity: [5, 5] }, 4);
  const signed = P.decodeFills({ index: [0, 3], price: f64JSON([1, 2]), quantity: f64JSON([5, -5]) }, 4);
  for (const F of [sided, signed]) {
    assert.deepEqual(Array.from(F.buy), [true, false]);
    assert.deepEqual(Array.from(F.qty), [5, 5]);
    assert.deepEqual(Array.from(P.positionFromFills(F, 4)), [5, 5, 5, 0]);
  }
  // Indices outside the series are clamped onto it.
  assert.deepEqual(Array.from(P.decodeFills({ index: [-3, 99], price: [1, 1], quantity: [1, -1] }, 4).index), [0, 3]);
  assert.equal(P.decodeFills({ index: [] }, 4), null);
});

test("trades: sides default to long and open flags to false when left out", () => {
  const T = P.decodeTrades({ entry_index: [1, 5], exit_index: [3, 9], entry_price: f64JSON([10, 11]), exit_price: f64JSON([12, 10]),
    quantity: f64JSON([2, 2]), pnl: f64JSON([4, -2]), return: f64JSON([0.2, -0.09]) }, 10);
  assert.equal(T.n, 2);
  assert.deepEqual([...T.side], ["long", "long"]);
  assert.deepEqual([T.isOpen[0], T.isOpen[1]].map(Boolean), [false, false]);
  assert.deepEqual(Array.from(T.pnl), [4, -2]);
  const S = P.decodeTrades({ side: ["short"], entry_index: [0], exit_index: [2], is_open: [true] }, 3);
  assert.deepEqual([...S.side], ["short"]);
  assert.equal(S.isOpen[0], true);
  assert.ok(Number.isNaN(S.pnl[0]));
});

test("the page's whole script (all four files in one strict function, as bt writes it) compiles", async () => {
  const { default: vm } = await import("node:vm");
  const { assetText } = await import("./page.mjs");
  const code = "(function () {\n\"use strict\";\n" + ["core.js", "chart.js", "panels.js", "pages.js"].map(assetText).join("") + "})();\n";
  assert.doesNotThrow(() => new vm.Script(code, { filename: "report.html script" }));
  assert.throws(() => new vm.Script(code + "const x = 1; const x = 2;"), SyntaxError);
});
