import Foundation
import Testing
import TestSupport

/// Untrusted text is escaped for its destination, end to end with the real binary: a store
/// holding a symbol with OSC/CSI sequences and `<img onerror>` (as an older bt could have stored
/// it), and an import error quoting escape sequences, never reach the terminal, markdown or CSV
/// raw.
@Suite("Hostile symbols and fields are escaped on the terminal, in markdown and in CSV", .serialized)
struct EscapedOutputTests {
    /// A store whose symbol holds escape sequences, as an older bt could have stored it.
    static func hostileStore() throws -> String {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        try RawDatabase.execute("""
            INSERT INTO series SELECT char(27) || ']0;pwned' || char(7) || char(27) || '[2J|<img src=x onerror=alert(1)>', timeframe, first, last, bars FROM series;
            INSERT INTO chunks SELECT char(27) || ']0;pwned' || char(7) || char(27) || '[2J|<img src=x onerror=alert(1)>', timeframe, start, time, open, high, low, close, volume FROM chunks;
            """, at: db)
        return db
    }

    @Test("symbols, errors and file names with control sequences never reach the terminal raw")
    func terminalInjection() throws {
        let db = try Self.hostileStore()
        for args in [["data", "list"], ["data", "list", "--json"], ["data", "summary"], ["screen", "ma-cross", "--all", "--depth", "none"]] {
            var full = args + ["--db", db]
            if args[0] == "screen" { full += ["--out", BT.scratchDirectory().appendingPathComponent("s").path] }
            let r = try BT.run(full)
            #expect(!r.stdout.contains("\u{1B}") && !r.stderr.contains("\u{1B}") && !r.stdout.contains("\u{7}"), "\(args)")
            #expect((r.stdout + r.stderr).contains("\\x1b]0;pwned") || (r.stdout + r.stderr).contains("\\u001b]0;pwned")
                        || (r.stdout + r.stderr).contains("U+001B"), "\(args): \(r.stdout.prefix(300)) \(r.stderr.prefix(300))")
        }
        // An import error quoting a field with escape sequences.
        let dir = BT.scratchDirectory()
        let file = dir.appendingPathComponent("x.csv")
        try Data("date,open,high,low,close\n2024-01-02\u{1B}]0;pwned\u{7},1,2,0.5,1\n".utf8).write(to: file)
        let r = try BT.run(["data", "import", file.path, "--db", dir.appendingPathComponent("s.sqlite").path])
        #expect(r.status == 2 && !r.stderr.contains("\u{1B}") && r.stderr.contains("\\x1b]0;pwned\\x07"), "\(r.stderr)")
    }

    @Test("screen.md and its CSV escape a hostile symbol for markdown, HTML and spreadsheets")
    func reportInjection() throws {
        let db = try Self.hostileStore()
        let out = BT.scratchDirectory().appendingPathComponent("s").path
        #expect(try BT.run(["screen", "ma-cross", "--all", "--depth", "none", "--db", db, "--out", out]).status == 0)
        let md = try String(contentsOfFile: out + "/screen.md", encoding: .utf8)
        #expect(!md.contains("\u{1B}") && !md.contains("<img"))
        #expect(md.contains("&lt;img src=x onerror=alert(1)&gt;"))
        let csv = try String(contentsOfFile: out + "/screen.csv", encoding: .utf8)
        #expect(!csv.contains("\u{1B}") && csv.contains("\\x1b]0;pwned"))
    }
}
