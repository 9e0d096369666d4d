import BacktestAnalysis
import BacktestCore
import Foundation

/// A vertical value scale over `rows` cell rows, with round-number labels.
///
/// Bounds are the data range widened to a multiple of a fine round step smaller than one row's
/// span, so the top label is >= the data maximum, the bottom label <= the minimum, and the
/// maximum still lands in the top row (the minimum in the bottom row). A flat series gets a
/// range of 1% of its value (or 1 around zero).
struct YScale {
    let lo: Double
    let hi: Double
    let rows: Int
    /// Decimals used by labels.
    let decimals: Int
    let suffix: String

    init(min dataMin: Double, max dataMax: Double, rows: Int, suffix: String = "") {
        precondition(rows > 0, "a scale needs rows")
        var a = dataMin, b = dataMax
        if !a.isFinite || !b.isFinite { a = 0; b = 1 }
        if a == b {
            let pad = a == 0 ? 1 : abs(a) * 0.01
            a -= pad; b += pad
        }
        let fine = Self.niceStep((b - a) / (Double(rows) * 2.5))
        lo = (a / fine).rounded(.down) * fine
        hi = (b / fine).rounded(.up) * fine
        self.rows = rows
        decimals = Swift.max(0, Swift.min(8, Int((-log10(fine)).rounded(.up))))
        self.suffix = suffix
    }

    /// The smallest of 1, 2, 2.5, 5 x 10^k that is >= `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let p = pow(10, (log10(raw)).rounded(.down))
        for m in [1.0, 2, 2.5, 5, 10] where m * p >= raw * (1 - 1e-12) { return m * p }
        return 10 * p
    }

    /// Index (0 = top) of the step holding `v` when the range is cut into `steps` equal steps.
    @inline(__always)
    func position(_ v: Double, steps: Int) -> Int {
        let f = (hi - v) / (hi - lo) * Double(steps)
        if !(f >= 0) { return 0 }
        if !(f < Double(steps)) { return steps - 1 }
        return Int(f)
    }

    func format(_ v: Double) -> String {
        String(format: "%.\(decimals)f", v) + suffix
    }

    /// Labels by cell row: the bounds on the first and last rows, round ticks between them on
    /// rows not adjacent to another label.
    func labels() -> [(row: Int, text: String)] {
        var out = [(row: 0, text: format(hi))]
        if rows > 1 {
            let step = Self.niceStep((hi - lo) / Double(Swift.max(1, rows / 3)))
            let tickDecimals = Swift.max(0, Swift.min(8, Int((-log10(step)).rounded(.up))))
            let start = (hi / step).rounded(.down) * step
            var last = 0
            // Counted steps, not repeated subtraction: near 1e20 a step of 0.2 is below the
            // spacing of Doubles and `t -= step` would never move.
            for k in 0...(4 * rows) {
                let t = start - Double(k) * step
                guard t > lo else { break }
                let r = position(t, steps: rows)
                if r > last + 1 && r < rows - 2 {
                    out.append((r, String(format: "%.\(tickDecimals)f", t) + suffix))
                    last = r
                }
            }
            out.append((rows - 1, format(lo)))
        }
        return out
    }

    /// Width of the widest label.
    var labelWidth: Int { labels().map { $0.text.count }.max() ?? 1 }
}

/// How `count` data points map onto `slots` columns (cell or dot columns).
///
/// With more points than slots each slot is a bucket of consecutive points
/// (`[s n / slots, (s + 1) n / slots)`); with fewer, points spread evenly and some slots are empty.
struct ColumnMap {
    let count: Int
    let slots: Int

    var isBucketed: Bool { count >= slots }

    /// Points in slot `s` (empty when no point lands there).
    func points(in s: Int) -> Range<Int> {
        if isBucketed { return (s * count / slots)..<((s + 1) * count / slots) }
        if count == 1 { return s == 0 ? 0..<1 : 0..<0 }
        // Point i sits at slot i (slots - 1) / (count - 1), rounded down.
        let first = (s * (count - 1) + slots - 2) / (slots - 1)
        let next = ((s + 1) * (count - 1) + slots - 2) / (slots - 1)
        return Swift.min(first, count)..<Swift.min(next, count)
    }

    /// The slot holding point `i`.
    func slot(of i: Int) -> Int {
        if isBucketed {
            var s = i * slots / count
            while s + 1 < slots && (s + 1) * count / slots <= i { s += 1 }
            while s > 0 && s * count / slots > i { s -= 1 }
            return s
        }
        return count == 1 ? 0 : i * (slots - 1) / (count - 1)
    }
}

/// Date labels under a plot: the time of the first point at evenly spaced columns.
enum TimeAxis {
    /// `YYYY-MM-DD`, or `MM-DD HH:MM` when the bars are less than a day apart.
    static func label(_ t: Int64, intraday: Bool) -> String {
        if !intraday { return UTCTime.isoDate(t) }
        let iso = UTCTime.iso(t)
        let chars = Array(iso)
        return String(chars[5..<10]) + " " + String(chars[11..<16])
    }

    /// Writes labels on row `y` for a plot of `columns` cells starting at `x`, where cell column c
    /// shows `time[map.points(in: c).lowerBound]` (cells map 1:1 to `map`'s slots, or 2 dots each).
    static func draw(into canvas: inout Canvas, time: [Int64], x: Int, y: Int, columns: Int, dotsPerColumn: Int) {
        guard !time.isEmpty, columns > 0 else { return }
        let intraday = time.count > 1 && (time[time.count - 1] - time[0]) / Int64(time.count - 1) < 86_400
        let map = ColumnMap(count: time.count, slots: columns * dotsPerColumn)
        let width = label(time[0], intraday: intraday).count
        let spacing = width + 4
        var c = 0
        while c + width <= columns {
            var range = map.points(in: c * dotsPerColumn)
            var probe = c * dotsPerColumn
            while range.isEmpty && probe + 1 < map.slots { probe += 1; range = map.points(in: probe) }
            if !range.isEmpty {
                canvas.text(x + c, y, label(time[range.lowerBound], intraday: intraday), .gray)
            }
            c += spacing
        }
    }
}
