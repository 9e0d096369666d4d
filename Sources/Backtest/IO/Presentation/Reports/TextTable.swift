import BacktestCore
import Foundation

/// Plain-text tables for human output: columns padded to their widest cell.
public enum TextTable {
    /// Renders `rows` (the first is the header); columns in `rightAligned` are right-aligned.
    /// Cells are escaped for the terminal first (`TerminalText`), so widths count what is shown.
    public static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let rows = rows.map { $0.map { TerminalText.escaped($0) } }
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in rows {
            var cells: [String] = []
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                cells.append(rightAligned.contains(i) ? pad + cell : (i == row.count - 1 ? cell : cell + pad))
            }
            out += cells.joined(separator: "  ") + "\n"
        }
        return out
    }
}

/// Number formatting for human tables (percentages) and fixed-precision figures.
public enum Format {
    /// `v` with exactly `digits` decimals; NaN as "n/a", an infinity as "overflow" (never `inf`).
    public static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return v.isNaN ? "n/a" : "overflow" }
        return String(format: "%.\(digits)f", v)
    }

    /// A fraction as a percentage: 0.1234 -> "12.34%".
    public static func percent(_ v: Double, digits: Int = 2) -> String {
        v.isFinite ? fixed(v * 100, digits) + "%" : "n/a"
    }

    /// A count with thousands separators: 1000000 -> "1,000,000".
    public static func grouped(_ n: Int) -> String {
        var digits = String(n.magnitude), out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return (n < 0 ? "-" : "") + digits + out
    }

    /// A price with up to 6 significant decimals, trailing zeros trimmed.
    public static func price(_ v: Double) -> String {
        guard v.isFinite else { return "n/a" }
        var s = fixed(v, v.magnitude >= 1000 ? 2 : v.magnitude >= 1 ? 4 : 6)
        if s.contains(".") { while s.hasSuffix("0") { s.removeLast() }; if s.hasSuffix(".") { s.removeLast() } }
        return s
    }
}
