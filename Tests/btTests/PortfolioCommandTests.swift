import Foundation
import Testing

/// `bt portfolio`: text, JSON, report folder and errors.
@Suite("bt portfolio")
struct PortfolioCommandTests {
    /// GOOG and EURUSD (shipped) plus SYN0001..SYN0003 (synthetic, 800 daily bars).
    static func store() throws -> String {
        let db = try RunCommandTests.store()
        let r = try BT.run(["data", "synth", "--symbols", "3", "--bars", "800", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    static let synth = ["--symbols", "SYN0001,SYN0002,SYN0003,GOOG", "--max-positions", "2"]

    @Test("text: headline with the rules, statistics, portfolio figures, contributions, cost table, chart")
    func text() throws {
        let db = try Self.store()
        let r = try BT.run(["portfolio", "ma-cross"] + Self.synth + ["--rank", "roc(close, 20)", "--rebalance", "1M",
                                                                    "--width", "80", "--height", "16", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        for needle in ["ma-cross fast=10 slow=30 type=sma portfolio of GOOG,SYN0001,SYN0002,SYN0003",
                       "max_positions 2, rank roc(close, 20), weight equal, rebalance 1M", "total_return [%]",
                       "Max positions (K)", "Turnover per year", "Entry signals without a slot",
                       "symbol   trades", "contribution", "of costs", "Break-even fee: ", "Equity  10000.00 ->"] {
            #expect(r.stdout.contains(needle), "missing '\(needle)' in:\n\(r.stdout)")
        }
        #expect(!r.stdout.utf8.contains(0x1B))
    }

    @Test("a portfolio of one symbol is bt run on it: the same statistics, trades and costs", arguments: [
        ["--fee-bps", "5", "--sl", "4%"],
        ["--short", "--entry-limit", "close * 0.99", "--short-entry-limit", "close * 1.01", "--order-bars", "3", "--maker-bps", "1"],
        ["--short", "--entry-stop", "highest(high, 5)", "--short-entry-stop", "lowest(low, 5)", "--order-bars", "2", "--trail", "6%"],
        ["--short", "--instrument", "inverse-perp", "--multiplier", "100", "--leverage", "3", "--size", "200%", "--cash", "5"],
    ])
    func oneSymbolIsRun(settings: [String]) throws {
        let db = try Self.store()
        let options = settings + ["--json", "--db", db]
        let run = try RunCommandTests.json(try BT.run(["run", "ma-cross", "GOOG"] + options).stdout)
        let p = try BT.run(["portfolio", "ma-cross", "--symbols", "goog"] + options)
        #expect(p.status == 0, "\(p.stderr)")
        let portfolio = try RunCommandTests.json(p.stdout)
        let a = try #require(run["stats"] as? [String: Any]), b = try #require(portfolio["stats"] as? [String: Any])
        // A cash account's are equal bit for bit; an inverse contract's margin account's within 1e-9
        // (the portfolio sums its account in another order: PortfolioMarginTests).
        let exact = !settings.contains("--instrument")
        for key in ["final_equity", "total_return", "sharpe", "max_drawdown", "trades", "fees_paid", "spread_cost", "win_rate"] {
            let x = try #require(a[key] as? Double, "\(key)"), y = try #require(b[key] as? Double, "\(key)")
            #expect(x == y || (!exact && abs(x - y) <= 1e-9 * max(1, abs(x))), "\(key): \(x) vs \(y)")
        }
        if exact {
            #expect(NSDictionary(dictionary: try #require(run["costs"] as? [String: Any]))
                .isEqual(to: try #require(portfolio["costs"] as? [String: Any])))
        }
    }

    @Test("--json: bt run's object plus symbols, rules, figures and contributions that add up to the net PnL")
    func json() throws {
        let db = try Self.store()
        let r = try BT.run(["portfolio", "ma-cross", "--all", "--max-positions", "3", "--weight", "inverse-vol",
                            "--rebalance", "20", "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 1)
        let j = try RunCommandTests.json(r.stdout)
        for key in ["strategy", "symbols", "timeframe", "params", "portfolio", "execution", "bars", "first", "last",
                    "candles_sha256", "bt_version", "warnings", "stats", "cost_split", "costs", "figures", "contributions"] {
            #expect(j.keys.contains(key), "missing \(key)")
        }
        #expect(j["symbols"] as? [String] == ["EURUSD", "GOOG", "SYN0001", "SYN0002", "SYN0003"])
        let rules = try #require(j["portfolio"] as? [String: Any])
        #expect(rules["max_positions"] as? Int == 3 && rules["weight"] as? String == "inverse-vol"
                && rules["rebalance"] as? String == "20" && rules["rotate"] as? Bool == false && rules["rank"] is NSNull)
        let figures = try #require(j["figures"] as? [String: Any])
        #expect(figures["symbols"] as? Int == 5 && figures["max_positions"] as? Int == 3)
        #expect((figures["peak_positions"] as? Int).map { $0 >= 1 && $0 <= 3 } == true)
        #expect((figures["turnover"] as? Double).map { $0 > 0 } == true)
        let contributions = try #require(j["contributions"] as? [[String: Any]])
        #expect(contributions.compactMap { $0["symbol"] as? String } == ["EURUSD", "GOOG", "SYN0001", "SYN0002", "SYN0003"])
        let stats = try #require(j["stats"] as? [String: Any])
        let final = try #require(stats["final_equity"] as? Double)
        let pnl = contributions.compactMap { $0["pnl"] as? Double }.reduce(0, +)
        #expect(abs(10_000 + pnl - final) < 1e-6 * final, "contributions \(pnl) vs net \(final - 10_000)")
        let share = contributions.compactMap { $0["contribution"] as? Double }.reduce(0, +)
        #expect(abs(share - (try #require(stats["total_return"] as? Double))) < 1e-9)
        let costShares = contributions.compactMap { $0["cost_share"] as? Double }.reduce(0, +)
        #expect(abs(costShares - 1) < 1e-9)
    }

    @Test("--out writes every file: positions and cash make the equity at each bar, fills and trades carry symbols")
    func reportFolder() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory().appendingPathComponent("report").path
        let args = ["portfolio", "ma-cross"] + Self.synth + ["--rebalance", "1w", "--out", dir, "--db", db]
        let r = try BT.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("report written to \(dir)/report.md"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["equity.csv", "equity.svg", "exposure.svg", "fills.csv", "positions.csv", "report.html", "report.md",
                          "stats.csv", "stats.json", "symbols.csv", "trades.csv"])
        func read(_ name: String) throws -> String { try String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8) }
        func rows(_ name: String) throws -> [[String]] {
            try read(name).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        }
        let equity = try rows("equity.csv")
        #expect(equity[0] == ["time", "cash", "positions", "position_value", "exposure", "equity", "drawdown", "benchmark"])
        var value: [String: Double] = [:]
        let positions = try rows("positions.csv")
        #expect(positions[0] == ["time", "symbol", "quantity", "close", "value"])
        for row in positions.dropFirst() { value[row[0], default: 0] += Double(row[4])! }
        #expect(!value.isEmpty)
        for row in equity.dropFirst() {
            let cash = Double(row[1])!, total = Double(row[5])!
            #expect(abs(cash + value[row[0], default: 0] - total) <= 1e-9 * total, "\(row[0])")
            #expect(cash >= 0)
        }
        let fills = try rows("fills.csv")
        #expect(fills[0].prefix(4) == ["time", "index", "symbol", "bar"] && fills.count > 2)
        #expect(Set(fills.dropFirst().map { $0[2] }).isSubset(of: ["GOOG", "SYN0001", "SYN0002", "SYN0003"]))
        let trades = try rows("trades.csv")
        #expect(trades[0].first == "symbol" && trades.count > 2)
        let symbols = try rows("symbols.csv")
        #expect(symbols.dropFirst().map { $0[0] } == ["GOOG", "SYN0001", "SYN0002", "SYN0003"])
        let md = try read("report.md")
        for needle in ["# ma-cross portfolio of 4 symbols", "| symbols | GOOG, SYN0001, SYN0002, SYN0003 |",
                       "| portfolio max_positions | 2 |", "## Portfolio", "## Contributions by symbol", "## Cost sensitivity",
                       "![Exposure and positions](exposure.svg)", "| # | symbol | entry |"] {
            #expect(md.contains(needle), "report.md lacks '\(needle)'")
        }
        let html = try read("report.html")
        #expect(html.contains("\"id\":\"symbols\"") && html.contains("\"id\":\"portfolio\""))
        #expect(try read("exposure.svg").hasPrefix("<svg"))
        let stats = try RunCommandTests.json(try read("stats.json"))
        #expect(stats["contributions"] is [[String: Any]])
        let again = try BT.run(args)
        #expect(again.status == 2 && again.stderr.contains("exists"))
    }

    @Test("--rotate holds the top K by the rank on rebalance dates; --param gives the rank its $name")
    func rotation() throws {
        let db = try Self.store()
        let r = try BT.run(["portfolio", "--rotate", "--rank", "roc(close, $n)", "--param", "n=60", "--symbols",
                            "SYN0001,SYN0002,SYN0003", "--max-positions", "1", "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        #expect(j["strategy"] as? String == "rotation")
        #expect((j["params"] as? [String: Any])?["n"] as? Double == 60)
        let rules = try #require(j["portfolio"] as? [String: Any])
        #expect(rules["rotate"] as? Bool == true && rules["rebalance"] as? String == "1M" && rules["rank"] as? String == "roc(close, $n)")
        #expect(((j["figures"] as? [String: Any])?["peak_positions"] as? Int) == 1)
        #expect(((j["stats"] as? [String: Any])?["trades"] as? Double ?? 0) > 1)
    }

    @Test("bt sweep --portfolio sweeps $ parameters and K, with walk-forward; each row is the bt portfolio run")
    func sweep() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory().appendingPathComponent("sweep").path
        let r = try BT.run(["sweep", "--portfolio", "--entry", "close > sma(close, $n)", "--exit", "close < sma(close, $n)",
                            "--symbols", "SYN0001,SYN0002,SYN0003,GOOG", "--grid", "n=10,20", "--grid", "max_positions=1:2:1",
                            "--portfolio-rank", "roc(close, $n)", "--rebalance", "1M", "--walk-forward", "2", "--out", dir, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("4 combinations, 4 ran, 0 failed") && r.stdout.contains("Walk-forward"), "\(r.stdout)")
        let csv = try String(contentsOfFile: "\(dir)/sweep.csv", encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(csv[0].prefix(2) == ["n", "max_positions"] && csv.count == 5)
        let header = csv[0]
        let row = try #require(csv.first { $0.prefix(2) == ["20", "2"] })
        let column = try #require(header.firstIndex(of: "total_return"))
        let total = try #require(Double(row[column]))
        let p = try BT.run(["portfolio", "--entry", "close > sma(close, $n)", "--exit", "close < sma(close, $n)", "--param", "n=20",
                            "--symbols", "SYN0001,SYN0002,SYN0003,GOOG", "--max-positions", "2", "--rank", "roc(close, $n)",
                            "--rebalance", "1M", "--json", "--no-costs", "--db", db])
        #expect(p.status == 0, "\(p.stderr)")
        let stats = try #require(try RunCommandTests.json(p.stdout)["stats"] as? [String: Any])
        #expect(stats["total_return"] as? Double == total)
        for file in ["sweep.md", "report.html", "walk_forward.csv", "heatmap.svg"] {
            #expect(FileManager.default.fileExists(atPath: "\(dir)/\(file)"), "missing \(file)")
        }
        let md = try String(contentsOfFile: "\(dir)/sweep.md", encoding: .utf8)
        #expect(md.contains("portfolio_rank") && md.contains("portfolio_weight"))
        let bad = try BT.run(["sweep", "ma-cross", "--portfolio", "--symbols", "GOOG,SYN0001", "--grid", "max_positions=0,1",
                              "--out", BT.scratchDirectory().path + "/x", "--db", db])
        #expect(bad.status == 0 && bad.stdout.contains("1 failed"), "\(bad.stdout) \(bad.stderr)")
    }

    @Test("bt sweep --portfolio --short --neutral sweeps a market-neutral book: each row is the bt portfolio --neutral run")
    func sweepNeutral() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory().appendingPathComponent("sweep-neutral").path
        let rules = ["--entry", "close > sma(close, $n)", "--exit", "close < sma(close, $n)", "--symbols", "SYN0001,SYN0002,SYN0003,GOOG",
                     "--max-positions", "2", "--short", "--neutral", "--rebalance", "20", "--leverage", "2"]
        let r = try BT.run(["sweep", "--portfolio", "--grid", "n=10,20", "--out", dir, "--db", db] + rules)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2 combinations, 2 ran, 0 failed"), "\(r.stdout)")
        let csv = try String(contentsOfFile: "\(dir)/sweep.csv", encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let row = try #require(csv.first { $0.first == "20" })
        let column = try #require(csv[0].firstIndex(of: "total_return"))
        let total = try #require(Double(row[column]))
        let p = try BT.run(["portfolio", "--param", "n=20", "--json", "--no-costs", "--db", db] + rules)
        #expect(p.status == 0, "\(p.stderr)")
        let j = try RunCommandTests.json(p.stdout)
        let stats = try #require(j["stats"] as? [String: Any])
        #expect(stats["total_return"] as? Double == total && (stats["trades"] as? Double ?? 0) > 4, "\(stats)")
        #expect((j["portfolio"] as? [String: Any])?["neutral"] as? Bool == true)
        let md = try String(contentsOfFile: "\(dir)/sweep.md", encoding: .utf8)
        #expect(md.contains("portfolio_neutral"))
        // Refused once, before any combination runs: a neutral book needs shorts.
        let bad = try BT.run(["sweep", "--portfolio", "--grid", "n=10,20", "--out", dir + "-bad", "--db", db]
                             + rules.filter { $0 != "--short" })
        #expect(bad.status == 2 && bad.stderr.contains("--short") && bad.stderr.contains("market-neutral"), "\(bad.stderr)")
    }

    @Test("bt bench portfolio --json prints symbols, bars and seconds")
    func bench() throws {
        let r = try BT.run(["bench", "portfolio", "--symbols", "30", "--bars", "400", "--repeat", "1", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        #expect(Set(j.keys) == ["symbols", "bars", "seconds"])
        #expect(j["symbols"] as? Int == 30 && j["bars"] as? Int == 400 && ((j["seconds"] as? Double) ?? 0) > 0)
        let text = try BT.run(["bench", "portfolio", "--symbols", "30", "--bars", "400", "--repeat", "1"])
        #expect(text.status == 0 && text.stdout.contains("fills") && text.stdout.contains("portfolio"))
    }

    @Test("bad input: clear message, exit 2", arguments: [
        (["ma-cross", "--symbols", "GOOG,NOPE"], "no candles stored for symbol 'NOPE'"),
        (["ma-cross", "--symbols", "GOOG"], ""),
        (["ma-cross", "--symbols", "GOOG", "--max-positions", "0"], "--max-positions '0': needs at least one position"),
        (["ma-cross", "--symbols", "GOOG", "--rank", "roc(close, "], "--rank"),
        (["ma-cross", "--symbols", "GOOG", "--rank", "nosuch(close)"], "nosuch"),
        (["ma-cross", "--symbols", "GOOG", "--weight", "heavy"], "--weight 'heavy': not one of equal, inverse-vol, rank"),
        (["ma-cross", "--symbols", "GOOG", "--rebalance", "2d"], "--rebalance '2d'"),
        (["ma-cross", "--symbols", "GOOG", "--weight", "rank"], "rank weights need a rank (use --rank)"),
        (["--rotate", "--symbols", "GOOG"], "rotation holds the top K symbols by rank: it needs a rank"),
        (["ma-cross", "--rotate", "--rank", "close", "--symbols", "GOOG"], "leave out STRATEGY"),
        (["ma-cross"], "give --symbols A,B,C or --all"),
        (["ma-cross", "--symbols", "GOOG", "--all"], "give either --symbols or --all"),
        (["ma-cross", "--symbols", "GOOG,GOOG"], "symbol GOOG is given twice"),
        (["ma-cross", "GOOG"], "unexpected argument 'GOOG'"),
        (["ma-cross", "--symbols", "GOOG", "--short", "--entry-limit", "close*0.99"], "--short-entry-limit"),
        (["--entry", "close > sma(close, 20)", "--exit", "trade_return > 0.05", "--symbols", "GOOG", "--short"],
         "--exit: a long/short portfolio's exit rules cannot read the position yet"),
        (["--entry", "close > sma(close, $n)", "--exit", "close < sma(close, 20)", "--symbols", "GOOG"], "$n"),
    ] as [([String], String)])
    func errors(arguments: [String], message: String) throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["portfolio"] + arguments + ["--db", db])
        if message.isEmpty {
            #expect(r.status == 0, "\(r.stderr)")  // the control case: the same command without the mistake runs
            return
        }
        #expect(r.status == 2, "\(arguments): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
