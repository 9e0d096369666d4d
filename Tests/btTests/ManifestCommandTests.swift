import Foundation
import Testing
import TestSupport

/// The command a report's manifest records is the command as typed: shell-quoted, in a markdown
/// code span fenced by more backticks than any run inside it, so pasting it into a shell reruns
/// it.
@Suite("The manifest's command reruns when pasted into a shell", .serialized)
struct ManifestCommandTests {
    @Test("the manifest's command keeps a backtick and every other character, and pastes back into a shell that reruns it")
    func manifestCommandIsExact() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let out = dir.appendingPathComponent("r`x $(y) 'q' |z").path
        let r = try BT.run(["run", "ma-cross", "GOOG", "--db", db, "--out", out, "--no-chart"])
        #expect(r.status == 0, "\(r.stderr)")
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        let line = try #require(md.split(separator: "\n").first { $0.hasPrefix("| command |") })
        let spans = CodeSpans.codeSpans(in: String(line))
        let command = try #require(spans.first)
        #expect(command.contains("r`x $(y) '\\''q'\\'' |z"), "\(command)")
        // The command as recorded, run by a shell with `bt` this binary: it writes the report again.
        let rerun = try BT.shell("bt() { \(BT.quoted(BT.binary.path)) \"$@\"; }; " + command + " --force")
        #expect(rerun.status == 0, "\(command): \(rerun.stderr)")
        let again = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(again.contains("--force"))
    }
}

/// CommonMark inline code spans, for reading a command back from a markdown table cell.
enum CodeSpans {
    /// The contents of `md`'s code spans, one leading and trailing space stripped when both are
    /// there, `\|` read as `|` (a GitHub table cell).
    static func codeSpans(in md: String) -> [String] {
        let chars = Array(md)
        func run(at i: Int) -> Int { var j = i; while j < chars.count && chars[j] == "`" { j += 1 }; return j - i }
        var spans: [String] = [], i = 0
        while i < chars.count {
            guard chars[i] == "`" else { i += 1; continue }
            let n = run(at: i)
            var j = i + n, close: Int?
            while j < chars.count {
                if chars[j] == "`" {
                    let m = run(at: j)
                    if m == n { close = j; break }
                    j += m
                } else {
                    j += 1
                }
            }
            guard let close else { i += n; continue }
            var s = String(chars[(i + n)..<close]).replacingOccurrences(of: "\\|", with: "|")
            if s.count >= 2, s.hasPrefix(" "), s.hasSuffix(" "), s.contains(where: { $0 != " " }) { s = String(s.dropFirst().dropLast()) }
            spans.append(s)
            i = close + n
        }
        return spans
    }
}
