import Backtest
import Foundation
import Testing

/// `bt run`'s statistics, chart, cost table, JSON object and report directory.
@Suite("bt run output and reports")
struct RunOutputTests {
    @Test("default output: headline, stats table with percentages, cost table, chart; no escape byte off a terminal")
    func defaultOutput() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "GOOG", "--width", "90", "--height", "20", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout
        for needle in ["statistic", "periods_per_year", "252", "total_return [%]", "sharpe_ci_low", "psr [%]",
                       "costs  total return", "0.5x", "2x", "Break-even fee: ", "Equity  10000.00 ->"] {
            #expect(out.contains(needle), "missing '\(needle)' in:\n\(out)")
        }
        #expect(out.range(of: #"max_drawdown \[%\] +-\d+\.\d\d%"#, options: .regularExpression) != nil)
        #expect(out.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "no braille chart")
        #expect(!out.utf8.contains(0x1B))
        let chartLines = out.split(separator: "\n").drop { !$0.hasPrefix("Equity") }
        #expect(chartLines.count == 20 && chartLines.allSatisfy { $0.count <= 90 })
    }

    @Test("--color always colours even off a terminal; --color never and NO_COLOR do not")
    func color() throws {
        let db = try RunCommandTests.store()
        let always = try BT.run(["run", "macd", "GOOG", "--no-costs", "--color", "always", "--width", "80", "--height", "20", "--db", db])
        #expect(always.status == 0 && always.stdout.utf8.contains(0x1B))
        let never = try BT.run(["run", "macd", "GOOG", "--no-costs", "--color", "never", "--db", db])
        #expect(never.status == 0 && !never.stdout.utf8.contains(0x1B))
    }

    @Test("--json prints one object with every parameter and every statistic of the metric table, as fractions")
    func jsonKeys() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "rsi", "GOOG", "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 1)
        let j = try RunCommandTests.json(r.stdout)
        let params = try #require(j["params"] as? [String: Any])
        #expect(params["period"] as? Int == 14 && params["lower"] as? Int == 30 && params["upper"] as? Int == 70)
        let execution = try #require(j["execution"] as? [String: Any])
        for key in ["cash", "fill", "short", "size", "fee_bps", "fee_min", "sl", "tp", "tick", "lot", "min_notional",
                    "max_participation", "depth", "spread_bps"] {
            #expect(execution.keys.contains(key), "missing execution \(key)")
        }
        let stats = try #require(j["stats"] as? [String: Any])
        for name in Stat.names { #expect(stats.keys.contains(name), "missing stat \(name)") }
        #expect(stats.count == Stat.allCases.count + 6)   // and the engine's counters, and exits by kind
        #expect((stats["exits"] as? [String: Int])?.values.reduce(0, +) == stats["trades"] as? Int)
        let total = try #require(stats["total_return"] as? Double)
        let final = try #require(stats["final_equity"] as? Double)
        #expect(abs(total - (final / 10_000 - 1)) < 1e-12)
        #expect(stats["periods_per_year"] as? Int == 252)
        let costs = try #require(j["costs"] as? [String: Any])
        let rows = try #require(costs["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["multiplier"] as? Double } == [0, 0.5, 1, 2])
        let none = try BT.run(["run", "rsi", "GOOG", "--json", "--no-costs", "--db", db])
        #expect(try RunCommandTests.json(none.stdout)["costs"] is NSNull)
    }

    @Test("--out writes every file; stats.json is the object --json prints")
    func outWritesReport() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().appendingPathComponent("report")
        let r = try BT.run(["run", "macd", "GOOG", "--out", dir.path, "--no-chart", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("report written to \(dir.path)/report.md and report.html"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files == ["equity.csv", "equity.svg", "fills.csv", "price.svg", "report.html", "report.md", "stats.csv",
                          "stats.json", "trades.csv"])
        let written = try String(contentsOf: dir.appendingPathComponent("stats.json"), encoding: .utf8)
        let json = try BT.run(["run", "macd", "GOOG", "--json", "--db", db])
        #expect(written == json.stdout)
        let fromFile = try RunCommandTests.json(written)
        let printed = try RunCommandTests.json(json.stdout)
        #expect(NSDictionary(dictionary: try #require(fromFile["stats"] as? [String: Any]))
                == NSDictionary(dictionary: try #require(printed["stats"] as? [String: Any])))
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        for needle in ["| command | `bt run macd GOOG --out \(dir.path) --no-chart --db \(db)` |", "| bt version |",
                       "| data range | 2004-08-19T00:00:00Z .. 2013-03-01T00:00:00Z |", "| bars | 2148 |", "| candles sha256 | `",
                       "| parameter signal | 9 |", "| execution fee_bps | 10 |", "| execution depth | synthetic |",
                       "| periods per year | 252 |", "## Cost sensitivity"] {
            #expect(md.contains(needle), "missing '\(needle)' in report.md")
        }
    }

    @Test("an existing directory is refused without --force (exit 2, untouched) and overwritten with it")
    func force() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().appendingPathComponent("existing")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let marker = dir.appendingPathComponent("report.md")
        try "keep me\n".write(to: marker, atomically: true, encoding: .utf8)
        let refused = try BT.run(["run", "ma-cross", "GOOG", "--out", dir.path, "--db", db])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("already exists") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.md"])
        #expect(try String(contentsOf: marker, encoding: .utf8) == "keep me\n")
        let forced = try BT.run(["run", "ma-cross", "GOOG", "--out", dir.path, "--force", "--no-costs", "--db", db])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: marker, encoding: .utf8).hasPrefix("# ma-cross on GOOG"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == Report.files.count)
    }

    @Test("a lower-case symbol loads the upper-cased stored one, for run, chart and indicators")
    func lowerCaseSymbol() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "goog", "--json", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try RunCommandTests.json(r.stdout)["symbol"] as? String == "GOOG")
        let chart = try BT.run(["chart", "eurusd", "--width", "80", "--height", "20", "--db", db])
        #expect(chart.status == 0, "\(chart.stderr)")
        let export = try BT.run(["data", "export", "goog", "--db", db])
        #expect(export.status == 0, "\(export.stderr)")
    }
}
