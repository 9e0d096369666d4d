import BacktestAnalysis
import BacktestCore
import Foundation

/// A two-parameter grid of values (a sweep's Sharpe by fast and slow period), readable without
/// colour: each cell is a shade glyph from `·░▒▓█` by value (blank: no value), the best cell holds `*`, and a
/// legend maps shades to value ranges. With colour, cells also get a red-to-green ramp.
public enum Heatmap {
    /// Renders `values[row][column]` (NaN = not run, left blank).
    /// - Parameters:
    ///   - rowName, rowLabels: the first parameter, down the left side.
    ///   - columnName, columnLabels: the second parameter, across the top.
    ///   - higherIsBetter: which extreme is marked best.
    /// - Throws: `InputError` when the grid cannot fit `size`.
    public static func render(values: [[Double]], rowName: String, rowLabels: [String],
                              columnName: String, columnLabels: [String], title: String,
                              higherIsBetter: Bool = true, size: ChartSize,
                              style: ChartStyle = ChartStyle()) throws -> String {
        precondition(values.count == rowLabels.count, "one row label per row")
        precondition(values.allSatisfy { $0.count == columnLabels.count }, "one column label per column")
        let labelWidth = max(rowName.count, rowLabels.map(\.count).max() ?? 0)
        let cellWidth = max(3, (columnLabels.map(\.count).max() ?? 0) + 1)
        let needWidth = max(labelWidth + 1 + cellWidth * columnLabels.count, 30)
        let needHeight = values.count + 5
        guard size.width >= needWidth, size.height >= needHeight else {
            throw InputError("a \(values.count)x\(columnLabels.count) heatmap needs at least \(needWidth)x\(needHeight) cells, got \(size.width)x\(size.height)")
        }
        var canvas = Canvas(width: size.width, height: needHeight)
        let finite = values.flatMap { $0 }.filter(\.isFinite)
        let lo = finite.min() ?? 0, hi = finite.max() ?? 0
        var best: (Int, Int)?
        for (r, row) in values.enumerated() {
            for (c, v) in row.enumerated() where v.isFinite {
                if let (br, bc) = best {
                    let b = values[br][bc]
                    if higherIsBetter ? v > b : v < b { best = (r, c) }
                } else { best = (r, c) }
            }
        }
        canvas.text(0, 0, title)
        canvas.text(0, 1, rowName.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + " " + columnName + " ->")
        let x0 = labelWidth + 1
        for (c, label) in columnLabels.enumerated() { canvas.rightAligned(x0 + (c + 1) * cellWidth - 1, 2, label) }
        for (r, row) in values.enumerated() {
            canvas.rightAligned(labelWidth, 3 + r, rowLabels[r])
            for (c, v) in row.enumerated() {
                let level = v.isFinite ? Self.level(v, lo: lo, hi: hi) : -1
                let glyph: Unicode.Scalar = level < 0 ? " " : Self.shades[level]
                let color = level < 0 ? ChartColor.gray : Self.ramp[higherIsBetter ? level : 4 - level]
                for k in 0..<(cellWidth - 1) { canvas.set(x0 + c * cellWidth + k, 3 + r, glyph, color, layer: .candle) }
                if let (br, bc) = best, br == r, bc == c {
                    canvas.set(x0 + c * cellWidth + (cellWidth - 1) / 2, 3 + r, "*", .white, layer: .label)
                }
            }
        }
        var thresholds = ""
        for k in 0..<5 {
            let a = lo + (hi - lo) * Double(k) / 5
            thresholds += " " + String(Self.shades[k]) + "≥" + String(format: "%.3g", a)
        }
        // The thresholds matter more than the note on blanks: a narrow chart keeps them whole.
        let legend = "legend (blank: no value):" + thresholds
        canvas.text(0, 3 + values.count, legend.count <= size.width ? legend : String(("legend:" + thresholds).prefix(size.width)))
        if let (br, bc) = best {
            let line = "* best: \(rowName)=\(rowLabels[br]) \(columnName)=\(columnLabels[bc]) value="
                + String(format: "%.4g", values[br][bc])
            canvas.text(0, 4 + values.count, String(line.prefix(size.width)))
        }
        return canvas.render(color: style.color)
    }

    static let shades: [Unicode.Scalar] = ["·", "░", "▒", "▓", "█"]
    static let ramp: [ChartColor] = [.ramp0, .ramp1, .ramp2, .ramp3, .ramp4]

    /// Shade level 0...4 of `v` on lo...hi (equal fifths; a flat grid is all level 4).
    static func level(_ v: Double, lo: Double, hi: Double) -> Int {
        guard hi > lo else { return 4 }
        return min(4, Int((v - lo) / (hi - lo) * 5))
    }
}
