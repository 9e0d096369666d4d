import BacktestAnalysis
import BacktestCore
import Foundation

/// Text made safe for the markdown reports (`report.md`, `sweep.md`, `screen.md`, `summary.md`).
///
/// Every string that did not come from bt itself (symbols, file names, strategy and parameter
/// names and values, error text) goes through one of these before it is written into markdown:
/// `cell` for table cells, headings and list items, `code` for inline code, `fenced` around
/// text charts (and bt's command reference, `bt help --markdown`). GitHub and other renderers then show the text as it is: no extra table column
/// from a `|`, no broken row from a newline, no link, emphasis or raw HTML (`<img onerror=...>`).
package enum Markdown {
    /// `s` as plain text inside a table cell or a line: line breaks folded to spaces, other
    /// control characters made visible, `\ | ` * [ ]` backslash-escaped, and `& < >` as HTML
    /// entities so no tag or entity reaches the renderer.
    package static func cell(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in folded(s) {
            switch ch {
            case "\\", "|", "`", "*", "[", "]": out.append("\\"); out.append(ch)
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// `s` as an inline code span that is safe in a table and shows `s` exactly: delimited by one
    /// backtick more than the longest run inside (CommonMark), with a space inside each end when
    /// `s` holds a backtick or starts and ends with a space (a renderer strips one from each
    /// end); `|` is escaped (GitHub's tables split on it even inside code, and show `\|` there
    /// as `|`), line breaks and control characters are made visible.
    /// A table of `rows` under `columns`, every cell escaped (`cell`); `align` says "right" for
    /// a right-aligned column (as report.html's tables say it).
    static func table(_ columns: [String], _ rows: [[String]], align: [String]) -> String {
        func line(_ cells: [String]) -> String { "| " + cells.map(cell).joined(separator: " | ") + " |\n" }
        return line(columns) + "|" + align.map { $0 == "right" ? "---:|" : "---|" }.joined() + "\n" + rows.map(line).joined()
    }

    static func code(_ s: String) -> String {
        let text = folded(s, visibleNewlines: true).replacingOccurrences(of: "|", with: "\\|")
        var longest = 0, run = 0
        for ch in text { if ch == "`" { run += 1; longest = max(longest, run) } else { run = 0 } }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = longest > 0 || (text.hasPrefix(" ") && text.hasSuffix(" ") && text.contains { $0 != " " })
        return padded ? fence + " " + text + " " + fence : fence + text + fence
    }

    /// A fenced code block holding `text` (a text chart): the fence is longer than any run of
    /// backticks inside, so nothing in the text can close it.
    package static func fenced(_ text: String, info: String = "text") -> String {
        var longest = 0, run = 0
        for ch in text { if ch == "`" { run += 1; longest = max(longest, run) } else { run = 0 } }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return fence + info + "\n" + text + (text.hasSuffix("\n") ? "" : "\n") + fence + "\n"
    }

    /// A text chart fenced (`fenced`), followed by its thinning note as a sentence when it has
    /// one (`ChartDrawing.note`).
    package static func fenced(chart: ChartDrawing) -> String {
        fenced(chart.text) + (chart.note.map { "\n" + $0.prefix(1).uppercased() + $0.dropFirst() + ".\n" } ?? "")
    }

    /// A command line as an inline code span that pastes back into a shell: arguments with
    /// characters other than letters, digits and `-_./:=,@%+` are single-quoted, and ones with
    /// control characters are written `$'...'` with escapes.
    static func command(_ arguments: [String]) -> String {
        code(arguments.map(shellQuoted).joined(separator: " "))
    }

    /// One argument quoted for a POSIX shell (see `command`).
    public static func shellQuoted(_ s: String) -> String {
        if !s.isEmpty && s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=,@%+".contains($0)) }) { return s }
        if s.unicodeScalars.contains(where: { TerminalText.needsEscape($0) }) {
            var out = "$'"
            for u in s.unicodeScalars {
                switch u {
                case "'": out += "\\'"
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if TerminalText.needsEscape(u) {
                        out += u.value < 0x100 ? String(format: "\\x%02x", u.value) : String(format: "\\u%04x", u.value)
                    } else {
                        out.unicodeScalars.append(u)
                    }
                }
            }
            return out + "'"
        }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Line breaks as spaces (or as visible `\n`), every other control character visible.
    private static func folded(_ s: String, visibleNewlines: Bool = false) -> String {
        let lines = s.replacingOccurrences(of: "\r\n", with: "\n")
        return TerminalText.escaped(visibleNewlines ? lines : lines.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " "))
    }
}

/// Text made safe for HTML and SVG (element content and quoted attribute values).
enum HTML {
    /// `& < > " '` as entities; control characters other than tab and newline, which XML
    /// forbids, as U+FFFD.
    static func escaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if u.value < 0x20 && u != "\t" && u != "\n" || u.value == 0x7F { out += "\u{FFFD}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }
}
