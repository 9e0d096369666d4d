import Foundation

/// An SVG document built element by element. Every text label's box is kept (from its font
/// size and a per-character width estimate for DejaVu Sans, the widest common sans-serif), so
/// layout code can place labels where nothing else is and tests can check that none overlap.
/// Labels are written after everything else, so no shape is ever drawn over one.
struct SVGCanvas {
    /// An axis-aligned box in SVG user units.
    struct Box: Equatable, CustomStringConvertible {
        var x: Double, y: Double, width: Double, height: Double
        var maxX: Double { x + width }
        var maxY: Double { y + height }

        func intersects(_ other: Box) -> Bool {
            x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
        }

        func contains(_ other: Box) -> Bool {
            other.x >= x && other.maxX <= maxX && other.y >= y && other.maxY <= maxY
        }

        /// The box grown by `d` on every side.
        func outset(_ d: Double) -> Box { Box(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d) }

        var description: String { String(format: "(%.1f, %.1f, %.1f x %.1f)", x, y, width, height) }
    }

    enum Anchor: String { case start, middle, end }

    /// One text label and the box it covers.
    struct Label {
        var text: String
        var box: Box
    }

    let width: Double
    let height: Double
    private var shapes = ""
    private var texts = ""
    /// Every label, in drawing order.
    private(set) var labels: [Label] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    // MARK: - Text metrics

    /// Estimated advance of `text` at font size `size`: per-character widths of DejaVu Sans
    /// (digits 0.64 em, lower case about 0.6, upper case about 0.7), rounded up.
    static func textWidth(_ text: String, size: Double) -> Double {
        var em = 0.0
        for c in text.unicodeScalars {
            switch c {
            case "0"..."9": em += 0.64
            case " ", ".", ",", ":", ";", "'", "|", "!", "i", "l", "j", "I": em += 0.32
            case "-", "(", ")", "[", "]", "/", "f", "t", "r": em += 0.4
            case "%": em += 0.95
            case "m", "w", "M", "W": em += 0.92
            case "A"..."Z": em += 0.72
            case "a"..."z": em += 0.62
            default: em += 0.85
            }
        }
        return (em * size * 10).rounded(.up) / 10
    }

    /// The box of `text` drawn with its baseline at `y`.
    static func textBox(_ text: String, x: Double, y: Double, size: Double, anchor: Anchor = .start) -> Box {
        let w = textWidth(text, size: size)
        let left: Double
        switch anchor {
        case .start: left = x
        case .middle: left = x - w / 2
        case .end: left = x - w
        }
        return Box(x: left, y: y - 0.8 * size, width: w, height: 1.05 * size)
    }

    /// Whether `box` lies inside the canvas and clear (by `gap`) of every label so far.
    func isFree(_ box: Box, gap: Double = 2) -> Bool {
        guard box.x >= 0, box.y >= 0, box.maxX <= width, box.maxY <= height else { return false }
        let grown = box.outset(gap)
        return !labels.contains { $0.box.intersects(grown) }
    }

    // MARK: - Shapes

    /// A coordinate to one decimal, without trailing `.0`: `12`, `12.5`, `-0.3`.
    static func f(_ v: Double) -> String {
        let k = (v * 10).rounded(), r = k / 10
        if r == r.rounded() { return String(Int(r)) }
        // r is the double nearest k / 10, which "%.1f" prints as k / 10: its digits from the
        // integer k (String(format:) took a fifth of a million-candle chart's time).
        guard abs(k) < 1e15 else { return String(format: "%.1f", r) }
        let tenths = Int(abs(k))
        return (k < 0 ? "-" : "") + String(tenths / 10) + "." + String(tenths % 10)
    }

    private static func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { k, v in v.map { " \(k)=\"\($0)\"" } }.joined()
    }

    mutating func rect(_ box: Box, fill: String, stroke: String? = nil, strokeWidth: Double? = nil, opacity: Double? = nil,
                       title: String? = nil) {
        shapes += "<rect x=\"\(Self.f(box.x))\" y=\"\(Self.f(box.y))\" width=\"\(Self.f(box.width))\" height=\"\(Self.f(box.height))\""
            + Self.attributes([("fill", fill), ("stroke", stroke), ("stroke-width", strokeWidth.map(Self.f)),
                               ("fill-opacity", opacity.map { String(format: "%.2f", $0) })])
        shapes += title.map { "><title>\(SVGChart.escape($0))</title></rect>\n" } ?? "/>\n"
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil) {
        shapes += "<line x1=\"\(Self.f(x1))\" y1=\"\(Self.f(y1))\" x2=\"\(Self.f(x2))\" y2=\"\(Self.f(y2))\""
            + Self.attributes([("stroke", stroke), ("stroke-width", width == 1 ? nil : Self.f(width)), ("stroke-dasharray", dash)])
            + "/>\n"
    }

    /// A path of straight segments; `runs` are drawn as separate subpaths (gaps between them).
    mutating func polyline(_ runs: [[(x: Double, y: Double)]], stroke: String, width: Double = 1.2, dash: String? = nil) {
        let d = runs.filter { !$0.isEmpty }.map { run in
            "M" + run.map { "\(Self.f($0.x)),\(Self.f($0.y))" }.joined(separator: "L")
        }.joined()
        guard !d.isEmpty else { return }
        shapes += "<path d=\"\(d)\" fill=\"none\""
            + Self.attributes([("stroke", stroke), ("stroke-width", Self.f(width)), ("stroke-dasharray", dash),
                               ("stroke-linejoin", "round")]) + "/>\n"
    }

    mutating func polygon(_ points: [(x: Double, y: Double)], fill: String, opacity: Double? = nil, stroke: String? = nil) {
        guard !points.isEmpty else { return }
        shapes += "<polygon points=\"" + points.map { "\(Self.f($0.x)),\(Self.f($0.y))" }.joined(separator: " ") + "\""
            + Self.attributes([("fill", fill), ("fill-opacity", opacity.map { String(format: "%.2f", $0) }), ("stroke", stroke)])
            + "/>\n"
    }

    /// Raw path data `d` filled or stroked (candle bodies and wicks, many at once).
    mutating func path(_ d: String, fill: String? = nil, stroke: String? = nil, width: Double? = nil, opacity: Double? = nil) {
        guard !d.isEmpty else { return }
        shapes += "<path d=\"\(d)\"" + Self.attributes([("fill", fill ?? "none"), ("fill-opacity", opacity.map { String(format: "%.2f", $0) }),
                                                        ("stroke", stroke), ("stroke-width", width.map(Self.f))])
            + "/>\n"
    }

    mutating func circle(_ x: Double, _ y: Double, r: Double, fill: String, stroke: String? = nil) {
        shapes += "<circle cx=\"\(Self.f(x))\" cy=\"\(Self.f(y))\" r=\"\(Self.f(r))\"" + Self.attributes([("fill", fill), ("stroke", stroke)])
            + "/>\n"
    }

    // MARK: - Labels

    /// Draws `text` with its baseline at `y` (above every shape) and records its box.
    /// - Parameter background: a colour for a box behind the text (for labels over data).
    @discardableResult
    mutating func text(_ text: String, x: Double, y: Double, size: Double = 11, anchor: Anchor = .start, color: String = "#1b2230",
                       bold: Bool = false, background: String? = nil) -> Box {
        let box = Self.textBox(text, x: x, y: y, size: size, anchor: anchor)
        if let background {
            let b = box.outset(2)
            texts += "<rect x=\"\(Self.f(b.x))\" y=\"\(Self.f(b.y))\" width=\"\(Self.f(b.width))\" height=\"\(Self.f(b.height))\" "
                + "fill=\"\(background)\" fill-opacity=\"0.85\" rx=\"2\"/>\n"
        }
        texts += "<text x=\"\(Self.f(x))\" y=\"\(Self.f(y))\" font-size=\"\(Self.f(size))\""
            + Self.attributes([("text-anchor", anchor == .start ? nil : anchor.rawValue), ("fill", color),
                               ("font-weight", bold ? "bold" : nil)])
            + ">\(SVGChart.escape(text))</text>\n"
        labels.append(Label(text: text, box: box))
        return box
    }

    /// Draws `text` turned a quarter counter-clockwise, centred on (`x`, `y`); records its box.
    @discardableResult
    mutating func verticalText(_ text: String, x: Double, y: Double, size: Double = 11, color: String = "#1b2230") -> Box {
        let w = Self.textWidth(text, size: size)
        let box = Box(x: x - 0.8 * size, y: y - w / 2, width: 1.05 * size, height: w)
        texts += "<text x=\"\(Self.f(x))\" y=\"\(Self.f(y))\" font-size=\"\(Self.f(size))\" text-anchor=\"middle\" fill=\"\(color)\" "
            + "transform=\"rotate(-90 \(Self.f(x)) \(Self.f(y)))\">\(SVGChart.escape(text))</text>\n"
        labels.append(Label(text: text, box: box))
        return box
    }

    /// The first of `candidates` (baseline positions) where `text` fits clear of every label and
    /// inside `bounds`; nil when none does.
    func place(_ text: String, candidates: [(x: Double, y: Double, anchor: Anchor)], size: Double = 11, within bounds: Box)
        -> (x: Double, y: Double, anchor: Anchor)? {
        candidates.first { c in
            let box = Self.textBox(text, x: c.x, y: c.y, size: size, anchor: c.anchor).outset(2)
            return bounds.contains(box) && isFree(box)
        }
    }

    /// The whole document.
    var svg: String {
        let w = Self.f(width), h = Self.f(height)
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" "
            + "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
            + shapes + texts + "</svg>\n"
    }
}
