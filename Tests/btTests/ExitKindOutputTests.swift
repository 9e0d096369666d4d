import Foundation
import Testing

/// How each trade ended, end to end: `bt run` and `bt portfolio` text, `--json` and report
/// folders, and the portfolio page that shows its trades.
@Suite("exit kinds in bt's outputs")
struct ExitKindOutputTests {
    static let stops = ["--sl", "3%", "--tp", "6%"]

    static func csv(_ path: String) throws -> [[String]] {
        try SweepScreenCommandTests.lines(path).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("bt run: --json counts exits by kind (every kind, summing to the trades); the text says them on one line")
    func run() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "GOOG"] + Self.stops + ["--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let stats = try #require(try RunCommandTests.json(r.stdout)["stats"] as? [String: Any])
        let exits = try #require(stats["exits"] as? [String: Int])
        #expect(Set(exits.keys) == ["signal", "stop", "stop-gap", "target", "target-gap", "trail", "time", "end", "rebalance", "liquidation"])
        #expect(exits.values.reduce(0, +) == stats["trades"] as? Int)
        #expect(exits["stop", default: 0] > 0 && exits["target", default: 0] > 0 && exits["rebalance"] == 0)
        let text = try BT.run(["run", "ma-cross", "GOOG"] + Self.stops + ["--no-chart", "--no-costs", "--db", db])
        #expect(text.status == 0, "\(text.stderr)")
        let line = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("exits: ") })
        let said = line.dropFirst("exits: ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ") }
        for words in said { #expect(exits[String(words[1])] == Int(words[0]), "\(line)") }
        #expect(said.count == exits.values.filter { $0 > 0 }.count)
    }

    @Test("bt run --out: trades.csv's exit_kind, report.md's exits table, the page's trades")
    func runReport() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().appendingPathComponent("run").path
        let r = try BT.run(["run", "ma-cross", "GOOG"] + Self.stops + ["--out", dir, "--no-chart", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let trades = try Self.csv("\(dir)/trades.csv")
        #expect(trades[0].last == "exit_kind")
        let kinds = trades.dropFirst().map { $0.last! }
        #expect(Set(kinds).isSuperset(of: ["stop", "target"]) && Set(kinds).isSubset(of: ["signal", "stop", "stop-gap", "target", "target-gap", "end"]))
        let md = try String(contentsOfFile: "\(dir)/report.md", encoding: .utf8)
        #expect(md.contains("### Exits by kind") && md.contains("| exit kind | trades | share | avg return |"))
        let chart = try #require(try SweepScreenCommandTests.pageData("\(dir)/report.html")["chart"] as? [String: Any])
        #expect((chart["trades"] as? [String: Any])?["exit_kind"] as? [String] == kinds)
        let stats = try RunCommandTests.json(try String(contentsOfFile: "\(dir)/stats.json", encoding: .utf8))
        let exits = try #require((stats["stats"] as? [String: Any])?["exits"] as? [String: Int])
        for (kind, count) in exits { #expect(kinds.filter { $0 == kind }.count == count, "\(kind)") }
    }

    @Test("bt portfolio --out: trades.csv says rebalance for rotations; the page shows every trade on the portfolio's equity")
    func portfolioReport() throws {
        let db = try PortfolioCommandTests.store()
        let dir = BT.scratchDirectory().appendingPathComponent("portfolio").path
        let r = try BT.run(["portfolio", "--rotate", "--rank", "roc(close, 20)", "--symbols", "SYN0001,SYN0002,SYN0003,GOOG",
                            "--max-positions", "2", "--sl", "5%", "--out", dir, "--no-chart", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\nexits: ") && r.stdout.contains(" rebalance"))
        let trades = try Self.csv("\(dir)/trades.csv")
        #expect(trades[0].last == "exit_kind")
        let kinds = trades.dropFirst().map { $0.last! }, symbols = trades.dropFirst().map { $0[0] }
        #expect(kinds.contains("rebalance") && kinds.contains("stop"))
        let data = try SweepScreenCommandTests.pageData("\(dir)/report.html")
        let chart = try #require(data["chart"] as? [String: Any])
        // Several symbols: no candles of the buy-and-hold line; the equity on top, with its benchmark's values.
        let series = try #require(chart["series"] as? [String: Any])
        #expect(series["close"] == nil && series["open"] == nil && (series["time_deltas"] as? [Any])?.isEmpty == false)
        let equity = try #require(chart["equity"] as? [String: Any])
        #expect(equity["benchmark"] is [String: Any] && equity["benchmark_label"] as? String == "Equal-weight buy & hold")
        #expect(equity["position_label"] as? String == "Positions held")
        let pageTrades = try #require(chart["trades"] as? [String: Any])
        #expect(pageTrades["symbol"] as? [String] == symbols && pageTrades["exit_kind"] as? [String] == kinds)
        #expect((pageTrades["entry_index"] as? [Int])?.count == trades.count - 1)
        let tables = try #require(data["tables"] as? [[String: Any]])
        #expect(tables.contains { $0["id"] as? String == "exits" })
    }

    @Test("a portfolio of one symbol is that symbol's run page: candles, trades and fills at its prices")
    func portfolioOfOne() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().appendingPathComponent("one").path
        let r = try BT.run(["portfolio", "ma-cross", "--symbols", "GOOG", "--out", dir, "--no-chart", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let chart = try #require(try SweepScreenCommandTests.pageData("\(dir)/report.html")["chart"] as? [String: Any])
        #expect((chart["series"] as? [String: Any])?["close"] != nil)
        #expect(((chart["trades"] as? [String: Any])?["entry_index"] as? [Int])?.count == (try Self.csv("\(dir)/trades.csv").count - 1))
        #expect(((chart["fills"] as? [String: Any])?["index"] as? [Int])?.isEmpty == false)
    }
}
