import BacktestAnalysis
import BacktestCore

/// Draws a series as a braille line, aggregating per dot column so spikes survive.
enum LinePlot {
    /// Plots `values` (NaN = gap) into `grid` on `scale`.
    ///
    /// More points than dot columns: each dot column shows its bucket's min-max range, joined to
    /// the previous column's last value (never every k-th point). Fewer: points spread evenly
    /// and consecutive points are joined by straight segments.
    /// - Complexity: O(n + dot columns x dot rows).
    static func plot(_ values: [Double], scale: YScale, into grid: inout BrailleGrid) {
        let n = values.count
        guard n > 0 else { return }
        let map = ColumnMap(count: n, slots: grid.dotColumns)
        let rows = grid.dotRows
        values.withUnsafeBufferPointer { v in
            if map.isBucketed {
                var previous: Int?
                for d in 0..<grid.dotColumns {
                    var lo = Double.infinity, hi = -Double.infinity, last = Double.nan
                    for i in map.points(in: d) where v[i].isFinite {
                        lo = min(lo, v[i]); hi = max(hi, v[i]); last = v[i]
                    }
                    guard hi >= lo else { previous = nil; continue }
                    var top = scale.position(hi, steps: rows), bottom = scale.position(lo, steps: rows)
                    if let p = previous { top = min(top, p); bottom = max(bottom, p) }
                    grid.vertical(d, top, bottom)
                    previous = scale.position(last, steps: rows)
                }
            } else {
                var px = -1, py = 0
                for i in 0..<n {
                    guard v[i].isFinite else { px = -1; continue }
                    let x = n == 1 ? 0 : i * (grid.dotColumns - 1) / (n - 1)
                    let y = scale.position(v[i], steps: rows)
                    if px < 0 {
                        grid.dot(x, y)
                    } else {
                        // Join (px, py) to (x, y): each dot column gets the vertical run between
                        // the interpolated rows at its two edges.
                        var yPrev = py
                        for cx in (px + 1)...x {
                            let t = Double(cx - px) / Double(x - px)
                            let yi = Int((Double(py) + t * Double(y - py)).rounded())
                            grid.vertical(cx, yPrev, yi)
                            yPrev = yi
                        }
                    }
                    px = x; py = y
                }
            }
        }
    }

    /// Finite min and max of `series`, or nil when none is finite.
    static func range(_ series: [[Double]]) -> (min: Double, max: Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for s in series { for v in s where v.isFinite { lo = min(lo, v); hi = max(hi, v) } }
        return hi >= lo ? (lo, hi) : nil
    }
}

/// A rectangular plot region of a canvas with a y axis on its left.
struct PlotPanel {
    /// Left column of the y-axis labels.
    let x: Int
    let y: Int
    /// Width of the label gutter (labels plus the axis character).
    let gutter: Int
    let columns: Int
    let rows: Int
    var plotX: Int { x + gutter }

    /// Writes the scale's labels right-aligned in the gutter and the axis line beside them.
    func drawAxis(_ scale: YScale, into canvas: inout Canvas) {
        let labels = scale.labels()
        for r in 0..<rows { canvas.set(plotX - 1, y + r, "│", .gray, layer: .grid) }
        for l in labels {
            canvas.rightAligned(plotX - 1, y + l.row, l.text)
            canvas.set(plotX - 1, y + l.row, "┤", .gray, layer: .label)
        }
    }

    /// Draws `values` as a braille line on `scale` (as `marker` glyphs, when given).
    func line(_ values: [Double], scale: YScale, color: ChartColor, marker: Unicode.Scalar? = nil, layer: Canvas.Layer = .overlay,
              into canvas: inout Canvas) {
        var grid = BrailleGrid(columns: columns, rows: rows)
        LinePlot.plot(values, scale: scale, into: &grid)
        grid.draw(into: &canvas, x: plotX, y: y, color: color, layer: layer, marker: marker)
    }

    /// A dotted horizontal grid line at `value`.
    func gridLine(at value: Double, scale: YScale, into canvas: inout Canvas) {
        let r = scale.position(value, steps: rows)
        for c in stride(from: 0, to: columns, by: 2) { canvas.set(plotX + c, y + r, "┄", .gray, layer: .grid) }
    }
}
