import Foundation
import Testing
import TestSupport

/// Issue 26, the items left after the first pass, end to end with the real binary: expression
/// trees within a small stack, one size limit for --where and --entry, windows longer than the
/// series said, a planted link at calibrate --out, degenerate prices, leftovers of killed runs,
/// hidden paths in messages, and the command line in the manifest.
@Suite("Reliability round 3, the rest: stacks, windows, prices, leftovers, messages, manifests", .serialized)
struct ReliabilityRound3Tests {
    /// `bt args` with a stack of `kilobytes` for the main thread and every thread it starts
    /// (glibc sizes new threads by the stack limit; 2 MB is what they get under `ulimit -s unlimited`).
    static func withStack(_ kilobytes: Int, _ args: [String]) throws -> BT.Result {
        try BT.shell("ulimit -s \(kilobytes); exec /usr/bin/timeout 120 " + ([BT.binary.path] + args).map(BT.quoted).joined(separator: " "))
    }

    static func googStore(in dir: URL) throws -> String {
        let db = dir.appendingPathComponent("s.sqlite").path
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    // MARK: - Expression trees

    @Test("the widest expressions the bounds allow run, and wider ones are refused, within a 2 MB stack: never a crash")
    func expressionsWithinSmallStack() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        func maxOf(_ k: Int) -> String { "max(" + Array(repeating: "close", count: k).joined(separator: ",") + ", $k)" }
        // 4,999 arguments bind to 9,999 operations (accepted); 9,990 to more than 10,000 (refused
        // once bound). The code before bound them as a chain 5,000 and 10,000 levels deep, and
        // walking it overflowed a 2 MB stack (exit 139).
        let accepted = "close >= " + maxOf(4_998)
        let refused = "close >= " + maxOf(9_989)
        // Nested calls to the depth limit, each holding a wide max: every level of the bound tree.
        var nested = "close"
        for _ in 0..<30 { nested = "max(" + nested + ", " + Array(repeating: "open", count: 60).joined(separator: ",") + ")" }
        let deep = "close >= " + nested
        for (rule, status) in [(accepted, Int32(0)), (refused, 2), (deep, 0)] {
            for args in [["run", "GOOG", "--entry", rule, "--exit", "close < 0", "--param", "k=1", "--no-chart", "--no-costs"],
                         ["sweep", "GOOG", "--entry", rule, "--exit", "close < 0", "--grid", "k=1:4:1",
                          "--out", dir.appendingPathComponent("sweep-\(UUID().uuidString)").path],
                         ["screen", "--all", "--where", rule.replacingOccurrences(of: "$k", with: "1")]] {
                let r = try Self.withStack(2048, args + ["--db", db])
                let want = args[0] == "sweep" && status == 2 ? Int32(2) : status
                #expect(r.status == want, "\(args[0]) \(rule.prefix(40))...: \(r.status) \(r.stderr.prefix(300))")
                if status == 2 { #expect(r.stderr.contains("expression too large"), "\(r.stderr.prefix(300))") }
            }
        }
    }

    // MARK: - One limit for --where and --entry

    @Test("screen --where refuses an expression too large once written out, once and before any symbol, as --entry does")
    func whereLimit() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        // 15 levels of zscore: a few dozen characters, but 3^15 operations once written out.
        var text = "close"
        for _ in 0..<15 { text = "zscore(\(text), 5)" }
        let entry = try BT.run(["run", "GOOG", "--entry", text + " > 0", "--exit", "close < 0", "--no-chart", "--db", db])
        #expect(entry.status == 2 && entry.stderr.hasPrefix("error: --entry: expression too large"), "\(entry.stderr.prefix(300))")
        let screen = try BT.run(["screen", "--all", "--where", text + " > 0", "--db", db])
        #expect(screen.status == 2 && screen.stderr.hasPrefix("error: --where: expression too large"), "\(screen.stderr.prefix(300))")
        #expect(!screen.stderr.contains("GOOG"), "refused per symbol: \(screen.stderr.prefix(300))")
        let show = try BT.run(["screen", "--all", "--where", "close > 0", "--show", text, "--db", db])
        #expect(show.status == 2 && show.stderr.hasPrefix("error: --show: expression too large"), "\(show.stderr.prefix(300))")
    }

    // MARK: - Windows longer than the series

    @Test("--spread-window and --impact-window longer than the series are clamped and said so on stderr, once; shorter or default ones are not")
    func clampedWindows() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        let run = ["run", "ma-cross", "GOOG", "--no-chart", "--no-costs", "--db", db]
        let long = try BT.run(run + ["--spread-window", "100000000", "--impact-window", "2149"])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stderr.contains("warning: --spread-window 100000000 is longer than the series (GOOG: 2148 bars): it is clamped to the series"),
                "\(long.stderr)")
        #expect(long.stderr.contains("warning: --impact-window 2149 is longer than the series (GOOG: 2148 bars)"), "\(long.stderr)")
        let fits = try BT.run(run + ["--spread-window", "2148", "--impact-window", "100"])
        #expect(fits.status == 0 && !fits.stderr.contains("warning"), "\(fits.stderr)")
        // A screen reads the options once per symbol: one warning, not one per symbol.
        #expect(try BT.run(["data", "import", "data/EURUSD.csv", "--db", db]).status == 0)
        let screen = try BT.run(["screen", "ma-cross", "--all", "--spread-window", "1000000", "--out",
                                 dir.appendingPathComponent("screen").path, "--db", db])
        #expect(screen.status == 0, "\(screen.stderr)")
        #expect(screen.stderr.components(separatedBy: "warning: --spread-window").count == 2, "\(screen.stderr)")
        // The default window (250 bars) on a shorter series is no one's choice: nothing to say.
        let short = dir.appendingPathComponent("SHORT.csv").path
        let rows = (0..<100).map { "\(1_700_000_000 + 86_400 * $0),10,11,9,\(10 + Double($0 % 7) / 10),1000" }
        try ("time,open,high,low,close,volume\n" + rows.joined(separator: "\n") + "\n").write(toFile: short, atomically: false, encoding: .utf8)
        #expect(try BT.run(["data", "import", short, "--db", db]).status == 0)
        let quiet = try BT.run(["run", "ma-cross", "SHORT", "--param", "slow=20", "--no-chart", "--no-costs", "--db", db])
        #expect(quiet.status == 0 && !quiet.stderr.contains("--spread-window"), "\(quiet.stderr)")
    }

    // MARK: - calibrate --out and planted links

    @Test("bt calibrate --out: a link planted at the old temporary name (.NAME.partial-PID) or at the file is not written through")
    func plantedCalibrateLink() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "synth", "--symbols", "1", "--bars", "300", "--book", "--db", db]).status == 0)
        let victim = dir.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let profile = dir.appendingPathComponent("profile.json").path
        // exec keeps the shell's PID, so $$ is the PID bt runs with.
        let r = try BT.shell("ln -s \(BT.quoted(victim)) \(BT.quoted(dir.path + "/.profile.json.partial-"))$$ && exec "
                             + "\(BT.quoted(BT.binary.path)) calibrate SYN0001 --out \(BT.quoted(profile)) --db \(BT.quoted(db))")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Reliability26Tests.isRegularFile(profile))
        try FileManager.default.removeItem(atPath: profile)
        try FileManager.default.createSymbolicLink(atPath: profile, withDestinationPath: victim)
        let forced = try BT.run(["calibrate", "SYN0001", "--out", profile, "--force", "--db", db])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Reliability26Tests.isRegularFile(profile))
        #expect((try String(contentsOfFile: profile, encoding: .utf8)).contains("\"spread_bps\""))
    }

    // MARK: - Degenerate prices

    static func write(_ name: String, closes: [Double], in dir: URL, spike: (bar: Int, high: Double)? = nil) throws -> String {
        var text = "time,open,high,low,close,volume\n"
        for (i, c) in closes.enumerated() {
            let high = spike?.bar == i ? spike!.high : c * 1.01
            text += "\(1_600_000_000 + 86_400 * i),\(c),\(high),\(c * 0.99),\(c),1000\n"
        }
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// `n` closes of a seeded random walk from `p0`, each step within ±1%: within a factor of
    /// about 1.5 of `p0` over 400 bars.
    static func walk(_ n: Int, from p0: Double) -> [Double] {
        var rng = SplitMix64(seed: 7)
        var p = p0
        return (0..<n).map { _ in
            p *= 1 + (Double(rng.next() % 2001) / 1000 - 1) * 0.01
            return p
        }
    }

    @Test("prices outside 1e-12...1e12, zero or negative are refused on import with file:line and the range, leaving the store as it was")
    func priceRangeOnImport() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        let before = try BT.run(["data", "export", "GOOG", "--db", db]).stdout
        let cases: [(name: String, closes: [Double], spike: (bar: Int, high: Double)?, line: Int, reason: String)] = [
            ("TINY.csv", [1e-300] + Self.walk(50, from: 1e-300), nil, 2, "open 1e-300 is outside the supported price range, 1e-12 to 1e12"),
            ("ZERO.csv", [0] + Self.walk(50, from: 1), nil, 2, "open 0 is not a price bt supports: prices are positive, from 1e-12 to 1e12"),
            ("NEG.csv", Self.walk(10, from: 10) + [-37.63] + Self.walk(10, from: 10), nil, 12, "open -37.63 is not a price bt supports"),
            ("SPIKE.csv", Self.walk(300, from: 100), (150, 1e200), 152, "high 1e+200 is outside the supported price range, 1e-12 to 1e12"),
        ]
        for c in cases {
            let file = try Self.write(c.name, closes: c.closes, in: dir, spike: c.spike)
            let r = try BT.run(["data", "import", file, "--db", db])
            #expect(r.status == 2, "\(c.name): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("\(file):\(c.line): \(c.reason)"), "\(c.name): \(r.stderr)")
        }
        #expect(try BT.run(["data", "list", "--db", db]).stdout.split(separator: "\n").count == 2)
        #expect(try BT.run(["data", "export", "GOOG", "--db", db]).stdout == before)
        // Near the ends of the range are prices.
        for (name, p0) in [("LOW.csv", 2e-12), ("HIGH.csv", 5e11)] {
            let r = try BT.run(["data", "import", try Self.write(name, closes: Self.walk(300, from: p0), in: dir), "--db", db])
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
    }

    @Test("runs at the ends of the price range print numbers or words, never inf or nan, and write their report with --no-chart")
    func extremePricesPrintNumbers() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let files = [try Self.write("LOW.csv", closes: Self.walk(400, from: 2e-12), in: dir),
                     try Self.write("HIGH.csv", closes: Self.walk(400, from: 5e11), in: dir),
                     try Self.write("SPIKE.csv", closes: Self.walk(400, from: 1), in: dir, spike: (200, 1e12))]
        #expect(try BT.run(["data", "import"] + files + ["--db", db]).status == 0)
        func numbersOnly(_ text: String) -> Bool {
            !text.split(whereSeparator: { " \n|,:()".contains($0) }).contains { ["inf", "-inf", "nan", "-nan", "inf%", "nan%"].contains($0.lowercased()) }
        }
        for symbol in ["LOW", "HIGH", "SPIKE"] {
            for extra in [[], ["--spread-window", "5"], ["--entry", "close > 0", "--exit", "close < 0"]] {
                let strategy = extra.first == "--entry" ? [] : ["ma-cross"]
                let out = dir.appendingPathComponent("report-\(symbol)-\(UUID().uuidString)").path
                let r = try BT.run(["run"] + strategy + [symbol] + extra + ["--no-chart", "--out", out, "--db", db])
                #expect(r.status == 0, "\(symbol) \(extra): \(r.stderr)")
                #expect(numbersOnly(r.stdout), "\(symbol) \(extra):\n\(r.stdout)")
                let md = (try? String(contentsOfFile: out + "/report.md", encoding: .utf8)) ?? ""
                #expect(!md.isEmpty && numbersOnly(md), "\(symbol) \(extra): report.md\n\(md.prefix(2_000))")
            }
        }
    }

    // MARK: - Leftovers of killed runs

    static func hidden(in dir: URL, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
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

    /// Starts `args`, waits until a hidden `prefix` folder other than `except` is in `dir`, and
    /// returns the process.
    static func launchUntilStaged(_ args: [String], in dir: URL, prefix: String, except: [String] = []) throws -> Process {
        let p = try launch(args)
        let deadline = Date().addingTimeInterval(30)
        func staged() -> Bool { hidden(in: dir, prefix: prefix).contains { !except.contains($0) } }
        while !staged() && Date() < deadline && p.isRunning { Thread.sleep(forTimeInterval: 0.02) }
        #expect(staged(), "no \(prefix) folder appeared")
        return p
    }

    @Test("a folder a killed sweep left is removed by the next run of this machine; one a live run is writing, or of another machine, is kept and noted")
    func killedRunLeftovers() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        let out = dir.appendingPathComponent("grid").path
        let long = ["sweep", "ma-cross", "GOOG", "--grid", "fast=2:60:1", "--grid", "slow=20:300:2", "--db", db, "--out", out]
        let quick = ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--db", db, "--out", out]
        // A run killed while writing leaves its hidden folder.
        let killed = try Self.launchUntilStaged(long, in: dir, prefix: ".grid.partial-")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let left = Self.hidden(in: dir, prefix: ".grid.partial-")
        #expect(left.count == 1)
        // The next run removes it as it starts; while it runs (alive, holding its lock), its own
        // folder is left alone by a third, which says so.
        let live = try Self.launchUntilStaged(long, in: dir, prefix: ".grid.partial-", except: left)
        defer { if live.isRunning { kill(live.processIdentifier, SIGKILL); live.waitUntilExit() } }
        // One of another machine (another kernel's tag) and one of a bt before these names.
        let foreign = dir.appendingPathComponent(".grid.partial-000000000000-1-0123456789abcdef").path
        let older = dir.appendingPathComponent(".grid.partial-12345-6789abcd").path
        for folder in [foreign, older] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        let r = try BT.run(quick)
        #expect(r.status == 0, "\(r.stderr)")
        let now = Self.hidden(in: dir, prefix: ".grid.partial-")
        #expect(!now.contains(left[0]), "the killed run's folder is still there: \(now)")
        #expect(now.contains(".grid.partial-000000000000-1-0123456789abcdef") && now.contains(".grid.partial-12345-6789abcd"), "\(now)")
        #expect(now.count == 3, "the live run's folder was removed: \(now)")
        #expect(r.stderr.contains("note: ") && r.stderr.contains("process \(live.processIdentifier) is running"), "\(r.stderr)")
        #expect(r.stderr.contains("written on another machine") && r.stderr.contains("written by a bt before these names"), "\(r.stderr)")
        kill(live.processIdentifier, SIGKILL)
        live.waitUntilExit()
        // Once that run is dead too, the next run removes its folder.
        #expect(try BT.run(quick + ["--force"]).status == 0)
        #expect(Self.hidden(in: dir, prefix: ".grid.partial-").count == 2)
    }

    @Test("a shard killed while writing leaves a folder the rerun of that shard removes")
    func killedShardLeftover() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        let out = dir.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        func args(_ grid: [String]) -> [String] {
            ["sweep", "ma-cross", "GOOG"] + grid + ["--shard", "1/2", "--db", db, "--out", out.path]
        }
        let killed = try Self.launchUntilStaged(args(["--grid", "fast=2:60:1", "--grid", "slow=20:300:2"]), in: out,
                                                prefix: ".shard-1-of-2.partial-")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(Self.hidden(in: out, prefix: ".shard-1-of-2.partial-").count == 1)
        let r = try BT.run(args(["--grid", "fast=5,10,15,20"]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.hidden(in: out, prefix: ".shard-1-of-2.partial-").isEmpty)
        #expect(FileManager.default.fileExists(atPath: out.path + "/shard-1-of-2/partial.json"))
    }

    // MARK: - Hidden paths in messages

    @Test("a write that fails inside a staging folder names the path the user gave, never .NAME.partial-...")
    func messagesNameTheTarget() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
        let parts = dir.appendingPathComponent("parts").path
        let cases: [(args: [String], names: String)] = [
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=2:50:1", "--grid", "slow=20:200:5", "--out", "grid"], "grid/sweep.csv"),
            (["screen", "ma-cross", "--all", "--out", "screen"], "screen/"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=2:50:1", "--grid", "slow=20:200:5", "--shard", "1/2", "--out", parts],
             parts + "/shard-1-of-2/"),
            (["run", "ma-cross", "GOOG", "--out", "report", "--no-chart"], "report"),
        ]
        for c in cases {
            // 100 KB per file: the report's pages and the sweep's rows do not fit.
            let r = try BT.shell("cd \(BT.quoted(dir.path)) && ulimit -f 100; trap '' XFSZ; exec "
                                 + ([BT.binary.path] + c.args + ["--db", db]).map(BT.quoted).joined(separator: " "))
            #expect(r.status == 1 && r.stderr.contains("File too large"), "\(c.args[0]): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(c.names) && !r.stderr.contains(".partial-"), "\(c.args[0]): \(r.stderr)")
        }
    }

    // MARK: - The command line in the manifest

    @Test("the manifest's command keeps a backtick and every other character, and pastes back into a shell that reruns it")
    func manifestCommandIsExact() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.googStore(in: dir)
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
