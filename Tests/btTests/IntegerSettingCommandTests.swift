import Foundation
import Testing
import TestSupport

/// Integer settings at their edges, exit distances and the quoting of out-of-range numbers, end
/// to end with the real binary: every integer setting of run, screen, portfolio, sweep, chart and strategy files at
/// 0, 1, the series' length and Int64.max exits 0 or 2 with a message quoting the value whole
/// (never a trap, exit 132); an exit distance never positive on the run's bars is refused
/// naming its option or file line (a screen's symbol row, a sweep's combinations), and one
/// not positive on some bars is counted in a warning and in --json.
@Suite("Integer settings at their edges and exit distances, end to end", .serialized)
struct IntegerSettingCommandTests {
    static let int64Max = "9223372036854775807"
    /// 0, 1, GOOG's length and Int64.max.
    static let edges = ["0", "1", "2148", int64Max]

    static func store(in dir: URL) throws -> String {
        let db = dir.appendingPathComponent("s.sqlite").path
        let r = try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    /// A strategy file with `section`'s `line` (after `@` is replaced by a value).
    static func strategyFile(in dir: URL, _ section: String, _ line: String) throws -> String {
        let path = dir.appendingPathComponent("edge-\(UUID().uuidString.prefix(8)).bt").path
        try """
        name = edge
        summary = Integer edges
        [rules]
        entry = cross_above(sma(close, 10), sma(close, 30))
        exit = cross_below(sma(close, 10), sma(close, 30))
        [\(section)]
        \(line)

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every command line that reads an integer from the user, `@` standing for the value.
    static func commands(out: String, file: (String, String) throws -> String) rethrows -> [[String]] {
        let run = ["run", "ma-cross", "GOOG", "--no-chart", "--no-costs"]
        let sweep = ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,6", "--force", "--out", out]
        let written = ["--force", "--out", out]
        return [
            run + ["--exit-after", "@"], run + ["--order-bars", "@", "--entry-limit", "close * 0.99"], run + ["--pyramid", "@"],
            run + ["--spread-window", "@"], run + ["--impact-window", "@"],
            run + ["--param", "fast=1", "--param", "slow=@"], run + ["--size", "vol:10%", "--periods-per-year", "@"],
            run + ["--exit-after", "@", "--fill", "close"], run + ["--sl", "close[@] * 0.01"],
            ["run", "GOOG", "--no-chart", "--entry", "close[@] > 0", "--exit", "close < 0"],
            ["run", "GOOG", "--no-chart", "--entry", "close > sma(close, @)", "--exit", "close < 0"],
            ["run", try file("exits", "exit_after = @"), "GOOG", "--no-chart"],
            ["run", try file("orders", "order_bars = @\nentry_limit = close * 0.99"), "GOOG", "--no-chart"],
            ["run", try file("orders", "pyramid = @"), "GOOG", "--no-chart"],
            ["screen", "ma-cross", "--all", "--exit-after", "@"] + written,
            ["screen", "ma-cross", "--all", "--order-bars", "@", "--entry-limit", "close*0.99"] + written,
            ["screen", "ma-cross", "--all", "--top", "@"] + written, ["screen", "ma-cross", "--all", "--min-trades", "@"] + written,
            ["screen", "--all", "--where", "close[@] > 0"],
            ["portfolio", "ma-cross", "--all", "--no-chart", "--exit-after", "@"] + written,
            ["portfolio", "ma-cross", "--all", "--no-chart", "--order-bars", "@", "--entry-limit", "close*0.99"] + written,
            ["portfolio", "ma-cross", "--all", "--no-chart", "--max-positions", "@"] + written,
            ["portfolio", "ma-cross", "--all", "--no-chart", "--pyramid", "@"] + written,
            sweep + ["--exit-after", "@"], sweep + ["--grid", "exit_after=@"], sweep + ["--grid", "order_bars=@", "--entry-limit", "close*0.99"],
            sweep + ["--top", "@"], sweep + ["--pbo-blocks", "@"], sweep + ["--walk-forward", "@"],
            ["chart", "GOOG", "--last", "@", "--width", "80", "--height", "20"],
        ]
    }

    @Test("every integer setting at 0, 1, the series' length and Int64.max exits 0 or 2 with the value quoted whole, never a trap")
    func integerEdges() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.store(in: dir)
        let out = dir.appendingPathComponent("sweep").path
        let commands = try Self.commands(out: out) { try Self.strategyFile(in: dir, $0, $1) }
        var failures: [String] = []
        for template in commands {
            for value in Self.edges {
                let args = template.map { $0.replacingOccurrences(of: "@", with: value) }
                let r = try BT.run(args + ["--db", db])
                let line = "\(args.joined(separator: " ")): exit \(r.status) \(r.stderr.prefix(200))"
                if r.status != 0 && r.status != 2 { failures.append(line); continue }
                if r.status == 2 && !r.stderr.hasPrefix("error: ") { failures.append(line) }
                // A value shown in a message is shown whole.
                if r.stderr.contains(value.prefix(12)) && value.count > 12 && !r.stderr.contains(value) { failures.append("cut: " + line) }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failed:\n\(failures.joined(separator: "\n"))")
    }

    @Test("a count beyond the series runs as the series' length: --exit-after and --order-bars at Int64.max are the runs at 2148")
    func clampedCounts() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.store(in: dir)
        for extra in [["--exit-after"], ["--order-bars", "--entry-limit", "close * 0.99"]] {
            func run(_ n: String) throws -> String {
                let r = try BT.run(["run", "ma-cross", "GOOG", "--json", "--db", db, extra[0], n] + extra.dropFirst())
                #expect(r.status == 0, "\(r.stderr.prefix(300))")
                guard let data = r.stdout.data(using: .utf8), let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let stats = json["stats"] else { return "" }
                return String(decoding: try JSONSerialization.data(withJSONObject: stats, options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try run(Self.int64Max) == run("2148"), "\(extra[0])")
        }
    }

    static let neverPositive = ["-atr(14)", "1/0", "close/0", "log(0)", "close[1000000]"]

    @Test("--sl, --tp and --trail never positive on the run's bars are refused with exit 2, naming the option", arguments: ["--sl", "--tp", "--trail"])
    func neverPositiveOptions(_ flag: String) throws {
        let dir = BT.scratchDirectory()
        let db = try Self.store(in: dir)
        for text in Self.neverPositive {
            let r = try BT.run(["run", "ma-cross", "GOOG", "--no-chart", flag, text, "--db", db])
            let want = "error: \(flag) '\(text)': a distance in price must be a positive number, and this one is not on any of GOOG's 2148 bars"
            #expect(r.status == 2 && r.stderr.hasPrefix(want), "\(flag) \(text): \(r.status) \(r.stderr.prefix(300))")
        }
    }

    @Test("a strategy file's [exits] distance never positive is refused at its file and line")
    func neverPositiveInFile() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.store(in: dir)
        for (key, text) in [("sl", "-atr(14)"), ("tp", "5%@50%, log(0)"), ("trail", "close/0")] {
            let file = try Self.strategyFile(in: dir, "exits", "\(key) = \(text)")
            let r = try BT.run(["run", file, "GOOG", "--no-chart", "--db", db])
            #expect(r.status == 2 && r.stderr.hasPrefix("error: \(file):7: \(key) '") && r.stderr.contains("a distance in price must be a positive number"),
                    "\(key): \(r.status) \(r.stderr.prefix(300))")
        }
    }

    @Test("in a screen a distance never positive on one symbol is that symbol's error row; a sweep's combinations fail with the reason")
    func neverPositiveInScreensAndSweeps() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.store(in: dir)
        // ATR above 1 on GOOG (prices of hundreds), never on EURUSD (prices near 1.2).
        let screen = try BT.run(["screen", "ma-cross", "--all", "--sl", "atr(14) - 1", "--out", dir.appendingPathComponent("sc").path, "--db", db])
        #expect(screen.status == 0, "\(screen.stderr.prefix(300))")
        let row = "EURUSD: --sl 'atr(14) - 1': a distance in price must be a positive number, and this one is not on any of EURUSD's 5000 bars"
        #expect(screen.stdout.contains("1  GOOG") && screen.stdout.contains(row), "\(screen.stdout.prefix(800))")
        let sweep = try BT.run(["sweep", "ma-cross", "GOOG", "--grid", "fast=5,6", "--sl", "-atr(14)", "--out", dir.appendingPathComponent("sw").path, "--db", db])
        #expect(sweep.status == 2 && sweep.stderr.contains("sl '-atr(14)': a distance in price must be a positive number"), "\(sweep.stderr.prefix(300))")
    }

    @Test("a distance not positive on some bars runs, with a warning on stderr and in --json counting the readings")
    func sometimesPositiveCounted() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.store(in: dir)
        // Taken with --allow-unprotected: the entries' stop is then unset where it was not positive.
        let text = try BT.run(["run", "ma-cross", "GOOG", "--no-chart", "--sl", "atr(14) - 15", "--allow-unprotected", "--db", db])
        // The run's warnings are part of its summary, on stdout.
        #expect(text.status == 0 && text.stdout.contains("warning: exit levels were not set or moved") && text.stdout.contains("(sl "),
                "\(text.stdout.prefix(300))")
        let json = try BT.run(["run", "ma-cross", "GOOG", "--json", "--sl", "atr(14) - 15", "--allow-unprotected", "--db", db])
        #expect(json.status == 0 && json.stdout.contains("\"kind\":\"unset_exit_levels\""), "\(json.stdout.suffix(400))")
        // Without it those entries are not taken, and counted.
        let skipped = try BT.run(["run", "ma-cross", "GOOG", "--json", "--sl", "atr(14) - 15", "--db", db])
        #expect(skipped.status == 0 && skipped.stdout.contains("\"kind\":\"unprotected_entries\"")
                && !skipped.stdout.contains("unset_exit_levels"), "\(skipped.stdout.suffix(400))")
        let plain = try BT.run(["run", "ma-cross", "GOOG", "--json", "--sl", "2 * atr(14)", "--db", db])
        #expect(plain.status == 0 && !plain.stdout.contains("unset_exit_levels"))
    }
}
