import Foundation
import Testing

/// `@` in the commands of many symbols or many runs: `bt screen` (`--where`, `--show`, rules),
/// `bt portfolio` (`--rank`, rules, `--rotate`), a sweep's walk-forward, and the manifest's list
/// of the series a run read with their fingerprints.
@Suite("bt screen, portfolio, walk-forward and manifests with @")
struct OtherSeriesManyCommandTests {
    /// GOOG, EURUSD and GOOGX (`OtherSeriesCommandTests.store`), and GOOGW: GOOG's bars with
    /// prices times `1 + 0.2 sin(i / 40)`, another path on the same days.
    static func store() throws -> String {
        let db = try OtherSeriesCommandTests.store()
        let lines = try String(contentsOfFile: "data/GOOG.csv", encoding: .utf8).split(separator: "\n")
        let rows = lines.dropFirst().enumerated().map { i, line -> String in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            let k = 1 + 0.2 * sin(Double(i) / 40)
            return ([String(f[0])] + f[1...4].map { String(Double($0)! * k) } + [String(f[5])]).joined(separator: ",")
        }
        let file = BT.scratchDirectory().appendingPathComponent("GOOGW.csv")
        try (([String(lines[0])] + rows).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try BT.run(["data", "import", file.path, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    /// The rows of a CSV file, split on commas (no quoted commas in the rows read).
    static func csv(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("a screen's shared market filter equals pandas' and each symbol's own bt signals, on every date looked at")
    func marketFilter() throws {
        let db = try Self.store()
        let golden = try OtherSeriesCommandTests.golden("goog", "sma3_x")
        let days = try String(contentsOfFile: "data/GOOG.csv", encoding: .utf8).split(separator: "\n").dropFirst().map { String($0.prefix(10)) }
        let filter = "close > sma(close, 3)@GOOGX"
        // Bars 500 and 2124 have no closed GOOGX bar (a Monday after GOOGX's missing Friday): error rows.
        for bar in [500, 501, 1200, 2000, 2124, 2147] {
            let out = BT.scratchDirectory().appendingPathComponent("screen").path
            let r = try BT.run(["screen", "--symbols", "GOOG,GOOGW,GOOGX", "--where", filter, "--show", "sma(close, 3)@GOOGX",
                                "--at", days[bar], "--out", out, "--db", db])
            #expect(r.status == 0, "\(r.stderr)")
            let rows = try Self.csv(out + "/screen.csv")
            #expect(rows[0].prefix(5) == ["symbol", "timeframe", "time", "status", "error"], "\(rows[0])")
            // GOOGX reads its own series: never stale, so always checked.
            let googx = try #require(rows.first { $0[0] == "GOOGX" })
            let own = try BT.run(["signals", "GOOGX", "--to", days[bar], "--entry", filter, "--exit", "close < 0", "--db", db])
            #expect(googx[3] != "error" && (googx[3] == "match") == OtherSeriesCommandTests.entries(own.stdout).last, "\(googx)")
            for symbol in ["GOOG", "GOOGW"] {
                let row = try #require(rows.first { $0[0] == symbol })
                let s = try BT.run(["signals", symbol, "--to", days[bar], "--entry", filter, "--exit", "close < 0", "--db", db])
                #expect(s.status == 0, "\(s.stderr)")
                let own = OtherSeriesCommandTests.entries(s.stdout)
                #expect(own.count == bar + 1)
                guard let expected = golden[bar] else {
                    #expect(row[3] == "error" && row[4] == "\"no closed GOOGX@1d bar (none yet", "\(bar): \(row)")  // quoted: it holds a comma
                    #expect(own.last == false)
                    continue
                }
                #expect(row[2].hasPrefix(days[bar]) && row[3] != "error", "\(bar): \(row)")
                let value = try #require(Double(row[5]), "\(row)")
                #expect(abs(value - expected) <= 1e-9 * expected, "\(symbol) \(bar): \(value) vs pandas \(expected)")
                #expect((row[3] == "match") == own.last, "\(symbol) \(bar): screen \(row[3]), bt signals \(String(describing: own.last))")
            }
        }
    }

    @Test("a symbol the other series cannot be aligned to is an error row with why; the others are screened")
    func skippedRow() throws {
        let db = try Self.store()
        let r = try BT.run(["screen", "--symbols", "GOOG,EURUSD", "--where", "close > sma(close, 20)@GOOGX@1w", "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try RunCommandTests.json(r.stdout)
        #expect(json["checked"] as? Int == 2)
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(errors.count == 1 && errors.first?["symbol"] as? String == "EURUSD")
        #expect((errors.first?["error"] as? String)?.hasPrefix("no GOOGX@1w bar closed within the run's bars (2004-08-16 to 2013-02-25)") == true,
                "\(errors)")
        let text = try BT.run(["screen", "--symbols", "GOOG,EURUSD", "--where", "close > sma(close, 20)@GOOGX@1w", "--db", db])
        #expect(text.status == 0 && text.stdout.contains("(1 could not be checked)"), "\(text.stdout)")
        #expect(text.stdout.contains("  EURUSD: no GOOGX@1w bar closed within"), "\(text.stdout)")
        // A strategy screen of the same rule: GOOG runs, EURUSD fails with the reason.
        let out = BT.scratchDirectory().appendingPathComponent("screen").path
        let rules = try BT.run(["screen", "--symbols", "GOOG,EURUSD", "--entry", "close > sma(close, 20)@GOOGX@1w",
                                "--exit", "close < sma(close, 20)@GOOGX@1w", "--out", out, "--db", db])
        #expect(rules.status == 0, "\(rules.stderr)")
        let rows = try String(contentsOfFile: out + "/screen.csv", encoding: .utf8)
        #expect(rows.contains("\n1,GOOG,1d,ok,,") && rows.contains(",EURUSD,,error,\"'--entry: no GOOGX@1w bar closed within"), "\(rows)")
        // Both screens' manifests list the series read, with its fingerprint.
        let screened = try String(contentsOfFile: out + "/screen.md", encoding: .utf8)
        #expect(screened.contains("| read GOOGX@1w | "), "\(screened)")
        let conditions = BT.scratchDirectory().appendingPathComponent("conditions").path
        let c = try BT.run(["screen", "--symbols", "GOOG,EURUSD", "--where", "close > sma(close, 20)@GOOGX@1w", "--out", conditions, "--db", db])
        #expect(c.status == 0, "\(c.stderr)")
        let listed = try String(contentsOfFile: conditions + "/screen.md", encoding: .utf8)
        #expect(listed.contains("| read GOOGX@1w | ") && listed.contains("sha256 "), "\(listed)")
    }

    @Test("an unknown symbol after @ in a screen or a portfolio is exit 2 with the caret, before any symbol runs", arguments: [
        (["screen", "--symbols", "GOOG,GOOGX", "--where", "close > close@GOOGY"],
         "--where: no candles stored for 'GOOGY'; did you mean '", "\n  close > close@GOOGY\n               ^^^^^^\n"),
        (["screen", "--symbols", "GOOG,GOOGX", "--where", "close > 0", "--show", "close@GOOGY@1d"],
         "--show: no candles stored for 'GOOGY' (read as 'GOOGY@1d'); did you mean '", "\n  close@GOOGY@1d\n       ^^^^^^^^^\n"),
        (["screen", "--symbols", "GOOG,GOOGX", "--entry", "close > close@GOOGY", "--exit", "close < 0"],
         "--entry: no candles stored for 'GOOGY'; did you mean '", "\n  close > close@GOOGY\n               ^^^^^^\n"),
        (["portfolio", "--symbols", "GOOG,GOOGX", "--rotate", "--rank", "roc(close, 126) - roc(close, 126)@SPY"],
         "--rank: no candles stored for 'SPY'", "\n  roc(close, 126) - roc(close, 126)@SPY\n                                   ^^^^\n"),
        (["portfolio", "--symbols", "GOOG,GOOGX", "--entry", "close > 0", "--exit", "close < close@GOOGY@1w"],
         "--exit: no candles stored for 'GOOGY' (read as 'GOOGY@1w'); did you mean '", "\n  close < close@GOOGY@1w\n               ^^^^^^^^^\n"),
    ])
    func unknownSymbol(args: [String], message: String, caret: String) throws {
        let db = try Self.store()
        let r = try BT.run(args + ["--db", db])
        #expect(r.status == 2 && r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.contains("error: " + message), "\(r.stderr)")
        #expect(r.stderr.contains(caret), "\(r.stderr)")
    }

    @Test("a rotation ranked against a benchmark that every symbol reads alike trades as the plain rank; the manifest lists the benchmark")
    func relativeStrength() throws {
        let db = try Self.store()
        let base = ["portfolio", "--symbols", "GOOG,GOOGW", "--rotate", "--max-positions", "1", "--from", "2006-01-01",
                    "--max-stale", "1w", "--json", "--no-costs", "--db", db]
        let plain = try BT.run(base + ["--rank", "roc(close, 126)"])
        let relative = try BT.run(base + ["--rank", "roc(close, 126) - roc(close, 126)@GOOGX"])
        #expect(plain.status == 0 && relative.status == 0, "\(relative.stderr)")
        let p = try RunCommandTests.json(plain.stdout), q = try RunCommandTests.json(relative.stdout)
        let stats = try #require(p["stats"] as? [String: Any]), relativeStats = try #require(q["stats"] as? [String: Any])
        #expect(NSDictionary(dictionary: stats) == NSDictionary(dictionary: relativeStats))
        #expect((stats["trades"] as? Int ?? 0) > 4, "the rank changes hands: \(stats["trades"] ?? "")")
        let read = try #require(q["other_series"] as? [[String: Any]])
        #expect(read.map { $0["series"] as? String } == ["GOOGX@1d"] && p["other_series"] == nil)
    }

    @Test("a portfolio sweep's --portfolio-rank against the benchmark gives every combination of the plain rank")
    func portfolioSweepRank() throws {
        let db = try Self.store()
        func sweep(_ rank: String) throws -> String {
            let out = BT.scratchDirectory().appendingPathComponent("sweep").path
            let r = try BT.run(["sweep", "--portfolio", "--symbols", "GOOG,GOOGW", "--entry", "close > sma(close, $n)",
                                "--exit", "close < sma(close, $n)", "--grid", "n=10,30", "--max-positions", "1", "--from", "2006-01-01",
                                "--max-stale", "1w", "--portfolio-rank", rank, "--out", out, "--db", db])
            #expect(r.status == 0, "\(r.stderr)")
            return try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8)
        }
        let plainSweep = try sweep("roc(close, 126)")
        #expect(plainSweep.split(separator: "\n").count == 3)
        #expect(try sweep("roc(close, 126) - roc(close, 126)@GOOGX") == plainSweep)
    }

    /// `candles_sha256` of `bt run SYMBOL --json` on `db`.
    static func fingerprint(_ symbol: String, db: String) throws -> String {
        let r = try BT.run(["run", symbol, "--entry", "close > 0", "--exit", "close < 0", "--json", "--db", db])
        return try #require(try RunCommandTests.json(r.stdout)["candles_sha256"] as? String, "\(r.stderr)")
    }

    @Test("the run's manifest lists every series read with @ and the run's own fingerprint of it, which changes with its data")
    func manifest() throws {
        let db = try Self.store()
        let rules = ["--entry", "close > close@GOOGX", "--exit", "close < sma(close, 10)@1w"]
        let out = BT.scratchDirectory().appendingPathComponent("report").path
        let r = try BT.run(["run", "GOOG"] + rules + ["--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let stats = try RunCommandTests.json(try String(contentsOfFile: out + "/stats.json", encoding: .utf8))
        let read = try #require(stats["other_series"] as? [[String: Any]])
        #expect(read.map { $0["series"] as? String } == ["GOOG@1w", "GOOGX@1d"])
        let googx = try #require(read.last)
        #expect(googx["candles_sha256"] as? String == (try Self.fingerprint("GOOGX", db: db)))
        #expect(googx["bars"] as? Int == 1841 && googx["first"] as? String == "2004-08-19T00:00:00Z")
        let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(markdown.contains("| read GOOGX@1d | 1841 bars, 2004-08-19T00:00:00Z .. 2013-03-01T00:00:00Z, sha256 \(googx["candles_sha256"]!) |"),
                "\(markdown)")

        // The same store but for one close of GOOGX: only its fingerprint changes.
        let changed = BT.scratchStore()
        let lines = try String(contentsOfFile: "data/GOOG.csv", encoding: .utf8).split(separator: "\n").map(String.init)
        var kept = [lines[0]] + lines.dropFirst().enumerated().filter { $0.offset % 7 != 3 }.map(\.element)
        let f = kept[100].split(separator: ",").map(String.init)
        kept[100] = (f[0...3] + [String((Double(f[2])! + Double(f[3])!) / 2), f[5]]).joined(separator: ",")  // the close at mid-range
        #expect(Double(f[4])! != (Double(f[2])! + Double(f[3])!) / 2)
        let file = BT.scratchDirectory().appendingPathComponent("GOOGX.csv")
        try (kept.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try BT.run(["data", "import", "data/GOOG.csv", file.path, "--db", changed]).status == 0)
        let again = try BT.run(["run", "GOOG"] + rules + ["--json", "--db", changed])
        let json = try RunCommandTests.json(again.stdout)
        let reread = try #require(json["other_series"] as? [[String: Any]])
        #expect(reread.last?["candles_sha256"] as? String == (try Self.fingerprint("GOOGX", db: changed)))
        #expect(reread.last?["candles_sha256"] as? String != googx["candles_sha256"] as? String)
        #expect(reread.first?["candles_sha256"] as? String == read.first?["candles_sha256"] as? String)
        #expect(json["candles_sha256"] as? String == stats["candles_sha256"] as? String)
    }

    @Test("a walk-forward sweep with a daily filter on hourly bars runs its folds and its manifest lists the series")
    func walkForward() throws {
        let db = try Self.store()
        let out = BT.scratchDirectory().appendingPathComponent("wf").path
        let r = try BT.run(["sweep", "EURUSD", "--entry", "close > sma(close, $n)@1d", "--exit", "close < sma(close, $n)@1d",
                            "--grid", "n=2,5,10", "--walk-forward", "3", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 combinations, 3 ran, 0 failed"), "\(r.stdout)")
        let markdown = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
        #expect(markdown.contains("alk-forward"), "\(markdown)")
        #expect(markdown.contains("| read EURUSD@1d | 251 bars, 2017-04-19T00:00:00Z .. 2018-02-07T00:00:00Z, sha256 "), "\(markdown)")
    }

    @Test("a sweep merged from shards lists the series read as the sweep in one process does")
    func mergedSweep() throws {
        let db = try Self.store()
        let sweep = ["sweep", "EURUSD", "--entry", "close > sma(close, $n)@1d", "--exit", "close < sma(close, $n)@1d",
                     "--grid", "n=2,5,10,20", "--db", db]
        let whole = BT.scratchDirectory().appendingPathComponent("whole").path
        #expect(try BT.run(sweep + ["--out", whole]).status == 0)
        let shards = BT.scratchDirectory().appendingPathComponent("shards").path
        for k in 0..<2 { #expect(try BT.run(sweep + ["--shard", "\(k)/2", "--out", shards]).status == 0) }
        let merged = BT.scratchDirectory().appendingPathComponent("merged").path
        let m = try BT.run(["merge", shards, "--out", merged])
        #expect(m.status == 0, "\(m.stderr)")
        func row(_ dir: String) throws -> String? {
            try String(contentsOfFile: dir + "/sweep.md", encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("| read ") }.map(String.init)
        }
        let expected = try #require(try row(whole))
        #expect(expected.hasPrefix("| read EURUSD@1d | 251 bars, "))
        #expect(try row(merged) == expected)
    }
}
