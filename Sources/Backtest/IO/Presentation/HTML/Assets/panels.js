// ---- chart object -> panes -------------------------------------------------------------------
/**
 * Trades in columns with base-bar indices (see the schema: `trades`): `kind` how each ended
 * (`exit_kind`, else `end` when open and `signal`), `kinds` the kinds present in EXIT_KINDS
 * order (then any other), `symbol` when the trades carry one (a portfolio's); `sorted` and
 * `exitSorted` when entries and exits ascend (a run's trades; a portfolio's ascend by exit).
 */
function decodeTrades(t, n) {
  if (!t || !t.entry_index || !t.entry_index.length) return null;
  const m = t.entry_index.length, I = (a) => Int32Array.from(a || [], v => clamp(v | 0, 0, Math.max(0, n - 1)));
  const isOpen = Array.from({ length: m }, (_, k) => !!(t.is_open && t.is_open[k]));
  const kind = Array.from({ length: m }, (_, k) => exitKindOf(t.exit_kind ? t.exit_kind[k] : null, isOpen[k]));
  const present = new Set(kind), kinds = EXIT_KINDS.filter(x => present.has(x)).concat([...present].filter(x => !EXIT_KINDS.includes(x)));
  const entry = I(t.entry_index), exit = I(t.exit_index);
  const ascending = (a) => { for (let k = 1; k < a.length; k++) if (a[k] < a[k - 1]) return false; return true; };
  return {
    n: m, entry, exit, entryPrice: f64(t.entry_price, m), exitPrice: f64(t.exit_price, m),
    pnl: f64(t.pnl, m), ret: f64(t["return"], m), qty: f64(t.quantity, m), fees: f64(t.fees, m),
    side: t.side ? t.side.map(String) : new Array(m).fill("long"), isOpen, kind, kinds,
    symbol: t.symbol ? t.symbol.map(String) : null, sorted: ascending(entry), exitSorted: ascending(exit),
  };
}
/** Fills in columns; without `side`, the quantities are signed (buys positive). */
function decodeFills(f, n) {
  if (!f || !f.index || !f.index.length) return null;
  const m = f.index.length, qty = f64(f.quantity, m);
  const buy = f.side ? f.side.map(s => String(s).toLowerCase() === "buy") : Array.from(qty, q => q >= 0);
  if (!f.side) for (let k = 0; k < m; k++) qty[k] = Math.abs(qty[k]);
  return { n: m, index: Int32Array.from(f.index, v => clamp(v | 0, 0, Math.max(0, n - 1))), price: f64(f.price, m), qty, buy };
}
/**
 * The equity curve's drawdown series ((equity - running peak) / peak, the peak starting at the
 * initial cash), its peak and final value, and the deepest and longest drawdown episodes as bt
 * computed them (`drawdowns` in the data: DrawdownEpisodes, the same as the statistics); without
 * them no episode is shaded.
 */
function analyseEquity(eq, initial, t, drawdowns) {
  const n = eq.length, dd = new Float64Array(n);
  let peak = initial, maxEq = initial, maxEqIndex = 0;
  for (let i = 0; i < n; i++) {
    const e = eq[i];
    if (e > maxEq) { maxEq = e; maxEqIndex = i; }
    if (e >= peak) peak = e;
    dd[i] = peak > 0 ? Math.min(0, (e - peak) / peak) : 0;
  }
  const episode = (e) => {
    if (!e || !(n > 0)) return null;
    const at = (k) => clamp(k | 0, 0, n - 1), p = at(e.peak), end = at(e.end);
    // A thinned chart's episodes carry their length in the run's own bars and seconds.
    const bars = Number.isFinite(e.bars) ? e.bars : end - p, seconds = Number.isFinite(e.seconds) ? e.seconds : t[end] - t[p];
    return { depth: +e.depth, peak: p, trough: clamp(at(e.trough), p, end), end, bars, seconds, recovered: !!e.recovered };
  };
  const given = drawdowns || {}, deepest = episode(given.deepest);
  const longest = deepest && given.longest && given.longest.peak === given.deepest.peak && given.longest.end === given.deepest.end
    ? deepest : episode(given.longest);
  return { dd, deepest, longest, peak: maxEq, peakIndex: maxEqIndex, final: eq[n - 1], initial,
    maxDrawdown: deepest ? deepest.depth : 0, maxDrawdownBars: longest ? longest.bars : 0, maxDrawdownDays: longest ? longest.seconds / 86400 : 0 };
}

/** Units held after each bar when the data leaves `position` out: fills summed, buys positive. */
function positionFromFills(F, n) {
  const out = new Float64Array(n);
  let q = 0, k = 0;
  for (let i = 0; i < n; i++) {
    while (k < F.n && F.index[k] === i) { q += F.buy[k] ? F.qty[k] : -F.qty[k]; k++; }
    out[i] = Math.abs(q) < 1e-12 * Math.max(1, Math.abs(F.qty[Math.max(0, k - 1)])) ? 0 : q;
  }
  return out;
}
const OSC_DEFAULTS = {
  rsi: { guides: [30, 70], range: [0, 100] }, stoch: { guides: [20, 80], range: [0, 100] }, willr: { guides: [-80, -20], range: [-100, 0] },
  adx: { guides: [25], range: [0, 100] }, macd: { guides: [0] }, roc: { guides: [0] }, cci: { guides: [-100, 100] },
};
const PRICE_INDICATORS = ["sma", "ema", "wma", "bb", "donchian", "vwap"];

/**
 * Builds a Chart in `host` from a report's chart object. opts: { toolbar (element), small,
 * compare: { values, label } (a second equity curve), regions: [...] (extra shaded spans) }.
 */
/**
 * A run's Monte Carlo bands (`equity.monte_carlo`) at every bar of the chart: each percentile's
 * checkpoints (`time`, ascending) joined by straight lines in time; NaN before the first and after
 * the last checkpoint. `t`: the chart's bar times (seconds), `n` of them.
 */
function monteCarloBands(mc, t, n) {
  const T = mc.time.map(timeValue), m = T.length, out = { p5: new Float64Array(n), p50: new Float64Array(n), p95: new Float64Array(n) };
  const keys = ["p5", "p50", "p95"], vals = keys.map(k => mc[k].map(v => v === null ? NaN : v));
  for (let i = 0; i < n; i++) {
    const x = t[i], j = lowerBound(T, x);
    for (let q = 0; q < 3; q++) {
      const v = vals[q];
      let y = NaN;
      if (j < m && T[j] === x) y = v[j];
      else if (j > 0 && j < m) y = v[j - 1] + (v[j] - v[j - 1]) * (x - T[j - 1]) / (T[j] - T[j - 1]);
      out[keys[q]][i] = y;
    }
  }
  return out;
}
/** The Monte Carlo band: filled between its 5th and 95th percentiles, both in the pane's extent and the tooltip. */
class MonteCarloBandLayer extends BandLayer {
  constructor(label) { super("mc_p95", "mc_p5", "band"); this.label = label; }
  extent(ch, a, b) {
    const hi = seriesExtent(ch, "mc_p95", a, b), lo = seriesExtent(ch, "mc_p5", a, b);
    return hi && lo ? [Math.min(hi[0], lo[0]), Math.max(hi[1], lo[1])] : hi || lo;
  }
  tooltip(ch, i) {
    const lo = ch.d.get("mc_p5")[i], hi = ch.d.get("mc_p95")[i];
    return lo === lo && hi === hi ? [{ k: "mc_band", label: "Monte Carlo 5th-95th", value: fmtFixed(lo, 2) + " - " + fmtFixed(hi, 2), color: ch.color(this.color) }] : [];
  }
  legend(ch) { return [{ label: this.label, color: ch.color(this.color) }]; }
}
function buildChart(host, cd, opts) {
  opts = opts || {};
  const series = makeSeries(cd.series || {}), n = series.n, arrays = {};
  const trades = decodeTrades(cd.trades, n), fills = decodeFills(cd.fills, n);
  mark("series");
  const chart = new Chart(host, { series, arrays, trades, fills }, { small: opts.small, label: opts.label });
  const hasPrice = series.hasClose || series.hasOHLC;
  let price = null;
  if (hasPrice) {
    price = chart.addPane(new Pane("price", series.symbol || "Price", 5, { logAllowed: true, logLabel: "price", logWanted: !!opts.logPrice }));
    price.add(new CandleLayer());
  }
  // indicators: price-scale ones over the candles, the others in a pane each
  let colorIndex = 0;
  const own = [];
  for (const [gi, g] of (cd.indicators || []).entries()) {
    const name = String(g.spec || "").split(":")[0].toLowerCase();
    const onPrice = g.pane ? g.pane === "price" : PRICE_INDICATORS.includes(name);
    const keys = [];
    for (const [li, line] of (g.lines || []).entries()) {
      const key = "ind" + gi + "_" + li;
      arrays[key] = f64(line.values, n);
      keys.push({ key, line });
    }
    if (onPrice && price) {
      if (g.band && g.band.length === 2) {
        const up = keys.find(k => k.line.name === g.band[0]), lo = keys.find(k => k.line.name === g.band[1]);
        if (up && lo) price.layers.splice(1, 0, new BandLayer(up.key, lo.key, "band"));
      }
      const color = INDICATOR_COLORS[colorIndex++ % INDICATOR_COLORS.length];
      for (const { key, line } of keys) {
        const outer = g.band && g.band.includes(line.name);
        price.add(new LineLayer(key, line.label || line.name, line.color || color, { width: outer ? 1 : 1.5, dash: outer ? [5, 3] : null, tooltipKey: line.name }));
      }
    } else {
      own.push({ g, name, keys });
    }
  }
  if (hasPrice && trades) price.add(new TradeLayer());
  if (hasPrice && fills) price.add(new FillLayer());
  if (series.hasVolume) {
    let any = false;
    for (let i = 0; i < n && !any; i++) any = series.v[i] > 0;
    if (any) chart.addPane(new Pane("volume", "Volume", 1.1, { format: "volume", includeZero: true })).add(new VolumeLayer());
  }
  for (const { g, name, keys } of own) {
    const def = OSC_DEFAULTS[name] || {};
    const pane = chart.addPane(new Pane("ind" + chart.panes.length, g.label || g.spec || name, 1.6,
      { format: "num", fixed: g.range || def.range || null }));
    const guides = g.guides || def.guides;
    if (guides && guides.length) { pane.add(new GuideLayer(guides)); pane.guides = guides; }
    let ci = 0;
    for (const { key, line } of keys) {
      if (line.style === "histogram") pane.layers.splice(guides && guides.length ? 1 : 0, 0, new HistogramLayer(key, line.label || line.name, { tooltipKey: line.name }));
      else pane.add(new LineLayer(key, line.label || line.name, line.color || INDICATOR_COLORS[ci++ % INDICATOR_COLORS.length], { width: 1.4, tooltipKey: line.name }));
    }
  }
  mark("indicators");
  // equity, drawdown, trade P/L
  const eqd = cd.equity;
  if (eqd && eqd.values && numLength(eqd.values) === n && n > 0) {
    const initial = isFinite(eqd.initial_cash) ? eqd.initial_cash : eqd.values[0];
    arrays.equity = f64(eqd.values, n);
    const A = analyseEquity(arrays.equity, initial, series.t, eqd.drawdowns);
    chart.analysis = { maxDrawdown: A.maxDrawdown, maxDrawdownBars: A.maxDrawdownBars, maxDrawdownDays: A.maxDrawdownDays,
      deepest: A.deepest, longest: A.longest, peak: A.peak, peakIndex: A.peakIndex, final: A.final };
    arrays.dd = A.dd;
    // Room above the curve for the peak's label; without a price pane the equity is the top pane.
    const eq = chart.addPane(new Pane("equity", "Equity", hasPrice ? 2.7 : 4, { logAllowed: true, logLabel: "equity", logWanted: !!opts.logEquity, padTopPx: 18 }));
    // Extra spans (walk-forward folds) take the first label row; the drawdowns go below them.
    const regions = [...(opts.regions || [])], row0 = regions.length ? 1 : 0;
    if (A.deepest && A.deepest.depth < 0) {
      const e = A.deepest;
      regions.push({ from: e.peak, to: e.end, fill: "region", edge: "region-line", labelColor: "dd-line", labelPane: "equity", bold: true, row: row0,
        label: "Max drawdown " + fmtPct(e.depth, 2) + " · " + fmtSpan(e.bars, e.seconds) + (e.recovered ? "" : ", not recovered") });
    }
    // With extra spans (folds) a third kind of shading would muddle them: only the deepest is shown.
    if (!row0 && A.longest && A.deepest && A.longest !== A.deepest && A.longest.bars > 0) {
      const e = A.longest;
      regions.push({ from: e.peak, to: e.end, fill: "region2", labelColor: "muted", labelPane: "equity", row: row0 + 1,
        label: "Longest drawdown " + fmtSpan(e.bars, e.seconds) + " · " + fmtPct(e.depth, 2) });
    }
    if (regions.length) eq.add(new RegionLayer(regions));
    // The benchmark: its values when the data gives them (a portfolio's equal-weight buy and
    // hold), else buy and hold of the series.
    const benchValues = eqd.benchmark && typeof eqd.benchmark === "object" && numLength(eqd.benchmark) === n;
    if (benchValues || (eqd.benchmark !== null && eqd.benchmark !== false && series.hasClose && series.c[0] > 0)) {
      let bench;
      if (benchValues) bench = f64(eqd.benchmark, n);
      else { bench = new Float64Array(n); const c0 = series.c[0]; for (let i = 0; i < n; i++) bench[i] = initial * series.c[i] / c0; }
      arrays.bench = bench;
      eq.add(new LineLayer("bench", eqd.benchmark_label || "Buy & hold", "bench", { width: 1.2, dash: [5, 3], format: v => fmtFixed(v, 2) }));
    }
    if (opts.compare && opts.compare.values && numLength(opts.compare.values) === n) {
      arrays.compare = f64(opts.compare.values, n);
      eq.add(new LineLayer("compare", opts.compare.label, "ind2", { width: 1.2, dash: [2, 3], format: v => fmtFixed(v, 2) }));
    }
    const mc = eqd.monte_carlo;
    if (mc && mc.time && mc.time.length > 1) {
      const b = monteCarloBands(mc, series.t, n);
      arrays.mc_p5 = b.p5; arrays.mc_p50 = b.p50; arrays.mc_p95 = b.p95;
      eq.layers.splice(regions.length ? 1 : 0, 0, new MonteCarloBandLayer(mc.label || "Monte Carlo 5th-95th percentile"));
      eq.add(new LineLayer("mc_p50", mc.median_label || "Monte Carlo median", "muted", { width: 1, dash: [2, 2], format: v => fmtFixed(v, 2) }));
    }
    eq.add(new LineLayer("equity", eqd.label || "Equity", "equity", { width: 1.7, format: v => fmtFixed(v, 2) }));
    if (!hasPrice && trades) eq.add(new EquityTradeLayer("equity"));
    const points = [{ index: A.peakIndex, value: A.peak, label: "Peak " + fmtFixed(A.peak, 2), color: "equity" },
      { index: n - 1, value: A.final, label: "Final " + fmtFixed(A.final, 2) + " (" + (A.final >= initial ? "+" : "") + fmtPct(A.final / initial - 1, 2) + ")", color: A.final >= initial ? "profit" : "loss", below: A.final < A.peak * 0.98 }];
    eq.add(new PointLayer(points));
    if ((eqd.position && numLength(eqd.position) === n) || fills) {
      arrays.position = eqd.position && numLength(eqd.position) === n ? f64(eqd.position, n) : positionFromFills(fills, n);
      const positionLabel = eqd.position_label || "Position";
      eq.add({ extent: () => null, draw() {}, tooltip: (ch, i) => {
        const v = ch.d.get("position")[i];
        return [{ k: "position", label: positionLabel, value: Number.isInteger(v) ? fmtInt(v) : fmtSig(v, 6) }];
      } });
    }
    const ddp = chart.addPane(new Pane("drawdown", "Drawdown", 1.25, { format: "pct", includeZero: true }));
    if (A.deepest && A.deepest.depth < 0) {
      ddp.add(new RegionLayer([{ from: A.deepest.peak, to: A.deepest.end, fill: "region" }]));
    }
    ddp.add(new AreaLayer("dd", "Drawdown"));
    ddp.padTopPx = 5; ddp.padBottomPx = 24;  // room below the trough for its label
    if (A.deepest && A.deepest.depth < 0) ddp.add(new PointLayer([{ index: A.deepest.trough, value: A.deepest.depth, label: fmtPct(A.deepest.depth, 2), color: "dd-line", below: true }]));
    if (trades) {
      const pl = chart.addPane(new Pane("pnl", "Trade P/L", 1.25, { format: "pct", includeZero: true, padPx: 7 }));
      pl.add(new GuideLayer([0])).add(new TradePnlLayer());
    }
  }
  mark("panes");
  return chart;
}

// ---- replay chart ----------------------------------------------------------------------------
/**
 * A replay's data (`replay`, kind `replay`) as a chart's parts: `series` with the points' times
 * (epoch seconds with their fraction) and the mid as its close (no candles, no timeframe),
 * `arrays` of the mid, the quotes in force and the position at each point, and the fills
 * (decodeFills) with `maker` (the `liquidity` is not "taker") and `time` (exchange time, s).
 */
function decodeReplay(rp) {
  rp = rp || {};
  const t = f64(rp.time), n = t.length, mid = f64(rp.mid, n);
  const series = { t, n, symbol: rp.symbol || "", hasOHLC: false, hasVolume: false, hasClose: true,
    c: mid, o: mid, h: mid, l: mid, v: new Float64Array(n), timeframe: null };
  const arrays = { mid, bid_quote: f64(rp.bid_quote, n), ask_quote: f64(rp.ask_quote, n), position: f64(rp.position, n) };
  const fills = decodeFills(rp.fills, n);
  if (fills) {
    const liquidity = rp.fills.liquidity || [];
    fills.maker = Array.from({ length: fills.n }, (_, k) => String(liquidity[k] || "maker").toLowerCase() !== "taker");
    fills.time = f64(rp.fills.exchange_time, fills.n);
  }
  return { series, arrays, fills };
}
/**
 * A replay's fills at their price: a triangle up for a buy (the bid quote's colour), down for a
 * sell (the ask's), filled for a maker fill and hollow for a taker one. With more than 400 in
 * view each still shows, as a 3-pixel mark (one per pixel, side and liquidity).
 */
class ReplayFillLayer {
  range(ch) {
    const F = ch.d.fills, a = Math.floor(ch.x0) - 1, b = Math.ceil(ch.x1) + 1, k0 = F ? lowerBoundInt(F.index, a) : 0;
    let k1 = k0;
    while (F && k1 < F.n && F.index[k1] <= b) k1++;
    return [k0, k1];
  }
  extent(ch, a, b) {
    const F = ch.d.fills;
    if (!F || !F.n) return null;
    let lo = Infinity, hi = -Infinity;
    for (let k = lowerBoundInt(F.index, a); k < F.n && F.index[k] < b; k++) { const p = F.price[k]; if (p < lo) lo = p; if (p > hi) hi = p; }
    return lo <= hi ? [lo, hi] : null;
  }
  draw(ch, ctx, pane) {
    const F = ch.d.fills;
    if (!F || !F.n) return;
    const [k0, k1] = this.range(ch), dense = k1 - k0 > 400, seen = new Set();
    const r = ch.ppb >= 6 ? 5 : ch.ppb >= 2 ? 4 : 3.5, paths = [new Path2D(), new Path2D(), new Path2D(), new Path2D()];
    for (let k = k0; k < k1; k++) {
      const x = ch.xOf(F.index[k]), y = pane.y(F.price[k]), kind = (F.buy[k] ? 0 : 2) + (F.maker[k] ? 0 : 1), p = paths[kind];
      if (dense) {
        const key = (Math.round(x) * 16384 + Math.round(y)) * 4 + kind;
        if (!seen.has(key)) { seen.add(key); p.rect(Math.round(x) - 1, Math.round(y) - 1, 3, 3); }
      } else if (F.buy[k]) { p.moveTo(x, y); p.lineTo(x - r, y + r * 1.6); p.lineTo(x + r, y + r * 1.6); p.closePath(); }
      else { p.moveTo(x, y); p.lineTo(x - r, y - r * 1.6); p.lineTo(x + r, y - r * 1.6); p.closePath(); }
    }
    ctx.lineWidth = 1.2; ctx.setLineDash([]);
    paths.forEach((p, kind) => {
      const color = kind < 2 ? ch.colors.up : ch.colors.down, maker = kind % 2 === 0;
      ctx.fillStyle = maker ? color : ch.colors.bg; ctx.fill(p);
      ctx.strokeStyle = maker && !dense ? ch.colors.bg : color; ctx.stroke(p);
    });
  }
  tooltip(ch, i) {
    const F = ch.d.fills;
    if (!F || !F.n) return [];
    const out = [];
    let k = lowerBoundInt(F.index, i);
    for (; k < F.n && F.index[k] === i && out.length < 3; k++) {
      out.push({ k: "fill", label: (F.buy[k] ? "Buy" : "Sell") + " fill, " + (F.maker[k] ? "maker" : "taker") + " " + fmtTime(F.time[k]),
        value: String(F.qty[k]) + " @ " + String(F.price[k]), color: F.buy[k] ? ch.colors.up : ch.colors.down });
    }
    let more = 0;
    for (; k < F.n && F.index[k] === i; k++) more++;
    if (more) out.push({ k: "fill_more", label: "More fills here", value: fmtInt(more) });
    return out;
  }
  legend(ch) {
    const F = ch.d.fills;
    return F && F.n ? [{ label: "Fills ▲ buy ▼ sell (hollow: taker)", color: ch.colors.fg, tri: true }] : [];
  }
}
/** A replay's chart in `host`: the mid, the bid and ask quotes and the fills on top, the position below. */
function buildReplayChart(host, rp) {
  const { series, arrays, fills } = decodeReplay(rp);
  const chart = new Chart(host, { series, arrays, trades: null, fills }, { label: "Mid, quotes, fills and position of the replay" });
  const exact = v => v === v ? String(v) : "none";
  const price = chart.addPane(new Pane("price", (series.symbol || "Book") + " mid and quotes", 4));
  // The state at a step holds until the next one: drawn as steps.
  price.add(new LineLayer("mid", "Mid", "fg", { width: 1.3, format: exact, step: true }))
    .add(new LineLayer("bid_quote", "Bid quote", "up", { width: 1.2, dash: [4, 2], format: exact, step: true }))
    .add(new LineLayer("ask_quote", "Ask quote", "down", { width: 1.2, dash: [4, 2], format: exact, step: true }))
    .add(new ReplayFillLayer());
  const position = chart.addPane(new Pane("position", "Position", 1.4, { format: "num", includeZero: true }));
  position.add(new GuideLayer([0])).add(new LineLayer("position", "Position", "equity", { width: 1.4, format: v => fmtSig(v, 10), step: true }));
  return chart;
}

// ---- tables and header -----------------------------------------------------------------------
/** A report table: { id, title, columns, align, rows (text cells), notes }. */
/**
 * The Pareto scatter's geometry (`sweep.pareto`): the points with both values finite (`k`: their
 * index in the data), the front's members ordered by x then y (joined by a line when the front is
 * over these two objectives only: then, read each in its direction, they form a staircase), and
 * each axis's extent padded by 5% (a zero span widened by 1).
 */
function paretoGeometry(p) {
  const xs = p.x_values || [], ys = p.y_values || [], front = p.front || [], labels = p.labels || [];
  const points = [];
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], y = ys[k];
    if (x === null || y === null || !isFinite(x) || !isFinite(y)) continue;
    points.push({ k, x, y, front: front[k] === true, label: labels[k] || null });
  }
  const members = points.filter(q => q.front).sort((a, b) => a.x - b.x || a.y - b.y);
  const extent = (key) => {
    let lo = Infinity, hi = -Infinity;
    for (const q of points) { if (q[key] < lo) lo = q[key]; if (q[key] > hi) hi = q[key]; }
    if (!(lo <= hi)) return [0, 1];
    if (hi - lo < 1e-12) return [lo - 1, hi + 1];
    const pad = (hi - lo) * 0.05;
    return [lo - pad, hi + pad];
  };
  return { points, front: members, x: extent("x"), y: extent("y"), line: (p.objectives || []).length === 2 };
}
function renderTable(tb) {
  const cols = tb.columns || [], align = tb.align || [];
  const isNum = (j) => align[j] ? align[j] === "right" : j > 0;
  const table = el("table", { cls: "bt-table", id: tb.id ? "bt-table-" + tb.id : null });
  if (cols.length) table.append(el("thead", null, [el("tr", null, cols.map((c, j) => el("th", { cls: isNum(j) ? "bt-num" : null, text: c })))]));
  const body = el("tbody");
  for (const row of tb.rows || []) body.append(el("tr", null, row.map((c, j) => el("td", { cls: isNum(j) ? "bt-num" : null, text: c === null || c === undefined ? "n/a" : String(c) }))));
  table.append(body);
  return el("section", { cls: "bt-card" }, [tb.title ? el("h2", { text: tb.title }) : null, table,
    ...(tb.notes || []).map(t => el("p", { cls: "bt-note", text: t }))]);
}
function renderHeader(data, app) {
  const sub = el("div", { cls: "bt-sub" }, (data.subtitle || []).map(s => el("span", { text: s })));
  app.append(el("header", null, [el("h1", { text: data.title || "bt report" }), sub]));
}
function renderManifest(data) {
  if (!data.manifest || !data.manifest.length) return null;
  const rows = data.manifest.map(r => el("tr", null, [el("th", { text: r[0] }), el("td", { text: String(r[1]) })]));
  return el("details", { cls: "bt-manifest", id: "bt-manifest" }, [el("summary", { text: "Run manifest (command, version, data, options)" }),
    el("table", { cls: "bt-table" }, [el("tbody", null, rows)])]);
}
/**
 * Trades table (with a symbol column for a portfolio's trades, and how each trade ended); a click
 * on a row zooms the chart to that trade. Long lists render in pages.
 */
function renderTrades(cd, chart, n) {
  const T = decodeTrades(cd.trades, n);
  if (!T) return el("p", { cls: "bt-note", text: "No trades." });
  const t = chart.base.t;
  const columns = [
    ["#", true, k => String(k + 1)],
    T.symbol ? ["symbol", false, k => T.symbol[k]] : null,
    ["side", false, k => T.side[k] || ""],
    ["entry", false, k => fmtTime(t[T.entry[k]])],
    ["exit", false, k => fmtTime(t[T.exit[k]]) + (T.isOpen[k] ? " (open)" : "")],
    ["exit kind", false, k => T.kind[k]],
    ["bars", true, k => fmtInt(T.exit[k] - T.entry[k])],
    ["entry price", true, k => fmtSig(T.entryPrice[k], 8)], ["exit price", true, k => fmtSig(T.exitPrice[k], 8)],
    ["quantity", true, k => fmtSig(T.qty[k], 6)],
    ["P/L", true, k => fmtFixed(T.pnl[k], 2), true], ["return", true, k => fmtPct(T.ret[k], 2), true],
  ].filter(Boolean);
  const table = el("table", { cls: "bt-table", id: "bt-trades" });
  table.append(el("thead", null, [el("tr", null, columns.map(([c, num]) => el("th", { cls: num ? "bt-num" : null, text: c })))]));
  const body = el("tbody");
  table.append(body);
  let shown = 0, selected = null;
  const more = el("button", { cls: "bt-more", id: "bt-trades-more" });
  const page = (count) => {
    const end = Math.min(T.n, shown + count), frag = document.createDocumentFragment();
    for (let k = shown; k < end; k++) {
      const sign = T.pnl[k] >= 0 ? "bt-pos" : "bt-neg";
      const tr = el("tr", { cls: "bt-click", "data-trade": String(k), "data-entry": String(T.entry[k]), "data-exit": String(T.exit[k]),
        "data-exit-kind": T.kind[k], tabindex: "0" },
        columns.map(([, num, text, signed]) => el("td", { cls: (num ? "bt-num" : "") + (signed ? " " + sign : "") || null, text: text(k) })));
      frag.append(tr);
    }
    body.append(frag);
    shown = end;
    more.textContent = "Show more (" + fmtInt(T.n - shown) + " left)";
    more.style.display = shown < T.n ? "" : "none";
  };
  const open = (tr) => {
    if (selected) selected.classList.remove("bt-selected");
    selected = tr; tr.classList.add("bt-selected");
    chart.zoomToBaseBars(+tr.dataset.entry, +tr.dataset.exit);
    const r = chart.host.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight) chart.host.scrollIntoView({ block: "nearest" });
  };
  body.addEventListener("click", (e) => { const tr = e.target.closest("tr[data-trade]"); if (tr) open(tr); });
  body.addEventListener("keydown", (e) => { if (e.key === "Enter") { const tr = e.target.closest("tr[data-trade]"); if (tr) open(tr); } });
  more.addEventListener("click", () => page(1000));
  page(500);
  return el("div", null, [el("div", { cls: "bt-scroll" }, [table]), more]);
}
