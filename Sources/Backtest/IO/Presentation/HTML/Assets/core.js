// ---- data decoding ---------------------------------------------------------------------------
/**
 * Float64Array from a numeric array of the data: a JSON array (null for undefined values, read as
 * NaN) or `{"f64": base64}`, little-endian IEEE-754 doubles (exact and compact for long series).
 */
function f64(a, n) {
  if (a && typeof a === "object" && !Array.isArray(a) && typeof a.f64 === "string") {
    const out = decodeF64(a.f64);
    if (n === undefined || out.length === n) return out;
    const fixed = new Float64Array(n).fill(NaN);
    fixed.set(out.subarray(0, Math.min(n, out.length)));
    return fixed;
  }
  const len = n === undefined ? (a ? a.length : 0) : n;
  const out = new Float64Array(len);
  if (!a) { out.fill(NaN); return out; }
  for (let i = 0; i < len; i++) { const v = a[i]; out[i] = (v === null || v === undefined) ? NaN : v; }
  return out;
}
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;
function decodeF64(b64) {
  let bytes;
  if (typeof Uint8Array.fromBase64 === "function") bytes = Uint8Array.fromBase64(b64);
  else {
    const bin = atob(b64);
    bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  }
  const n = bytes.length >> 3;
  if (LITTLE_ENDIAN) return new Float64Array(bytes.buffer, bytes.byteOffset, n).slice();
  const dv = new DataView(bytes.buffer, bytes.byteOffset), out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = dv.getFloat64(8 * i, true);
  return out;
}
/** Length of a numeric array of the data in either form (or an array already decoded). */
function numLength(a) { return !a ? 0 : Array.isArray(a) || ArrayBuffer.isView(a) ? a.length : typeof a.f64 === "string" ? Math.floor(a.f64.replace(/=+$/, "").length * 3 / 4 / 8) : 0; }
/**
 * A curve stored as its ledger (`{"ledger": {at, cash, position}}`: the bars where cash or
 * position change, and their values from there on) over the closes: equity[i] = cash +
 * position * close[i], the engine's own sum, so the values are the engine's bit for bit.
 * Without `at` and `position` the fills (decodeFills) imply them: bar 0 and each bar with a
 * fill, the position the running sum of the signed quantities in fill order.
 * Returns { equity, position } (Float64Array of n), or null when the ledger is malformed.
 */
function ledgerCurve(l, close, n, fills) {
  if (!l || !l.cash) return null;
  let at = l.at, pos = null;
  if (!at) {
    at = [0]; pos = [0];
    let p = 0;
    for (let k = 0; fills && k < fills.n; k++) {
      p += fills.buy[k] ? fills.qty[k] : -fills.qty[k];
      if (fills.index[k] === at[at.length - 1]) pos[pos.length - 1] = p; else { at.push(fills.index[k]); pos.push(p); }
    }
  }
  if (!Array.isArray(at) || !at.length || at[0] !== 0) return null;
  const m = at.length, cash = f64(l.cash, m);
  if (!pos) pos = f64(l.position, m);
  const equity = new Float64Array(n), position = new Float64Array(n);
  for (let k = 0; k < m; k++) {
    const from = at[k] | 0, to = k + 1 < m ? Math.min(n, at[k + 1] | 0) : n, c = cash[k], p = pos[k];
    if (from < 0 || to < from) return null;
    for (let i = from; i < to; i++) { equity[i] = c + p * close[i]; position[i] = p; }
  }
  return { equity, position };
}
/** Bar times in epoch seconds from `time_deltas` (first absolute, then differences) or `time`. */
function decodeTime(obj) {
  if (obj.time_deltas) {
    const d = obj.time_deltas, out = new Float64Array(d.length);
    let t = 0;
    for (let i = 0; i < d.length; i++) { t += d[i]; out[i] = t; }
    return out;
  }
  if (obj.time) return f64(obj.time.map(v => typeof v === "string" ? Date.parse(v) / 1000 : v));
  return new Float64Array(0);
}
/** A time given as epoch seconds or an ISO-8601 string, in epoch seconds. */
function timeValue(v) { return typeof v === "string" ? Date.parse(v) / 1000 : v; }
/** First index i with a[i] >= x in a sorted array (a.length when none). */
function lowerBound(a, x) {
  let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if (a[m] < x) lo = m + 1; else hi = m; }
  return lo;
}
function clamp(x, a, b) { return x < a ? a : x > b ? b : x; }
function el(tag, attrs, children) {
  const e = document.createElement(tag);
  if (attrs) for (const k in attrs) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "cls") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  if (children) for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// ---- UTC calendar ----------------------------------------------------------------------------
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
function pad2(n) { return n < 10 ? "0" + n : "" + n; }
function utc(t) { return new Date(t * 1000); }
/**
 * `2004-08-19`, with ` 14:30` (and seconds when present) for times not at midnight; a time with
 * a fraction of a second (a replay's steps) to the millisecond: `2004-08-19 14:30:05.100`.
 */
function fmtTime(t, forceClock) {
  if (!isFinite(t)) return "";
  if (t !== Math.floor(t)) {
    const ms = Math.round(t * 1000), whole = Math.floor(ms / 1000), frac = ms - whole * 1000;
    if (frac) return fmtTime(whole, true).slice(0, 16) + ":" + pad2(utc(whole).getUTCSeconds()) + "." + String(frac).padStart(3, "0");
    t = whole;
  }
  const d = utc(t);
  let s = d.getUTCFullYear() + "-" + pad2(d.getUTCMonth() + 1) + "-" + pad2(d.getUTCDate());
  const secs = ((t % 86400) + 86400) % 86400;
  if (secs !== 0 || forceClock) {
    s += " " + pad2(d.getUTCHours()) + ":" + pad2(d.getUTCMinutes());
    if (d.getUTCSeconds()) s += ":" + pad2(d.getUTCSeconds());
  }
  return s;
}
function monthStart(t) { const d = utc(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000; }
function addMonths(t, k) { const d = utc(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1) / 1000; }
/** A bar count as a readable duration at the given bar spacing: `401 bars (584 days)`. */
function fmtSpan(bars, seconds) {
  const days = seconds / 86400;
  let s = fmtInt(bars) + (bars === 1 ? " bar" : " bars");
  if (days >= 730) s += " (" + (days / 365.25).toFixed(1) + " years)";
  else if (days >= 2) s += " (" + Math.round(days) + " days)";
  else if (seconds >= 7200) s += " (" + (seconds / 3600).toFixed(1) + " hours)";
  return s;
}

// ---- timeframes ------------------------------------------------------------------------------
/** The timeframes bt knows, with calendar-aligned UTC buckets (weeks start Monday 00:00). */
const TIMEFRAMES = [
  ["1m", 60], ["5m", 300], ["15m", 900], ["30m", 1800], ["1h", 3600], ["4h", 14400],
  ["1d", 86400], ["1w", 604800], ["1M", 2592000],
].map(([name, seconds]) => ({ name, seconds }));
const MONDAY = 4 * 86400;
function bucketStart(tf, t) {
  if (tf.name === "1M") return monthStart(t);
  if (tf.name === "1w") return Math.floor((t - MONDAY) / 604800) * 604800 + MONDAY;
  return Math.floor(t / tf.seconds) * tf.seconds;
}
function bucketEnd(tf, start) { return tf.name === "1M" ? addMonths(start, 1) : start + tf.seconds; }
function timeframeNamed(name) { return TIMEFRAMES.find(tf => tf.name === name) || null; }
/** The timeframe matching the median bar spacing (within 10%; months 28 to 31 days), else null. */
function inferTimeframe(t) {
  const n = t.length;
  if (n < 2) return null;
  const step = Math.max(1, Math.floor((n - 1) / 2000)), gaps = [];
  for (let i = 1; i < n; i += step) { const g = t[i] - t[i - 1]; if (g > 0) gaps.push(g); }
  if (!gaps.length) return null;
  gaps.sort((a, b) => a - b);
  const g = gaps[gaps.length >> 1];
  for (const tf of TIMEFRAMES) {
    if (tf.name === "1M" ? (g >= 28 * 86400 && g <= 31 * 86400) : Math.abs(g - tf.seconds) <= tf.seconds / 10) return tf;
  }
  return null;
}

/** Candles in columns: t (epoch s), o, h, l, c, v as Float64Arrays. */
function makeSeries(src) {
  const t = decodeTime(src), n = t.length;
  const s = { t, n, symbol: src.symbol || "", hasOHLC: !!(src.open && src.high && src.low), hasVolume: !!src.volume };
  s.c = f64(src.close, n);
  s.o = s.hasOHLC ? f64(src.open, n) : s.c;
  s.h = s.hasOHLC ? f64(src.high, n) : s.c;
  s.l = s.hasOHLC ? f64(src.low, n) : s.c;
  s.v = s.hasVolume ? f64(src.volume, n) : new Float64Array(n);
  s.hasClose = !!src.close;
  s.timeframe = (src.timeframe && timeframeNamed(src.timeframe)) || inferTimeframe(t);
  return s;
}

/**
 * The series resampled into buckets of `tf`: first open, max high, min low, last close, summed
 * volume, each bar stamped with its bucket start; `first[k]` is bucket k's first base bar and
 * `map[i]` the bucket of base bar i. Empty buckets make no bar. O(n); times must ascend.
 */
function aggregate(s, tf) {
  const n = s.n, T = new Float64Array(n), O = new Float64Array(n), H = new Float64Array(n),
    L = new Float64Array(n), C = new Float64Array(n), V = new Float64Array(n),
    first = new Int32Array(n + 1), map = new Int32Array(n);
  let k = -1, end = -Infinity;
  const t = s.t, o = s.o, h = s.h, l = s.l, c = s.c, v = s.v;
  for (let i = 0; i < n; i++) {
    if (t[i] >= end) {
      const start = bucketStart(tf, t[i]);
      end = bucketEnd(tf, start);
      k++; T[k] = start; O[k] = o[i]; H[k] = h[i]; L[k] = l[i]; C[k] = c[i]; V[k] = v[i]; first[k] = i;
    } else {
      if (h[i] > H[k]) H[k] = h[i];
      if (l[i] < L[k]) L[k] = l[i];
      C[k] = c[i]; V[k] += v[i];
    }
    map[i] = k;
  }
  const m = k + 1;
  first[m] = n;
  return { t: T.slice(0, m), o: O.slice(0, m), h: H.slice(0, m), l: L.slice(0, m), c: C.slice(0, m), v: V.slice(0, m),
    n: m, first: first.slice(0, m + 1), map, symbol: s.symbol, hasOHLC: s.hasOHLC, hasVolume: s.hasVolume,
    hasClose: s.hasClose, timeframe: tf };
}
/** A per-bar base series at an aggregated timeframe: each bucket takes its last bar's value. */
function lastInBucket(values, agg) {
  if (!agg.first) return values;
  const out = new Float64Array(agg.n);
  for (let k = 0; k < agg.n; k++) out[k] = values[agg.first[k + 1] - 1];
  return out;
}

// ---- min/max pyramid -------------------------------------------------------------------------
/**
 * Level j holds the min and max of blocks of 2^j values (NaN ignored), so the extremes of any
 * index range come from O(log n) blocks, as in a bottom-up segment tree. Memory about 2n per
 * side; built once per series and timeframe, O(n).
 */
class Pyramid {
  constructor(values, needMin, needMax) {
    this.n = values.length;
    this.mins = []; this.maxs = [];
    let lo = values, hi = values;
    if (needMin !== false) { this.mins.push(lo); }
    if (needMax !== false) { this.maxs.push(hi); }
    let len = this.n;
    while (len > 1) {
      const half = (len + 1) >> 1;
      if (needMin !== false) {
        const prev = this.mins[this.mins.length - 1], next = new Float64Array(half);
        for (let i = 0; i < half; i++) {
          const a = prev[2 * i], b = 2 * i + 1 < len ? prev[2 * i + 1] : NaN;
          next[i] = a < b || b !== b ? a : b;
        }
        this.mins.push(next);
      }
      if (needMax !== false) {
        const prev = this.maxs[this.maxs.length - 1], next = new Float64Array(half);
        for (let i = 0; i < half; i++) {
          const a = prev[2 * i], b = 2 * i + 1 < len ? prev[2 * i + 1] : NaN;
          next[i] = a > b || b !== b ? a : b;
        }
        this.maxs.push(next);
      }
      len = half;
    }
  }
  /** Minimum over [a, b), NaN when the range holds no number. */
  min(a, b) {
    let r = Infinity, j = 0;
    a = Math.max(0, a); b = Math.min(this.n, b);
    while (a < b) {
      const lv = this.mins[j];
      if (a & 1) { const x = lv[a++]; if (x < r) r = x; }
      if (b & 1) { const x = lv[--b]; if (x < r) r = x; }
      a >>= 1; b >>= 1; j++;
    }
    return r === Infinity ? NaN : r;
  }
  /** Maximum over [a, b), NaN when the range holds no number. */
  max(a, b) {
    let r = -Infinity, j = 0;
    a = Math.max(0, a); b = Math.min(this.n, b);
    while (a < b) {
      const lv = this.maxs[j];
      if (a & 1) { const x = lv[a++]; if (x > r) r = x; }
      if (b & 1) { const x = lv[--b]; if (x > r) r = x; }
      a >>= 1; b >>= 1; j++;
    }
    return r === -Infinity ? NaN : r;
  }
}
/** Running sums (prefix[i] = sum of values[0..<i], NaN counted as 0) for O(1) range sums. */
function prefixSums(values) {
  const p = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) { const v = values[i]; p[i + 1] = p[i] + (v === v ? v : 0); }
  return p;
}

// ---- ticks -----------------------------------------------------------------------------------
/** A round step (1, 2, 2.5 or 5 times a power of ten) giving about `count` intervals. */
function niceStep(span, count) {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, count), p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
}
/** Decimals needed to print multiples of `step` exactly. */
function stepDecimals(step) {
  for (let k = 0; k < 12; k++) {
    const x = step * Math.pow(10, k);
    if (Math.abs(x - Math.round(x)) < 1e-6 * Math.max(1, x)) return k;
  }
  return 12;
}
/** Round ticks inside [min, max]: at least two whenever the range allows, about `count`. */
function linearTicks(min, max, count) {
  let best = null;
  for (let c = Math.max(1, count); c <= count + 6; c++) {
    const step = niceStep(max - min, c), out = [];
    const start = Math.ceil(min / step - 1e-9);
    for (let k = start; k * step <= max + step * 1e-9 && out.length < 100; k++) out.push(k * step);
    best = { ticks: out.map(v => Math.abs(v) < step * 1e-9 ? 0 : v), decimals: stepDecimals(step), step };
    if (out.length >= 2) break;
  }
  return best;
}
/** Ticks for a log axis: 1-2-5 per decade when the range spans decades, else round linear ticks. */
function logTicks(min, max, count) {
  if (!(min > 0) || max / min < 8) return linearTicks(min, max, count);
  const out = [];
  const lo = Math.floor(Math.log10(min)), hi = Math.ceil(Math.log10(max));
  const decades = hi - lo;
  const mults = decades * 3 <= count ? [1, 2, 5] : decades <= count ? [1] : null;
  const every = mults ? 1 : Math.ceil(decades / count);
  for (let e = lo; e <= hi; e += every) {
    for (const m of (mults || [1])) {
      const v = m * Math.pow(10, e);
      if (v >= min * 0.999 && v <= max * 1.001) out.push(v);
    }
  }
  if (out.length < 2) return linearTicks(min, max, count);
  const minStep = out.reduce((s, v) => Math.min(s, v), Infinity);
  return { ticks: out, decimals: Math.max(0, stepDecimals(minStep)), step: minStep, log: true };
}

/** Time-axis steps: [seconds (nominal), kind, count] tried from fine to coarse. */
const TIME_STEPS = [
  [1, "s", 1], [5, "s", 5], [10, "s", 10], [15, "s", 15], [30, "s", 30], [60, "m", 1], [300, "m", 5], [900, "m", 15], [1800, "m", 30], [3600, "h", 1], [7200, "h", 2], [10800, "h", 3],
  [21600, "h", 6], [43200, "h", 12], [86400, "d", 1], [172800, "d", 2], [604800, "w", 1], [1209600, "w", 2],
  [2629800, "M", 1], [7889400, "M", 3], [15778800, "M", 6], [31557600, "Y", 1], [63115200, "Y", 2],
  [157788000, "Y", 5], [315576000, "Y", 10], [788940000, "Y", 25], [3155760000, "Y", 100],
];
function timeStepFloor(t, st) {
  const [sec, kind, k] = st;
  if (kind === "M") { const d = utc(t), m = d.getUTCMonth(); return Date.UTC(d.getUTCFullYear(), m - (m % k), 1) / 1000; }
  if (kind === "Y") { const y = utc(t).getUTCFullYear(); return Date.UTC(y - (((y % k) + k) % k), 0, 1) / 1000; }
  if (kind === "w") return Math.floor((t - MONDAY) / sec) * sec + MONDAY;
  return Math.floor(t / sec) * sec;
}
function timeStepNext(t, st) {
  const [sec, kind, k] = st;
  if (kind === "M") return addMonths(t, k);
  if (kind === "Y") { const y = utc(t).getUTCFullYear(); return Date.UTC(y + k, 0, 1) / 1000; }
  return t + sec;
}
/** Label of a tick at t for step st; `major` when it starts a larger calendar unit. */
function timeTickLabel(t, st) {
  const d = utc(t), kind = st[1];
  const y = d.getUTCFullYear(), mo = d.getUTCMonth(), day = d.getUTCDate(), hh = d.getUTCHours(), mm = d.getUTCMinutes();
  if (kind === "Y") return { text: "" + y, major: true };
  if (kind === "M") return mo === 0 ? { text: "" + y, major: true } : { text: MONTHS[mo], major: false };
  if (kind === "d" || kind === "w") {
    if (day === 1 && mo === 0) return { text: "" + y, major: true };
    if (day === 1 || (kind === "w" && day <= 7)) return { text: MONTHS[mo] + (day === 1 ? "" : " " + day), major: day === 1 };
    return { text: "" + day, major: false };
  }
  const ss = d.getUTCSeconds();
  if (hh === 0 && mm === 0 && ss === 0) return { text: day === 1 && mo === 0 ? "" + y : MONTHS[mo] + " " + day, major: true };
  return { text: pad2(hh) + ":" + pad2(mm) + (kind === "s" ? ":" + pad2(ss) : ""), major: false };
}

// ---- number formats --------------------------------------------------------------------------
function fmtInt(v) {
  if (!isFinite(v)) return "n/a";
  const s = Math.round(Math.abs(v)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (v < 0 && Math.round(v) !== 0 ? "-" : "") + s;
}
/** A number as given (shortest round-trip text), thousands grouped in the integer part. */
function fmtExact(v) {
  if (v === null || v === undefined || !isFinite(v)) return "n/a";
  const s = String(v);
  if (/e/i.test(s)) return s;
  const neg = s[0] === "-", body = neg ? s.slice(1) : s, dot = body.indexOf(".");
  const ip = dot < 0 ? body : body.slice(0, dot), fp = dot < 0 ? "" : body.slice(dot);
  return (neg ? "-" : "") + ip.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + fp;
}
/** Fixed decimals with grouping. */
function fmtFixed(v, d) {
  if (!isFinite(v)) return "n/a";
  const s = Math.abs(v).toFixed(d), dot = s.indexOf(".");
  const ip = dot < 0 ? s : s.slice(0, dot), fp = dot < 0 ? "" : s.slice(dot);
  const neg = v < 0 && Number(s) !== 0;
  return (neg ? "-" : "") + ip.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + fp;
}
/** About `sig` significant digits, for indicator values and axis read-outs. */
function fmtSig(v, sig) {
  if (!isFinite(v)) return "n/a";
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e15 || a < 1e-6)) return v.toExponential(sig - 1);
  const d = a === 0 ? 0 : Math.max(0, Math.min(10, sig - 1 - Math.floor(Math.log10(a))));
  return fmtFixed(v, d);
}
function fmtPct(f, d) { return isFinite(f) ? fmtFixed(f * 100, d === undefined ? 2 : d) + "%" : "n/a"; }
function fmtCompact(v) {
  if (!isFinite(v)) return "n/a";
  const a = Math.abs(v);
  if (a >= 1e12) return fmtSig(v / 1e12, 3) + "T";
  if (a >= 1e9) return fmtSig(v / 1e9, 3) + "B";
  if (a >= 1e6) return fmtSig(v / 1e6, 3) + "M";
  if (a >= 1e4) return fmtSig(v / 1e3, 3) + "K";
  return fmtSig(v, 4);
}
/** A value of a metric by its unit: fraction (as %), ratio, cash, count, bars, days, bps, time, text. */
function fmtUnit(v, unit) {
  if (v === null || v === undefined || (typeof v === "number" && !isFinite(v))) return "n/a";
  if (typeof v === "string") return unit === "time" ? fmtTime(timeValue(v)) : v;
  switch (unit) {
    case "fraction": return fmtPct(v, 2);
    case "ratio": return fmtFixed(v, 3);
    case "cash": return fmtFixed(v, 2);
    case "count": case "bars": return fmtInt(v);
    case "days": return fmtFixed(v, 1);
    case "bps": return fmtFixed(v, 2);
    case "time": return fmtTime(v);
    default: return fmtSig(v, 6);
  }
}

// ---- colours ---------------------------------------------------------------------------------
const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
/** Orange for negative, near-white at zero, blue for positive (colour-blind safe, never red/green). */
const DIVERGING = ["#7f3b08", "#b35806", "#e08214", "#fdb863", "#fee0b6", "#f4f4f4", "#d1e5f0", "#92c5de", "#4393c3", "#2166ac", "#053061"];
function hexRGB(h) { return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)]; }
const VIRIDIS_RGB = VIRIDIS.map(hexRGB), DIVERGING_RGB = DIVERGING.map(hexRGB);
function rampColor(stops, f) {
  f = clamp(f, 0, 1) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(f)), u = f - i, a = stops[i], b = stops[i + 1];
  return [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u];
}
function rgbCSS(c) { return "rgb(" + Math.round(c[0]) + "," + Math.round(c[1]) + "," + Math.round(c[2]) + ")"; }
function luminance(c) { return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255; }
/** A colour scale over [lo, hi]: sequential (viridis) or diverging centred on zero. */
function makeScale(kind, lo, hi) {
  if (kind === "diverging") {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    return { kind, lo: -m, hi: m, rgb: v => rampColor(DIVERGING_RGB, (v / m + 1) / 2) };
  }
  const span = hi - lo || 1;
  return { kind: "sequential", lo, hi, rgb: v => rampColor(VIRIDIS_RGB, (v - lo) / span) };
}

/** The current theme's colours, read from the stylesheet's custom properties. */
function themeColors() {
  const cs = getComputedStyle(document.documentElement), out = {};
  for (const k of ["bg", "fg", "muted", "faint", "panel", "border", "grid", "axis", "cross", "label-bg", "label-fg", "up", "down",
    "up-vol", "down-vol", "profit", "loss", "fill-mark", "equity", "bench", "dd", "dd-line", "region", "region-line", "region2", "fold",
    "accent", "ind1", "ind2", "ind3", "ind4", "ind5", "ind6", "band"]) out[k] = cs.getPropertyValue("--" + k).trim();
  out.font = cs.getPropertyValue("--font").trim();
  out.mono = cs.getPropertyValue("--mono").trim();
  return out;
}
const INDICATOR_COLORS = ["ind1", "ind2", "ind3", "ind4", "ind5", "ind6"];
