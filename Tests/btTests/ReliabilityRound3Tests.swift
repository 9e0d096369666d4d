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
}
