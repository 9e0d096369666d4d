import Foundation
import Testing
import TestSupport

/// Entry orders and exits end to end: on the command line and in strategy files, as sweep axes,
/// in screens and portfolios, their refusals, and their help.
@Suite("bt with orders and exits: run, strategy files, sweep, screen, portfolio, help")
struct OrdersCommandTests {
    static let cross = ["--entry", "cross_above(sma(close, 10), sma(close, 30))", "--exit", "cross_below(sma(close, 10), sma(close, 30))"]

    static func run(_ args: [String], db: String) throws -> [String: Any] {
        let r = try BT.run(args + ["--json", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(args): \(r.stderr)")
        return try RunCommandTests.json(r.stdout)
    }

    static func stats(_ j: [String: Any]) throws -> [String: Any] { try #require(j["stats"] as? [String: Any]) }

    static let bad: [(args: [String], message: String)] = [
        (["--trail", "0"], "error: --trail: a trailing stop must be between 0% and 100%"),
        (["--trail", "150%"], "error: --trail: a trailing stop must be between 0% and 100%"),
        (["--order-bars", "0", "--entry-limit", "close"], "error: --order-bars '0': not a whole number >= 1"),
        (["--sl", "-5%"], "error: --sl: stop-loss must be between 0% and 100%"),
        (["--size", "risk:1%"], "error: sizing by risk needs a stop-loss: the risk is the distance to it (use --sl)"),
        (["--size", "risk:0%", "--sl", "5%"], "error: --size 'risk:0%': risk: takes a percentage above 0% and at most 100%"),
        (["--tp", "5%@150%"], "error: --tp: a target's share must be above 0% and at most 100%"),
        (["--tp", "5%@60%", "--tp", "8%@60%"], "error: --tp: the targets' shares add up to 120%: at most 100%"),
        (["--tp", "5%", "--tp", "8%"], "error: --tp: only one target may sell the rest"),
        (["--exit-after", "2.5"], "error: --exit-after '2.5': not a whole number >= 1"),
        (["--breakeven", "-1%"], "error: --breakeven: the break-even move needs a gain above 0%"),
        (["--pyramid", "0"], "error: --pyramid '0': not a whole number >= 1"),
        (["--sl", "5"], "error: --sl '5': a bare number is a fraction of the entry price (5 is 500%): write 5% for 5 percent"),
        (["--sl", "2 * atr(0)"], "error: --sl: n of atr must be a whole number"),
        (["--entry-limit", "trade_return"], "error: --entry-limit: 'trade_return' is a position series"),
        (["--entry-limit", "close > open"], "error: --entry-limit:"),
        (["--entry-limit", "close * 0.99", "--short"], "with shorts, limit entries need the short entries' limit price too (use --short-entry-limit)"),
        (["--short-entry-stop", "low"], "error: --short-entry-stop: short entry prices need shorts allowed"),
    ]

    @Test("bad order and exit options exit 2 naming the option and the reason", arguments: 0..<bad.count)
    func refusals(_ k: Int) throws {
        let db = try RunCommandTests.store()
        let (args, message) = Self.bad[k]
        let r = try BT.run(["run", "ma-cross", "GOOG", "--no-chart", "--db", db] + args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        #expect(!r.stderr.contains("Fatal error") && r.stdout.isEmpty)
    }

    @Test("a strategy file's [exits] and [orders] run as the same options do; the options override the file's")
    func strategyFile() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory()
        let file = dir.appendingPathComponent("chandelier.bt")
        try """
            name = chandelier
            [params]
            fast = int 10 >= 1 : fast
            [rules]
            entry = cross_above(sma(close, $fast), sma(close, 30))
            exit = cross_below(sma(close, $fast), sma(close, 30))
            [exits]
            sl = 2 * atr(14)
            tp = 5%@50%, 15%
            trail = 3 * atr(22)
            exit_after = 40
            [orders]
            entry_limit = close * 0.995
            order_bars = 2
            """.write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try Self.run(["run", file.path, "GOOG", "--depth", "none"], db: db)
        let options = try Self.run(["run", "GOOG"] + Self.cross + ["--depth", "none", "--sl", "2 * atr(14)", "--tp", "5%@50%",
                                   "--tp", "15%", "--trail", "3 * atr(22)", "--exit-after", "40",
                                   "--entry-limit", "close * 0.995", "--order-bars", "2"], db: db)
        #expect(NSDictionary(dictionary: try Self.stats(fromFile)).isEqual(to: try Self.stats(options)))
        let execution = try #require(fromFile["execution"] as? [String: Any])
        #expect(execution["sl"] as? String == "2 * atr(14)" && execution["tp"] as? String == "5%@50%, 15%")
        #expect(execution["trail"] as? String == "3 * atr(22)" && execution["exit_after"] as? Int == 40)
        #expect(execution["entry_limit"] as? String == "close * 0.995" && execution["order_bars"] as? Int == 2)
        // --trail on the command line replaces the file's; the rest of the file stays.
        let overridden = try Self.run(["run", file.path, "GOOG", "--depth", "none", "--trail", "10%"], db: db)
        let e2 = try #require(overridden["execution"] as? [String: Any])
        #expect(e2["trail"] as? Double == 0.1 && e2["sl"] as? String == "2 * atr(14)")
        #expect(!NSDictionary(dictionary: try Self.stats(overridden)).isEqual(to: try Self.stats(fromFile)))
        // bt strategies lists them.
        let listed = try BT.run(["strategies", "--strategies", dir.path])
        #expect(listed.stdout.contains("  trail = 3 * atr(22)\n") && listed.stdout.contains("  entry_limit = close * 0.995\n"))
        let json = try BT.run(["strategies", "--strategies", dir.path, "--json"])
        #expect(json.stdout.contains(#""orders":[{"setting":"sl","text":"2 * atr(14)"}"#))
    }

    @Test("a strategy file refuses an unknown [exits] key and a bad value with the file and line")
    func fileRefusals() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory()
        let base = "[rules]\nentry = close > sma(close, 20)\nexit = close < sma(close, 20)\n"
        let cases: [(String, String)] = [
            (base + "[exits]\nstop = 5%\n", ":5: unknown key 'stop' in [exits]"),
            (base + "[exits]\ntrail = 150%\n", "a trailing stop must be between 0% and 100%"),
            (base + "[exits]\nsl = 2 * atrr(14)\n", ":5: "),
            (base + "[orders]\norder_bars = zero\n", ":5: order_bars 'zero': not a whole number >= 1"),
            (base + "[exits]\ntp = 5%@60%, 8%@60%\n", ":5: tp '5%@60%, 8%@60%': the targets' shares add up to 120%"),
            (base + "[exit]\nsl = 5%\n", "unknown section '[exit]'; did you mean '[exits]'?"),
        ]
        for (i, (text, message)) in cases.enumerated() {
            let file = dir.appendingPathComponent("bad\(i).bt")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let r = try BT.run(["run", file.path, "GOOG", "--no-chart", "--db", db])
            #expect(r.status == 2 && r.stderr.contains(message), "\(text): \(r.stderr)")
        }
    }

    @Test("each exit does what it says: a time exit bounds every trade, a stop bounds every loss, a scale-out sells twice")
    func exitsBehave() throws {
        let db = try RunCommandTests.store()
        let plain = try Self.stats(try Self.run(["run", "GOOG"] + Self.cross + ["--depth", "none"], db: db))
        let timed = try Self.stats(try Self.run(["run", "GOOG"] + Self.cross + ["--depth", "none", "--exit-after", "5"], db: db))
        #expect((timed["max_trade_duration"] as? Int ?? 99) <= 5)
        #expect((timed["trades"] as? Int ?? 0) >= (plain["trades"] as? Int ?? 0))
        let stopped = try Self.stats(try Self.run(["run", "GOOG"] + Self.cross + ["--depth", "none", "--sl", "2%", "--fee-bps", "0"], db: db))
        // Gaps aside (a stop-gap fills at the open), no trade loses much more than the stop.
        #expect((stopped["worst_trade"] as? Double ?? -1) > -0.12)
        let scaled = try Self.run(["run", "GOOG"] + Self.cross + ["--depth", "none", "--tp", "3%@50%", "--tp", "50%"], db: db)
        let s = try Self.stats(scaled)
        #expect((s["fills"] as? Int ?? 0) > 2 * (s["trades"] as? Int ?? 0), "a half sold at +3% adds a fill to some trades")
        // A lone target with a share sells that share and lets the rest ride: no trade ends at it.
        let half = try Self.stats(try Self.run(["run", "GOOG"] + Self.cross + ["--depth", "none", "--tp", "3%@50%"], db: db))
        let halfExits = try #require(half["exits"] as? [String: Int])
        #expect(halfExits["target"] == 0 && halfExits["target-gap"] == 0 && (halfExits["signal"] ?? 0) > 0)
        #expect((half["fills"] as? Int ?? 0) > 2 * (half["trades"] as? Int ?? 0))
        // A position rule exits: at most 7 bars in any trade.
        let rule = try Self.stats(try Self.run(["run", "GOOG", "--entry", "cross_above(sma(close, 10), sma(close, 30))",
                                                "--exit", "bars_in_trade >= 7", "--depth", "none"], db: db))
        #expect((rule["max_trade_duration"] as? Int ?? 99) <= 8 && (rule["trades"] as? Int ?? 0) > 20)
    }

    @Test("--grid sweeps exits: sl and trail in percent are axes, one row per combination, each run as bt run runs it")
    func sweepAxes() throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().appendingPathComponent("sw").path
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--grid", "sl=2%:6%:2%", "--grid", "trail=5%,10%", "--depth", "none",
                            "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 7 && csv[0].hasPrefix("sl,trail,total_return,"))
        #expect(csv[1].hasPrefix("0.02,0.05,") && csv[6].hasPrefix("0.06,0.1,"))
        let one = try Self.stats(try Self.run(["run", "ma-cross", "GOOG", "--sl", "4%", "--trail", "10%", "--depth", "none"], db: db))
        let row = try #require(csv.first { $0.hasPrefix("0.04,0.1,") }).split(separator: ",")
        #expect(Double(row[2]) == one["total_return"] as? Double)
        let badAxis = try BT.run(["sweep", "ma-cross", "GOOG", "--grid", "exit_after=2.5,3", "--out", out + "2", "--db", db])
        #expect(badAxis.status == 2 && badAxis.stderr.contains("--grid: exit_after=2.5: not a whole number of bars >= 1"),
                "\(badAxis.stderr)")
    }

    @Test("screens and portfolios take the exits; a portfolio takes limit entries (not under rotation), pyramiding and risk sizing, and reads exit rules")
    func screenAndPortfolio() throws {
        let db = try RunCommandTests.store()
        let screen = try BT.run(["screen", "ma-cross", "--all", "--trail", "5%", "--json", "--db", db])
        #expect(screen.status == 0, "\(screen.stderr)")
        let portfolio = try BT.run(["portfolio", "ma-cross", "--all", "--trail", "5%", "--exit-after", "20", "--json", "--no-costs", "--db", db])
        #expect(portfolio.status == 0, "\(portfolio.stderr)")
        let limit = try BT.run(["portfolio", "ma-cross", "--all", "--entry-limit", "close * 0.99", "--order-bars", "3",
                                "--json", "--no-costs", "--db", db])
        #expect(limit.status == 0, "\(limit.stderr)")
        let rotation = try BT.run(["portfolio", "--all", "--rotate", "--rank", "roc(close, 20)", "--entry-limit", "close * 0.99",
                                   "--json", "--db", db])
        #expect(rotation.status == 2 && rotation.stderr.contains("limit and stop entries need entry signals"), "\(rotation.stderr)")
        let pyramid = try BT.run(["portfolio", "ma-cross", "--all", "--pyramid", "3", "--size", "30%", "--json", "--no-costs", "--db", db])
        #expect(pyramid.status == 0, "\(pyramid.stderr)")
        let risk = try BT.run(["portfolio", "ma-cross", "--all", "--size", "risk:1%", "--sl", "2 * atr(14)", "--json", "--no-costs", "--db", db])
        #expect(risk.status == 0, "\(risk.stderr)")
        let rule = try BT.run(["portfolio", "--all", "--entry", "cross_above(sma(close, 10), sma(close, 30))",
                               "--exit", "bars_in_trade >= 7", "--max-participation", "0", "--json", "--no-costs", "--db", db])
        #expect(rule.status == 0, "\(rule.stderr)")
        let s = try Self.stats(try RunCommandTests.json(rule.stdout))
        #expect((s["max_trade_duration"] as? Int ?? 99) <= 8)
    }

    @Test("bt help exits and bt help strategy-file list every setting and section; bt help names the topics")
    func help() throws {
        let exits = try BT.run(["help", "exits"])
        #expect(exits.status == 0)
        for key in ["sl", "tp", "trail", "trail_from", "breakeven", "exit_after", "entry_limit", "entry_stop", "short_entry_limit",
                    "short_entry_stop", "order_bars", "pyramid"] {
            #expect(exits.stdout.contains("\n  \(key) = "), "\(key)")
        }
        let file = try BT.run(["help", "strategy-file"])
        #expect(file.status == 0 && file.stdout.contains("[exits]   sl, tp, trail, trail_from, breakeven, exit_after"))
        let overview = try BT.run(["help"])
        #expect(overview.stdout.contains("  exits  ") && overview.stdout.contains("  strategy-file  "))
        let near = try BT.run(["help", "exit"])
        #expect(near.status == 2 && near.stderr.contains("did you mean 'exits'?"), "\(near.stderr)")
    }
}
