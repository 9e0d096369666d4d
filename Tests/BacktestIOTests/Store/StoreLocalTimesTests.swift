import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestData

/// The receive times a `bt live` recording keeps beside the exchange's (`local_ns` in the book
/// and trade tables): they are stored and read back; a store written before the column opens
/// and replays unchanged, gains the column in its first write, and keeps it out when that write
/// fails.
@Suite("Store: a recording's local receive times")
struct StoreLocalTimesTests {
    static let t0: Int64 = 1_700_000_000_000

    /// A small market: a snapshot, updates and prints, received `delayNs` after they were made
    /// (nil: imported, no receive time); one update without a receive time in any case.
    static func market(delayNs: Int64?) -> (events: [BookEvent], prints: [TradePrint]) {
        func local(_ ms: Int64) -> Int64? { delayNs.map { (t0 + ms) * 1_000_000 + $0 + ms * 17 } }
        var events = [BookEvent(timeMs: t0, kind: .snapshot, bids: [BookLevel(price: 100, quantity: 5)],
                                asks: [BookLevel(price: 101, quantity: 4)], localNs: local(0))]
        var prints: [TradePrint] = []
        for k in Int64(1)...40 {
            let bid = BookLevel(price: Double(99 + k % 2), quantity: Double(k % 7))
            events.append(BookEvent(timeMs: t0 + k * 25, kind: .update, bids: [bid], asks: [], localNs: k == 20 ? nil : local(k * 25)))
            prints.append(TradePrint(timeMs: t0 + k * 25, price: 101, quantity: 0.5, side: k % 3 == 0 ? .sell : .buy, localNs: local(k * 25 + 1)))
        }
        return (events, prints)
    }

    static func path() -> String { TestSupport.scratchDirectory().appendingPathComponent("rec.sqlite").path }

    static func record(_ store: CandleStore, _ m: (events: [BookEvent], prints: [TradePrint])) throws {
        try store.recordLiveBar(symbol: "REC", bars: CandleSeries(symbol: "REC", timeframe: .minute1), prints: m.prints,
                                events: m.events, journal: nil)
    }

    static func replayed(_ store: CandleStore) throws -> [MarketEvent] {
        var source = try store.replayEvents(symbol: "REC", fromMs: nil, toMs: nil)
        var out: [MarketEvent] = []
        while let e = try source.next() { out.append(e) }
        return out
    }

    @Test("a recording's books and prints keep their receive times (nil where none was given); imported ones read nil")
    func roundTrip() throws {
        let path = Self.path()
        let recorded = Self.market(delayNs: 3_000_000)
        try Self.record(try CandleStore(path: path), recorded)
        let store = try CandleStore(existingAt: path)
        #expect(try store.bookEvents(symbol: "REC") == recorded.events)
        #expect(try store.trades(symbol: "REC") == recorded.prints)
        #expect(try Self.replayed(store) == MarketEvent.merged(trades: recorded.prints, books: recorded.events))
        #expect(recorded.events.compactMap(\.localNs).count == 40 && recorded.prints.allSatisfy { $0.localNs != nil })
        let imported = Self.market(delayNs: nil)
        let other = Self.path()
        try Self.record(try CandleStore(path: other), imported)
        let read = try CandleStore(existingAt: other)
        #expect(try read.bookEvents(symbol: "REC") == imported.events && read.trades(symbol: "REC") == imported.prints)
        // An imported chunk of prints stores no receive times at all (NULL), not a blob of none.
        let nulls = try read.db.integer("SELECT COUNT(*) FROM trades WHERE local_ns IS NULL")
        #expect(nulls == 1)
    }

    @Test("a store written before local_ns opens and replays unchanged; a failed write leaves it without the column; a write adds it")
    func olderStore() throws {
        let path = Self.path()
        let imported = Self.market(delayNs: nil)
        try Self.record(try CandleStore(path: path), imported)
        // The store as a bt before the column wrote it.
        try RawDatabase.execute("ALTER TABLE books DROP COLUMN local_ns; ALTER TABLE trades DROP COLUMN local_ns;", at: path)
        let before = try CandleStore(existingAt: path)
        #expect(try !before.hasColumn(table: "books", column: "local_ns") && !before.hasColumn(table: "trades", column: "local_ns"))
        #expect(try before.bookEvents(symbol: "REC") == imported.events && before.trades(symbol: "REC") == imported.prints)
        #expect(try Self.replayed(before) == MarketEvent.merged(trades: imported.prints, books: imported.events))

        // A write that fails: the column is not added, nothing is written.
        let writer = try CandleStore(writableAt: path)
        struct Interrupted: Error {}
        let later = Self.market(delayNs: 2_000_000)
        let shifted = later.events.map { e -> BookEvent in var e = e; e.timeMs += 10_000; e.localNs = e.localNs.map { $0 + 10_000_000_000 }; return e }
        #expect(throws: Interrupted.self) {
            try writer.transaction {
                try writer.appendBookEvents(symbol: "REC", events: shifted)
                throw Interrupted()
            }
        }
        #expect(try !writer.hasColumn(table: "books", column: "local_ns") && !writer.hasColumn(table: "trades", column: "local_ns"))
        #expect(try writer.bookEvents(symbol: "REC") == imported.events)

        // A write that succeeds adds the column: the older rows read without receive times.
        try writer.recordLiveBar(symbol: "REC", bars: CandleSeries(symbol: "REC", timeframe: .minute1), prints: [], events: shifted, journal: nil)
        #expect(try writer.hasColumn(table: "books", column: "local_ns") && writer.hasColumn(table: "trades", column: "local_ns"))
        #expect(try writer.bookEvents(symbol: "REC") == imported.events + shifted)
        #expect(try writer.trades(symbol: "REC") == imported.prints)
    }
}
