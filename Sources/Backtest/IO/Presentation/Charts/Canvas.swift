import BacktestAnalysis
import BacktestCore

/// A grid of terminal cells with a colour and a layer per cell.
///
/// Where layers share a cell a fixed priority decides, so output is deterministic:
/// labels > candles > overlays > grid (gnuplot's dumb terminal does the same). Braille cells of
/// the same layer merge their dots.
struct Canvas {
    enum Layer: UInt8, Comparable {
        case empty = 0, grid, overlay, candle, label
        static func < (a: Layer, b: Layer) -> Bool { a.rawValue < b.rawValue }
    }

    let width: Int
    let height: Int
    private(set) var cells: [Unicode.Scalar]
    private var colors: [ChartColor]
    private var layers: [Layer]

    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "canvas must not be empty")
        self.width = width; self.height = height
        cells = Array(repeating: " ", count: width * height)
        colors = Array(repeating: .none, count: width * height)
        layers = Array(repeating: .empty, count: width * height)
    }

    /// Writes `scalar` at (x, y) when `layer` is at least the cell's current layer; ignores
    /// positions outside the canvas.
    mutating func set(_ x: Int, _ y: Int, _ scalar: Unicode.Scalar, _ color: ChartColor = .none, layer: Layer) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = y * width + x
        guard layer >= layers[i] else { return }
        cells[i] = scalar; colors[i] = color; layers[i] = layer
    }

    /// ORs braille dots `bits` into (x, y), merging with braille already at the same layer.
    mutating func braille(_ x: Int, _ y: Int, _ bits: UInt8, _ color: ChartColor, layer: Layer) {
        guard bits != 0, x >= 0, x < width, y >= 0, y < height else { return }
        let i = y * width + x
        var merged = bits
        if layers[i] == layer, cells[i].value >= 0x2800, cells[i].value <= 0x28FF {
            merged |= UInt8(cells[i].value - 0x2800)
        }
        set(x, y, Unicode.Scalar(0x2800 + UInt32(merged))!, color, layer: layer)
    }

    /// Writes `text` from (x, y) rightwards, clipped at the canvas edge. Control characters
    /// (see `TerminalText`) are drawn as U+FFFD, so text from data cannot reach the terminal
    /// as a control sequence.
    mutating func text(_ x: Int, _ y: Int, _ text: String, _ color: ChartColor = .none, layer: Layer = .label) {
        var cx = x
        for s in text.unicodeScalars {
            set(cx, y, TerminalText.needsEscape(s) ? "\u{FFFD}" : s, color, layer: layer)
            cx += 1
        }
    }

    /// Writes `text` so that it ends just before column `end`.
    mutating func rightAligned(_ end: Int, _ y: Int, _ text: String, _ color: ChartColor = .none) {
        self.text(end - text.unicodeScalars.count, y, text, color)
    }

    /// The lines, trailing spaces trimmed, each ending in "\n". With `color`, SGR codes wrap
    /// runs of coloured cells and each line ends reset; without, no 0x1B byte is written.
    func render(color: Bool) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity(width * height * 2)
        for y in 0..<height {
            var end = (y + 1) * width
            while end > y * width, cells[end - 1] == " " { end -= 1 }
            var current = ChartColor.none
            for i in (y * width)..<end {
                if color, colors[i] != current, cells[i] != " " || current != .none {
                    let next = cells[i] == " " ? ChartColor.none : colors[i]
                    if next != current {
                        out.append(contentsOf: (next == .none ? "\u{1B}[0m" : next.sgr).unicodeScalars)
                        current = next
                    }
                }
                out.append(cells[i])
            }
            if current != .none { out.append(contentsOf: "\u{1B}[0m".unicodeScalars) }
            out.append("\n")
        }
        return String(out)
    }
}
