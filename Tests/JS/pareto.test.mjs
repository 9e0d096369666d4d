// The sweep page's Pareto scatter: which points it draws, the front's order and the axes' extents.
import test from "node:test";
import assert from "node:assert/strict";
import { page } from "./page.mjs";

const P = page(["paretoGeometry"]);
/** The page runs in its own realm: its arrays compared as plain values. */
const plain = (v) => JSON.parse(JSON.stringify(v));

test("points with a missing or infinite value are left out; the front is ordered by x then y; extents padded by 5%", () => {
  const g = P.paretoGeometry({
    objectives: ["sharpe", "max_drawdown"],
    x_values: [1, 2, null, 0.5, 3, 2], y_values: [-0.1, -0.2, -0.3, -0.05, null, -0.15],
    front: [true, false, false, true, true, true], labels: ["a", null, null, "d", "e", "f"],
  });
  assert.deepEqual(plain(g.points.map(q => q.k)), [0, 1, 3, 5]);
  assert.deepEqual(plain(g.front.map(q => [q.k, q.label])), [[3, "d"], [0, "a"], [5, "f"]]);
  assert.equal(g.line, true);
  assert.deepEqual(plain(g.x.map(v => +v.toFixed(12))), [0.425, 2.075]);
  assert.deepEqual(plain(g.y.map(v => +v.toFixed(12))), [-0.2075, -0.0425]);
});

test("a front over three objectives is not joined by a line; a single value widens its axis by 1; no point gives [0, 1]", () => {
  const g = P.paretoGeometry({ objectives: ["sharpe", "trades", "calmar"], x_values: [2, 2], y_values: [5, 5], front: [true, true] });
  assert.equal(g.line, false);
  assert.deepEqual(plain([g.x, g.y]), [[1, 3], [4, 6]]);
  assert.deepEqual(plain(P.paretoGeometry({ objectives: ["a", "b"], x_values: [], y_values: [], front: [] }).x), [0, 1]);
});
