// ---- run and chart pages ---------------------------------------------------------------------
function chartColumn(id) {
  const toolbar = el("div"), host = el("div", { id });
  return { toolbar, host, col: el("div", { cls: "bt-main" }, [toolbar, host]) };
}
/** Tables with `placement` "side" (the default) beside the chart, with the manifest below them. */
function sidePanel(data, extra) {
  const side = el("aside", { cls: "bt-side", id: "bt-side" });
  for (const x of extra || []) if (x) side.append(x);
  for (const tb of data.tables || []) if (tb.placement !== "main") side.append(renderTable(tb));
  const m = renderManifest(data);
  if (m) side.append(m);
  return side;
}
/** Tables with `placement` "main", full width below the charts. */
function mainTables(data) {
  const tbs = (data.tables || []).filter(tb => tb.placement === "main");
  return tbs.length ? el("div", { cls: "bt-wide-tables" }, tbs.map(renderTable)) : null;
}
function runPage(data, app) {
  const cd = data.chart || {};
  const { toolbar, host, col } = chartColumn("bt-chart");
  // The column beside the chart is for tables; a manifest alone goes below the chart instead.
  const hasSide = (data.tables || []).some(tb => tb.placement !== "main");
  const layout = el("div", { cls: hasSide ? "bt-layout" : "" }, [col]);
  app.append(layout);
  const chart = buildChart(host, cd, { label: "Price, indicators, trades, equity and drawdown" });
  chart.start(toolbar);
  publishChart(chart, true);
  // Everything below the chart is built after its first paint.
  setTimeout(() => {
    if (hasSide) layout.append(sidePanel(data));
    else { const m = renderManifest(data); if (m) { m.style.marginTop = "14px"; app.append(m); } }
    if (data.kind !== "chart" && cd.trades) {
      app.append(el("h2", { text: "Trades" }), renderTrades(cd, chart, chart.base.n));
    }
    const wide = mainTables(data);
    if (wide) app.append(wide);
    markReady();
  }, 0);
  return chart;
}

// ---- replay page -----------------------------------------------------------------------------
/** A replay: its chart (mid, quotes, fills, position) with the settings, statistics and fills tables beside it. */
function replayPage(data, app) {
  const { toolbar, host, col } = chartColumn("bt-chart");
  const layout = el("div", { cls: "bt-layout" }, [col]);
  app.append(layout);
  const chart = buildReplayChart(host, data.replay);
  chart.start(toolbar);
  publishChart(chart, true);
  setTimeout(() => { layout.append(sidePanel(data)); markReady(); }, 0);
  return chart;
}

// ---- sweep page ------------------------------------------------------------------------------
const SIGNED_METRICS = ["sharpe", "sortino", "total_return", "cagr", "calmar", "alpha", "expectancy", "avg_trade", "psr_minus_half"];
function metricScaleKind(m) {
  if (m.scale) return m.scale;
  let neg = false;
  for (const row of m.values || []) for (const v of row) { if (v !== null && v < 0) neg = true; }
  return SIGNED_METRICS.includes(m.name) && neg ? "diverging" : "sequential";
}
/** Sweep heatmap: cells coloured by the chosen metric; hover shows values, click selects. */
class Heatmap {
  constructor(wrap, sw, onSelect) {
    this.wrap = wrap; this.sw = sw; this.onSelect = onSelect;
    this.xs = sw.x.values; this.ys = sw.y ? sw.y.values : [null];
    this.nx = this.xs.length; this.ny = this.ys.length;
    this.metric = 0; this.sel = null; this.hover = null;
    this.canvas = el("canvas", { id: "bt-heatmap", tabindex: "0", role: "img", "aria-label": "Heatmap of the sweep; click a cell to see its equity curve" });
    this.tip = el("div", { cls: "bt-tooltip", id: "bt-heatmap-tooltip", role: "status" });
    wrap.append(this.canvas, this.tip);
    this.colors = themeColors();
    this.curveAt = new Set((sw.combinations || []).filter(c => c.equity).map(c => this.cellOf(c.x, c.y)).filter(k => k !== null).map(k => k.join(",")));
    const best = sw.best ? this.cellOf(sw.best.x, sw.best.y) : null;
    this.best = best;
    this.canvas.addEventListener("mousemove", (e) => this.onMove(e));
    this.canvas.addEventListener("mouseleave", () => { this.hover = null; this.tip.style.display = "none"; this.draw(); });
    this.canvas.addEventListener("click", (e) => { const c = this.cellAt(e); if (c) this.select(c[0], c[1]); });
    this.canvas.addEventListener("keydown", (e) => {
      const s = this.sel || [0, 0], mv = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (!mv) return;
      e.preventDefault();
      this.select(clamp(s[0] + mv[0], 0, this.nx - 1), clamp(s[1] + mv[1], 0, this.ny - 1));
    });
    if (window.ResizeObserver) { let first = true; new ResizeObserver(() => { if (first) { first = false; return; } this.layout(); this.draw(); }).observe(wrap); }
    this.layout();
  }
  cellOf(x, y) {
    const ix = this.xs.findIndex(v => Math.abs(v - x) <= 1e-9 * Math.max(1, Math.abs(x)));
    const iy = this.sw.y ? this.ys.findIndex(v => Math.abs(v - y) <= 1e-9 * Math.max(1, Math.abs(y))) : 0;
    return ix < 0 || iy < 0 ? null : [ix, iy];
  }
  get m() { return this.sw.metrics[this.metric]; }
  value(ix, iy, m) { const row = (m || this.m).values[iy]; const v = row ? row[ix] : null; return v === null || v === undefined ? NaN : v; }
  layout() {
    const W = Math.max(320, this.wrap.clientWidth), ctx = this.canvas.getContext("2d");
    ctx.font = CHART_FONT_PX + "px " + this.colors.font;
    const ylabW = this.sw.y ? Math.max(...this.ys.map(v => ctx.measureText(String(v)).width)) : 0;
    this.mL = Math.ceil(ylabW) + (this.sw.y ? 34 : 10); this.mR = 86; this.mT = 10; this.mB = 44;
    this.cw = (W - this.mL - this.mR) / this.nx;
    this.chh = clamp(Math.min(this.cw * 0.62, 460 / this.ny), 3, 34);
    if (!this.sw.y) this.chh = Math.max(this.chh, 40);
    this.W = W; this.H = Math.round(this.mT + this.ny * this.chh + this.mB);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(W * dpr); this.canvas.height = Math.round(this.H * dpr);
    this.canvas.style.width = W + "px"; this.canvas.style.height = this.H + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  draw() {
    const ctx = this.canvas.getContext("2d"), C = this.colors, m = this.m;
    let lo = Infinity, hi = -Infinity;
    for (let iy = 0; iy < this.ny; iy++) for (let ix = 0; ix < this.nx; ix++) { const v = this.value(ix, iy); if (v === v) { if (v < lo) lo = v; if (v > hi) hi = v; } }
    if (!(lo <= hi)) { lo = 0; hi = 1; }
    const scale = this.scale = makeScale(metricScaleKind(m), lo, hi);
    ctx.fillStyle = C.bg; ctx.fillRect(0, 0, this.W, this.H);
    ctx.font = CHART_FONT_PX + "px " + C.font; ctx.textBaseline = "middle"; ctx.textAlign = "center";
    const showText = this.cw >= 34 && this.chh >= 14;
    const gap = this.cw >= 8 && this.chh >= 8 ? 1 : 0;
    for (let iy = 0; iy < this.ny; iy++) for (let ix = 0; ix < this.nx; ix++) {
      const x = this.mL + ix * this.cw, y = this.mT + iy * this.chh, v = this.value(ix, iy);
      if (v !== v) {
        ctx.fillStyle = C.panel; ctx.fillRect(x, y, this.cw - gap, this.chh - gap);
        continue;
      }
      const rgb = scale.rgb(v);
      ctx.fillStyle = rgbCSS(rgb); ctx.fillRect(x, y, this.cw - gap, this.chh - gap);
      const dark = luminance(rgb) < 0.5;
      if (showText) {
        ctx.fillStyle = dark ? "#ffffff" : "#111111";
        ctx.fillText(this.cellText(v, m), x + this.cw / 2, y + this.chh / 2 + 0.5);
      }
      if (this.curveAt.has(ix + "," + iy) && this.cw >= 10 && this.chh >= 10) {
        ctx.fillStyle = dark ? "rgba(255,255,255,0.85)" : "rgba(0,0,0,0.6)";
        ctx.beginPath(); ctx.arc(x + this.cw - gap - 4, y + 4, 1.8, 0, 2 * Math.PI); ctx.fill();
      }
    }
    const outline = (c, color, w) => {
      if (!c) return;
      ctx.strokeStyle = color; ctx.lineWidth = w;
      ctx.strokeRect(this.mL + c[0] * this.cw + w / 2 - 0.5, this.mT + c[1] * this.chh + w / 2 - 0.5, this.cw - w - gap + 1, this.chh - w - gap + 1);
    };
    outline(this.best, C.fg, 2);
    outline(this.sel, C.accent, 3);
    if (this.hover) outline(this.hover, C.cross, 1);
    // axes: tick labels thinned so they never overlap, axis names
    ctx.fillStyle = C.muted;
    const xw = Math.max(...this.xs.map(v => ctx.measureText(String(v)).width)) + 8, xevery = Math.max(1, Math.ceil(xw / this.cw));
    const yb = this.mT + this.ny * this.chh;
    for (let ix = 0; ix < this.nx; ix += xevery) ctx.fillText(String(this.xs[ix]), this.mL + (ix + 0.5) * this.cw, yb + 9);
    ctx.fillStyle = C.fg; ctx.font = "600 " + CHART_FONT_PX + "px " + C.font;
    ctx.fillText(this.sw.x.name + " →", this.mL + this.nx * this.cw / 2, yb + 28);
    if (this.sw.y) {
      ctx.font = CHART_FONT_PX + "px " + C.font; ctx.fillStyle = C.muted; ctx.textAlign = "right";
      const yevery = Math.max(1, Math.ceil(14 / this.chh));
      for (let iy = 0; iy < this.ny; iy += yevery) ctx.fillText(String(this.ys[iy]), this.mL - 6, this.mT + (iy + 0.5) * this.chh);
      ctx.save(); ctx.translate(11, this.mT + this.ny * this.chh / 2); ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "center"; ctx.fillStyle = C.fg; ctx.font = "600 " + CHART_FONT_PX + "px " + C.font;
      ctx.fillText("← " + this.sw.y.name, 0, 0); ctx.restore();  // rotated: the arrow points down, as the values grow
    }
    // colour bar
    const bx = this.W - this.mR + 14, by = this.mT, bh = Math.max(40, this.ny * this.chh), bw = 12;
    for (let k = 0; k < bh; k++) { ctx.fillStyle = rgbCSS(scale.rgb(scale.hi - (scale.hi - scale.lo) * k / (bh - 1))); ctx.fillRect(bx, by + k, bw, 1); }
    ctx.strokeStyle = C.border; ctx.lineWidth = 1; ctx.strokeRect(bx + 0.5, by + 0.5, bw - 1, bh - 1);
    const tk = linearTicks(scale.lo, scale.hi, Math.max(2, Math.floor(bh / 36)));
    ctx.textAlign = "left"; ctx.fillStyle = C.muted; ctx.font = CHART_FONT_PX + "px " + C.font;
    for (const v of tk.ticks) {
      const y = by + (scale.hi - v) / (scale.hi - scale.lo) * (bh - 1);
      ctx.fillRect(bx + bw, Math.round(y), 3, 1);
      ctx.fillText(m.unit === "fraction" ? fmtPct(v, Math.max(0, tk.decimals - 2)) : fmtFixed(v, tk.decimals), bx + bw + 5, y);
    }
  }
  cellText(v, m) {
    if (m.unit === "fraction") return fmtPct(v, Math.abs(v) >= 10 ? 0 : 1);
    if (m.unit === "count" || m.unit === "bars") return fmtInt(v);
    return Math.abs(v) >= 100 ? fmtFixed(v, 0) : fmtFixed(v, 2);
  }
  cellAt(e) {
    const r = this.canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    const ix = Math.floor((x - this.mL) / this.cw), iy = Math.floor((y - this.mT) / this.chh);
    return ix >= 0 && ix < this.nx && iy >= 0 && iy < this.ny ? [ix, iy] : null;
  }
  /** `fast=10 slow=20`: the row parameter first, as a grid is read. */
  paramsText(ix, iy) { return (this.sw.y ? this.sw.y.name + "=" + this.ys[iy] + " " : "") + this.sw.x.name + "=" + this.xs[ix]; }
  onMove(e) {
    const c = this.cellAt(e);
    if (!c) { this.hover = null; this.tip.style.display = "none"; this.draw(); return; }
    this.hover = c;
    const [ix, iy] = c, rows = [];
    for (const m of this.sw.metrics) {
      const v = this.value(ix, iy, m);
      rows.push(el("tr", { "data-k": m.name }, [el("th", { text: m.label || m.name }), el("td", { text: v === v ? fmtUnit(v, m.unit) : "n/a" })]));
      if (rows.length >= 8) break;
    }
    const has = this.curveAt.has(ix + "," + iy), isBest = this.best && this.best[0] === ix && this.best[1] === iy;
    // A combination that ran can still leave a metric undefined (no trades: no Sharpe ratio).
    const ran = this.sw.metrics.some(m => this.value(ix, iy, m) === this.value(ix, iy, m));
    const click = has ? "click: show its equity curve" : "click: select (no equity curve stored)";
    const note = !ran ? "no result (filtered out or failed)"
      : this.value(ix, iy) !== this.value(ix, iy) ? (this.m.label || this.m.name) + " is undefined here (no trades or a flat curve); " + click : click;
    this.tip.replaceChildren(el("div", { cls: "bt-tt-time", text: this.paramsText(ix, iy) + (isBest ? "  ·  best" : "") }),
      el("table", null, rows), el("div", { cls: "bt-note", style: "margin:4px 0 0", text: note }));
    this.tip.style.display = "block";
    const r = this.canvas.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
    const w = this.tip.offsetWidth, h = this.tip.offsetHeight;
    let left = px + 16; if (left + w > this.W - 4) left = px - 16 - w;
    this.tip.style.left = Math.max(2, left) + "px"; this.tip.style.top = clamp(py - h / 2, 2, Math.max(2, this.H - h - 2)) + "px";
    this.draw();
  }
  select(ix, iy) { this.sel = [ix, iy]; this.draw(); this.onSelect(ix, iy); }
  cellClientPoint(ix, iy) {
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + this.mL + (ix + 0.5) * this.cw, y: r.top + this.mT + (iy + 0.5) * this.chh };
  }
}
/** The sweep's Pareto front: every combination by the first two objectives, the front highlighted; hover names a point. */
class ParetoScatter {
  constructor(wrap, p) {
    this.wrap = wrap; this.p = p; this.g = paretoGeometry(p); this.colors = themeColors(); this.hover = null;
    this.canvas = el("canvas", { id: "bt-pareto", role: "img", "aria-label": "Scatter of " + p.x.name + " against " + p.y.name + "; the Pareto front highlighted" });
    this.tip = el("div", { cls: "bt-tooltip", id: "bt-pareto-tooltip", role: "status" });
    wrap.append(this.canvas, this.tip);
    this.canvas.addEventListener("mousemove", (e) => this.onMove(e));
    this.canvas.addEventListener("mouseleave", () => { this.hover = null; this.tip.style.display = "none"; this.draw(); });
    if (window.ResizeObserver) { let first = true; new ResizeObserver(() => { if (first) { first = false; return; } this.layout(); this.draw(); }).observe(wrap); }
    this.layout();
  }
  layout() {
    const W = Math.max(320, Math.min(760, this.wrap.clientWidth)), H = 360, dpr = window.devicePixelRatio || 1;
    this.W = W; this.H = H; this.mL = 64; this.mR = 16; this.mT = 12; this.mB = 44;
    this.canvas.width = Math.round(W * dpr); this.canvas.height = Math.round(H * dpr);
    this.canvas.style.width = W + "px"; this.canvas.style.height = H + "px";
    this.canvas.getContext("2d").setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  px(x) { const [a, b] = this.g.x; return this.mL + (x - a) / (b - a) * (this.W - this.mL - this.mR); }
  py(y) { const [a, b] = this.g.y; return this.H - this.mB - (y - a) / (b - a) * (this.H - this.mT - this.mB); }
  tickText(v, axis, decimals) { return axis.unit === "fraction" ? fmtPct(v, Math.max(0, decimals - 2)) : fmtFixed(v, decimals); }
  draw() {
    const ctx = this.canvas.getContext("2d"), C = this.colors, g = this.g, p = this.p;
    ctx.fillStyle = C.bg; ctx.fillRect(0, 0, this.W, this.H);
    ctx.font = CHART_FONT_PX + "px " + C.font; ctx.lineWidth = 1;
    const xt = linearTicks(g.x[0], g.x[1], 6), yt = linearTicks(g.y[0], g.y[1], 5);
    ctx.strokeStyle = C.grid; ctx.fillStyle = C.muted; ctx.textAlign = "center"; ctx.textBaseline = "top";
    for (const v of xt.ticks) { const x = Math.round(this.px(v)) + 0.5; ctx.beginPath(); ctx.moveTo(x, this.mT); ctx.lineTo(x, this.H - this.mB); ctx.stroke(); ctx.fillText(this.tickText(v, p.x, xt.decimals), x, this.H - this.mB + 4); }
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    for (const v of yt.ticks) { const y = Math.round(this.py(v)) + 0.5; ctx.beginPath(); ctx.moveTo(this.mL, y); ctx.lineTo(this.W - this.mR, y); ctx.stroke(); ctx.fillText(this.tickText(v, p.y, yt.decimals), this.mL - 6, y); }
    const dir = (a) => a.higher_is_better ? "higher is better" : "lower is better";
    ctx.fillStyle = C.fg; ctx.font = "600 " + CHART_FONT_PX + "px " + C.font; ctx.textAlign = "center"; ctx.textBaseline = "alphabetic";
    ctx.fillText((p.x.label || p.x.name) + " (" + dir(p.x) + ") →", this.mL + (this.W - this.mL - this.mR) / 2, this.H - 8);
    ctx.save(); ctx.translate(14, this.mT + (this.H - this.mT - this.mB) / 2); ctx.rotate(-Math.PI / 2);
    ctx.fillText((p.y.label || p.y.name) + " (" + dir(p.y) + ") →", 0, 0); ctx.restore();
    ctx.fillStyle = C.faint;
    for (const q of g.points) if (!q.front) { ctx.beginPath(); ctx.arc(this.px(q.x), this.py(q.y), 2.2, 0, 2 * Math.PI); ctx.fill(); }
    if (g.line && g.front.length > 1) {
      ctx.strokeStyle = C.accent; ctx.lineWidth = 1.5; ctx.beginPath();
      g.front.forEach((q, k) => { if (k) ctx.lineTo(this.px(q.x), this.py(q.y)); else ctx.moveTo(this.px(q.x), this.py(q.y)); });
      ctx.stroke();
    }
    ctx.fillStyle = C.accent; ctx.strokeStyle = C.bg; ctx.lineWidth = 1;
    for (const q of g.front) { ctx.beginPath(); ctx.arc(this.px(q.x), this.py(q.y), 4, 0, 2 * Math.PI); ctx.fill(); ctx.stroke(); }
    if (this.hover) { ctx.strokeStyle = C.cross; ctx.lineWidth = 1.5; ctx.beginPath(); ctx.arc(this.px(this.hover.x), this.py(this.hover.y), 6.5, 0, 2 * Math.PI); ctx.stroke(); }
  }
  nearest(mx, my) {
    let best = null, bd = 100;  // within 10 px; a front point wins a tie
    for (const q of this.g.points) {
      const d = (this.px(q.x) - mx) ** 2 + (this.py(q.y) - my) ** 2 - (q.front ? 1 : 0);
      if (d < bd) { bd = d; best = q; }
    }
    return best;
  }
  onMove(e) {
    const r = this.canvas.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top, q = this.nearest(mx, my), p = this.p;
    this.hover = q;
    if (!q) { this.tip.style.display = "none"; this.draw(); return; }
    this.tip.replaceChildren(el("div", { cls: "bt-tt-time", text: (q.label || "a combination") + (q.front ? "  ·  on the front" : "") }),
      el("table", null, [p.x, p.y].map((a, j) => el("tr", { "data-k": a.name }, [el("th", { text: a.label || a.name }), el("td", { text: fmtUnit(j ? q.y : q.x, a.unit) })]))));
    this.tip.style.display = "block";
    const w = this.tip.offsetWidth, h = this.tip.offsetHeight;
    let left = mx + 16; if (left + w > this.W - 4) left = mx - 16 - w;
    this.tip.style.left = Math.max(2, left) + "px"; this.tip.style.top = clamp(my - h / 2, 2, Math.max(2, this.H - h - 2)) + "px";
    this.draw();
  }
  pointClientPoint(k) {
    const q = this.g.points.find(q => q.k === k), r = this.canvas.getBoundingClientRect();
    return q ? { x: r.left + this.px(q.x), y: r.top + this.py(q.y) } : null;
  }
}
function sweepPage(data, app) {
  const sw = data.sweep;
  const main = el("div", { cls: "bt-main" });
  const layout = el("div", { cls: "bt-layout" }, [main]);
  app.append(layout);
  let heat = null, chart = null;
  const selTitle = el("div", { cls: "bt-sel-title", id: "bt-selection", "aria-live": "polite" });
  const toolbar = el("div"), slot = el("div");
  const combos = sw.combinations || [];
  const bestCombo = sw.best ? combos.find(c => c.x === sw.best.x && (sw.y ? c.y === sw.best.y : true)) : null;
  let selected = null, closes = null;
  const curves = new Map();
  // A combination's curve and position, decoded once: `equity` is a ledger (cash and position
  // where they change) or the values themselves.
  const curveOf = (combo) => {
    if (!combo || !combo.equity) return null;
    if (!curves.has(combo)) {
      const l = combo.equity.ledger;
      let curve = { values: combo.equity, position: combo.position || null };
      if (l) {
        const s = (data.chart && data.chart.series) || {}, n = decodeTime(s).length;
        if (!closes) closes = f64(s.close, n);
        const c = ledgerCurve(l, closes, n, decodeFills(combo.fills, n));
        curve = c ? { values: c.equity, position: c.position } : { values: null, position: null };
      }
      curves.set(combo, curve);
    }
    return curves.get(combo);
  };
  const show = (ix, iy) => {
    const x = sw.x.values[ix], y = sw.y ? sw.y.values[iy] : null;
    const combo = combos.find(c => Math.abs(c.x - x) < 1e-9 && (!sw.y || Math.abs(c.y - y) < 1e-9)) || null;
    selected = { ix, iy, x, y, hasCurve: !!(combo && combo.equity) };
    const m = heat.m, v = heat.value(ix, iy);
    const ran = sw.metrics.some(mm => heat.value(ix, iy, mm) === heat.value(ix, iy, mm));
    // A stored combination's label names every swept parameter (more than the two axes).
    const parts = [el("b", { text: combo && combo.label ? combo.label : heat.paramsText(ix, iy) }), " · " + (m.label || m.name) + " " + (v === v ? fmtUnit(v, m.unit) : "n/a")];
    if (combo && combo.equity) {
      if (combo !== bestCombo && bestCombo && bestCombo.equity) parts.push(" · dotted: best (" + heat.paramsText(...heat.best) + ")");
    } else {
      const rerun = sw.rerun ? sw.rerun.replace(/\{(\w+)\}/g, (_, k) => k === sw.x.name ? x : (sw.y && k === sw.y.name ? y : "{" + k + "}")) : null;
      parts.push(el("br"), (ran ? "No equity curve is stored for this combination. " : "This combination has no result. ") + (sw.curve_note || ""));
      if (rerun && ran) parts.push(" Run it alone: ", el("code", { text: rerun }));
    }
    selTitle.replaceChildren(...parts);
    const prev = chart ? { tf: chart.tf && chart.tf.name, x0: chart.x0, x1: chart.x1, log: chart.panes.filter(p => p.logWanted).map(p => p.id) } : null;
    const host = el("div", { id: "bt-chart" });
    toolbar.replaceChildren(); slot.replaceChildren(host);
    if (chart) chart.destroy();
    const cd = Object.assign({}, data.chart || {});
    if (combo && combo.equity) {
      const curve = curveOf(combo);
      cd.equity = { initial_cash: sw.initial_cash, values: curve.values, position: curve.position, drawdowns: combo.drawdowns,
        label: combo.label || heat.paramsText(ix, iy) };
      cd.trades = combo.trades || null; cd.fills = combo.fills || null;
    } else { cd.equity = null; cd.trades = null; cd.fills = null; }
    const compare = combo && combo !== bestCombo && bestCombo && bestCombo.equity ? { values: curveOf(bestCombo).values, label: "Best " + heat.paramsText(...heat.best) } : null;
    chart = buildChart(host, cd, { small: false, compare, logPrice: prev && prev.log.includes("price"), logEquity: prev && prev.log.includes("equity") });
    if (!chart.panes.length) { host.append(el("div", { cls: "bt-message", text: "No price series or equity curve in this report." })); }
    chart.start(toolbar);
    if (prev && chart.panes.length) { if (prev.tf && chart.tf && prev.tf !== chart.tf.name) chart.setTimeframe(prev.tf); chart.setView(prev.x0, prev.x1); chart.draw(); }
    publishChart(chart, true);
    lastCd = cd;
    showTrades();
  };
  let lastCd = null;
  const showTrades = () => {
    const tradesSlot = document.getElementById("bt-trades-slot");
    if (tradesSlot && lastCd) tradesSlot.replaceChildren(lastCd.trades ? renderTrades(lastCd, chart, chart.base.n) : el("p", { cls: "bt-note", text: "No trades stored for this selection." }));
  };
  // toolbar: metric choice
  const bar = el("div", { cls: "bt-toolbar" });
  if (sw.metrics.length > 1) {
    const sel = el("select", { id: "bt-metric", "aria-label": "Metric" }, sw.metrics.map((m, k) => el("option", { value: String(k), text: m.label || m.name })));
    sel.addEventListener("change", () => { heat.metric = +sel.value; heat.draw(); if (selected) show(selected.ix, selected.iy); });
    bar.append(el("label", { for: "bt-metric", text: "Colour by " }), sel);
  }
  bar.append(el("span", { cls: "bt-hint", text: "hover: values · click: equity curve · outlined: best · dot: curve stored · blank: no value" }));
  const wrap = el("div", { cls: "bt-heat-wrap" });
  main.append(bar, wrap, sw.note ? el("p", { cls: "bt-note", id: "bt-sweep-note", style: "margin: 4px 0 0", text: sw.note }) : "",
    el("h2", { text: "Selected combination" }), selTitle, toolbar, slot);
  heat = new Heatmap(wrap, sw, show);
  heat.draw();
  const start = heat.best || [0, 0];
  heat.sel = start; heat.draw();
  show(start[0], start[1]);
  window.btSweep = {
    state() { return { metric: heat.m.name, metrics: sw.metrics.map(m => m.name), nx: heat.nx, ny: heat.ny, selected, best: heat.best, scale: heat.scale.kind, scaleRange: [heat.scale.lo, heat.scale.hi] }; },
    cellClientPoint(ix, iy) { return heat.cellClientPoint(ix, iy); },
    select(ix, iy) { heat.select(ix, iy); return this.state(); },
    cellColor(ix, iy) { const v = heat.value(ix, iy); return v === v ? rgbCSS(heat.scale.rgb(v)) : null; },
  };
  setTimeout(() => {
    layout.append(sidePanel(data));
    if (sw.pareto) {
      const pwrap = el("div", { cls: "bt-heat-wrap", id: "bt-pareto-wrap" });
      app.append(el("h2", { text: "Pareto front: " + sw.pareto.objectives.join(", ") }), pwrap,
        el("p", { cls: "bt-note", id: "bt-pareto-note", style: "margin: 4px 0 0", text: sw.pareto.note || "" }));
      const scatter = new ParetoScatter(pwrap, sw.pareto);
      scatter.draw();
      window.btPareto = {
        state() { return { points: scatter.g.points.length, front: scatter.g.front.map(q => q.k), line: scatter.g.line, x: scatter.g.x, y: scatter.g.y }; },
        pointClientPoint(k) { return scatter.pointClientPoint(k); },
      };
    }
    if (sw.walk_forward && sw.walk_forward.equity) {
      const wf = sw.walk_forward, wtool = el("div"), whost = el("div", { id: "bt-wf" });
      app.append(el("h2", { text: "Walk-forward (out-of-sample, stitched)" }), wtool, whost);
      const wt = makeSeries(wf).t, regions = [];
      for (const [k, f] of (wf.folds || []).entries()) {
        const from = lowerBound(wt, timeValue(f.start)), to = Math.max(from, lowerBound(wt, timeValue(f.end) + 1) - 1);
        regions.push({ from, to, fill: k % 2 ? "fold" : "transparent", edge: "accent", labelColor: "fg", labelPane: "equity", always: true,
          label: (f.label || ("fold " + (k + 1))) + (f.out_of_sample ? " · " + f.out_of_sample : "") });
      }
      const wchart = buildChart(whost, { series: { time_deltas: wf.time_deltas, time: wf.time }, equity: { initial_cash: wf.initial_cash, values: wf.equity, drawdowns: wf.drawdowns, benchmark: null, label: "Walk-forward equity" } },
        { small: true, regions, label: "Walk-forward equity with fold boundaries" });
      wchart.start(wtool);
      window.btCharts["bt-wf"] = wchart.api();
    }
    app.append(el("h2", { text: "Trades of the selected combination" }), el("div", { id: "bt-trades-slot" }));
    showTrades();
    const wide = mainTables(data);
    if (wide) app.append(wide);
    markReady();
  }, 0);
  return chart;
}

// ---- screen page -----------------------------------------------------------------------------
function drawSpark(canvas, values, colors) {
  const w = 120, h = 26, dpr = window.devicePixelRatio || 1, ctx = canvas.getContext("2d");
  canvas.width = w * dpr; canvas.height = h * dpr; canvas.style.width = w + "px"; canvas.style.height = h + "px";
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const v = values.filter(x => x !== null && isFinite(x));
  if (v.length < 2) return;
  let lo = Math.min(...v), hi = Math.max(...v);
  if (hi - lo < 1e-12) { hi += 1; lo -= 1; }
  const y = (x) => h - 3 - (x - lo) / (hi - lo) * (h - 6), x = (k) => 1 + k * (w - 2) / (values.length - 1);
  ctx.strokeStyle = colors.faint; ctx.setLineDash([2, 2]); ctx.lineWidth = 1; ctx.beginPath();
  ctx.moveTo(0, Math.round(y(v[0])) + 0.5); ctx.lineTo(w, Math.round(y(v[0])) + 0.5); ctx.stroke(); ctx.setLineDash([]);
  ctx.strokeStyle = v[v.length - 1] >= v[0] ? colors.profit : colors.loss; ctx.lineWidth = 1.3; ctx.beginPath();
  let pen = false;
  values.forEach((val, k) => { if (val === null || !isFinite(val)) { pen = false; return; } if (pen) ctx.lineTo(x(k), y(val)); else { ctx.moveTo(x(k), y(val)); pen = true; } });
  ctx.stroke();
}
function screenPage(data, app) {
  const sc = data.screen, colors = themeColors(), cols = sc.columns || [];
  const selTitle = el("div", { cls: "bt-sel-title", id: "bt-selection", "aria-live": "polite" });
  const toolbar = el("div"), slot = el("div");
  const table = el("table", { cls: "bt-table", id: "bt-screen" });
  const heads = [["rank", "#", "count"], ["symbol", "symbol", "text"], ["spark", "equity", null], ...cols.map(c => [c.key, c.label || c.key, c.unit]), ["status", "status", "text"]];
  const thead = el("tr", null, heads.map(([key, label, unit]) => el("th", { "data-key": key, cls: (unit && unit !== "text" ? "bt-num " : "") + (unit ? "bt-sort" : ""), text: label, title: unit ? "Sort by " + label : null })));
  table.append(el("thead", null, [thead]));
  const body = el("tbody");
  table.append(body);
  // Negative numbers are coloured only in columns holding both signs (returns; not drawdowns).
  const signed = new Set(cols.filter(c => {
    const vs = (sc.rows || []).map(r => r.values ? r.values[c.key] : null).filter(v => typeof v === "number");
    return vs.some(v => v < 0) && vs.some(v => v > 0);
  }).map(c => c.key));
  const rows = (sc.rows || []).map((r, k) => {
    const spark = el("canvas", { cls: "bt-spark" });
    drawSpark(spark, r.spark || [], colors);
    const status = r.status || "ok";
    const tr = el("tr", { cls: "bt-click", "data-symbol": r.symbol, tabindex: "0" }, [
      el("td", { cls: "bt-num", text: r.rank === null || r.rank === undefined ? "" : String(r.rank) }), el("td", { text: r.symbol }), el("td", null, [spark]),
      ...cols.map(c => { const v = r.values ? r.values[c.key] : null; return el("td", { cls: "bt-num" + (signed.has(c.key) && v < 0 ? " bt-neg" : ""), text: v === null || v === undefined ? "" : fmtUnit(v, c.unit) }); }),
      el("td", { cls: status === "error" ? "bt-status-error" : null, text: status + (r.error ? ": " + r.error : "") })]);
    return { r, tr, k };
  });
  let sortKey = "rank", sortDir = 1, openSymbol = null, chart = null;
  const sortBy = (key, dir) => {
    if (dir) { sortKey = key; sortDir = dir; }
    else if (key === sortKey) sortDir = -sortDir;
    else { sortKey = key; const c = cols.find(c => c.key === key); sortDir = key === "rank" || key === "symbol" || key === "status" || (c && c.better === "lower") ? 1 : -1; }
    const get = (x) => key === "rank" ? x.r.rank : key === "symbol" ? x.r.symbol : key === "status" ? x.r.status : (x.r.values ? x.r.values[key] : null);
    rows.sort((a, b) => {
      const va = get(a), vb = get(b), na = va === null || va === undefined || (typeof va === "number" && !isFinite(va)), nb = vb === null || vb === undefined || (typeof vb === "number" && !isFinite(vb));
      if (na || nb) return na === nb ? a.k - b.k : na ? 1 : -1;
      return (typeof va === "string" ? va.localeCompare(vb) : va - vb) * sortDir || a.k - b.k;
    });
    body.replaceChildren(...rows.map(x => x.tr));
    for (const th of thead.children) th.removeAttribute("aria-sort");
    const th = thead.querySelector('th[data-key="' + key + '"]');
    if (th) th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
  };
  thead.addEventListener("click", (e) => { const th = e.target.closest("th.bt-sort"); if (th) sortBy(th.dataset.key); });
  const open = (x, scroll) => {
    for (const y of rows) y.tr.classList.toggle("bt-selected", y === x);
    openSymbol = x.r.symbol;
    const host = el("div", { id: "bt-chart" });
    toolbar.replaceChildren(); slot.replaceChildren(host);
    if (chart) { chart.destroy(); chart = null; }
    const vals = cols.slice(0, 4).map(c => (c.label || c.key) + " " + fmtUnit(x.r.values ? x.r.values[c.key] : null, c.unit));
    selTitle.replaceChildren(el("b", { text: x.r.symbol }), x.r.rank ? " · rank " + x.r.rank : "", vals.length ? " · " + vals.join(" · ") : "");
    if (x.r.chart) {
      chart = buildChart(host, x.r.chart, { small: false, label: "Chart of " + x.r.symbol });
      chart.start(toolbar);
      publishChart(chart, true);
    } else {
      host.className = "bt-chart bt-small";
      const msg = [x.r.status === "error" ? "This symbol could not run: " + (x.r.error || "error") + ". " : "No chart is embedded for " + x.r.symbol + " in this report. "];
      if (x.r.href) msg.push(el("a", { href: x.r.href, text: "Open its report" }));
      host.append(el("div", { cls: "bt-message" }, [el("div", null, msg)]));
      window.btChart = null;
    }
    if (scroll) { const r = host.getBoundingClientRect(); if (r.top < 0 || r.top > window.innerHeight - 100) host.scrollIntoView({ block: "start" }); }
  };
  body.addEventListener("click", (e) => { const tr = e.target.closest("tr[data-symbol]"); if (tr) open(rows.find(x => x.tr === tr), true); });
  body.addEventListener("keydown", (e) => { if (e.key === "Enter") { const tr = e.target.closest("tr[data-symbol]"); if (tr) open(rows.find(x => x.tr === tr), true); } });
  const manifest = renderManifest(data);
  app.append(manifest || "", el("h2", { text: "Ranking" + (sc.rank ? " by " + sc.rank : "") }),
    el("div", { cls: "bt-scroll", style: "max-height: 42vh" }, [table]),
    el("p", { cls: "bt-note", style: "margin: 4px 0 0", text: "Click a column heading to sort, a row to open that symbol's chart below." }),
    el("h2", { text: "Chart" }), selTitle, toolbar, slot);
  sortBy("rank", 1);
  const first = rows.find(x => x.r.chart) || rows[0];
  if (first) open(first, false);
  window.btScreen = {
    state() { return { rows: rows.length, order: rows.map(x => x.r.symbol), sortKey, sortDir: sortDir > 0 ? "ascending" : "descending", open: openSymbol }; },
    open(symbol) { const x = rows.find(y => y.r.symbol === symbol); if (x) open(x, false); return this.state(); },
    sort(key) { sortBy(key); return this.state(); },
  };
  setTimeout(() => {
    const tbs = (data.tables || []).map(renderTable);
    if (tbs.length) app.append(el("div", { cls: "bt-wide-tables" }, tbs));
    markReady();
  }, 0);
  return chart;
}

// ---- start-up --------------------------------------------------------------------------------
function publishChart(chart, main) {
  window.btCharts = window.btCharts || {};
  const api = chart.api();
  window.btCharts[chart.id] = api;
  if (main) {
    window.btChart = api;
    if (window.btPage && window.btPage.firstPaintMs === null && chart.firstPaintMs !== null) window.btPage.firstPaintMs = chart.firstPaintMs;
  }
}
/** Start-up milestones in ms since navigation start, for benchmarks. */
function mark(name) { if (window.btPage) window.btPage.timings[name] = performance.now(); }
function markReady() { if (window.btPage) window.btPage.ready = true; document.body.dataset.ready = "true"; }
function boot() {
  const t0 = performance.now();
  window.btPage = { kind: null, ready: false, firstPaintMs: null, parseMs: null, errors: [], timings: { boot: t0 } };
  window.btCharts = {};
  const app = document.getElementById("bt-app");
  try {
    const text = document.getElementById("bt-data").textContent;
    mark("text");
    const data = JSON.parse(text);
    window.btPage.parseMs = performance.now() - t0;
    mark("parsed");
    const kind = document.body.dataset.kind || data.kind;
    window.btPage.kind = kind;
    app.replaceChildren();
    renderHeader(data, app);
    if (kind === "run" || kind === "chart") runPage(data, app);
    else if (kind === "sweep") sweepPage(data, app);
    else if (kind === "screen") screenPage(data, app);
    else if (kind === "replay") replayPage(data, app);
    else throw new Error("unknown page kind " + kind);
  } catch (err) {
    window.btPage.errors.push(String(err && err.stack || err));
    app.append(el("pre", { cls: "bt-message", text: "This report could not be drawn: " + (err && err.message || err) }));
    throw err;
  }
}
// Chart teardown (pages that replace a chart on selection).
Chart.prototype.destroy = function () { if (this.observer) this.observer.disconnect(); this.destroyed = true; };
boot();