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

/// File names made from user text (symbols, strategy names).
public enum FileName {
    /// Keeps ASCII letters, digits, `.`, `-` and `_`, turns anything else into `_`, strips leading
    /// dots (no hidden files, no `..`), caps the length at 80 and never returns an empty name.
    /// `../../etc/passwd` becomes `etc_passwd`.
    public static func sanitized(_ text: String) -> String {
        var out = ""
        for s in text.unicodeScalars {
            let ok = (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_" || s == "."
            out.unicodeScalars.append(ok ? s : "_")
        }
        while out.hasPrefix(".") || out.hasPrefix("_") { out.removeFirst() }
        while out.contains("..") { out = out.replacingOccurrences(of: "..", with: ".") }
        if out.count > 80 { out = String(out.prefix(80)) }
        return out.isEmpty ? "unnamed" : out
    }

    /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it: "" for a
    /// bare name, "/" for a name at the root, trailing slashes ignored. (Foundation's own traps
    /// on one-character paths such as `--out x` on Linux.)
    public static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var head = p[..<slash]
        while head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }
}
