// A run's Monte Carlo bands on the equity chart: the checkpoints' percentiles at every bar.
import test from "node:test";
import assert from "node:assert/strict";
import { page } from "./page.mjs";

const P = page(["monteCarloBands"]);
const plain = (v) => JSON.parse(JSON.stringify(Array.from(v, x => (x === x ? x : "NaN"))));

test("the checkpoints' values at their bars, straight lines in time between them, NaN outside them; ISO times read too", () => {
  const mc = { time: [10, 20, "1970-01-01T00:00:40Z"], p5: [90, 80, 100], p50: [100, 100, 110], p95: [110, 120, null] };
  const b = P.monteCarloBands(mc, [5, 10, 15, 20, 30, 40, 50], 7);
  assert.deepEqual(plain(b.p5), ["NaN", 90, 85, 80, 90, 100, "NaN"]);
  assert.deepEqual(plain(b.p50), ["NaN", 100, 100, 100, 105, 110, "NaN"]);
  assert.deepEqual(plain(b.p95), ["NaN", 110, 115, 120, "NaN", "NaN", "NaN"]);
});
