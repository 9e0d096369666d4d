import BacktestAnalysis
import BacktestCore
import Foundation

/// CSV cells safe to open in a spreadsheet.
enum CSV {
    /// A text cell: quoted when it holds a comma, quote or line break; prefixed with `'` when it
    /// starts with `=`, `+`, `-`, `@`, tab or carriage return, so spreadsheets do not run it as a
    /// formula (OWASP "CSV injection"). Numbers go through `number`, never through here.
    /// Control characters other than tab and line breaks are made visible (`\x1b`), so a CSV
    /// printed in a terminal cannot send it escape sequences.
    static func text(_ s: String) -> String {
        var v = s
        if v.unicodeScalars.contains(where: { TerminalText.needsEscape($0) && $0 != "\n" && $0 != "\r" }) {
            var out = String.UnicodeScalarView()
            for u in v.unicodeScalars {
                if TerminalText.needsEscape(u) && u != "\n" && u != "\r" {
                    out.append(contentsOf: TerminalText.visible(u).unicodeScalars)
                } else {
                    out.append(u)
                }
            }
            v = String(out)
        }
        if let first = v.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { v = "'" + v }
        if v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            v = "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return v
    }

    /// A number cell: shortest round-trip decimal; empty for NaN and infinities (pandas reads NaN).
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "" }
        return NumberText.shortest(v)
    }

    static func row(_ cells: [String]) -> String { cells.joined(separator: ",") + "\n" }
}
