import BacktestAnalysis
import BacktestCore
import Foundation

/// Histogram of returns in vertical eighth-block bars, counts from `gsl_histogram`.
public enum HistogramChart {
    public static let minimumWidth = 30
    public static let minimumHeight = 6

    /// Renders the distribution of `values` (fractions; NaN ignored) in one bar per column, over
    /// the range min...max split into equal bins, with the bin holding 0 marked by `┊` on the
    /// axis row. X labels are percentages.
    /// - Throws: `InputError` when `size` is below 30x6; `GSLError` if GSL fails.
    public static func render(_ values: [Double], size: ChartSize, style: ChartStyle = ChartStyle(),
                              title: String = "Returns") throws -> String {
        try size.require(width: minimumWidth, height: minimumHeight, for: "histogram")
        var canvas = Canvas(width: size.width, height: size.height)
        let finite = values.filter(\.isFinite)
        let rows = size.height - 3
        var lo = finite.min() ?? 0, hi = finite.max() ?? 0
        if lo == hi { lo -= 0.005; hi += 0.005 }
        let countLabelWidth = String(finite.count).count
        let gutter = countLabelWidth + 1
        let bins = max(1, size.width - gutter)
        let counts = try GSL.histogram(finite, bins: bins, lower: lo, upper: hi)
        let top = counts.max() ?? 0
        canvas.text(0, 0, "\(title)  n=\(finite.count)  bins=\(bins)  width=" + String(format: "%.3g%%", (hi - lo) / Double(bins) * 100))
        for r in 0..<rows { canvas.set(gutter - 1, 1 + r, "│", .gray, layer: .grid) }
        canvas.rightAligned(gutter - 1, 1, String(Int(top)))
        canvas.set(gutter - 1, 1, "┤", .gray, layer: .label)
        canvas.rightAligned(gutter - 1, rows, "0")
        canvas.set(gutter - 1, rows, "┤", .gray, layer: .label)
        let blocks: [Unicode.Scalar] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        for (b, count) in counts.enumerated() where count > 0 && top > 0 {
            let tall = max(1, Int((count / top * Double(rows * 8)).rounded()))
            let color: ChartColor = lo + (Double(b) + 0.5) * (hi - lo) / Double(bins) < 0 ? .red : .green
            for r in 0..<rows {
                let fill = tall - r * 8
                guard fill > 0 else { break }
                canvas.set(gutter + b, rows - r, blocks[min(8, fill) - 1], color, layer: .candle)
            }
        }
        // Axis row: the zero bin, then min and max labels.
        let axis = size.height - 2
        for c in 0..<bins { canvas.set(gutter + c, axis, "─", .gray, layer: .grid) }
        if lo < 0 && hi > 0 {
            let zero = min(bins - 1, Int(-lo / (hi - lo) * Double(bins)))
            canvas.set(gutter + zero, axis, "┼", .gray, layer: .label)
            let label = "0%"
            canvas.text(min(max(gutter, gutter + zero - 1), size.width - label.count), size.height - 1, label, .gray)
        }
        canvas.text(gutter, size.height - 1, String(format: "%.2f%%", lo * 100))
        let maxLabel = String(format: "%.2f%%", hi * 100)
        canvas.rightAligned(size.width, size.height - 1, maxLabel)
        return canvas.render(color: style.color)
    }
}
