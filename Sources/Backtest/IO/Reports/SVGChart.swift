import BacktestAnalysis
import BacktestCore
import Foundation

/// Static SVG charts for reports (GitHub renders them beside the markdown).
///
/// Long series are reduced to each pixel column's first, min, max and last points, so spikes
/// survive and files stay small (about 4 points per pixel column at most).
public enum SVGChart {
    static let width = 900.0
    static let left = 70.0, right = 10.0

    /// Equity (top two thirds) over drawdown in percent (bottom third).
    public static func equity(time: [Int64], equity: [Double], initial: Double) -> String {
        let dd = Performance.drawdowns(equity: equity, initial: initial).map { $0 * 100 }
        var svg = header(height: 420, title: "Equity and drawdown")
        svg += panel(time: time, values: equity, y: 30, height: 250, color: "#2e7d32", label: "equity")
        svg += panel(time: time, values: dd, y: 300, height: 90, color: "#c62828", label: "drawdown %", fill: true)
        svg += timeLabels(time, y: 410)
        return svg + "</svg>\n"
    }

    /// Close prices with trade entries (up triangles) and exits (down triangles).
    public static func price(_ candles: CandleSeries, trades: [Trade]) -> String {
        var svg = header(height: 360, title: "\(escape(candles.symbol)) close with trades")
        svg += panel(time: candles.time, values: candles.close, y: 30, height: 300, color: "#37474f", label: "close")
        if let scale = Scale(candles.close, y: 30, height: 300) {
            let n = candles.count
            for t in trades {
                for (index, isEntry) in [(t.entryIndex, true), (t.exitIndex, false)] where index >= 0 && index < n {
                    if !isEntry && t.isOpen { continue }
                    let x = xPosition(index, n)
                    let price = isEntry ? t.entryPrice : t.exitPrice
                    let y = scale.y(price)
                    let up = isEntry == (t.side == .long)
                    let color = isEntry ? "#1565c0" : "#ef6c00"
                    let points = up ? "\(f(x)),\(f(y - 2)) \(f(x - 5)),\(f(y + 7)) \(f(x + 5)),\(f(y + 7))"
                                    : "\(f(x)),\(f(y + 2)) \(f(x - 5)),\(f(y - 7)) \(f(x + 5)),\(f(y - 7))"
                    svg += "<polygon points=\"\(points)\" fill=\"\(color)\"/>\n"
                }
            }
        }
        svg += "<text x=\"\(f(left))\" y=\"350\" font-size=\"11\" fill=\"#1565c0\">▲ entry</text>"
        svg += "<text x=\"\(f(left + 60))\" y=\"350\" font-size=\"11\" fill=\"#ef6c00\">▼ exit</text>\n"
        svg += timeLabels(candles.time, y: 350, offset: 140)
        return svg + "</svg>\n"
    }

    private struct Scale {
        let lo: Double, hi: Double, top: Double, height: Double
        init?(_ values: [Double], y: Double, height: Double) {
            guard let r = LinePlot.range([values]) else { return nil }
            lo = r.min == r.max ? r.min - 1 : r.min
            hi = r.min == r.max ? r.max + 1 : r.max
            top = y; self.height = height
        }
        func y(_ v: Double) -> Double { top + (hi - v) / (hi - lo) * height }
    }

    private static func xPosition(_ i: Int, _ n: Int) -> Double {
        left + (n > 1 ? Double(i) / Double(n - 1) : 0.5) * (width - left - right)
    }

    private static func header(height: Int, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(Int(width)) \(height)\" font-family=\"sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
            + "<text x=\"\(f(left))\" y=\"18\" font-size=\"14\">\(title)</text>\n"
    }

    private static func panel(time: [Int64], values: [Double], y: Double, height: Double, color: String,
                              label: String, fill: Bool = false) -> String {
        var s = "<rect x=\"\(f(left))\" y=\"\(f(y))\" width=\"\(f(width - left - right))\" height=\"\(f(height))\" fill=\"none\" stroke=\"#ddd\"/>\n"
        guard let scale = Scale(values, y: y, height: height) else { return s }
        s += "<text x=\"\(f(left - 4))\" y=\"\(f(y + 10))\" font-size=\"10\" text-anchor=\"end\">\(f(scale.hi))</text>\n"
        s += "<text x=\"\(f(left - 4))\" y=\"\(f(y + height))\" font-size=\"10\" text-anchor=\"end\">\(f(scale.lo))</text>\n"
        s += "<text x=\"\(f(left + 4))\" y=\"\(f(y + 12))\" font-size=\"10\" fill=\"#777\">\(escape(label))</text>\n"
        // Each pixel column keeps its first, min, max and last points, in time order.
        let n = values.count
        let columns = Int(width - left - right)
        let map = ColumnMap(count: n, slots: max(1, min(columns, n)))
        var runs = [[(Int, Double)]]()
        var current = [(Int, Double)]()
        for c in 0..<map.slots {
            let range = map.points(in: c)
            var picks = [Int]()
            var lo: Int?, hi: Int?, first: Int?, last: Int?
            for i in range where values[i].isFinite {
                if first == nil { first = i }
                last = i
                if lo == nil || values[i] < values[lo!] { lo = i }
                if hi == nil || values[i] > values[hi!] { hi = i }
            }
            if range.contains(where: { !values[$0].isFinite }), !current.isEmpty { runs.append(current); current = [] }
            for i in [first, lo, hi, last].compactMap({ $0 }) where !picks.contains(i) { picks.append(i) }
            for i in picks.sorted() { current.append((i, values[i])) }
        }
        if !current.isEmpty { runs.append(current) }
        for run in runs {
            let pts = run.map { "\(f(xPosition($0.0, n))),\(f(scale.y($0.1)))" }.joined(separator: " ")
            if fill, let a = run.first, let b = run.last {
                let base = scale.y(min(0, scale.hi))
                s += "<polygon points=\"\(f(xPosition(a.0, n))),\(f(base)) \(pts) \(f(xPosition(b.0, n))),\(f(base))\" fill=\"\(color)\" fill-opacity=\"0.3\" stroke=\"\(color)\"/>\n"
            } else {
                s += "<polyline points=\"\(pts)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.2\"/>\n"
            }
        }
        return s
    }

    private static func timeLabels(_ time: [Int64], y: Double, offset: Double = 0) -> String {
        guard let first = time.first, let last = time.last else { return "" }
        return "<text x=\"\(f(left + offset))\" y=\"\(f(y))\" font-size=\"10\">\(UTCTime.isoDate(first))</text>"
            + "<text x=\"\(f(width - right))\" y=\"\(f(y))\" font-size=\"10\" text-anchor=\"end\">\(UTCTime.isoDate(last))</text>\n"
    }

    private static func f(_ v: Double) -> String { String(format: "%.2f", v) }

    static func escape(_ s: String) -> String { HTML.escaped(s) }
}
