import Foundation
import Testing
import TestSupport

/// `--conventions` and `--trail-from close` against the tools they reproduce: every trade of
/// backtesting.py 0.6.6 and vectorbt 1.2.0, run with their own defaults on the shipped GOOG
/// (`Tests/Fixtures/conventions/goldens.json`, written by `make_goldens.py` beside it), and the
/// preset as bt's outputs say it.
@Suite("conventions presets and the close trail against backtesting.py and vectorbt")
struct ConventionsGoldenTests {
    /// backtesting.py's `TrailingStrategy` ATR with `set_atr_periods(20)`: the 20-bar mean of the
    /// true range (NaN on the first bar, as pandas' shift makes it).
    static let atr = "sma(max(high - low, max(abs(close[1] - high), abs(close[1] - low))), 20)"

    /// Each golden case's options after `bt run ma-cross GOOG`.
    static let flags: [String: [String]] = [
        "bt_ma_cross": ["--conventions", "backtesting.py"],
        "bt_trailing": ["--conventions", "backtesting.py", "--trail-from", "close", "--trail", "3 * \(atr)"],
        "vbt_ma_cross": ["--conventions", "vectorbt"],
        "vbt_sl": ["--conventions", "vectorbt", "--sl", "5%"],
        "vbt_sl_trail": ["--conventions", "vectorbt", "--trail", "8%"],
    ]

    struct Golden {
        var name: String
        var trades: [[String: Any]]
        var finalEquity: Double
    }

    static func goldens() throws -> [Golden] {
        let path = Repository.path("Tests/Fixtures/conventions/goldens.json")
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path)))
        let cases = try #require((object as? [String: Any])?["cases"] as? [[String: Any]])
        return try cases.map {
            Golden(name: try #require($0["name"] as? String), trades: try #require($0["trades"] as? [[String: Any]]),
                   finalEquity: try #require($0["final_equity"] as? Double))
        }
    }

    /// `bt run ma-cross GOOG flags --out DIR`: trades.csv's rows by column, and the final equity.
    static func run(_ flags: [String], db: String) throws -> (trades: [[String: String]], finalEquity: Double) {
        let dir = BT.scratchDirectory().appendingPathComponent("run").path
        let r = try BT.run(["run", "ma-cross", "GOOG"] + flags + ["--out", dir, "--no-chart", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try ExitKindOutputTests.csv("\(dir)/trades.csv")
        let trades = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
        let stats = try RunCommandTests.json(try String(contentsOfFile: "\(dir)/stats.json", encoding: .utf8))
        let final = try #require(((stats["stats"] as? [String: Any]) ?? stats)["final_equity"] as? Double)
        return (trades, final)
    }

    /// The first difference from the golden's trades (bars, quantity, prices and PnL within
    /// 1e-9 relative, the open trade marked at the last close) or final equity; nil: none.
    static func difference(_ golden: Golden, _ got: (trades: [[String: String]], finalEquity: Double)) -> String? {
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }
        guard got.trades.count == golden.trades.count else { return "\(got.trades.count) trades, golden \(golden.trades.count)" }
        for (i, (t, g)) in zip(got.trades, golden.trades).enumerated() {
            for key in ["entry_index", "exit_index"] where Int(t[key] ?? "") != g[key] as? Int {
                return "trade \(i) \(key) \(t[key] ?? "-"), golden \(g[key] ?? "-")"
            }
            for key in ["quantity", "entry_price", "exit_price", "pnl"] {
                guard let v = Double(t[key] ?? ""), let w = g[key] as? Double, near(v, w) else {
                    return "trade \(i) \(key) \(t[key] ?? "-"), golden \(g[key] ?? "-")"
                }
            }
            if (t["is_open"] == "true") != (g["open"] as? Bool) { return "trade \(i) is_open \(t["is_open"] ?? "-")" }
        }
        return near(got.finalEquity, golden.finalEquity) ? nil : "final equity \(got.finalEquity), golden \(golden.finalEquity)"
    }

    static func matches(_ golden: Golden, _ got: (trades: [[String: String]], finalEquity: Double)) -> Bool {
        difference(golden, got) == nil
    }

    @Test("every trade and the final equity equal backtesting.py's and vectorbt's, ma-cross with and without stops (the close trail: TrailingStrategy)")
    func everyTradeEqual() throws {
        let db = try BT.googStore()
        let goldens = try Self.goldens()
        #expect(Set(goldens.map(\.name)) == Set(Self.flags.keys))
        for golden in goldens {
            let flags = try #require(Self.flags[golden.name])
            let got = try Self.run(flags, db: db)
            let difference = Self.difference(golden, got)
            #expect(difference == nil, "\(golden.name): \(difference ?? "")")
        }
    }

    @Test("a strategy file's [exits] trail_from = close gives TrailingStrategy's trades as the option does; the option overrides the file's")
    func strategyFile() throws {
        let db = try BT.googStore()
        let golden = try #require(try Self.goldens().first { $0.name == "bt_trailing" })
        let file = BT.scratchDirectory().appendingPathComponent("trailing.bt").path
        try """
            name = trailing
            [rules]
            entry = cross_above(sma(close, 10), sma(close, 30))
            exit = cross_below(sma(close, 10), sma(close, 30))
            [exits]
            trail = 3 * \(Self.atr)
            trail_from = close
            """.write(toFile: file, atomically: true, encoding: .utf8)
        func run(_ flags: [String]) throws -> (trades: [[String: String]], finalEquity: Double) {
            let dir = BT.scratchDirectory().appendingPathComponent("run").path
            let r = try BT.run(["run", file, "GOOG", "--conventions", "backtesting.py"] + flags + ["--out", dir, "--no-chart", "--db", db])
            #expect(r.status == 0, "\(r.stderr)")
            let rows = try ExitKindOutputTests.csv("\(dir)/trades.csv")
            let stats = try RunCommandTests.json(try String(contentsOfFile: "\(dir)/stats.json", encoding: .utf8))
            return (rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) },
                    try #require(((stats["stats"] as? [String: Any]) ?? stats)["final_equity"] as? Double))
        }
        let fromFile = try run([])
        #expect(Self.difference(golden, fromFile) == nil, "\(Self.difference(golden, fromFile) ?? "")")
        #expect(!Self.matches(golden, try run(["--trail-from", "high"])))
    }

    @Test("the goldens tell the rules apart: the trail from the highs, bt's own defaults, and bt's own fill bar and signal-exit order under vectorbt's settings each differ")
    func goldensDiscriminate() throws {
        let db = try BT.googStore()
        let goldens = Dictionary(uniqueKeysWithValues: try Self.goldens().map { ($0.name, $0) })
        let trailing = try #require(goldens["bt_trailing"]), vbt = try #require(goldens["vbt_sl_trail"]), cross = try #require(goldens["bt_ma_cross"])
        let sl = try #require(goldens["vbt_sl"])
        let high = ["--conventions", "backtesting.py", "--trail-from", "high", "--trail", "3 * \(Self.atr)"]
        #expect(!Self.matches(trailing, try Self.run(high, db: db)))
        // vectorbt's settings but bt's own rules: the fill bar checked (its high in the peak), a
        // signal exit at the open before a stop inside that bar (3 of vbt_sl's trades end so).
        let vectorbtSettings = ["--cash", "100", "--fee-bps", "0", "--depth", "none", "--max-participation", "0"]
        #expect(!Self.matches(vbt, try Self.run(vectorbtSettings + ["--trail", "8%"], db: db)))
        #expect(!Self.matches(sl, try Self.run(vectorbtSettings + ["--sl", "5%"], db: db)))
        #expect(!Self.matches(cross, try Self.run([], db: db)))
    }

    @Test("the preset is said first in the headline (run, sweep, screen, report.md, report.html) and carried by --json; a setting given wins over it; a bad preset or anchor names its option; a portfolio refuses a preset")
    func saidAndOverridden() throws {
        let db = try BT.googStore()
        let text = try BT.run(["run", "ma-cross", "GOOG", "--conventions", "backtesting.py", "--no-chart", "--no-costs", "--db", db])
        #expect(text.status == 0, "\(text.stderr)")
        let second = text.stdout.split(separator: "\n").dropFirst().first ?? ""
        #expect(second.hasPrefix("conventions: backtesting.py, "), "\(text.stdout)")
        let dir = BT.scratchDirectory().appendingPathComponent("report").path
        let report = try BT.run(["run", "ma-cross", "GOOG", "--conventions", "backtesting.py", "--out", dir, "--no-chart", "--db", db])
        #expect(report.status == 0, "\(report.stderr)")
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(md.hasPrefix("# ma-cross on GOOG\n\nConventions: backtesting.py (that tool's defaults and rules, not bt's).\n"), "\(md.prefix(200))")
        #expect(try String(contentsOfFile: dir + "/report.html", encoding: .utf8).contains("\"conventions: backtesting.py\""))
        let out = BT.scratchDirectory().path
        let sweep = try BT.run(["sweep", "ma-cross", "GOOG", "--conventions", "vectorbt", "--grid", "fast=5:15:5", "--out", out + "/sweep", "--db", db])
        #expect(sweep.status == 0 && sweep.stdout.hasPrefix("Sweep ma-cross on GOOG (conventions: vectorbt): 3 combinations"), "\(sweep.stdout)")
        let screen = try BT.run(["screen", "ma-cross", "--symbols", "GOOG", "--conventions", "backtesting.py", "--out", out + "/screen", "--db", db])
        #expect(screen.status == 0 && screen.stdout.hasPrefix("Screen ma-cross (conventions: backtesting.py): 1 symbols"), "\(screen.stdout)")
        let plain = try BT.run(["run", "ma-cross", "GOOG", "--no-chart", "--no-costs", "--db", db])
        #expect(!plain.stdout.contains("conventions"))
        let json = try BT.run(["run", "ma-cross", "GOOG", "--conventions", "vectorbt", "--cash", "5000", "--trail", "9%", "--trail-from", "close", "--json", "--db", db])
        #expect(json.status == 0, "\(json.stderr)")
        let execution = try #require(try RunCommandTests.json(json.stdout)["execution"] as? [String: Any])
        #expect(execution["conventions"] as? String == "vectorbt" && execution["trail_from"] as? String == "close")
        #expect(execution["cash"] as? Double == 5000 && execution["fee_bps"] as? Double == 0 && execution["depth"] as? String == "none")
        let bad = try BT.run(["run", "ma-cross", "GOOG", "--conventions", "zipline", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("--conventions 'zipline': not one of backtesting.py, vectorbt"), "\(bad.stderr)")
        let anchor = try BT.run(["run", "ma-cross", "GOOG", "--trail", "5%", "--trail-from", "open", "--db", db])
        #expect(anchor.status == 2 && anchor.stderr.contains("--trail-from 'open': not high or close"), "\(anchor.stderr)")
        let portfolio = try BT.run(["portfolio", "--entry", "close > open", "--exit", "close < open", "--symbols", "GOOG", "--conventions", "vectorbt", "--db", db])
        #expect(portfolio.status == 2 && portfolio.stderr.contains("--conventions 'vectorbt': reproduces one symbol's run in vectorbt"), "\(portfolio.stderr)")
        let alone = try BT.run(["run", "ma-cross", "GOOG", "--trail-from", "close", "--db", db])
        #expect(alone.status == 2 && alone.stderr.contains("--trail"), "\(alone.stderr)")
    }
}
