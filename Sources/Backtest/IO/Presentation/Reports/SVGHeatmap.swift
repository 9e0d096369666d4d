import BacktestAnalysis
import BacktestCore
import Foundation

/// A sweep heatmap as SVG, on `report.html`'s colour-blind-safe scales: diverging around zero
/// (orange below, near-white at zero, blue above) for signed metrics with a negative value,
/// viridis (dark to bright) otherwise; never red against green.
enum SVGHeatmap {
    /// Orange for negative, near-white at zero, blue for positive (ColorBrewer PuOr/RdBu blend).
    static let diverging = ["#7f3b08", "#b35806", "#e08214", "#fdb863", "#fee0b6", "#f4f4f4", "#d1e5f0", "#92c5de", "#4393c3",
                            "#2166ac", "#053061"]
    /// Viridis, sampled at ten points.
    static let viridis = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"]

    /// Values to colours over [lo, hi] (symmetric around zero when diverging).
    struct ColorScale {
        let isDiverging: Bool
        let lo: Double, hi: Double

        init(values: [Double], diverging: Bool) {
            let finite = values.filter(\.isFinite)
            var lo = finite.min() ?? 0, hi = finite.max() ?? 1
            if diverging { let m = max(abs(lo), abs(hi), 1e-12); lo = -m; hi = m }
            if hi == lo { hi = lo + 1 }
            isDiverging = diverging
            self.lo = lo; self.hi = hi
        }

        /// The colour of `v` as red, green and blue (0...255).
        func rgb(_ v: Double) -> (Double, Double, Double) {
            let stops = (isDiverging ? SVGHeatmap.diverging : SVGHeatmap.viridis).map(SVGHeatmap.components)
            let f = min(1, max(0, (v - lo) / (hi - lo))) * Double(stops.count - 1)
            let i = min(stops.count - 2, Int(f.rounded(.down))), u = f - Double(i)
            let a = stops[i], b = stops[i + 1]
            return (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u, a.2 + (b.2 - a.2) * u)
        }

        func css(_ v: Double) -> String {
            let c = rgb(v)
            return String(format: "#%02x%02x%02x", Int(c.0.rounded()), Int(c.1.rounded()), Int(c.2.rounded()))
        }

        /// Whether text on `v`'s colour should be white (dark cells).
        func isDark(_ v: Double) -> Bool {
            let c = rgb(v)
            return (0.2126 * c.0 + 0.7152 * c.1 + 0.0722 * c.2) / 255 < 0.5
        }
    }

    static func components(_ hex: String) -> (Double, Double, Double) {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        return (Double(v >> 16 & 0xff), Double(v >> 8 & 0xff), Double(v & 0xff))
    }

    /// The heatmap of `values[row][column]` (NaN: no result), rows down the left, columns along
    /// the bottom, the best cell outlined, a colour bar with round ticks on the right; values are
    /// printed in the cells when every one fits.
    static func canvas(values: [[Double]], rowName: String, rowLabels: [String], columnName: String, columnLabels: [String],
                       title: String, stat: Stat, best: (row: Int, column: Int)?) -> SVGCanvas {
        let rows = values.count, cols = values.first?.count ?? 0
        let flat = values.flatMap { $0 }
        let scale = ColorScale(values: flat, diverging: SweepReport.isSigned(stat) && flat.contains { $0 < 0 })
        let rowLabelWidth = rowLabels.map { SVGCanvas.textWidth($0, size: 10) }.max() ?? 10
        let left = 30 + rowLabelWidth + 8
        let cellW = min(56, max(2, (900 - left - 130) / Double(max(cols, 1))))
        let cellH = min(30, max(2, 520 / Double(max(rows, 1))))
        let top = 60.0  // below the note and the colour bar's title
        let gridW = cellW * Double(cols), gridH = cellH * Double(rows)
        let width = (left + gridW + 130).rounded(.up)
        let height = (top + gridH + 62).rounded(.up)
        let note = "outlined: best · blank: no value (filtered out, failed, or undefined such as a Sharpe ratio without trades)"
        let textWidth = max(SVGCanvas.textWidth(title, size: 14), SVGCanvas.textWidth(note, size: 10)) + 24
        var c = SVGCanvas(width: max(width, textWidth.rounded(.up)), height: height)
        c.text(title, x: 12, y: 20, size: 14, bold: true)
        c.text(note, x: 12, y: 38, size: 10, color: SVGChart.Color.muted)

        let texts: [[String]] = values.map { $0.map { $0.isFinite ? cellText($0, unit: stat.unit) : "" } }
        let printValues = cellH >= 14 && texts.joined().allSatisfy { SVGCanvas.textWidth($0, size: 10) <= cellW - 4 }
        for r in 0..<rows {
            for k in 0..<cols where values[r][k].isFinite {
                let box = SVGCanvas.Box(x: left + Double(k) * cellW, y: top + Double(r) * cellH, width: cellW, height: cellH)
                c.rect(box, fill: scale.css(values[r][k]), title: "\(rowName)=\(rowLabels[r]) \(columnName)=\(columnLabels[k]): \(texts[r][k])")
            }
        }
        c.rect(SVGCanvas.Box(x: left, y: top, width: gridW, height: gridH), fill: "none", stroke: SVGChart.Color.axis)
        if let best, best.row < rows, best.column < cols {
            c.rect(SVGCanvas.Box(x: left + Double(best.column) * cellW + 1, y: top + Double(best.row) * cellH + 1,
                                 width: cellW - 2, height: cellH - 2), fill: "none", stroke: SVGChart.Color.fg, strokeWidth: 2)
        }
        if printValues {
            for r in 0..<rows {
                for k in 0..<cols where values[r][k].isFinite {
                    c.text(texts[r][k], x: left + (Double(k) + 0.5) * cellW, y: top + (Double(r) + 0.5) * cellH + 3.5, size: 10,
                           anchor: .middle, color: scale.isDark(values[r][k]) ? "#ffffff" : SVGChart.Color.fg)
                }
            }
        }
        // Axis labels, thinned so that none touches the next.
        let everyColumn = max(1, Int(((columnLabels.map { SVGCanvas.textWidth($0, size: 10) }.max() ?? 10) + 8) / cellW) + 1)
        for k in Swift.stride(from: 0, to: cols, by: everyColumn) {
            c.text(columnLabels[k], x: left + (Double(k) + 0.5) * cellW, y: top + gridH + 14, size: 10, anchor: .middle,
                   color: SVGChart.Color.muted)
        }
        let everyRow = max(1, Int(13 / cellH) + 1)
        for r in Swift.stride(from: 0, to: rows, by: everyRow) {
            c.text(rowLabels[r], x: left - 6, y: top + (Double(r) + 0.5) * cellH + 3.5, size: 10, anchor: .end, color: SVGChart.Color.muted)
        }
        c.text(columnName + " →", x: left + gridW / 2, y: top + gridH + 32, size: 11, anchor: .middle, bold: true)
        c.verticalText("← " + rowName, x: 18, y: top + gridH / 2, size: 11)  // turned: the arrow points down, as the values grow

        // Colour bar.
        let barX = left + gridW + 24, barW = 14.0
        let barH = max(60, min(gridH, 260))
        let slices = 48
        for s in 0..<slices {
            let v = scale.hi - (scale.hi - scale.lo) * (Double(s) + 0.5) / Double(slices)
            c.rect(SVGCanvas.Box(x: barX, y: top + barH * Double(s) / Double(slices), width: barW, height: barH / Double(slices) + 0.3),
                   fill: scale.css(v))
        }
        c.rect(SVGCanvas.Box(x: barX, y: top, width: barW, height: barH), fill: "none", stroke: SVGChart.Color.axis)
        let percent = stat.unit == .fraction
        let ticks = SVGAxis.ticks(scale.lo, scale.hi, count: 5)
        for t in ticks.values {
            let y = top + (scale.hi - t) / (scale.hi - scale.lo) * barH
            c.line(barX + barW, y, barX + barW + 4, y, stroke: SVGChart.Color.muted)
            let text = SVGAxis.label(t, step: ticks.step, percent: percent)
            let box = SVGCanvas.textBox(text, x: barX + barW + 7, y: y + 3.5, size: 10)
            if c.isFree(box, gap: 1) { c.text(text, x: barX + barW + 7, y: y + 3.5, size: 10, color: SVGChart.Color.muted) }
        }
        c.text(PageData.label(stat), x: barX, y: top - 8, size: 11, bold: true)
        return c
    }

    /// A cell's value, short: ratios with two decimals, fractions as whole percents (one
    /// decimal below 10%), counts whole, cash in thousands.
    static func cellText(_ v: Double, unit: Stat.Unit) -> String {
        let text = rounded(v, unit: unit)
        // A value that rounds to zero prints without a sign (-0.001 is "0.00", not "-0.00").
        return text.hasPrefix("-") && !text.contains(where: { "123456789".contains($0) }) ? String(text.dropFirst()) : text
    }

    private static func rounded(_ v: Double, unit: Stat.Unit) -> String {
        switch unit {
        case .fraction: return abs(v) < 0.1 ? String(format: "%.1f%%", v * 100) : String(format: "%.0f%%", v * 100)
        case .count, .bars: return String(format: "%.0f", v)
        case .cash: return abs(v) >= 1000 ? String(format: "%.0fK", v / 1000) : String(format: "%.0f", v)
        case .days: return String(format: "%.0f", v)
        default: return String(format: "%.2f", v)
        }
    }
}
