// ---- chart engine ----------------------------------------------------------------------------
const HEADER_H = 20, XAXIS_H = 24, MIN_AXIS_W = 54, CHART_FONT_PX = 11;

/**
 * Line through per-bar values, min/max decimated per pixel column when bars are denser than
 * pixels; `step`: each value held until the next bar (a state such as a replay's quote).
 */
function strokeSeries(ch, ctx, pane, key, color, width, dash, step) {
  const vals = ch.d.get(key);
  if (!vals) return;
  ctx.beginPath();
  traceSeries(ch, pane, key, vals, ctx, false, step);
  ctx.strokeStyle = color; ctx.lineWidth = width || 1.4; ctx.setLineDash(dash || []); ctx.lineJoin = "round";
  ctx.stroke(); ctx.setLineDash([]);
}
/** Adds the series' path to ctx; returns [firstX, lastX] of the drawn part (for area fills). */
function traceSeries(ch, pane, key, vals, ctx, single, step) {
  const n = vals.length, ppb = ch.ppb, L = ch.plot.left;
  let pen = false, fx = NaN, lx = NaN, ly = NaN;
  if (ppb >= 0.5) {
    const a = Math.max(0, Math.floor(ch.x0) - 1), b = Math.min(n, Math.ceil(ch.x1) + 1);
    for (let i = a; i < b; i++) {
      const v = vals[i];
      if (v !== v) { if (!single) pen = false; continue; }
      const x = ch.xOf(i), y = pane.y(v);
      if (pen) { if (step) ctx.lineTo(x, ly); ctx.lineTo(x, y); } else { ctx.moveTo(x, y); pen = true; if (fx !== fx) fx = x; }
      lx = x; ly = y;
    }
    return [fx, lx];
  }
  const P = ch.d.pyramid(key), W = ch.plot.width, off = ch.x0 - 0.5;
  for (let c = 0; c < W; c++) {
    const a = Math.max(0, Math.ceil(c / ppb + off)), b = Math.min(n, Math.ceil((c + 1) / ppb + off));
    if (b <= a) continue;
    const lo = P.min(a, b);
    if (lo !== lo) { if (!single) pen = false; continue; }
    const hi = P.max(a, b), x = L + c + 0.5, f = vals[a], l = vals[b - 1];
    if (f === f) { if (pen) ctx.lineTo(x, pane.y(f)); else { ctx.moveTo(x, pane.y(f)); pen = true; if (fx !== fx) fx = x; } }
    else if (!pen) { ctx.moveTo(x, pane.y(lo)); pen = true; if (fx !== fx) fx = x; }
    ctx.lineTo(x, pane.y(lo)); ctx.lineTo(x, pane.y(hi));
    if (l === l) ctx.lineTo(x, pane.y(l));
    lx = x;
  }
  return [fx, lx];
}
function seriesExtent(ch, key, a, b) {
  const P = ch.d.pyramid(key);
  return P ? [P.min(a, b), P.max(a, b)] : null;
}
/** Column ranges [c, a, b) when decimating: every bar centre falls in exactly one pixel column. */
function forColumns(ch, n, fn) {
  const ppb = ch.ppb, W = ch.plot.width, off = ch.x0 - 0.5;
  for (let c = 0; c < W; c++) {
    const a = Math.max(0, Math.ceil(c / ppb + off)), b = Math.min(n, Math.ceil((c + 1) / ppb + off));
    if (b > a) fn(c, a, b);
  }
}

// ---- layers ----------------------------------------------------------------------------------
class CandleLayer {
  extent(ch, a, b) { return [ch.d.pyramid("l").min(a, b), ch.d.pyramid("h").max(a, b)]; }
  draw(ch, ctx, pane) {
    const s = ch.d.s, n = s.n, C = ch.colors, ppb = ch.ppb, up = new Path2D(), dn = new Path2D();
    if (!s.hasOHLC) { strokeSeries(ch, ctx, pane, "c", C.fg, 1.3); return; }
    if (ppb < 0.5) {
      const PH = ch.d.pyramid("h"), PL = ch.d.pyramid("l"), L = ch.plot.left;
      forColumns(ch, n, (c, a, b) => {
        const hi = PH.max(a, b), lo = PL.min(a, b);
        if (hi !== hi) return;
        const y1 = Math.round(pane.y(hi)), y2 = Math.round(pane.y(lo));
        (s.c[b - 1] >= s.o[a] ? up : dn).rect(L + c, y1, 1, Math.max(1, y2 - y1));
      });
    } else {
      const a = Math.max(0, Math.floor(ch.x0) - 1), b = Math.min(n, Math.ceil(ch.x1) + 1);
      let bw = Math.max(1, Math.round(ppb * 0.72));
      if (bw > 2 && bw % 2 === 0) bw -= 1;
      for (let i = a; i < b; i++) {
        const o = s.o[i], c = s.c[i];
        if (c !== c) continue;
        const p = c >= o ? up : dn, xc = ch.xOf(i);
        const yh = Math.round(pane.y(s.h[i])), yl = Math.round(pane.y(s.l[i]));
        if (bw < 3) { p.rect(Math.round(xc - bw / 2), yh, bw, Math.max(1, yl - yh)); continue; }
        const xw = Math.round(xc - 0.5);
        p.rect(xw, yh, 1, Math.max(1, yl - yh));
        const yo = Math.round(pane.y(o)), yc = Math.round(pane.y(c));
        p.rect(Math.round(xc - bw / 2), Math.min(yo, yc), bw, Math.max(1, Math.abs(yc - yo)));
      }
    }
    ctx.fillStyle = C.up; ctx.fill(up);
    ctx.fillStyle = C.down; ctx.fill(dn);
  }
  tooltip(ch, i) {
    const s = ch.d.s;
    if (!s.hasOHLC) return [{ k: "close", label: "Close", value: String(s.c[i]) }];
    const prev = i > 0 ? s.c[i - 1] : NaN, chg = s.c[i] / prev - 1;
    return [
      { k: "open", label: "Open", value: String(s.o[i]) }, { k: "high", label: "High", value: String(s.h[i]) },
      { k: "low", label: "Low", value: String(s.l[i]) }, { k: "close", label: "Close", value: String(s.c[i]) },
      isFinite(chg) ? { k: "change", label: "Change", value: (chg >= 0 ? "+" : "") + fmtPct(chg, 2), cls: chg >= 0 ? "bt-pos" : "bt-neg" } : null,
    ];
  }
}
class VolumeLayer {
  extent(ch, a, b) { return [0, ch.d.pyramid("v").max(a, b)]; }
  draw(ch, ctx, pane) {
    const s = ch.d.s, n = s.n, ppb = ch.ppb, up = new Path2D(), dn = new Path2D(), y0 = Math.round(pane.y(0));
    if (ppb < 1) {
      const PV = ch.d.pyramid("v"), L = ch.plot.left;
      forColumns(ch, n, (c, a, b) => {
        const v = PV.max(a, b);
        if (!(v > 0)) return;
        const y = Math.round(pane.y(v));
        (s.c[b - 1] >= s.o[a] ? up : dn).rect(L + c, y, 1, Math.max(1, y0 - y));
      });
    } else {
      const a = Math.max(0, Math.floor(ch.x0) - 1), b = Math.min(n, Math.ceil(ch.x1) + 1);
      let bw = Math.max(1, Math.round(ppb * 0.72));
      if (bw > 2 && bw % 2 === 0) bw -= 1;
      for (let i = a; i < b; i++) {
        const v = s.v[i];
        if (!(v > 0)) continue;
        const y = Math.round(pane.y(v));
        (s.c[i] >= s.o[i] ? up : dn).rect(Math.round(ch.xOf(i) - bw / 2), y, bw, Math.max(1, y0 - y));
      }
    }
    ctx.fillStyle = ch.colors["up-vol"]; ctx.fill(up);
    ctx.fillStyle = ch.colors["down-vol"]; ctx.fill(dn);
  }
  tooltip(ch, i) { return [{ k: "volume", label: "Volume", value: fmtExact(ch.d.s.v[i]) }]; }
}
class LineLayer {
  constructor(key, label, color, opts) { this.key = key; this.label = label; this.color = color; this.opts = opts || {}; this.band = true; }
  extent(ch, a, b) { return seriesExtent(ch, this.key, a, b); }
  draw(ch, ctx, pane) { strokeSeries(ch, ctx, pane, this.key, ch.color(this.color), this.opts.width || 1.4, this.opts.dash, this.opts.step); }
  tooltip(ch, i) {
    const v = ch.d.get(this.key)[i];
    return [{ k: this.opts.tooltipKey || this.key, label: this.label, value: this.opts.format ? this.opts.format(v) : fmtSig(v, 7), color: ch.color(this.color) }];
  }
  legend(ch) { return [{ label: this.label, color: ch.color(this.color), dash: this.opts.dash }]; }
}
/** Fills between two series (Bollinger, Donchian); draws no lines of its own. */
class BandLayer {
  constructor(upper, lower, color) { this.upper = upper; this.lower = lower; this.color = color; }
  extent() { return null; }
  draw(ch, ctx, pane) {
    const hi = ch.d.get(this.upper), lo = ch.d.get(this.lower);
    if (!hi || !lo) return;
    // Per bar when zoomed in; per column (upper max, lower min) when decimated.
    const pts = [];
    if (ch.ppb >= 0.5) {
      const a = Math.max(0, Math.floor(ch.x0) - 1), b = Math.min(hi.length, Math.ceil(ch.x1) + 1);
      for (let i = a; i < b; i++) pts.push(ch.xOf(i), hi[i], lo[i]);
    } else {
      const PH = ch.d.pyramid(this.upper), PL = ch.d.pyramid(this.lower);
      forColumns(ch, hi.length, (c, a, b) => pts.push(ch.plot.left + c + 0.5, PH.max(a, b), PL.min(a, b)));
    }
    ctx.fillStyle = ch.color(this.color);
    let start = -1;
    const flush = (end) => {
      if (start < 0 || end - start < 2) { start = -1; return; }
      ctx.beginPath();
      for (let k = start; k < end; k++) { const x = pts[3 * k], y = pane.y(pts[3 * k + 1]); if (k === start) ctx.moveTo(x, y); else ctx.lineTo(x, y); }
      for (let k = end - 1; k >= start; k--) ctx.lineTo(pts[3 * k], pane.y(pts[3 * k + 2]));
      ctx.closePath(); ctx.fill(); start = -1;
    };
    const m = pts.length / 3;
    for (let k = 0; k < m; k++) {
      const ok = pts[3 * k + 1] === pts[3 * k + 1] && pts[3 * k + 2] === pts[3 * k + 2];
      if (ok && start < 0) start = k; else if (!ok) flush(k);
    }
    flush(m);
  }
}
/** Bars from zero, coloured by sign (MACD histogram). */
class HistogramLayer {
  constructor(key, label, opts) { this.key = key; this.label = label; this.opts = opts || {}; }
  extent(ch, a, b) { const e = seriesExtent(ch, this.key, a, b); return e ? [Math.min(0, e[0]), Math.max(0, e[1])] : null; }
  draw(ch, ctx, pane) {
    const vals = ch.d.get(this.key), n = vals.length, pos = new Path2D(), neg = new Path2D(), y0 = Math.round(pane.y(0));
    const bar = (path, x, w, v) => { const y = Math.round(pane.y(v)); path.rect(x, Math.min(y, y0), w, Math.max(1, Math.abs(y - y0))); };
    if (ch.ppb < 1) {
      const P = ch.d.pyramid(this.key), L = ch.plot.left;
      forColumns(ch, n, (c, a, b) => {
        const hi = P.max(a, b), lo = P.min(a, b);
        if (hi > 0) bar(pos, L + c, 1, hi);
        if (lo < 0) bar(neg, L + c, 1, lo);
      });
    } else {
      const a = Math.max(0, Math.floor(ch.x0) - 1), b = Math.min(n, Math.ceil(ch.x1) + 1);
      const bw = Math.max(1, Math.round(ch.ppb * 0.6));
      for (let i = a; i < b; i++) { const v = vals[i]; if (v === v && v !== 0) bar(v > 0 ? pos : neg, Math.round(ch.xOf(i) - bw / 2), bw, v); }
    }
    ctx.globalAlpha = 0.75;
    ctx.fillStyle = ch.colors.profit; ctx.fill(pos);
    ctx.fillStyle = ch.colors.loss; ctx.fill(neg);
    ctx.globalAlpha = 1;
  }
  tooltip(ch, i) { return [{ k: this.opts.tooltipKey || this.key, label: this.label, value: fmtSig(ch.d.get(this.key)[i], 7) }]; }
  legend(ch) { return [{ label: this.label, color: ch.colors.profit, box: true }]; }
}
/** A filled area from zero to the series (drawdown). */
class AreaLayer {
  constructor(key, label, opts) { this.key = key; this.label = label; this.opts = opts || {}; this.band = "zero"; }
  extent(ch, a, b) { const e = seriesExtent(ch, this.key, a, b); return e ? [Math.min(0, e[0]), Math.max(0, e[1])] : null; }
  draw(ch, ctx, pane) {
    const vals = ch.d.get(this.key), y0 = pane.y(0);
    ctx.beginPath();
    const [fx, lx] = traceSeries(ch, pane, this.key, vals, ctx, true);
    if (fx !== fx) return;
    ctx.strokeStyle = ch.colors["dd-line"]; ctx.lineWidth = 1; ctx.stroke();
    ctx.lineTo(lx, y0); ctx.lineTo(fx, y0); ctx.closePath();
    ctx.fillStyle = ch.colors.dd; ctx.fill();
  }
  tooltip(ch, i) { return [{ k: this.key, label: this.label, value: fmtPct(ch.d.get(this.key)[i], 2) }]; }
  legend(ch) { return [{ label: this.label, color: ch.colors["dd-line"], box: true }]; }
}
// ---- exit kinds ------------------------------------------------------------------------------
/**
 * How a trade ended (bt's ExitKind), in legend order, with the glyph of its exit marker: a shape
 * per kind, hollow, and filled for the gap variants (the bar opened through the level), so the
 * kinds read without colour; the colour says whether the trade won (blue) or lost (orange).
 * `open` glyphs are strokes only.
 */
const EXIT_GLYPHS = {
  signal: { shape: "circle" }, stop: { shape: "square" }, "stop-gap": { shape: "square", filled: true },
  target: { shape: "diamond" }, "target-gap": { shape: "diamond", filled: true }, trail: { shape: "cross", open: true },
  time: { shape: "hourglass" }, end: { shape: "triangle" }, rebalance: { shape: "asterisk", open: true },
};
const EXIT_KINDS = Object.keys(EXIT_GLYPHS);
/** A trade's exit kind: the data's `exit_kind`, else `end` for an open trade and `signal` for a closed one. */
function exitKindOf(v, open) { return typeof v === "string" && v ? v : open ? "end" : "signal"; }
/** The glyph of a kind; a kind this page does not know gets the signal's circle. */
function exitGlyph(kind) { return EXIT_GLYPHS[kind] || EXIT_GLYPHS.signal; }
/** Adds the kind's glyph centred at (x, y), about 2r across, to a path (a Path2D, or anything with its methods). */
function traceExitGlyph(p, kind, x, y, r) {
  switch (exitGlyph(kind).shape) {
    case "square": { const s = r * 0.85; p.moveTo(x - s, y - s); p.lineTo(x + s, y - s); p.lineTo(x + s, y + s); p.lineTo(x - s, y + s); p.closePath(); break; }
    case "diamond": { const s = r * 1.2; p.moveTo(x, y - s); p.lineTo(x + s, y); p.lineTo(x, y + s); p.lineTo(x - s, y); p.closePath(); break; }
    case "cross": p.moveTo(x - r, y - r); p.lineTo(x + r, y + r); p.moveTo(x + r, y - r); p.lineTo(x - r, y + r); break;
    case "hourglass": p.moveTo(x - r, y - r); p.lineTo(x + r, y - r); p.lineTo(x - r, y + r); p.lineTo(x + r, y + r); p.closePath(); break;
    case "triangle": p.moveTo(x - r * 0.8, y - r); p.lineTo(x + r, y); p.lineTo(x - r * 0.8, y + r); p.closePath(); break;
    case "asterisk":
      for (let j = 0; j < 3; j++) { const a = Math.PI / 2 + j * Math.PI / 3, dx = Math.cos(a) * r, dy = Math.sin(a) * r; p.moveTo(x - dx, y - dy); p.lineTo(x + dx, y + dy); }
      break;
    default: p.moveTo(x + r, y); p.arc(x, y, r, 0, 2 * Math.PI); p.closePath();
  }
}
/** Strokes (and fills) a glyph path of one kind in one colour. */
function paintGlyphs(ctx, ch, kind, path, color) {
  const g = exitGlyph(kind);
  ctx.strokeStyle = color;
  if (!g.open) { ctx.fillStyle = g.filled ? color : ch.colors.bg; ctx.fill(path); }
  ctx.stroke(path);
}
/** Exit markers: marks are { x, y, kind, win }; one path per kind and colour. */
function drawExitMarks(ctx, ch, marks, r) {
  const groups = new Map();
  for (const m of marks) {
    const key = m.kind + (m.win ? "+" : "-");
    let g = groups.get(key);
    if (!g) groups.set(key, g = { kind: m.kind, win: m.win, path: new Path2D() });
    traceExitGlyph(g.path, m.kind, m.x, m.y, r);
  }
  ctx.lineWidth = r < 3 ? 1.2 : 1.6; ctx.setLineDash([]); ctx.lineJoin = "miter";
  for (const g of groups.values()) paintGlyphs(ctx, ch, g.kind, g.path, g.win ? ch.colors.profit : ch.colors.loss);
}
/** Legend items of the exit kinds the trades hold (glyphs in the text colour). */
function exitLegend(ch, T) {
  return T && T.kinds ? T.kinds.map(kind => ({ label: kind, color: ch.colors.muted, glyph: kind })) : [];
}
/** Tooltip rows of the trades open on bar i (at most three): side, return, how it ended; the symbol when trades carry one. */
function tradeTooltip(ch, i) {
  const T = ch.d.trades;
  if (!T || !T.n) return [];
  const out = [];
  for (let k = T.exitSorted ? lowerBoundInt(T.exit, i) : 0; k < T.n && out.length < 3; k++) {
    if (T.entry[k] > i) { if (T.sorted && T.exitSorted) break; continue; }
    if (T.exit[k] < i) continue;
    out.push({ k: "trade", label: "Trade #" + (k + 1) + (T.symbol ? " " + T.symbol[k] : ""),
      value: T.side[k] + " " + (T.ret[k] >= 0 ? "+" : "") + fmtPct(T.ret[k], 2) + (T.isOpen[k] ? " (open)" : "") + " · " + T.kind[k],
      cls: T.pnl[k] >= 0 ? "bt-pos" : "bt-neg" });
  }
  return out;
}
/** Trades from entry to exit, blue for a profit, orange for a loss; the exit marked by its kind. */
class TradeLayer {
  extent(ch, a, b) {
    const T = ch.d.trades;
    if (!T || !T.n) return null;
    let lo = Infinity, hi = -Infinity;
    for (let k = 0; k < T.n; k++) {
      if (T.exit[k] < a || T.entry[k] >= b) continue;
      const p = T.entryPrice[k], q = T.exitPrice[k];
      if (T.entry[k] >= a) { if (p < lo) lo = p; if (p > hi) hi = p; }
      if (T.exit[k] < b) { if (q < lo) lo = q; if (q > hi) hi = q; }
    }
    return lo <= hi ? [lo, hi] : null;
  }
  draw(ch, ctx, pane) {
    const T = ch.d.trades;
    if (!T || !T.n) return;
    const a = Math.floor(ch.x0) - 1, b = Math.ceil(ch.x1) + 1, win = new Path2D(), loss = new Path2D(), ends = [];
    let shown = 0;
    for (let k = 0; k < T.n; k++) {
      if (T.exit[k] < a || T.entry[k] > b) continue;
      const x1 = ch.xOf(T.entry[k]), y1 = pane.y(T.entryPrice[k]), x2 = ch.xOf(T.exit[k]), y2 = pane.y(T.exitPrice[k]);
      const p = T.pnl[k] >= 0 ? win : loss;
      p.moveTo(x1, y1); p.lineTo(x2, y2);
      if (++shown < 600) ends.push({ x1, y1, x: x2, y: y2, kind: T.kind[k], win: T.pnl[k] >= 0 });
    }
    ctx.lineCap = "butt";
    ctx.lineWidth = shown > 2000 ? 1.2 : 2.6;
    ctx.setLineDash(shown > 2000 ? [] : [7, 4]);
    ctx.strokeStyle = ch.colors.profit; ctx.stroke(win);
    ctx.strokeStyle = ch.colors.loss; ctx.stroke(loss);
    ctx.setLineDash([]);
    // Markers when bars are wide or trades few: a dot at the entry, the exit kind's glyph at the exit.
    if (ends.length && shown < 600 && (ch.ppb >= 2 || shown * 10 <= ch.plot.width)) {
      const r = ch.ppb >= 6 ? 4.5 : 3.5, dotsWin = new Path2D(), dotsLoss = new Path2D();
      for (const e of ends) { const d = e.win ? dotsWin : dotsLoss; d.moveTo(e.x1 + 2.2, e.y1); d.arc(e.x1, e.y1, 2.2, 0, 2 * Math.PI); }
      ctx.fillStyle = ch.colors.profit; ctx.fill(dotsWin);
      ctx.fillStyle = ch.colors.loss; ctx.fill(dotsLoss);
      drawExitMarks(ctx, ch, ends, r);
    }
  }
  tooltip(ch, i) { return tradeTooltip(ch, i); }
  legend(ch) {
    const T = ch.d.trades;
    return T && T.n ? [{ label: "Trade won", color: ch.colors.profit, dash: [5, 3] }, { label: "Trade lost", color: ch.colors.loss, dash: [5, 3] }, ...exitLegend(ch, T)] : [];
  }
}
/**
 * Trades marked on an equity curve (a portfolio's chart, whose symbols' prices share no scale):
 * each exit at the curve's value on its bar, its glyph the exit kind, blue won, orange lost;
 * each entry a small dot on the curve while the marks are few.
 */
class EquityTradeLayer {
  constructor(key) { this.key = key; }
  extent() { return null; }
  draw(ch, ctx, pane) {
    const T = ch.d.trades, eq = ch.d.get(this.key);
    if (!T || !T.n || !eq) return;
    const a = Math.floor(ch.x0) - 1, b = Math.ceil(ch.x1) + 1, marks = [], entries = new Path2D();
    let entryCount = 0;
    for (let k = 0; k < T.n; k++) {
      const x = T.exit[k], e = T.entry[k];
      if (x >= a && x <= b && eq[x] === eq[x]) marks.push({ x: ch.xOf(x), y: pane.y(eq[x]), kind: T.kind[k], win: T.pnl[k] >= 0 });
      if (e >= a && e <= b && eq[e] === eq[e]) { const px = ch.xOf(e), py = pane.y(eq[e]); entries.moveTo(px + 2, py); entries.arc(px, py, 2, 0, 2 * Math.PI); entryCount++; }
    }
    const dense = marks.length * 6 > ch.plot.width;
    if (!dense && entryCount) { ctx.fillStyle = ch.colors.fg; ctx.fill(entries); }
    drawExitMarks(ctx, ch, marks, dense ? 2.5 : 4);
  }
  tooltip(ch, i) { return tradeTooltip(ch, i); }
  legend(ch) {
    const T = ch.d.trades;
    return T && T.n ? [{ label: "Exit won", color: ch.colors.profit, box: true }, { label: "lost", color: ch.colors.loss, box: true }, ...exitLegend(ch, T)] : [];
  }
}
function lowerBoundInt(a, x) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo + hi) >>> 1; if (a[m] < x) lo = m + 1; else hi = m; } return lo; }
/** Fill markers at their price: a triangle pointing up for buys, down for sells. */
class FillLayer {
  extent() { return null; }
  draw(ch, ctx, pane) {
    const F = ch.d.fills;
    if (!F || !F.n) return;
    const a = Math.floor(ch.x0) - 1, b = Math.ceil(ch.x1) + 1, k0 = lowerBoundInt(F.index, a);
    let count = 0;
    for (let k = k0; k < F.n && F.index[k] <= b; k++) count++;
    if (count > 400) return;
    const r = ch.ppb >= 6 ? 5 : ch.ppb >= 2 ? 4 : 3, buys = new Path2D(), sells = new Path2D();
    for (let k = k0; k < F.n && F.index[k] <= b; k++) {
      const x = ch.xOf(F.index[k]), y = pane.y(F.price[k]);
      if (F.buy[k]) { buys.moveTo(x, y); buys.lineTo(x - r, y + r * 1.6); buys.lineTo(x + r, y + r * 1.6); buys.closePath(); }
      else { sells.moveTo(x, y); sells.lineTo(x - r, y - r * 1.6); sells.lineTo(x + r, y - r * 1.6); sells.closePath(); }
    }
    ctx.lineWidth = 1; ctx.strokeStyle = ch.colors.bg;
    ctx.fillStyle = ch.colors["fill-mark"];
    ctx.fill(buys); ctx.stroke(buys); ctx.fill(sells); ctx.stroke(sells);
  }
  tooltip(ch, i) {
    const F = ch.d.fills;
    if (!F || !F.n) return [];
    const out = [];
    for (let k = lowerBoundInt(F.index, i); k < F.n && F.index[k] === i && out.length < 3; k++) {
      out.push({ k: "fill", label: F.buy[k] ? "Buy fill" : "Sell fill", value: fmtSig(F.qty[k], 6) + " @ " + String(F.price[k]) });
    }
    return out;
  }
  legend(ch) { return ch.d.fills && ch.d.fills.n ? [{ label: "Fills ▲ buy ▼ sell", color: ch.colors["fill-mark"], tri: true }] : []; }
}
/** One marker per trade at its exit bar: the trade's return, its glyph the exit kind. */
class TradePnlLayer {
  /** The trades (indices) whose exit is in [a, b). */
  range(T, a, b) {
    if (T.exitSorted) return [lowerBoundInt(T.exit, a), lowerBoundInt(T.exit, b)];
    return [0, T.n];
  }
  extent(ch, a, b) {
    const T = ch.d.trades;
    if (!T || !T.n) return [-0.01, 0.01];
    let lo = 0, hi = 0;
    const [k0, k1] = this.range(T, a, b);
    for (let k = k0; k < k1; k++) { if (T.exit[k] < a || T.exit[k] >= b) continue; const r = T.ret[k]; if (r < lo) lo = r; if (r > hi) hi = r; }
    return [lo, hi];
  }
  draw(ch, ctx, pane) {
    const T = ch.d.trades;
    if (!T || !T.n) return;
    const a = Math.floor(ch.x0) - 1, b = Math.ceil(ch.x1) + 1;
    const [k0, k1] = this.range(T, a, b + 1);
    let count = 0;
    for (let k = k0; k < k1; k++) if (T.exit[k] >= a && T.exit[k] <= b) count++;
    if (count <= ch.plot.width / 3) {
      const marks = [];
      for (let k = k0; k < k1; k++) {
        if (T.exit[k] < a || T.exit[k] > b || T.ret[k] !== T.ret[k]) continue;
        marks.push({ x: ch.xOf(T.exit[k]), y: pane.y(T.ret[k]), kind: T.kind[k], win: T.ret[k] >= 0 });
      }
      drawExitMarks(ctx, ch, marks, count > 400 ? 2.5 : 4);
      return;
    }
    // Markers would overlap: each pixel column shows its best and its worst trade as a bar from zero.
    const pos = new Path2D(), neg = new Path2D();
    const W = ch.plot.width, hi = new Float64Array(W).fill(NaN), lo = new Float64Array(W).fill(NaN);
    for (let k = k0; k < k1; k++) {
      if (T.exit[k] < a || T.exit[k] > b) continue;
      const c = Math.floor(ch.xOf(T.exit[k]) - ch.plot.left);
      if (c < 0 || c >= W) continue;
      const v = T.ret[k];
      if (!(hi[c] >= v)) hi[c] = v;
      if (!(lo[c] <= v)) lo[c] = v;
    }
    const y0 = Math.round(pane.y(0));
    for (let c = 0; c < W; c++) {
      if (hi[c] !== hi[c]) continue;
      const x = ch.plot.left + c;
      if (hi[c] > 0) { const y = Math.round(pane.y(hi[c])); pos.rect(x, y, 1, Math.max(1, y0 - y)); }
      if (lo[c] < 0) { const y = Math.round(pane.y(lo[c])); neg.rect(x, y0, 1, Math.max(1, y - y0)); }
    }
    ctx.fillStyle = ch.colors.profit; ctx.fill(pos);
    ctx.fillStyle = ch.colors.loss; ctx.fill(neg);
  }
  tooltip() { return []; }
  legend(ch) { return [{ label: "Trade return at exit", color: ch.colors.profit, box: true }, ...exitLegend(ch, ch.d.trades)]; }
}
/** Horizontal guide lines at fixed values (RSI 30/70, zero). */
class GuideLayer {
  constructor(values) { this.values = values; }
  extent() { return null; }
  draw(ch, ctx, pane) {
    ctx.strokeStyle = ch.colors.faint; ctx.lineWidth = 1; ctx.setLineDash([4, 4]);
    ctx.beginPath();
    for (const v of this.values) { if (pane.log && !(v > 0)) continue; const y = Math.round(pane.y(v)) + 0.5; ctx.moveTo(ch.plot.left, y); ctx.lineTo(ch.plot.right, y); }
    ctx.stroke(); ctx.setLineDash([]);
  }
}
/** Shaded spans of bars with a label at the top (maximum drawdown, walk-forward folds). */
class RegionLayer {
  constructor(regions) { this.regions = regions; }
  extent() { return null; }
  draw(ch, ctx, pane) {
    const placed = [];
    for (const r of this.regions) {
      const from = ch.d.mapIndex(r.from), to = ch.d.mapIndex(r.to);
      const x1 = Math.max(ch.plot.left, ch.xOf(from) - ch.ppb / 2), x2 = Math.min(ch.plot.right, ch.xOf(to) + ch.ppb / 2);
      if (x2 <= x1) continue;
      ctx.fillStyle = ch.color(r.fill || "region"); ctx.fillRect(x1, pane.plotTop, x2 - x1, pane.plotBottom - pane.plotTop);
      if (r.edge) {
        ctx.strokeStyle = ch.color(r.edge); ctx.lineWidth = 1; ctx.setLineDash([3, 3]); ctx.beginPath();
        for (const x of [x1, x2]) { const xx = Math.round(x) + 0.5; ctx.moveTo(xx, pane.plotTop); ctx.lineTo(xx, pane.plotBottom); }
        ctx.stroke(); ctx.setLineDash([]);
      }
      if (r.label && pane.id === (r.labelPane || pane.id)) {
        ctx.font = (r.bold ? "600 " : "") + CHART_FONT_PX + "px " + ch.colors.font;
        const w = ctx.measureText(r.label).width;
        // inside the span when it fits, else right-aligned to its end (or left-aligned to its start)
        let tx = x1 + 5;
        if (tx + w > x2 - 5) tx = x2 - 5 - w;
        if (tx < ch.plot.left + 3) tx = ch.plot.left + 3;
        if (tx + w > ch.plot.right - 3) tx = ch.plot.right - 3 - w;
        let row = r.row || 0;
        while (placed.some(q => q[2] === row && tx < q[1] + 8 && q[0] < tx + w + 8) && row < 6) row++;
        placed.push([tx, tx + w, row]);
        const ty = pane.plotTop + 4 + row * 16;
        labelBox(ctx, ch, r.label, tx, ty, ch.color(r.labelColor || "muted"));
        if (pane.labelBoxes) pane.labelBoxes.push({ x: tx - 3, y: ty - 1, w: w + 6, h: 14, text: r.label });
      }
    }
  }
}
/** A text label on a translucent background so it stays readable over data. */
function labelBox(ctx, ch, text, x, y, color) {
  const w = ctx.measureText(text).width;
  ctx.globalAlpha = 0.82; ctx.fillStyle = ch.colors.bg; ctx.fillRect(x - 3, y - 1, w + 6, 14); ctx.globalAlpha = 1;
  ctx.fillStyle = color; ctx.textBaseline = "top"; ctx.textAlign = "left"; ctx.fillText(text, x, y + 1);
}
/**
 * Where a point's label goes so that it covers no line of its pane and no other label: the top
 * left of the first candidate box, w x h, inside `bounds` ({left, right, top, bottom}) that meets
 * neither a line (`band(x1, x2)`: the [top, bottom] pixel extent of each of the pane's lines over
 * those columns) nor a box of `taken` ([{x, y, w, h}]). Candidates: right of the point, then left
 * of it; at each, level with the point above it and below it (below first when `below`), then
 * just above and just below each line over the box (between two lines when there is room); never
 * farther than four label heights from the point, where it would no longer read as its label.
 * Null when none fits: the label then goes beside the pane (its header).
 */
function placeLabel(px, py, w, h, band, taken, bounds, below) {
  const gap = 8, pad = 3;
  for (const x of [px + gap, px - gap - w]) {
    if (x < bounds.left || x + w > bounds.right) continue;
    const lines = band(x - pad, x + w + pad) || [];
    const level = below ? [py + 7, py - h - 7] : [py - h - 7, py + 7];  // clear of the point's dot (taken: 5 px around it)
    const ys = level.concat(...lines.map(l => below ? [l[1] + pad, l[0] - pad - h] : [l[0] - pad - h, l[1] + pad]));
    for (const y of ys) {
      if (!(y >= bounds.top && y + h <= bounds.bottom) || Math.abs(y + h / 2 - py) > 4 * h) continue;
      if (lines.some(l => y < l[1] + pad && y + h > l[0] - pad)) continue;
      if (taken.some(t => x < t.x + t.w + 4 && t.x < x + w + 4 && y < t.y + t.h + 2 && t.y < y + h + 2)) continue;
      return { x, y };
    }
  }
  return null;
}
/**
 * The [top, bottom] pixel extent of each of a pane's lines (layers with a `key` and `band`; an
 * area's reaches zero) over the pixel columns x1..x2, the bars beside them included (a line's
 * segment to them crosses the columns).
 */
function lineBand(ch, pane, x1, x2) {
  const out = [];
  const toIndex = (x) => (x - ch.plot.left) / ch.ppb + ch.x0 - 0.5;
  const a = Math.max(0, Math.ceil(toIndex(x1)) - 1), b = Math.min(ch.d.n, Math.floor(toIndex(x2)) + 2);
  if (b <= a) return out;
  for (const layer of pane.layers) {
    if (!layer.band || !layer.key) continue;
    const P = ch.d.pyramid(layer.key);
    if (!P) continue;
    let lo = P.min(a, b), hi = P.max(a, b);
    if (lo !== lo) continue;
    if (layer.band === "zero") { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    const yHi = pane.log && !(hi > 0) ? pane.plotTop : pane.y(hi), yLo = pane.log && !(lo > 0) ? pane.plotBottom : pane.y(lo);
    out.push([yHi - 1.5, yLo + 1.5]);
  }
  return out;
}
/**
 * Points with labels (equity peak, final value, deepest drawdown). A label goes where no line
 * of the pane and no other label is (`placeLabel`), or, when there is no such room, into the
 * pane's header beside the legend: it never covers the curve.
 */
class PointLayer {
  constructor(points) { this.points = points; }
  extent() { return null; }
  draw(ch, ctx, pane) {
    ctx.font = "600 " + CHART_FONT_PX + "px " + ch.colors.font;
    const shown = [], taken = (pane.labelBoxes || []).slice();
    for (const p of this.points) {
      const x = ch.xOf(ch.d.mapIndex(p.index)), y = pane.y(p.value);
      if (x < ch.plot.left - 2 || x > ch.plot.right + 2 || y !== y) continue;
      shown.push({ p, x, y });
      taken.push({ x: x - 5, y: y - 5, w: 10, h: 10 });
    }
    const bounds = { left: ch.plot.left + 2, right: ch.plot.right - 2, top: pane.plotTop + 1, bottom: pane.plotBottom - 1 };
    const band = (x1, x2) => lineBand(ch, pane, x1, x2);
    for (const { p, x, y } of shown) {
      const color = ch.color(p.color);
      ctx.beginPath(); ctx.arc(x, y, 3.5, 0, 2 * Math.PI); ctx.fillStyle = color; ctx.fill();
      ctx.lineWidth = 1.5; ctx.strokeStyle = ch.colors.bg; ctx.stroke();
      const w = ctx.measureText(p.label).width + 6, h = 14, at = placeLabel(x, y, w, h, band, taken, bounds, p.below);
      if (at) {
        taken.push({ x: at.x, y: at.y, w, h });
        labelBox(ctx, ch, p.label, at.x + 3, at.y + 1, color);
        if (pane.labelBoxes) pane.labelBoxes.push({ x: at.x, y: at.y, w, h, text: p.label, point: true });
      } else if (pane.headerNotes) pane.headerNotes.push({ text: p.label, color });
    }
  }
}

// ---- panes -----------------------------------------------------------------------------------
/**
 * A pane's y scale for the values [lo, hi] its layers show, over h pixels. o: { logWanted,
 * logAllowed, fixed ([min, max] always shown), includeZero, padPx (room in pixels for markers at
 * both edges), padTopPx, padBottomPx (at one edge: labels), guides (levels labelled on the axis) }.
 * Log (natural) when wanted, allowed and every value is positive, else linear; padded by 6% of
 * the range (3% with a fixed range) plus the pixel room. Returns { log, lmin (log) or vmin
 * (linear): the value at the bottom, k: pixels per unit, ticks }; y(v) = bottom - (v - vmin) * k,
 * or bottom - (ln v - lmin) * k.
 */
function paneScale(lo, hi, h, o) {
  if (o.fixed) { lo = Math.min(lo, o.fixed[0]); hi = Math.max(hi, o.fixed[1]); }
  if (o.includeZero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  const count = Math.max(2, Math.floor(h / 34));
  const padTop = o.padTopPx !== undefined ? o.padTopPx : (o.padPx || 0), padBottom = o.padBottomPx !== undefined ? o.padBottomPx : (o.padPx || 0);
  const usable = Math.max(20, h - padTop - padBottom);
  if (o.logWanted && o.logAllowed && lo > 0) {
    let l0 = Math.log(lo), l1 = Math.log(hi);
    if (l1 - l0 < 1e-9) { l0 -= 0.01; l1 += 0.01; }
    const span = l1 - l0, pad = span * 0.06;
    l0 -= pad + padBottom / usable * span; l1 += pad + padTop / usable * span;
    return { log: true, lmin: l0, vmin: NaN, k: h / (l1 - l0), ticks: logTicks(Math.exp(l0), Math.exp(l1), count) };
  }
  if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { const d = Math.abs(hi) * 0.01 || 1; lo -= d; hi += d; }
  // padding: a share of the range, plus room for markers and labels so none is cut at an edge
  const range = hi - lo, share = range * (o.fixed ? 0.03 : 0.06);
  const extraBottom = padBottom / usable * range, extraTop = padTop / usable * range;
  const vlo = o.fixed && lo >= o.fixed[0] ? lo - share - extraBottom : (o.includeZero && lo === 0 && !extraBottom ? 0 : lo - share - extraBottom);
  const vhi = o.includeZero && hi === 0 ? (share + extraTop) * 0.3 + extraTop : hi + share + extraTop;
  const k = h / (vhi - vlo);
  let ticks = linearTicks(vlo, vhi, count);
  // Guide levels (RSI 30/70) are labelled too; round ticks too close to one give way.
  if (o.guides) {
    const guides = o.guides.filter(g => g >= vlo && g <= vhi);
    const kept = ticks.ticks.filter(t => guides.every(g => Math.abs(t - g) * k >= 14));
    ticks = Object.assign({}, ticks, { ticks: kept.concat(guides).sort((a, b) => a - b) });
  }
  return { log: false, lmin: NaN, vmin: vlo, k, ticks };
}
/** A horizontal band of the chart with its own y scale; `format` prints its axis. */
class Pane {
  constructor(id, title, weight, opts) {
    Object.assign(this, { id, title, weight, layers: [], log: false, logAllowed: false, format: "price", fixed: null, includeZero: false }, opts || {});
  }
  add(layer) { this.layers.push(layer); return this; }
  y(v) {
    if (this.log) return this.plotBottom - (Math.log(v) - this.lmin) * this.k;
    return this.plotBottom - (v - this.vmin) * this.k;
  }
  valueAt(py) {
    const u = (this.plotBottom - py) / this.k;
    return this.log ? Math.exp(this.lmin + u) : this.vmin + u;
  }
  fmt(v, decimals) {
    switch (this.format) {
      case "pct": return fmtPct(v, Math.max(0, decimals - 2));
      case "volume": return fmtCompact(v);
      default: return fmtFixed(v, decimals);
    }
  }
}

// ---- per-timeframe data ----------------------------------------------------------------------
class ViewData {
  constructor(chart, tf) {
    const base = chart.base, same = !tf || !base.timeframe || tf.name === base.timeframe.name || base.n === 0;
    const s = same ? base : aggregate(base, tf);
    this.s = s; this.n = s.n; this.map = same ? null : s.map; this.first = same ? null : s.first;
    this.arrays = { h: s.h, l: s.l, c: s.c, v: s.v, o: s.o };
    for (const key in chart.baseArrays) this.arrays[key] = same ? chart.baseArrays[key] : lastInBucket(chart.baseArrays[key], s);
    this.pyramids = {};
    const map = this.map;
    const T = chart.baseTrades;
    if (T) {
      this.trades = Object.assign({}, T, {
        entry: map ? T.entry.map(i => map[i]) : T.entry, exit: map ? T.exit.map(i => map[i]) : T.exit,
      });
    }
    const F = chart.baseFills;
    if (F) this.fills = Object.assign({}, F, { index: map ? F.index.map(i => map[i]) : F.index });
  }
  get(key) { return this.arrays[key]; }
  pyramid(key) {
    let p = this.pyramids[key];
    if (!p) {
      const vals = this.arrays[key];
      if (!vals) return null;
      p = this.pyramids[key] = new Pyramid(vals, key !== "h" && key !== "v", key !== "l");
    }
    return p;
  }
  mapIndex(i) { return this.map ? this.map[clamp(i, 0, this.map.length - 1)] : i; }
  /** Base bar range [first, last] of bar k at this timeframe. */
  baseRange(k) { return this.first ? [this.first[k], this.first[k + 1] - 1] : [k, k]; }
}

// ---- the chart -------------------------------------------------------------------------------
class Chart {
  /**
   * host: an element with an id; spec: { series (makeSeries), panes (built by the page with
   * `chart.addPane`), arrays: { key: Float64Array per base bar }, trades, fills }.
   */
  constructor(host, spec, opts) {
    this.host = host; this.id = host.id; this.opts = opts || {};
    this.base = spec.series; this.baseArrays = spec.arrays || {}; this.baseTrades = spec.trades || null; this.baseFills = spec.fills || null;
    this.panes = []; this.colors = themeColors(); this.drawCount = 0; this.firstPaintMs = null;
    this.tf = this.base.timeframe;
    host.classList.add("bt-chart"); if (this.opts.small) host.classList.add("bt-small");
    host.tabIndex = 0;
    host.setAttribute("role", "img");
    host.setAttribute("aria-label", this.opts.label || "Chart; wheel to zoom, drag to pan, shift-drag to zoom into a range, double-click to reset");
    this.canvas = el("canvas"); this.overlay = el("canvas", { id: this.id + "-overlay" });
    this.tooltip = el("div", { cls: "bt-tooltip", id: this.id + "-tooltip", role: "status" });
    host.append(this.canvas, this.overlay, this.tooltip);
    this.ctx = this.canvas.getContext("2d", { alpha: false }); this.octx = this.overlay.getContext("2d");
    this.d = new ViewData(this, this.tf);
    this.boxMode = false; this.hover = null; this.drag = null;
    this.plot = { left: 0, right: 0, width: 0 };
  }
  color(name) { return this.colors[name] || name; }
  addPane(pane) { this.panes.push(pane); return pane; }
  /** Lays out, draws once synchronously and starts listening; call after adding panes. */
  /** The data at a timeframe, kept once built (with its pyramids) so switching back is instant. */
  viewFor(tf) {
    const key = tf ? tf.name : "";
    this.views = this.views || {};
    return this.views[key] || (this.views[key] = new ViewData(this, tf));
  }
  start(toolbarHost) {
    this.views = {};
    this.d = this.viewFor(this.tf);
    this.buildToolbar(toolbarHost);
    this.buildPaneButtons();
    this.resetView();
    this.measure();
    mark("layout");
    this.draw();
    this.firstPaintMs = performance.now();
    requestAnimationFrame(() => { this.firstFrameMs = performance.now(); });
    this.listen();
  }

  // -- geometry --
  xOf(i) { return this.plot.left + (i + 0.5 - this.x0) * this.ppb; }
  indexAt(px) { return Math.floor(this.x0 + (px - this.plot.left) / this.ppb); }
  measure() {
    const dpr = window.devicePixelRatio || 1;
    this.W = Math.max(200, this.host.clientWidth); this.H = Math.max(160, this.host.clientHeight);
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(this.W * dpr); c.height = Math.round(this.H * dpr);
      c.style.width = this.W + "px"; c.style.height = this.H + "px";
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0); this.octx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const total = this.panes.reduce((s, p) => s + p.weight, 0), avail = this.H - XAXIS_H;
    let top = 0;
    for (const p of this.panes) {
      const h = Math.round(avail * p.weight / total);
      p.top = top; p.bottom = top + h; p.plotTop = top + HEADER_H; p.plotBottom = p.bottom - 6;
      top += h;
    }
    if (this.panes.length) { const last = this.panes[this.panes.length - 1]; last.bottom = avail; last.plotBottom = avail - 6; }
  }
  setView(x0, x1) {
    const n = Math.max(1, this.d.n), minSpan = Math.min(n, 10) + 0.5, maxSpan = n * 1.15 + 10;
    let span = clamp(x1 - x0, minSpan, maxSpan);
    const keep = Math.min(n, 3);
    x0 = clamp(x0, -span + keep, n - keep);
    this.x0 = x0; this.x1 = x0 + span;
  }
  resetView() {
    const n = this.d.n, pad = Math.max(0.5, n * 0.01);
    this.setView(-pad, n + pad);
  }
  visible() {
    const n = this.d.n;
    return { from: clamp(Math.ceil(this.x0 - 0.5), 0, Math.max(0, n - 1)), to: clamp(Math.floor(this.x1 - 0.5), 0, Math.max(0, n - 1)) };
  }

  // -- drawing --
  requestDraw() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.draw(); });
  }
  draw() {
    const ctx = this.ctx, C = this.colors, n = this.d.n;
    ctx.fillStyle = C.bg; ctx.fillRect(0, 0, this.W, this.H);
    if (!n || !this.panes.length) return;
    ctx.font = CHART_FONT_PX + "px " + C.font;
    // y scales first (they decide the axis width), with the plot width from the previous pass
    if (!this.plot.width) this.plot = { left: 0, right: this.W - 70, width: this.W - 70 };
    const apply = () => { this.ppb = this.plot.width / (this.x1 - this.x0); };
    apply();
    let axisW = MIN_AXIS_W;
    const vis = this.visible(), a = vis.from, b = vis.to + 1;
    for (const p of this.panes) {
      this.scalePane(p, a, b);
      for (const t of p.ticks.ticks) axisW = Math.max(axisW, ctx.measureText(p.fmt(t, p.ticks.decimals)).width + 14);
    }
    axisW = Math.ceil(axisW);
    this.plot = { left: 0, right: this.W - axisW, width: this.W - axisW };
    apply();
    // grid: vertical lines at time ticks across every pane, horizontal at each pane's ticks
    const tticks = this.timeTicks(a, b);
    ctx.lineWidth = 1; ctx.strokeStyle = C.grid; ctx.beginPath();
    for (const p of this.panes) {
      for (const t of tticks) { const x = Math.round(t.x) + 0.5; ctx.moveTo(x, p.plotTop); ctx.lineTo(x, p.plotBottom); }
      for (const v of p.ticks.ticks) { const y = Math.round(p.y(v)) + 0.5; ctx.moveTo(this.plot.left, y); ctx.lineTo(this.plot.right, y); }
    }
    ctx.stroke();
    for (const p of this.panes) {
      ctx.save(); ctx.beginPath(); ctx.rect(this.plot.left, p.plotTop, this.plot.width, p.plotBottom - p.plotTop); ctx.clip();
      p.labelBoxes = []; p.headerNotes = [];
      for (const layer of p.layers) layer.draw(this, ctx, p);
      ctx.restore();
      this.drawAxis(p);
      this.drawHeader(p);
    }
    this.placePaneButtons();
    // pane separators and the time axis
    ctx.strokeStyle = C.axis; ctx.lineWidth = 1; ctx.beginPath();
    for (const p of this.panes.slice(1)) { ctx.moveTo(0, p.top + 0.5); ctx.lineTo(this.W, p.top + 0.5); }
    const xr = Math.round(this.plot.right) + 0.5, last = this.panes[this.panes.length - 1];
    ctx.moveTo(xr, 0); ctx.lineTo(xr, last.bottom);
    ctx.moveTo(0, last.bottom + 0.5); ctx.lineTo(this.W, last.bottom + 0.5);
    ctx.stroke();
    ctx.font = CHART_FONT_PX + "px " + C.font; ctx.textBaseline = "middle"; ctx.textAlign = "center";
    const ty = last.bottom + XAXIS_H / 2 + 1;
    for (const t of tticks) {
      ctx.font = (t.major ? "600 " : "") + CHART_FONT_PX + "px " + C.font;
      ctx.fillStyle = t.major ? C.fg : C.muted;
      ctx.fillText(t.text, clamp(t.x, 16, this.plot.right - 16), ty);
    }
    this.drawCount++;
    this.drawOverlay();
  }
  scalePane(p, a, b) {
    let lo = Infinity, hi = -Infinity;
    for (const layer of p.layers) {
      const e = layer.extent(this, a, b);
      if (!e) continue;
      if (e[0] < lo) lo = e[0];
      if (e[1] > hi) hi = e[1];
    }
    Object.assign(p, paneScale(lo, hi, Math.max(10, p.plotBottom - p.plotTop), p));
  }
  drawAxis(p) {
    const ctx = this.ctx, C = this.colors;
    ctx.font = CHART_FONT_PX + "px " + C.font; ctx.fillStyle = C.muted; ctx.textAlign = "left"; ctx.textBaseline = "middle";
    let lastY = Infinity;
    for (const t of p.ticks.ticks) {
      const y = p.y(t);
      if (y < p.plotTop - 2 || y > p.plotBottom + 2 || lastY - y < 14) continue;
      ctx.fillText(p.fmt(t, p.ticks.decimals), this.plot.right + 7, y);
      lastY = y;
    }
  }
  drawHeader(p) {
    const ctx = this.ctx, C = this.colors;
    ctx.textBaseline = "middle"; ctx.textAlign = "left";
    const y = p.top + HEADER_H / 2 + 1;
    let x = 8;
    ctx.font = "600 " + CHART_FONT_PX + "px " + C.font; ctx.fillStyle = C.fg;
    const title = p.title + (p.log ? " (log)" : "");
    ctx.fillText(title, x, y); x += ctx.measureText(title).width + 14;
    // Right of the legend: the pane's log toggle, then labels that found no room in the plot.
    let right = this.plot.right - 4 - (p.logButton ? this.logButtonW + 8 : 0);
    ctx.font = "600 " + CHART_FONT_PX + "px " + C.font; ctx.textAlign = "right";
    p.headerPlaced = [];
    for (const note of (p.headerNotes || []).slice().reverse()) {
      const w = ctx.measureText(note.text).width;
      if (right - w < x + 40) break;
      ctx.fillStyle = note.color; ctx.fillText(note.text, right, y);
      p.headerPlaced.push({ x: right - w, y: p.top, w, h: HEADER_H, text: note.text });
      right -= w + 14;
    }
    ctx.textAlign = "left"; ctx.font = CHART_FONT_PX + "px " + C.font;
    const items = [];
    for (const layer of p.layers) if (layer.legend) items.push(...layer.legend(this));
    p.legendShown = [];
    for (const it of items) {
      const w = ctx.measureText(it.label).width + (it.glyph ? 18 : 22);
      if (x + w > right - 4) break;
      p.legendShown.push(it.label);
      ctx.strokeStyle = it.color; ctx.fillStyle = it.color; ctx.lineWidth = 2;
      if (it.box) ctx.fillRect(x, y - 4, 12, 8);
      else if (it.tri) { ctx.beginPath(); ctx.moveTo(x + 6, y - 5); ctx.lineTo(x + 11, y + 4); ctx.lineTo(x + 1, y + 4); ctx.closePath(); ctx.fill(); }
      else if (it.glyph) { const g = new Path2D(); traceExitGlyph(g, it.glyph, x + 5, y, 4); ctx.lineWidth = 1.4; paintGlyphs(ctx, this, it.glyph, g, it.color); }
      else { ctx.setLineDash(it.dash || []); ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + 13, y); ctx.stroke(); ctx.setLineDash([]); }
      ctx.fillStyle = C.muted; ctx.fillText(it.label, x + (it.glyph ? 13 : 17), y);
      x += w;
    }
  }
  timeTicks(a, b) {
    const t = this.d.s.t, out = [];
    if (b - a < 1) return out;
    const t0 = t[a], t1 = t[b - 1], maxLabels = Math.max(2, Math.floor(this.plot.width / 90));
    let st = TIME_STEPS[TIME_STEPS.length - 1];
    const minStep = this.tf ? this.tf.seconds : 0;
    for (const s of TIME_STEPS) { if (s[0] >= minStep * 0.99 && (t1 - t0) / s[0] <= maxLabels) { st = s; break; } }
    let tick = timeStepFloor(t0, st);
    if (tick < t0) tick = timeStepNext(tick, st);
    let lastX = -Infinity, lastIdx = -1, guard = 0, prev = null;
    while (tick <= t1 && guard++ < 400) {
      const i = lowerBound(t, tick);
      if (i >= b) break;
      if (i !== lastIdx) {
        // A tick inside a gap (a weekend, a closed session) labels the first bar after it.
        const x = this.xOf(i), lab = timeTickLabel(tick, st);
        if (x - lastX >= 64 && x >= this.plot.left && x <= this.plot.right) {
          // Day numbers get their month when the month changes (or on the first label); clock
          // times get their day.
          const d = utc(tick), kind = st[1];
          if ((kind === "d" || kind === "w") && !lab.major && (!prev || prev.getUTCMonth() !== d.getUTCMonth())) lab.text = MONTHS[d.getUTCMonth()] + " " + d.getUTCDate();
          else if ((kind === "h" || kind === "m" || kind === "s") && !lab.major && (!prev || prev.getUTCDate() !== d.getUTCDate())) lab.text = MONTHS[d.getUTCMonth()] + " " + d.getUTCDate() + " " + lab.text;
          else if (kind === "M" && !lab.major && !prev) lab.text += " " + d.getUTCFullYear();
          out.push({ x, text: lab.text, major: lab.major }); lastX = x; prev = d;
        }
        lastIdx = i;
      }
      tick = timeStepNext(tick, st);
    }
    return out;
  }

  // -- crosshair and tooltip --
  drawOverlay() {
    const o = this.octx, C = this.colors;
    o.clearRect(0, 0, this.W, this.H);
    if (this.box) {
      const x1 = Math.min(this.box.x1, this.box.x2), x2 = Math.max(this.box.x1, this.box.x2), last = this.panes[this.panes.length - 1];
      o.fillStyle = "rgba(31,111,209,0.12)"; o.fillRect(x1, 0, x2 - x1, last.bottom);
      o.strokeStyle = C.accent; o.lineWidth = 1; o.strokeRect(Math.round(x1) + 0.5, 0.5, Math.round(x2 - x1), last.bottom - 1);
    }
    const h = this.hover;
    if (!h || this.drag) { this.tooltip.style.display = "none"; return; }
    const i = h.index, x = Math.round(this.xOf(i)) + 0.5, last = this.panes[this.panes.length - 1];
    o.strokeStyle = C.cross; o.lineWidth = 1; o.setLineDash([4, 3]); o.beginPath();
    for (const p of this.panes) { o.moveTo(x, p.plotTop); o.lineTo(x, p.plotBottom); }
    const hp = this.panes.find(p => h.y >= p.plotTop && h.y <= p.plotBottom);
    if (hp) { const y = Math.round(h.y) + 0.5; o.moveTo(this.plot.left, y); o.lineTo(this.plot.right, y); }
    o.stroke(); o.setLineDash([]);
    o.font = CHART_FONT_PX + "px " + C.font; o.textBaseline = "middle";
    if (hp) {
      const v = hp.valueAt(h.y), text = hp.format === "volume" ? fmtCompact(v) : hp.fmt(v, Math.min(10, (hp.ticks.decimals || 0) + 1));
      const w = o.measureText(text).width + 10;
      o.fillStyle = C["label-bg"]; o.fillRect(this.plot.right + 1, h.y - 9, w, 18);
      o.fillStyle = C["label-fg"]; o.textAlign = "left"; o.fillText(text, this.plot.right + 6, h.y);
    }
    const tt = fmtTime(this.d.s.t[i]), tw = o.measureText(tt).width + 12, ty = last.bottom + 1;
    const tx = clamp(x - tw / 2, 0, this.W - tw);
    o.fillStyle = C["label-bg"]; o.fillRect(tx, ty, tw, XAXIS_H - 2);
    o.fillStyle = C["label-fg"]; o.textAlign = "center"; o.fillText(tt, tx + tw / 2, ty + XAXIS_H / 2);
    this.fillTooltip(i);
    this.placeTooltip(x, h.y);
  }
  fillTooltip(i) {
    const rows = [];
    for (const p of this.panes) {
      let first = true;
      for (const layer of p.layers) {
        if (!layer.tooltip) continue;
        for (const r of layer.tooltip(this, i)) { if (r) { if (first && rows.length) r.sep = true; first = false; rows.push(r); } }
      }
    }
    const t = this.d.s.t[i], tfName = this.tf ? this.tf.name : "";
    const head = el("div", { cls: "bt-tt-time", "data-k": "time", "data-time": String(t), text: fmtTime(t) + (tfName ? "  ·  " + tfName : "") });
    const table = el("table");
    for (const r of rows) {
      const th = el("th", null, [r.color ? el("span", { cls: "bt-sw", style: "background:" + r.color }) : null, r.label]);
      table.append(el("tr", { "data-k": r.k, cls: r.sep ? "bt-tt-sep" : null }, [th, el("td", { cls: r.cls || null, text: r.value })]));
    }
    this.tooltip.replaceChildren(head, table);
    this.tooltip.dataset.index = String(i);
  }
  /** Beside the crosshair point, never over it: right of it, or left when there is no room. */
  placeTooltip(x, y) {
    const tt = this.tooltip;
    tt.style.display = "block";
    const w = tt.offsetWidth, h = tt.offsetHeight, gap = 16;
    let left = x + gap;
    if (left + w > this.plot.right - 4) left = x - gap - w;
    if (left < 2) left = Math.min(this.W - w - 2, x + gap);
    let top = y - h / 2;
    top = clamp(top, 4, Math.max(4, this.H - XAXIS_H - h - 4));
    tt.style.left = Math.round(left) + "px"; tt.style.top = Math.round(top) + "px";
  }

  // -- interaction --
  listen() {
    const ov = this.overlay, host = this.host;
    const local = (e) => { const r = host.getBoundingClientRect(); return [e.clientX - r.left - host.clientLeft, e.clientY - r.top - host.clientTop]; };
    ov.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      const [x, y] = local(e);
      host.focus({ preventScroll: true });
      ov.setPointerCapture(e.pointerId);
      this.drag = { x, y, x0: this.x0, x1: this.x1, box: e.shiftKey || this.boxMode, moved: false };
      if (this.drag.box) this.box = { x1: x, x2: x };
    });
    ov.addEventListener("pointermove", (e) => {
      const [x, y] = local(e);
      if (this.drag) {
        const dx = x - this.drag.x;
        if (Math.abs(dx) > 2) this.drag.moved = true;
        if (this.drag.box) { this.box.x2 = clamp(x, this.plot.left, this.plot.right); this.drawOverlay(); }
        else { const shift = dx / this.ppb; this.setView(this.drag.x0 - shift, this.drag.x1 - shift); this.requestDraw(); }
        return;
      }
      this.setHover(x, y);
    });
    const end = (e) => {
      if (!this.drag) return;
      const d = this.drag; this.drag = null;
      if (d.box && this.box) {
        const xa = Math.min(this.box.x1, this.box.x2), xb = Math.max(this.box.x1, this.box.x2);
        this.box = null;
        if (xb - xa > 4) this.zoomToPixels(xa, xb); else this.drawOverlay();
      }
      const [x, y] = local(e);
      this.setHover(x, y);
    };
    ov.addEventListener("pointerup", end);
    ov.addEventListener("pointercancel", end);
    ov.addEventListener("pointerleave", () => { if (!this.drag) { this.hover = null; this.drawOverlay(); } });
    ov.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x] = local(e);
      const dx = e.deltaMode === 1 ? e.deltaX * 16 : e.deltaX, dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      if (Math.abs(dx) > Math.abs(dy)) { const shift = dx / this.ppb; this.setView(this.x0 + shift, this.x1 + shift); }
      else this.zoomAt(x, Math.exp(clamp(dy, -300, 300) * 0.0016));
      this.requestDraw();
    }, { passive: false });
    ov.addEventListener("dblclick", () => { this.resetView(); this.requestDraw(); });
    host.addEventListener("keydown", (e) => {
      const span = this.x1 - this.x0;
      if (e.key === "ArrowLeft") this.setView(this.x0 - span * 0.1, this.x1 - span * 0.1);
      else if (e.key === "ArrowRight") this.setView(this.x0 + span * 0.1, this.x1 + span * 0.1);
      else if (e.key === "+" || e.key === "=") this.zoomAt(this.plot.left + this.plot.width / 2, 0.8);
      else if (e.key === "-" || e.key === "_") this.zoomAt(this.plot.left + this.plot.width / 2, 1.25);
      else if (e.key === "0" || e.key === "Home") this.resetView();
      else return;
      e.preventDefault(); this.requestDraw();
    });
    if (window.ResizeObserver) {
      let first = true;
      this.observer = new ResizeObserver(() => { if (first) { first = false; return; } if (!this.destroyed) { this.measure(); this.draw(); } });
      this.observer.observe(host);
    } else window.addEventListener("resize", () => { this.measure(); this.draw(); });
    const mq = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)");
    if (mq && mq.addEventListener) mq.addEventListener("change", () => { this.colors = themeColors(); this.draw(); });
  }
  setHover(x, y) {
    if (x < this.plot.left || x > this.plot.right || !this.d.n) { this.hover = null; this.drawOverlay(); return; }
    const i = clamp(this.indexAt(x), 0, this.d.n - 1);
    this.hover = { index: i, x, y };
    this.drawOverlay();
  }
  zoomAt(px, factor) {
    const anchor = this.x0 + (px - this.plot.left) / this.ppb;
    this.setView(anchor - (anchor - this.x0) * factor, anchor + (this.x1 - anchor) * factor);
  }
  zoomToPixels(xa, xb) {
    const a = this.x0 + (xa - this.plot.left) / this.ppb, b = this.x0 + (xb - this.plot.left) / this.ppb;
    this.setView(a, b); this.draw();
  }
  /** Shows bars from..to (indices at the current timeframe) with a margin. */
  zoomToBars(from, to, margin) {
    const span = Math.max(to - from + 1, 12), m = span * (margin === undefined ? 0.25 : margin);
    this.setView(from - m, to + 1 + m); this.draw();
  }
  /** Shows base bars from..to, whatever the timeframe. */
  zoomToBaseBars(from, to) { this.zoomToBars(this.d.mapIndex(from), this.d.mapIndex(to)); }
  setTimeframe(name) {
    const tf = timeframeNamed(name) || this.base.timeframe;
    const t = this.d.s.t, v = this.visible(), tFrom = t[v.from], tTo = t[v.to];
    const wasAll = v.from === 0 && v.to >= this.d.n - 1;
    this.tf = tf; this.d = this.viewFor(tf);
    const nt = this.d.s.t;
    const from = Math.max(0, lowerBound(nt, tFrom + 1) - 1), to = Math.max(from, lowerBound(nt, tTo + 1) - 1);
    if (wasAll) this.resetView(); else this.setView(from - 0.5, to + 1.5);
    this.hover = null;
    for (const b of this.tfButtons || []) b.setAttribute("aria-pressed", String(b.dataset.tf === tf.name));
    this.draw();
  }
  timeframes() {
    const bt = this.base.timeframe;
    if (!bt) return [];
    return TIMEFRAMES.filter(tf => tf.seconds >= bt.seconds).map(tf => tf.name);
  }
  /** A log-scale toggle at the right of each pane that allows one (price, equity), beside its header. */
  buildPaneButtons() {
    for (const p of this.panes) {
      if (!p.logAllowed) continue;
      const name = p.logLabel || p.title.toLowerCase();
      p.logButton = el("button", { cls: "bt-pane-log", id: this.id + "-log-" + p.id, "aria-pressed": String(!!p.logWanted),
        "aria-label": "Log scale of the " + name + " pane", title: "Log scale of the " + name + " pane (while every value in view is positive)",
        text: "log", onclick: () => this.setLog(p.id, !p.logWanted) });
      this.host.append(p.logButton);
      this.logButtonW = Math.max(this.logButtonW || 0, p.logButton.offsetWidth || 30);
    }
  }
  /** Keeps each pane's log toggle at the right end of its header, and says when log scale cannot apply. */
  placePaneButtons() {
    for (const p of this.panes) {
      const b = p.logButton;
      if (!b) continue;
      b.style.top = (p.top + 2) + "px"; b.style.right = Math.round(this.W - this.plot.right + 4) + "px";
      b.classList.toggle("bt-unavailable", !!p.logWanted && !p.log);
    }
  }
  setLog(paneId, on) {
    const p = this.panes.find(q => q.id === paneId);
    if (!p) return;
    p.logWanted = on;
    const b = document.getElementById(this.id + "-log-" + paneId);
    if (b) b.setAttribute("aria-pressed", String(on));
    this.draw();
  }
  buildToolbar(host) {
    if (!host) return;
    const bar = el("div", { cls: "bt-toolbar", id: this.id + "-toolbar" });
    const tfs = this.timeframes();
    if (tfs.length > 1) {
      const g = el("div", { cls: "bt-group", role: "group", "aria-label": "Timeframe" });
      this.tfButtons = tfs.map(name => el("button", { id: this.id + "-tf-" + name, "data-tf": name, "aria-pressed": String(this.tf && this.tf.name === name),
        title: "Aggregate candles to " + name + " (UTC buckets)", onclick: () => this.setTimeframe(name), text: name }));
      g.append(...this.tfButtons);
      bar.append(g);
    }
    const z = el("div", { cls: "bt-group", role: "group", "aria-label": "Zoom" });
    const box = el("button", { id: this.id + "-boxzoom", "aria-pressed": "false", title: "Drag a range to zoom into it (or hold Shift while dragging)", text: "Box zoom" });
    box.addEventListener("click", () => { this.boxMode = !this.boxMode; box.setAttribute("aria-pressed", String(this.boxMode)); });
    z.append(el("button", { id: this.id + "-zoomin", title: "Zoom in", text: "+", onclick: () => { this.zoomAt(this.plot.left + this.plot.width / 2, 0.6); this.draw(); } }),
      el("button", { id: this.id + "-zoomout", title: "Zoom out", text: "−", onclick: () => { this.zoomAt(this.plot.left + this.plot.width / 2, 1.6); this.draw(); } }),
      box, el("button", { id: this.id + "-reset", title: "Show everything (double-click the chart)", text: "Reset", onclick: () => { this.resetView(); this.draw(); } }));
    bar.append(z, el("span", { cls: "bt-hint", text: "wheel: zoom · drag: pan · shift-drag: box zoom · double-click: reset" }));
    host.append(bar);
  }

  // -- test hook --
  api() {
    const self = this;
    return {
      state() {
        const v = self.visible(), d = self.d, t = d.s.t, br = [d.baseRange(v.from)[0], d.baseRange(v.to)[1]];
        const log = {};
        for (const p of self.panes) if (p.logAllowed) log[p.id] = !!p.log;
        return { id: self.id, timeframe: self.tf ? self.tf.name : null, baseTimeframe: self.base.timeframe ? self.base.timeframe.name : null,
          candles: d.n, baseCandles: self.base.n, visible: v, visibleBase: { from: br[0], to: br[1] },
          visibleTime: { from: t[v.from], to: t[v.to] }, view: { x0: self.x0, x1: self.x1 }, barsPerPixel: 1 / self.ppb,
          panes: self.panes.map(p => p.id), log, drawCount: self.drawCount, firstPaintMs: self.firstPaintMs,
          firstFrameMs: self.firstFrameMs || null, tooltipIndex: self.hover ? self.hover.index : null,
          timeframes: self.timeframes(), analysis: self.analysis || null };
      },
      /** Base-bar values [from, to) of a drawn series (`equity`, `position`, `dd`, ...); null when absent. */
      baseValues(key, from, to) { const a = self.baseArrays[key]; return a ? Array.from(a.subarray(from, to)) : null; },
      /** Labels of the chart (chart-local CSS pixels): placed in a pane's plot, or in its header (`beside`). */
      labels() {
        const out = [];
        for (const p of self.panes) {
          for (const b of p.labelBoxes || []) out.push({ pane: p.id, text: b.text, left: b.x, top: b.y, right: b.x + b.w, bottom: b.y + b.h, beside: false, point: !!b.point });
          for (const b of p.headerPlaced || []) out.push({ pane: p.id, text: b.text, left: b.x, top: b.y, right: b.x + b.w, bottom: b.y + b.h, beside: true, point: true });
        }
        return out;
      },
      /** The points [x, y] (chart-local CSS pixels) of a drawn series at the visible bars of the current timeframe. */
      path(key, paneId) {
        const p = self.panes.find(q => q.id === paneId), vals = self.d.get(key), v = self.visible(), out = [];
        if (!p || !vals) return null;
        for (let i = Math.max(0, v.from - 1); i <= Math.min(self.d.n - 1, v.to + 1); i++) if (vals[i] === vals[i]) out.push([self.xOf(i), p.y(vals[i])]);
        return out;
      },
      /** The legend items drawn in a pane's header (their labels). */
      legend(paneId) { const p = self.panes.find(q => q.id === paneId); return p ? (p.legendShown || []).slice() : null; },
      /** The pane's plot area (chart-local CSS pixels). */
      plotArea(paneId) { const p = self.panes.find(q => q.id === paneId); return p ? { left: self.plot.left, right: self.plot.right, top: p.plotTop, bottom: p.plotBottom } : null; },
      /** The fills as decoded: count, drawn bar, price and side (buy or not) of each. */
      fills() { const F = self.baseFills; return F ? { n: F.n, index: Array.from(F.index), price: Array.from(F.price), buy: F.buy.slice() } : null; },
      bar(i) { const s = self.d.s; return { time: s.t[i], open: s.o[i], high: s.h[i], low: s.l[i], close: s.c[i], volume: s.v[i] }; },
      /** Viewport coordinates of bar i's centre in a pane (at its close in the price pane). */
      clientPoint(i, paneId) {
        const r = self.host.getBoundingClientRect(), p = self.panes.find(q => q.id === paneId) || self.panes[0];
        const c = self.d.s.c[i], y = p.id === "price" && c === c ? p.y(c) : (p.plotTop + p.plotBottom) / 2;
        return { x: r.left + self.host.clientLeft + self.xOf(i), y: r.top + self.host.clientTop + clamp(y, p.plotTop + 2, p.plotBottom - 2) };
      },
      zoomTo(from, to) { self.setView(from, to + 1); self.draw(); return this.state(); },
      reset() { self.resetView(); self.draw(); return this.state(); },
      setTimeframe(name) { self.setTimeframe(name); return this.state(); },
      timeframes() { return self.timeframes(); },
      redrawMs() { const t0 = performance.now(); self.draw(); return performance.now() - t0; },
      /** Milliseconds per layer of one draw, for benchmarks. */
      profile() {
        const out = {}, restore = [];
        for (const p of self.panes) p.layers.forEach((layer, k) => {
          const own = Object.prototype.hasOwnProperty.call(layer, "draw"), orig = layer.draw;
          restore.push(() => { if (own) layer.draw = orig; else delete layer.draw; });
          layer.draw = function () { const t0 = performance.now(); orig.apply(this, arguments); out[p.id + "/" + k + ":" + layer.constructor.name] = performance.now() - t0; };
        });
        const t0 = performance.now(); self.draw(); out.total = performance.now() - t0;
        for (const r of restore) r();
        return out;
      },
      get firstPaintMs() { return self.firstPaintMs; },
    };
  }
}
