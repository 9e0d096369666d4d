import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// `--latency feed:M,C`: the rows made from a recording's feed latency equal hftbacktest
/// 2.4.4's `generate_order_latency` on the same feed (`Tests/Fixtures/replay/
/// make_feed_goldens.py`); bad text and a feed without receive times are refused.
@Suite("FeedLatency")
struct FeedLatencyTests {
    static func golden() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoFile("Tests/Fixtures/replay/feed_latency_goldens.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The golden feed as bt's events (empty depth messages: only their times matter).
    static func events(_ golden: [String: Any]) throws -> [MarketEvent] {
        try #require(golden["events"] as? [[Any]]).map { row in
            .book(BookEvent(timeMs: Int64(row[0] as! Int), kind: .update, bids: [], asks: [], localNs: (row[1] as? Int).map(Int64.init)))
        }
    }

    @Test("the rows equal hftbacktest's generate_order_latency: same seconds and request times, exchange and response times within 512 ns")
    func hftbacktestGolden() throws {
        let golden = try Self.golden()
        let events = try Self.events(golden)
        let cases = try #require(golden["cases"] as? [[String: Any]])
        #expect(cases.count == 4)
        for c in cases {
            let feed = try FeedLatency(multiplier: try #require(c["multiplier"] as? Double), offsetNs: Int64(try #require(c["offset_ns"] as? Int)))
            var source = ArrayMarketEvents(events)
            let rows = try feed.rows(of: &source)
            let want = try #require(c["rows"] as? [[Int]])
            #expect(rows.count == want.count && rows.count > 50)
            for (got, w) in zip(rows, want) {
                #expect(got.requestNs == Int64(w[0]))
                #expect(abs(got.exchangeNs - Int64(w[1])) <= 512 && abs(got.responseNs - Int64(w[2])) <= 512, "\(got) \(w)")
            }
        }
    }

    @Test("feed:M,C parses M (at least 0) and C (a duration)", arguments: [
        ("feed:1,2ms", 1.0, Int64(2_000_000)), ("feed:0.5,0", 0.5, 0), (" feed:2,250us ", 2, 250_000), ("feed:0,1s", 0, 1_000_000_000),
    ])
    func parses(text: String, multiplier: Double, offsetNs: Int64) throws {
        let f = try FeedLatency(parsing: text)
        #expect(FeedLatency.isFeed(text) && f.multiplier == multiplier && f.offsetNs == offsetNs)
    }

    @Test("bad feed:M,C text is refused, naming --latency", arguments: [
        "feed:-1,2ms", "feed:1,-2ms", "feed:1", "feed:", "feed:x,2ms", "feed:1,2", "feed:1,2ms,3ms", "feed:nan,1ms", "feed:inf,0", "feed:,2ms",
    ])
    func refused(text: String) throws {
        let e = try #require(throws: InputError.self) { try FeedLatency(parsing: text) }
        #expect(e.setting == .latency, "\(e)")
    }

    @Test("events without receive times (imported) are refused with the reason; events without one in a recording are left out")
    func needsReceiveTimes() throws {
        let feed = try FeedLatency(parsing: "feed:1,1ms")
        var imported = ArrayMarketEvents([EventReplayTests.book, EventReplayTests.update(5, bids: [(100, 1)])])
        let e = try #require(throws: InputError.self) { try feed.table(of: &imported) }
        #expect("\(e)".contains("bt live") && "\(e)".contains("imported") && e.setting == .latency, "\(e)")
        let t = EventReplayTests.t0
        var mixed = ArrayMarketEvents([
            .book(BookEvent(timeMs: t, kind: .snapshot, bids: [], asks: [], localNs: t * 1_000_000 + 3_000_000)),
            .book(BookEvent(timeMs: t + 10, kind: .update, bids: [], asks: [])),
        ])
        let table = try feed.table(of: &mixed)
        #expect(table.rows == [LatencyTable.Row(requestNs: t * 1_000_000 + 3_000_000, exchangeNs: t * 1_000_000 + 7_000_000,
                                                responseNs: t * 1_000_000 + 11_000_000)])
    }

    @Test("a latency that falls faster than time passes between two rows cannot be interpolated: refused with the reason")
    func fallingLatency() throws {
        let t = EventReplayTests.t0
        // A 900 ms feed latency, then 1 ms a second later: with M = 2 the second row's exchange time is earlier.
        var events = ArrayMarketEvents([
            .book(BookEvent(timeMs: t, kind: .update, bids: [], asks: [], localNs: (t + 900) * 1_000_000)),
            .book(BookEvent(timeMs: t + 1000, kind: .update, bids: [], asks: [], localNs: (t + 1001) * 1_000_000)),
        ])
        let e = try #require(throws: InputError.self) { try FeedLatency(parsing: "feed:2,0").table(of: &events) }
        #expect("\(e)".contains("out of time order"), "\(e)")
    }

    @Test("a replay with feed:M,C equals the replay with a latency table of the same rows, and differs from a constant latency")
    func equalsTable() throws {
        let events = LocalTimeReplayTests.recording(seed: 9)
        let feed = try FeedLatency(parsing: "feed:1.5,2ms")
        var source = ArrayMarketEvents(events)
        let table = try feed.table(of: &source)
        func replay(_ latency: ReplayLatency) throws -> ReplayResult {
            let settings = try ReplaySettings(everyNs: 7_000_000, quoteSize: 1, maxPosition: 10, latency: latency, lot: 0.001)
            var s = ArrayMarketEvents(events)
            return try EventReplay(settings: settings, bidQuote: try QuoteExpression("best_bid", setting: .quoteBid),
                                   askQuote: try QuoteExpression("best_ask", setting: .quoteAsk)).run(&s)
        }
        let withFeed = try replay(ReplayLatency(feed: feed, table: table))
        let withFile = try replay(ReplayLatency(table: LatencyTable(rows: table.rows)))
        let constant = try replay(ReplayLatency(entryNs: 2_000_000, responseNs: 2_000_000))
        #expect(withFeed.fills.count > 20 && withFeed.fills == withFile.fills)
        #expect(withFeed.fills != constant.fills)
        // Each fill's latencies are 1.5 x a feed latency of 0 to 150 ms, + 2 ms.
        #expect(withFeed.fills.allSatisfy { $0.entryLatencyNs >= 2_000_000 && $0.entryLatencyNs <= 227_000_000 })
    }
}
