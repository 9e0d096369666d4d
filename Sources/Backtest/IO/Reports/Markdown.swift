import BacktestAnalysis
import BacktestCore
import Foundation

/// Text made safe for the markdown reports (`report.md`, `sweep.md`, `screen.md`).
enum Markdown {
    /// `s` inside a table cell: `|` escaped, line breaks folded to spaces.
    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// A command line as an inline code span that pastes back into a shell: arguments with
    /// characters other than letters, digits and `-_./:=,@%+` are single-quoted.
    static func command(_ arguments: [String]) -> String {
        "`" + arguments.map(shellQuoted).joined(separator: " ").replacingOccurrences(of: "`", with: "'") + "`"
    }

    static func shellQuoted(_ s: String) -> String {
        if !s.isEmpty && s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=,@%+".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
