import Testing
import TestSupport
@testable import BacktestCore

/// Recorded latencies interpolated as hftbacktest 2.4.4's `IntpOrderLatency`, by hand: the rows'
/// brackets, before the first and after the last row, truncation toward zero, repeated times,
/// the rows refused; and a replay whose quotes see the interpolated latencies.
@Suite("LatencyTable")
struct LatencyTableTests {
    static func row(_ req: Int64, _ exch: Int64, _ resp: Int64) -> LatencyTable.Row {
        LatencyTable.Row(requestNs: req, exchangeNs: exch, responseNs: resp)
    }

    // Entry latencies 10 and 30, response latencies 20 and 10.
    static let table = LatencyTable(rows: [row(1000, 1010, 1030), row(2000, 2030, 2040)])

    @Test("entry: the first row's before it, linear between request times, the last row's from the last request on")
    func entry() {
        let t = Self.table
        #expect([500, 1000, 1500, 1999, 2000, 5000].map { t.entry(atNs: $0) } == [10, 10, 20, 29, 30, 30])
    }

    @Test("response: between exchange times, truncated toward zero (2029: 20 - 9.99 is 11, not 10)")
    func response() {
        let t = Self.table
        // 20 + (10 - 20) / (2030 - 1010) x (1520 - 1010) = 20 - 5; at 2029: 20 - 9.990.. -> 11.
        #expect([0, 1010, 1520, 2029, 2030, 9000].map { t.response(atNs: $0) } == [20, 20, 15, 11, 10, 10])
    }

    @Test("repeated request times: the last row at or before the time brackets it, as hftbacktest's cursor finds it")
    func repeatedTimes() {
        let t = LatencyTable(rows: [Self.row(1000, 1010, 1010), Self.row(1000, 1050, 1050), Self.row(2000, 2050, 2050)])
        // Rows 2 and 3: entry 50 at 1000 and 50 at 2000.
        #expect(t.entry(atNs: 1000) == 50 && t.entry(atNs: 1500) == 50 && t.entry(atNs: 999) == 10)
    }

    @Test("rows refused, naming the row: none, negative entry or response, request or exchange times going back, before 1970")
    func problems() {
        #expect(LatencyTable.problem([])?.index == nil && LatencyTable.problem([])?.reason == "no latency rows")
        let cases: [([LatencyTable.Row], Int, String)] = [
            ([Self.row(10, 5, 20)], 0, "negative entry latency"),
            ([Self.row(10, 20, 30), Self.row(40, 50, 45)], 1, "negative response latency"),
            ([Self.row(10, 20, 30), Self.row(9, 25, 30)], 1, "req_ts is before the previous row's"),
            ([Self.row(10, 20, 30), Self.row(12, 19, 30)], 1, "exch_ts is before the previous row's"),
            ([Self.row(-1, 0, 0)], 0, "before 1970"),
        ]
        for (rows, index, reason) in cases {
            let p = LatencyTable.problem(rows)
            #expect(p?.index == index && p?.reason.contains(reason) == true, "\(rows): \(String(describing: p))")
        }
        #expect(LatencyTable.problem([Self.row(0, 0, 0), Self.row(0, 0, 0)]) == nil)
    }

    @Test("a replay with a latency table: each quote arrives and is heard after the latencies at its times")
    func replay() throws {
        let ms: Int64 = 1_000_000, t0 = EventReplayTests.t0 * ms
        // Entry 2 ms and response 4 ms at t0; entry 6 ms and response 8 ms from t0 + 100 ms.
        let table = LatencyTable(rows: [Self.row(t0, t0 + 2 * ms, t0 + 6 * ms), Self.row(t0 + 100 * ms, t0 + 106 * ms, t0 + 114 * ms)])
        let settings = try ReplaySettings(everyNs: 10 * ms, quoteSize: 1, maxPosition: 10, latency: ReplayLatency(table: table), lot: 0.001)
        var events = ArrayMarketEvents([EventReplayTests.book, EventReplayTests.trade(50, 100, 5.5, taker: .sell),
                                        EventReplayTests.trade(150, 99, 1, taker: .sell), EventReplayTests.update(200, asks: [(101, 4)])])
        let r = try EventReplay(settings: settings, bidQuote: try QuoteExpression("best_bid", setting: .quoteBid), askQuote: nil).run(&events)
        #expect(r.fills.count == 2)
        let (a, b) = (r.fills[0], r.fills[1])
        // Sent at t0, 2 ms entry; filled at 50 ms past the 5 ahead; response 4 + 4 x 48/104 ms.
        #expect(a.arrivalNs == t0 + 2 * ms && a.entryLatencyNs == 2 * ms && a.exchangeNs == t0 + 50 * ms)
        #expect(a.responseLatencyNs == 5_846_153 && a.localNs == t0 + 50 * ms + 5_846_153)
        // Heard at 55.8 ms: the next step (60 ms) sends a bid with 2 + 4 x 60/100 = 4.4 ms entry;
        // the print through 99 at 150 ms fills it, heard after the last row's 8 ms.
        #expect(b.arrivalNs == t0 + 64_400_000 && b.entryLatencyNs == 4_400_000 && b.queueAhead == 5)
        #expect(b.exchangeNs == t0 + 150 * ms && b.localNs == t0 + 158 * ms && b.responseLatencyNs == 8 * ms)
    }
}
