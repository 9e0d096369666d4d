import Foundation
import Testing
import TestSupport

/// Expression strategies, strategy files, external signals and condition screens, end to end.
@Suite("bt with expressions: run, signals, screen --where, strategies, sweep, bench expr")
struct ExpressionCommandTests {
    static let entry = "cross_above(sma(close, $fast), sma(close, $slow))"
    static let exit = "cross_below(sma(close, $fast), sma(close, $slow))"

    static func stats(_ r: BT.Result) throws -> [String: Any] {
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try RunCommandTests.json(r.stdout)["stats"] as? [String: Any])
    }

    /// The statistics that do not depend on how the strategy was named, as text.
    static func same(_ a: [String: Any], _ b: [String: Any]) -> Bool {
        NSDictionary(dictionary: a).isEqual(to: b)
    }

    @Test("--entry/--exit, a strategy file and the built-in give the same run; the report records the rules")
    func runForms() throws {
        let db = try RunCommandTests.store()
        let builtIn = try Self.stats(try BT.run(["run", "ma-cross", "GOOG", "--json", "--db", db]))
        let rules = try BT.run(["run", "GOOG", "--entry", Self.entry, "--exit", Self.exit, "--param", "fast=10",
                                "--param", "slow=30", "--json", "--db", db])
        #expect(Self.same(try Self.stats(rules), builtIn))
        let j = try RunCommandTests.json(rules.stdout)
        #expect(j["strategy"] as? String == "expr")
        let recorded = try #require(j["rules"] as? [[String: String]])
        #expect(recorded == [["role": "entry", "text": Self.entry], ["role": "exit", "text": Self.exit]])
        let file = try BT.run(["run", "strategies/ma-cross.bt", "GOOG", "--json", "--db", db])
        #expect(Self.same(try Self.stats(file), builtIn))
        // Text output shows the rules under the headline; the report's manifest records them.
        let out = BT.scratchDirectory().appendingPathComponent("r").path
        let text = try BT.run(["run", "GOOG", "--entry", "close > sma(close, 20)", "--exit", "close < sma(close, 20)",
                               "--no-chart", "--no-costs", "--out", out, "--db", db])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\nentry: close > sma(close, 20)\nexit: close < sma(close, 20)\n"))
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(md.contains("| rule entry | `close > sma(close, 20)` |"))
    }

    @Test("a name finds NAME.bt in --strategies DIR, else $BT_STRATEGIES, else strategies/ in the working directory")
    func strategiesDirectory() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory()
        let strategies = dir.appendingPathComponent("strategies")
        try FileManager.default.createDirectory(at: strategies, withIntermediateDirectories: true)
        try "name = mine\nsummary = mine\n[rules]\nentry = close > sma(close, 20)\nexit = close < sma(close, 20)\n"
            .write(to: strategies.appendingPathComponent("mine.bt"), atomically: true, encoding: .utf8)
        let other = BT.scratchDirectory()
        let args = ["run", "mine", "GOOG", "--json", "--no-costs", "--db", db]
        let viaOption = try BT.run(args + ["--strategies", strategies.path], environment: [:], directory: other)
        let viaEnvironment = try BT.run(args, environment: ["BT_STRATEGIES": strategies.path], directory: other)
        let viaDirectory = try BT.run(args, environment: [:], directory: dir)
        let a = try Self.stats(viaOption), b = try Self.stats(viaEnvironment), c = try Self.stats(viaDirectory)
        #expect(Self.same(a, b) && Self.same(b, c))
        let missing = try BT.run(args, environment: [:], directory: other)
        #expect(missing.status == 2 && missing.stderr.contains("unknown strategy 'mine'"), "\(missing.stderr)")
        // bt strategies lists the file with its rules.
        let list = try BT.run(["strategies"], environment: [:], directory: dir)
        #expect(list.stdout.contains("mine (strategies/mine.bt): mine\n  entry = close > sma(close, 20)\n"), "\(list.stdout)")
    }

    @Test("bt signals prints time,entry,exit; --signals reads it back to the same run")
    func signalsRoundTrip() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["signals", "GOOG", "--entry", Self.entry, "--exit", Self.exit, "--param", "fast=10",
                            "--param", "slow=30", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "time,entry,exit" && lines.count == 2149)
        #expect(lines[1] == "2004-08-19T00:00:00Z,0,0")
        let file = BT.scratchDirectory().appendingPathComponent("s.csv")
        try r.stdout.write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try Self.stats(try BT.run(["run", "GOOG", "--signals", file.path, "--json", "--db", db]))
        let builtIn = try Self.stats(try BT.run(["run", "ma-cross", "GOOG", "--json", "--db", db]))
        #expect(Self.same(fromFile, builtIn))
        // A strategy by name works too, with short columns when the rules have them.
        let named = try BT.run(["signals", "rsi", "EURUSD", "--db", db])
        #expect(named.status == 0 && named.stdout.hasPrefix("time,entry,exit\n"))
        let short = try BT.run(["signals", "GOOG", "--entry", "close > open", "--exit", "close < open",
                                "--short-entry", "close < open", "--short-exit", "close > open", "--to", "2004-08-20", "--db", db])
        #expect(short.stdout == "time,entry,exit,short_entry,short_exit\n2004-08-19T00:00:00Z,1,0,0,1\n2004-08-20T00:00:00Z,1,0,0,1\n",
                "\(short.stdout)")
    }

    @Test("a bad signals file is an error at file:line, exit 2",
          arguments: [
            ("time,entry,exit\n2004-08-19,1,0\n2004-08-21,1,0\n", ":3: no bar at 2004-08-21T00:00:00Z"),
            ("time,entry,exit\n2004-08-19,1,0\n2004-08-19,0,1\n", ":3: time 2004-08-19T00:00:00Z repeats line 2"),
            ("time,entry,exit\n2004-08-19,maybe,0\n", ":2: entry 'maybe' is not a boolean"),
          ])
    func badSignals(text: String, message: String) throws {
        let db = try RunCommandTests.store()
        let file = BT.scratchDirectory().appendingPathComponent("s.csv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let r = try BT.run(["run", "GOOG", "--signals", file.path, "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains(file.path + message), "\(r.stderr)")
    }

    @Test("an expression error exits 2 and shows the expression with a caret")
    func caret() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "GOOG", "--entry", "cross_above(smaa(close, 10), sma(close, 30))", "--exit", "close < 1", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr == """
            error: --entry: unknown function 'smaa'; did you mean 'sma'?
              cross_above(smaa(close, 10), sma(close, 30))
                          ^^^^

            """, "\(r.stderr)")
        let file = try BT.run(["run", "GOOG", "--entry", "close > $n", "--exit", "close < 1", "--param", "m=3", "--db", db])
        #expect(file.status == 2 && file.stderr.contains("undefined parameter '$n'; did you mean '$m'? (defined: $m)"), "\(file.stderr)")
        let type = try BT.run(["run", "GOOG", "--entry", "sma(close, 10)", "--exit", "close < 1", "--db", db])
        #expect(type.status == 2 && type.stderr.contains("the entry rule needs a condition, but this is a number"))
        let short = try BT.run(["run", "GOOG", "--entry", "close > open", "--exit", "close < open", "--short-entry", "close < open",
                                "--short-exit", "close > open", "--db", db])
        #expect(short.status == 2 && short.stderr.contains("--short-entry/--short-exit trade only with --short"), "\(short.stderr)")
        // The same rules in a strategy file: refused without --short too, and run with it.
        let shortFile = TestSupport.write("[rules]\nentry = close > open\nexit = close < open\nshort_entry = close < open\n"
                                     + "short_exit = close > open\n", named: "both.bt")
        for command in [["run", shortFile, "GOOG"], ["screen", shortFile, "--all"], ["sweep", shortFile, "GOOG", "--grid", "x=1,2"]] {
            let r = try BT.run(command + ["--db", db])
            #expect(r.status == 2 && r.stderr.contains("both.bt has short rules (short_entry, short_exit): they trade only with --short"),
                    "\(command): \(r.stderr)")
        }
        let withShort = try BT.run(["run", shortFile, "GOOG", "--short", "--json", "--db", db])
        #expect(withShort.status == 0, "\(withShort.stderr)")
        let period = try BT.run(["run", "GOOG", "--entry", "close > sma(close, $n)", "--exit", "close < 1", "--param", "n=2.5", "--db", db])
        #expect(period.status == 2 && period.stderr.contains("n of sma must be a whole number from 1 to 10000000, got 2.5"), "\(period.stderr)")
    }

    @Test("bt screen --where: matches with shown values, too-short symbols reported, --json shape, --out files")
    func conditionScreen() throws {
        let db = try RunCommandTests.store()
        let json = try BT.run(["screen", "--all", "--where", "close > sma(close, 2500)", "--show", "rsi(close)",
                               "--show", "close > open", "--json", "--db", db])
        #expect(json.status == 0, "\(json.stderr)")
        let j = try RunCommandTests.json(json.stdout)
        #expect(Set(j.keys) == ["checked", "matches", "errors"])
        #expect(j["checked"] as? Int == 2)
        let errors = try #require(j["errors"] as? [[String: String]])
        #expect(errors == [["symbol": "GOOG", "error": "too short: the condition needs at least 2500 bars, GOOG has 2148"]])
        let matches = try #require(j["matches"] as? [[String: Any]])
        for m in matches {
            #expect(Set(m.keys) == ["symbol", "timeframe", "time", "values"])
            let values = try #require(m["values"] as? [String: Any])
            #expect(Set(values.keys) == ["rsi(close)", "close > open"])
            #expect(values["close > open"] is Bool)
        }
        // --at looks at the last bar at or before the date.
        let at = try BT.run(["screen", "--symbols", "goog", "--where", "close > 0", "--at", "2010-01-03", "--json", "--db", db])
        let atMatches = try #require(try RunCommandTests.json(at.stdout)["matches"] as? [[String: Any]])
        #expect(atMatches.first?["time"] as? String == "2009-12-31T00:00:00Z")
        // Text and files.
        let out = BT.scratchDirectory().appendingPathComponent("screen").path
        let text = try BT.run(["screen", "--all", "--where", "rsi(close) > 0", "--show", "close", "--out", out, "--db", db])
        #expect(text.status == 0 && text.stdout.hasPrefix("2 of 2 symbols match rsi(close) > 0 on their last bar\n"), "\(text.stdout)")
        let csv = try String(contentsOfFile: out + "/screen.csv", encoding: .utf8)
        #expect(csv.hasPrefix("symbol,timeframe,time,status,error,close\nEURUSD,1h,2018-02-07T15:00:00Z,match,,"), "\(csv)")
        let md = try String(contentsOfFile: out + "/screen.md", encoding: .utf8)
        #expect(md.contains("| rule where | `rsi(close) > 0` |"))
        // A strategy screen with rules instead of a name.
        let rules = try BT.run(["screen", "--all", "--entry", Self.entry, "--exit", Self.exit, "--param", "fast=10",
                                "--param", "slow=30", "--out", out + "-rules", "--db", db])
        #expect(rules.status == 0, "\(rules.stderr)")
        #expect(try String(contentsOfFile: out + "-rules/screen.md", encoding: .utf8).contains("| rule entry |"))
    }

    @Test("bt sweep over --entry/--exit rules sweeps their $names; unused execution options are warned in condition screens")
    func sweepAndWarnings() throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().appendingPathComponent("sweep").path
        let r = try BT.run(["sweep", "GOOG", "--entry", Self.entry, "--exit", Self.exit, "--grid", "fast=5:15:5",
                            "--grid", "slow=20:40:10", "--where", "fast<slow", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 10)
        #expect(try String(contentsOfFile: out + "/sweep.md", encoding: .utf8).contains("| rule entry | `\(Self.entry)` |"))
        let screen = try BT.run(["screen", "--all", "--where", "close > 0", "--fee-bps", "5", "--db", db])
        #expect(screen.status == 0)
        #expect(screen.stderr.contains("warning: --fee-bps has no effect with this command line"), "\(screen.stderr)")
    }

    @Test("bt strategies lists the shipped files with their rules; --json has source and rules")
    func strategiesList() throws {
        let r = try BT.run(["strategies", "--json"])
        #expect(r.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let files = list.filter { ($0["source"] as? String)?.hasSuffix(".bt") == true }
        #expect(files.map { $0["name"] as? String } == ["bollinger", "donchian", "ma-cross", "macd", "rsi"])
        let rules = try #require(files[2]["rules"] as? [[String: String]])
        #expect(rules.map { $0["role"] } == ["entry", "exit", "require"])
    }

    @Test("bt bench expr --json prints exactly the agreed keys")
    func bench() throws {
        let r = try BT.run(["bench", "expr", "--bars", "28800", "--candles", "300", "--repeat", "1", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        #expect(Set(j.keys) == ["bars", "builtin_seconds", "expr_seconds", "daily_filter_seconds", "sweep_builtin_seconds", "sweep_expr_seconds"])
        #expect(j["bars"] as? Int == 28800)
        for key in ["builtin_seconds", "expr_seconds", "daily_filter_seconds", "sweep_builtin_seconds", "sweep_expr_seconds"] {
            #expect((j[key] as? Double ?? -1) > 0, "\(key)")
        }
    }
}
