import Foundation
import Testing
import TestSupport
import Backtest

/// `bt replay` end to end on the committed synthetic market: a case of hftbacktest's goldens
/// through the command line (fills.csv, stats.json, --json), and bad input refused with exit 2
/// naming the option.
@Suite("bt replay")
struct ReplayCommandTests {
    static func store() throws -> String {
        let db = BT.scratchStore()
        let book = try BT.run(["data", "import", "Tests/Fixtures/replay/synthetic_book.jsonl", "--format", "book", "--symbol", "SYN", "--db", db])
        let trades = try BT.run(["data", "import", "Tests/Fixtures/replay/synthetic_trades.jsonl", "--format", "trades",
                                 "--timeframe", "1m", "--symbol", "SYN", "--db", db])
        #expect(book.status == 0 && trades.status == 0, "\(book.stderr)\(trades.stderr)")
        return db
    }

    @Test("golden cases: fills.csv holds hftbacktest's fills (a row per partial piece); --json and stats.json the same snake_case statistics",
          arguments: [4, 8, 12])
    func goldenCase(index: Int) throws {
        let db = try Self.store()
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoFile("Tests/Fixtures/replay/goldens.json")))
        let golden = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(golden["cases"] as? [[String: Any]])
        let c = cases[index]
        let out = BT.scratchDirectory().appendingPathComponent("replay").path
        let r = try BT.run(["replay", "syn", "--db", db, "--quote-bid", try #require(c["quote_bid"] as? String),
                            "--quote-ask", try #require(c["quote_ask"] as? String), "--quote-size", "\(try #require(c["quote_size"] as? Double))",
                            "--max-position", "\(try #require(c["max_position"] as? Double))", "--every", "\(try #require(c["every_ms"] as? Int))ms",
                            "--latency", try #require(c["latency"] as? String), "--maker-bps", "\(try #require(c["maker_bps"] as? Double))",
                            "--queue", try #require(c["queue"] as? String), "--fills", try #require(c["exchange"] as? String), "--out", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        #expect(abs((j["pnl"] as? Double ?? .nan) - (try #require(c["pnl"] as? Double))) <= 1e-9)
        #expect(abs((j["final_position"] as? Double ?? .nan) - (try #require(c["final_position"] as? Double))) <= 1e-9 && j["lot"] as? Double == 0.001)
        #expect(j["fills_model"] as? String == c["exchange"] as? String)
        #expect(j["fills"] as? Int == (c["fills"] as? [Any])?.count && j["maker_share"] as? Double == 1)
        let stats = try RunCommandTests.json(try String(contentsOfFile: out + "/stats.json", encoding: .utf8))
        #expect(stats["pnl"] as? Double == j["pnl"] as? Double && stats["turnover"] as? Double == j["turnover"] as? Double)

        let csv = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(csv[0] == ["local_time", "exchange_time", "side", "price", "quantity", "liquidity", "queue_ahead",
                           "entry_latency_ms", "response_latency_ms", "fee", "order_id"])
        let rows = csv.dropFirst().map { f in
            ["\(UTCTime.parseISO(Substring(f[1]))! * 1000 + Int64(f[1].dropFirst(20).prefix(3))!)", f[2], f[3], f[4], f[10]]
        }
        let name = try #require(c["name"] as? String)
        let want = try #require(try ReplayGoldenFill.byCase(data)[name]).map { f in
            ["\(f.exchangeNs / 1_000_000)", f.side, NumberText.shortest(f.price), NumberText.shortest(f.quantity), "\(f.orderID)"]
        }
        #expect(rows.sorted { $0.lexicographicallyPrecedes($1) } == want.sorted { $0.lexicographicallyPrecedes($1) })
        // The latencies and a local time the response latency after the exchange's.
        #expect(csv[1][5] == "maker" && csv[1][7] == (index == 12 ? "5" : "1") && csv[1][8] == (index == 12 ? "5" : "3"))
    }

    @Test("bad input exits 2 naming the option", arguments: [
        (["--from", "2030-01-01"], "no recorded depth"),
        (["--every", "0"], "--every"),
        (["--latency", "-1ms"], "--latency"),
        (["--latency", "5ms,x"], "--latency"),
        (["--quote-size", "0.0001"], "--quote-size"),
        (["--queue", "prob:0"], "--queue"),
        (["--queue", "fifo"], "--queue"),
        (["--fills", "all"], "--fills"),
        (["--quote-bid", "best_bidd"], "did you mean 'best_bid'"),
        (["--quote-bid", "atr(14)"], "atr reads candles"),
        (["--quote-bid", "ema(mid, spread)"], "n of ema must be a fixed number"),
    ])
    func badInput(extra: [String], message: String) throws {
        let db = try Self.store()
        var args = ["replay", "SYN", "--db", db, "--quote-bid", "best_bid", "--quote-size", "1", "--max-position", "2"]
        for k in stride(from: 0, to: extra.count, by: 2) {
            if let i = args.firstIndex(of: extra[k]) { args[i + 1] = extra[k + 1] } else { args += [extra[k], extra[k + 1]] }
        }
        let r = try BT.run(args)
        #expect(r.status == 2 && r.stderr.contains(message), "\(args): \(r.status) \(r.stderr)")
    }

    @Test("series functions over the step-sampled book: ema(mid, n) quotes once its warm-up is over")
    func seriesFunctions() throws {
        let db = try Self.store()
        func replay(_ n: Int) throws -> [String: Any] {
            let r = try BT.run(["replay", "SYN", "--db", db, "--quote-bid", "ema(mid, \(n)) - 1", "--quote-ask", "ema(mid, \(n)) + 1",
                                "--quote-size", "1", "--max-position", "3", "--every", "50ms", "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            return try RunCommandTests.json(r.stdout)
        }
        let short = try replay(5)
        let steps = try #require(short["steps"] as? Int)
        #expect((short["orders_sent"] as? Int ?? 0) > 0 && (short["fills"] as? Int ?? 0) > 0)
        // A period longer than the replay's steps never leaves its warm-up: nothing is sent.
        let long = try replay(steps + 1)
        #expect(long["orders_sent"] as? Int == 0 && long["steps"] as? Int == steps)
    }

    @Test("quotes without --max-position, or no quote at all, exit 2; so does a symbol without a book")
    func missingSettings() throws {
        let db = try Self.store()
        let noMax = try BT.run(["replay", "SYN", "--db", db, "--quote-bid", "best_bid", "--quote-size", "1"])
        #expect(noMax.status == 2 && noMax.stderr.contains("--max-position"), "\(noMax.stderr)")
        let noQuote = try BT.run(["replay", "SYN", "--db", db, "--quote-size", "1", "--max-position", "1"])
        #expect(noQuote.status == 2 && noQuote.stderr.contains("--quote-bid"), "\(noQuote.stderr)")
        let noBook = try BT.run(["replay", "SYNN", "--db", db, "--quote-bid", "best_bid", "--quote-size", "1", "--max-position", "1"])
        #expect(noBook.status == 2 && noBook.stderr.contains("did you mean SYN"), "\(noBook.stderr)")
    }
}
