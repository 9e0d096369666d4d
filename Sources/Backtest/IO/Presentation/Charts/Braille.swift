import BacktestAnalysis
import BacktestCore

/// A dot buffer of 2x4 braille dots per cell, drawn into a `Canvas` region.
struct BrailleGrid {
    let columns: Int
    let rows: Int
    var dotColumns: Int { columns * 2 }
    var dotRows: Int { rows * 4 }
    private var bits: [UInt8]

    init(columns: Int, rows: Int) {
        self.columns = columns; self.rows = rows
        bits = Array(repeating: 0, count: columns * rows)
    }

    /// Unicode braille bit of the dot at (dx, dy) within its cell (dx 0...1, dy 0...3).
    private static let dotBit: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    mutating func dot(_ x: Int, _ y: Int) {
        guard x >= 0, x < dotColumns, y >= 0, y < dotRows else { return }
        bits[(y / 4) * columns + x / 2] |= Self.dotBit[x & 1][y & 3]
    }

    /// Whether the dot at (x, y) is set.
    func has(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && x < dotColumns && y >= 0 && y < dotRows && bits[(y / 4) * columns + x / 2] & Self.dotBit[x & 1][y & 3] != 0
    }

    /// Dots from row `y0` to `y1` (either order) in dot column `x`.
    mutating func vertical(_ x: Int, _ y0: Int, _ y1: Int) {
        for y in min(y0, y1)...max(y0, y1) { dot(x, y) }
    }

    /// Copies the dots into `canvas` with the top-left cell at (x, y).
    /// Draws the dots; with `marker`, each cell that has a dot shows `marker` instead (how a
    /// second line stays apart from the first without colour).
    func draw(into canvas: inout Canvas, x: Int, y: Int, color: ChartColor, layer: Canvas.Layer, marker: Unicode.Scalar? = nil) {
        for r in 0..<rows {
            for c in 0..<columns where bits[r * columns + c] != 0 {
                if let marker {
                    canvas.set(x + c, y + r, marker, color, layer: layer)
                } else {
                    canvas.braille(x + c, y + r, bits[r * columns + c], color, layer: layer)
                }
            }
        }
    }
}
