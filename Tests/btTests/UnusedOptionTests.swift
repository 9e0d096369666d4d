import Foundation
import Testing

/// Options the user gave that the command never read are reported on stderr after it succeeds,
/// so a mistyped or misplaced option is not silently ignored; they are warnings, not errors.
@Suite("bt warns about options that have no effect")
struct UnusedOptionTests {
    static func warnings(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("warning: ") }
    }

    @Test("--width, --height, --color and --no-chart with --json: warned, exit 0, the JSON unchanged")
    func chartOptionsWithJSON() throws {
        let db = try RunCommandTests.store()
        let plain = try BT.run(["run", "ma-cross", "GOOG", "--json", "--no-costs", "--db", db])
        let r = try BT.run(["run", "ma-cross", "GOOG", "--json", "--no-costs", "--width=100", "--height", "30",
                            "--color", "never", "--no-chart", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.warnings(r.stderr) == [
            "warning: --width has no effect with this command line",
            "warning: --height has no effect with this command line",
            "warning: --color has no effect with this command line",
            "warning: --no-chart has no effect with this command line",
        ], "\(r.stderr)")
        #expect(Self.warnings(plain.stderr).isEmpty, "\(plain.stderr)")
        // The manifest quotes the command line, so compare everything but it.
        let a = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(NSDictionary(dictionary: a["stats"] as! [String: Any]) == NSDictionary(dictionary: b["stats"] as! [String: Any]))
    }

    @Test("--width and --height with --no-chart are warned; with the chart drawn they are not")
    func chartOptionsWithoutChart() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "GOOG", "--no-costs", "--no-chart", "--width", "100", "--db", db])
        #expect(r.status == 0)
        #expect(Self.warnings(r.stderr) == ["warning: --width has no effect with this command line"], "\(r.stderr)")
        let drawn = try BT.run(["run", "ma-cross", "GOOG", "--no-costs", "--width", "100", "--height", "24",
                                "--color", "never", "--db", db])
        #expect(drawn.status == 0 && Self.warnings(drawn.stderr).isEmpty, "\(drawn.stderr)")
    }

    @Test("an option another option overrides, or one a command never uses, is warned (here --db)",
          arguments: [
            (["run", "ma-cross", "GOOG", "--json", "--force"], ["--force"]),            // nothing is written
            (["run", "ma-cross", "GOOG", "--json", "--out", "OUT", "--report"], ["--report"]),  // --out wins
            (["strategies", "--json"], ["--db"]),                                       // no store involved
            (["bench", "stats", "--returns", "100", "--runs", "1"], ["--db"]),
          ])
    func overridden(args: [String], warned: [String]) throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().appendingPathComponent("out").path
        let r = try BT.run(args.map { $0 == "OUT" ? out : $0 } + ["--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.warnings(r.stderr) == warned.map { "warning: \($0) has no effect with this command line" },
                "\(r.stderr)")
    }

    @Test("a command that fails prints its error and no warnings")
    func failure() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "NOPE", "--json", "--width", "100", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: ") && Self.warnings(r.stderr).isEmpty, "\(r.stderr)")
    }

    @Test("the command lines the README, the guide and scripts/demo.sh document print no warning")
    func documented() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().path
        let lines: [[String]] = [
            // README: five minutes on your own CSV (on GOOG)
            ["data", "summary", "GOOG"],
            ["chart", "GOOG", "--ind", "sma:50", "--ind", "rsi", "--last", "250"],
            ["run", "ma-cross", "GOOG", "--out", dir + "/tour-run"],
            ["run", "GOOG", "--entry", "cross_above(sma(close, 50), sma(close, 200))",
             "--exit", "cross_below(sma(close, 50), sma(close, 200))"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:5", "--grid", "slow=20:200:10", "--where", "fast<slow",
             "--walk-forward", "4", "--out", dir + "/tour-sweep"],
            // docs/guide
            ["run", "ma-cross", "GOOG"],
            ["run", "ma-cross", "GOOG", "--param", "fast=20", "--param", "slow=50", "--param", "type=ema", "--from", "2010-01-01"],
            ["run", "rsi", "EURUSD", "--sl", "1%", "--tp", "2%", "--short", "--json"],
            ["run", "macd", "GOOG", "--depth", "none", "--max-participation", "0"],
            ["indicators", "GOOG", "--ind", "sma:20", "--ind", "rsi", "--to", "2004-09-20"],
            ["data", "summary"],
            ["data", "list", "--json"],
            ["data", "synth", "--symbols", "3", "--bars", "600"],
            ["screen", "ma-cross", "--all", "--rank", "sortino", "--min-trades", "5", "--param", "fast=20",
             "--param", "slow=50", "--out", dir + "/screen"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:15", "--grid", "slow=20:200:60", "--where", "fast<slow",
             "--walk-forward", "4", "--out", dir + "/sweep"],
            ["run", "GOOG", "--entry", "cross_above(sma(close, 50), sma(close, 200)) and rsi(close, 14) < 70",
             "--exit", "cross_below(sma(close, 50), sma(close, 200))"],
            ["run", "strategies/ma-cross.bt", "GOOG", "--param", "fast=20", "--param", "slow=50"],
            ["run", "GOOG", "--entry", "close > highest(high, $n)[1] and volume > 1.5 * sma(volume, $n)",
             "--exit", "close < lowest(low, floor($n / 2))[1]", "--param", "n=20"],
            ["sweep", "GOOG", "--entry", "cross_above(ema(close, $fast), ema(close, $slow))",
             "--exit", "cross_below(ema(close, $fast), ema(close, $slow))", "--grid", "fast=5:50:15",
             "--grid", "slow=20:200:60", "--where", "fast<slow", "--out", dir + "/sweep-rules"],
            ["screen", "--all", "--where", "close > sma(close, 200) and rsi(close, 14) > 50",
             "--show", "rsi(close, 14)", "--show", "close / sma(close, 200) - 1"],
            ["signals", "GOOG", "--entry", "close > open", "--exit", "close < open"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:15", "--grid", "slow=20:200:60", "--shard", "0/2", "--out", dir + "/parts"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:15", "--grid", "slow=20:200:60", "--shard", "1/2", "--out", dir + "/parts"],
            ["merge", dir + "/parts", "--out", dir + "/merged"],
            ["slurm", "screen", "ma-cross", "--all", "--tasks", "16", "--time", "01:00:00", "--out", dir + "/slurm", "--dry-run"],
            // scripts/demo.sh
            ["run", "ma-cross", "EURUSD", "--param", "fast=20", "--param", "slow=50", "--width", "100", "--height", "24",
             "--out", dir + "/demo-run", "--force"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:15", "--grid", "slow=20:200:60", "--where", "fast<slow",
             "--walk-forward", "4", "--out", dir + "/demo-sweep", "--force"],
            ["screen", "ma-cross", "--all", "--min-trades", "5", "--out", dir + "/demo-screen", "--force"],
        ]
        for args in lines {
            let r = try BT.run(args + ["--db", db])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(Self.warnings(r.stderr).isEmpty, "\(args): \(r.stderr)")
        }
    }
}
