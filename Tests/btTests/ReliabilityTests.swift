import Foundation
import Testing
import TestSupport

/// Issue 15 end to end, with the real binary: no lost data under concurrent writers or kill -9,
/// no crash on hostile numbers, no change to files bt should not change, no control sequence
/// from data on the terminal.
@Suite("Reliability: concurrency, crashes, untouched files, injection", .serialized)
struct ReliabilityTests {
    /// A CSV of `count` one-minute bars from `start` (epoch seconds).
    static func minuteBars(_ count: Int, from start: Int, named name: String, in dir: URL) throws -> String {
        var text = "time,open,high,low,close,volume\n"
        text.reserveCapacity(count * 40)
        for i in 0..<count { text += "\(start + 60 * i),1,2,0.5,1.5,\(i % 100)\n" }
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func launch(_ args: [String]) throws -> Process {
        let p = Process()
        p.executableURL = BT.binary
        p.arguments = args
        p.currentDirectoryURL = BT.root
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    static func bars(_ db: String) throws -> [String: Int] {
        let r = try BT.run(["data", "list", "--json", "--db", db])
        guard r.status == 0 else { throw CLIError("data list failed: \(r.stderr)") }
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        var out: [String: Int] = [:]
        for s in object["series"] as! [[String: Any]] { out[s["symbol"] as! String] = s["bars"] as? Int }
        return out
    }

    @Test("two imports into one symbol at the same time: both imports' bars are kept (or the second is refused)")
    func concurrentImports() throws {
        let dir = BT.scratchDirectory()
        let a = try Self.minuteBars(150_000, from: 1_600_000_000, named: "a.csv", in: dir)
        let b = try Self.minuteBars(150_000, from: 1_700_000_000, named: "b.csv", in: dir)
        for trial in 0..<4 {
            let db = dir.appendingPathComponent("race\(trial).sqlite").path
            if trial % 2 == 0 { #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0) }
            let first = try Self.launch(["data", "import", a, "--symbol", "X", "--db", db])
            let second = try Self.launch(["data", "import", b, "--symbol", "X", "--db", db])
            first.waitUntilExit()
            second.waitUntilExit()
            let stored = try Self.bars(db)["X"] ?? 0
            let ok = [first, second].filter { $0.terminationStatus == 0 }.count
            #expect(ok >= 1, "trial \(trial): both imports failed")
            #expect(stored == 150_000 * ok, "trial \(trial): \(ok) imports succeeded but \(stored) bars are stored")
            if trial % 2 == 0 { #expect(try Self.bars(db)["GOOG"] == 2148) }
        }
    }

    @Test("kill -9 during an import: the store opens, keeps what it had, and holds all of the import or none")
    func killDuringImport() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("k.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let before = try BT.run(["data", "export", "GOOG", "--db", db]).stdout
        for (k, delay) in [0.05, 0.2, 0.5, 0.9, 1.4, 2.0].enumerated() {
            let p = try Self.launch(["data", "synth", "--symbols", "20", "--bars", "60000", "--seed", "\(k + 2)", "--db", db])
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let bars = try Self.bars(db)
            #expect(bars["GOOG"] == 2148)
            let synthetic = bars.filter { $0.key.hasPrefix("SYN") }
            #expect(synthetic.isEmpty || (synthetic.count == 20 && synthetic.values.allSatisfy { $0 == 60000 }),
                    "after a kill at \(delay)s: \(synthetic.count) synthetic series")
            #expect(try BT.run(["data", "export", "GOOG", "--db", db]).stdout == before)
            #expect(try BT.run(["data", "remove", "SYN0001", "--db", db]).status == (synthetic.isEmpty ? 2 : 0))
        }
    }

    @Test("a store in a read-only directory is readable, and nothing is created beside it")
    func readOnlyDirectory() throws {
        let dir = BT.scratchDirectory().appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let export = try BT.run(["data", "export", "GOOG", "--db", db]).stdout
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        // Root ignores permissions: run bt as nobody so the directory really is read-only to it.
        var prefix: [String] = []
        if getuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            try #require(FileManager.default.isExecutableFile(atPath: setpriv), "util-linux setpriv is needed to drop root")
            prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", BT.binary.path]
        }
        func run(_ args: [String]) throws -> BT.Result {
            prefix.isEmpty ? try BT.run(args) : try BT.runExecutable(prefix[0], Array(prefix.dropFirst()) + args)
        }
        let list = try run(["data", "list", "--db", db])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("GOOG"))
        #expect(try run(["data", "export", "GOOG", "--db", db]).stdout == export)
        let r = try run(["run", "ma-cross", "GOOG", "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let write = try run(["data", "import", "data/EURUSD.csv", "--db", db])
        #expect(write.status == 1 && write.stderr.contains(db), "\(write.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == files)
    }

    @Test("another program's SQLite file: every command refuses it (exit 2) and leaves it byte for byte as it was")
    func foreignFile() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("app.db").path
        try RawDatabase.execute("CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep me');", at: db)
        let before = try #require(FileManager.default.contents(atPath: db))
        let commands: [[String]] = [
            ["data", "list"], ["data", "list", "--json"], ["data", "import", "data/GOOG.csv"], ["data", "export", "GOOG"],
            ["data", "summary"], ["data", "remove", "GOOG"], ["data", "synth", "--symbols", "1", "--bars", "10"],
            ["run", "ma-cross", "GOOG"], ["chart", "GOOG"], ["screen", "ma-cross", "--all"],
        ]
        for args in commands {
            let r = try BT.run(args + ["--db", db])
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("not a bt store") && r.stderr.contains(db), "\(args): \(r.stderr)")
        }
        #expect(FileManager.default.contents(atPath: db) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["app.db"])
    }

    struct Crash: CustomTestStringConvertible, Sendable {
        var args: [String]
        var message: String
        var testDescription: String { args.joined(separator: " ").prefix(60).description }
    }

    static let crashes: [Crash] = [
        Crash(args: ["run", "ma-cross", "GOOG", "--cash", "1e308"], message: "--cash '1e+308': initial cash must be a positive number up to 1e15"),
        Crash(args: ["chart", "GOOG", "--width", "9223372036854775807"], message: "--width '9223372036854775807': a chart is at most 1000 columns wide"),
        Crash(args: ["chart", "GOOG", "--width", "100000", "--height", "100000"], message: "a chart is at most 1000 columns wide"),
        Crash(args: ["run", "ma-cross", "GOOG", "--height", "9223372036854775807"], message: "a chart is at most 500 rows high"),
        Crash(args: ["data", "synth", "--bars", "9223372036854775807"], message: "--bars '9223372036854775807': at most 20000000 bars"),
        Crash(args: ["data", "synth", "--bars", "100000", "--timeframe", "1M"], message: "would run past the year 9999"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=1:1e300:1"], message: "--grid 'fast=1:1e300:1': more than 1000000 values"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=0:1:1e-300"], message: "more than 1000000 values"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=1:1000000:1", "--grid", "slow=1:1000000:1", "--grid", "type=1:1000000:1"],
              message: "the grid has 1e+12 combinations or more"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=1:1000:1", "--grid", "slow=1:1000:1", "--where", "fast > slow + 5000"],
              message: "--where leaves no combination of the grid"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=50:60:10", "--grid", "slow=10:20:10"],
              message: "no combination could run: all 4 failed (see sweep.csv)"),
        Crash(args: ["data", "import", "data/GOOG.csv", "--symbol", "\u{1}GOOG"], message: "--symbol '\\x01GOOG': the symbol starts with U+0001"),
        Crash(args: ["run", "ma-cross", "\u{1}GOOG"], message: "the symbol starts with U+0001"),
        Crash(args: ["data", "export", "A|B"], message: "the symbol holds '|' at position 2"),
        Crash(args: ["screen", "ma-cross", "--symbols", "GOOG,\u{1B}[2J"], message: "the symbol starts with U+001B"),
        Crash(args: ["data", "list", "--db", ""], message: "--db '': the store path is empty"),
        Crash(args: ["data", "import", "data/GOOG.csv", "--db", ":memory:"], message: "--db ':memory:': is not a file path"),
        Crash(args: ["data", "import", "data/GOOG.csv", "--db", "file:x?mode=memory"], message: "is not a file path"),
        Crash(args: ["run", "ma-cross", "GOOG", "--out", ""], message: "--out '': the report directory path is empty"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--out", ""], message: "--out '': the output directory path is empty"),
    ]

    @Test("inputs that used to crash, hang or be swallowed exit 2 with a message", arguments: crashes)
    func crashInputs(_ c: Crash) throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        var args = c.args
        if !args.contains("--db") { args += ["--db", db] }
        if ["sweep", "run"].contains(args[0]) && !args.contains("--out") { args += ["--out", dir.appendingPathComponent("out").path] }
        let r = try BT.run(args)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(c.message), "\(r.stderr)")
        #expect(r.stderr.utf8.count < 2000)
        #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\u{1}"))
    }

    @Test("a symbol from a file name outside the alphabet exits 2 and creates nothing")
    func badFileName() throws {
        let dir = BT.scratchDirectory()
        let file = dir.appendingPathComponent("\u{1}evil.csv")
        try Data("date,open,high,low,close\n2024-01-02,1,2,0.5,1\n2024-01-03,1,2,0.5,1\n".utf8).write(to: file)
        let db = dir.appendingPathComponent("new/s.sqlite").path
        let r = try BT.run(["data", "import", file.path, "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot derive a symbol from the file name: the symbol starts with U+0001") && r.stderr.contains("\\x01evil.csv"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new").path))
    }

    @Test("a full disk leaves no half-written report or sweep, and a rerun is not refused")
    func fullDisk() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let report = dir.appendingPathComponent("reports/run").path
        let sweep = dir.appendingPathComponent("sweeps/grid").path
        let runArgs = ["run", "ma-cross", "GOOG", "--db", db, "--out", report, "--no-chart"]
        let sweepArgs = ["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=2:50:1", "--grid", "slow=20:200:5", "--out", sweep]
        // 100 KB per file: the store's shared memory fits, equity.csv and sweep.csv do not.
        for args in [runArgs, sweepArgs] {
            let r = try BT.shell("ulimit -f 100; trap '' XFSZ; exec " + ([BT.binary.path] + args).map(BT.quoted).joined(separator: " "))
            #expect(r.status == 1, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("File too large"), "\(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["s.sqlite", "s.sqlite-shm", "s.sqlite-wal"]
                    || (try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["s.sqlite"])
        #expect(try BT.run(runArgs).status == 0)
        #expect(try BT.run(sweepArgs).status == 0)
        #expect(FileManager.default.fileExists(atPath: report + "/report.md") && FileManager.default.fileExists(atPath: sweep + "/sweep.md"))
    }

    @Test("--force replaces a sweep folder as a whole; a folder holding other files is never replaced")
    func forceReplaces() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let out = dir.appendingPathComponent("sw").path
        let base = ["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=5:10:5", "--grid", "slow=20:40:20", "--depth", "none", "--out", out]
        #expect(try BT.run(base + ["--walk-forward", "3"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/walk_forward.csv"))
        #expect(try BT.run(base).status == 2)
        #expect(try BT.run(base + ["--force"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/walk_forward.csv"), "a stale file of the old sweep survived --force")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        let r = try BT.run(base + ["--force"])
        #expect(r.status == 2 && r.stderr.contains("which bt did not write"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/notes.txt"))
    }

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

    @Test("a 5 MB rejected field is quoted in at most 80 characters")
    func hugeField() throws {
        let dir = BT.scratchDirectory()
        let file = dir.appendingPathComponent("big.csv")
        try Data(("date,open,high,low,close\n2024-01-02," + String(repeating: "7", count: 5_000_000) + "x,2,0.5,1\n").utf8).write(to: file)
        let r = try BT.run(["data", "import", file.path, "--db", dir.appendingPathComponent("s.sqlite").path])
        #expect(r.status == 2)
        #expect(r.stderr.utf8.count < 400, "\(r.stderr.utf8.count) bytes of stderr")
        #expect(r.stderr.contains("(5000001 characters) is not a number"))
    }

    @Test("Alpha Vantage notes and information messages are named as such")
    func alphaVantageMessages() throws {
        let dir = BT.scratchDirectory()
        let note = dir.appendingPathComponent("ibm.json")
        try Data(#"{"Note": "Thank you for using Alpha Vantage! Our standard API call frequency is 5 calls per minute."}"#.utf8).write(to: note)
        let r = try BT.run(["data", "import", note.path, "--db", dir.appendingPathComponent("s.sqlite").path])
        #expect(r.status == 2 && r.stderr.contains("Alpha Vantage answered with a note instead of data"), "\(r.stderr)")
    }
}
