import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("Store merge semantics")
struct StoreMergeTests {
    static let header = "date,open,high,low,close,volume\n"

    func scratchStore() throws -> (CandleStore, String, URL) {
        let dir = TestSupport.scratchDirectory()
        let db = dir.appendingPathComponent("store.sqlite").path
        return (try CandleStore(path: db), db, dir)
    }

    @Test("re-importing the same file changes nothing, byte for byte")
    func idempotent() throws {
        let (store, db, _) = try scratchStore()
        try TestSupport.importFiles([TestSupport.repoFile("data/GOOG.csv")], into: store)
        try store.checkpoint()
        let before = TestSupport.storeBytes(db)
        let again = try TestSupport.importFiles([TestSupport.repoFile("data/GOOG.csv")], into: store)
        #expect(again[0].added == 0 && again[0].updated == 0 && again[0].unchanged == 2148)
        try store.checkpoint()
        #expect(TestSupport.storeBytes(db) == before)
    }

    @Test("readers keep working while an import holds the write transaction (WAL)")
    func concurrentReader() throws {
        let (writer, db, _) = try scratchStore()
        try TestSupport.importFiles([TestSupport.repoFile("data/GOOG.csv")], into: writer)
        do {
            let mode = try writer.db.prepare("PRAGMA journal_mode")
            #expect(try mode.step() && mode.string(0) == "wal")
        }
        let reader = try CandleStore(existingAt: db)
        let before = try reader.load(symbol: "GOOG")
        try writer.transaction {
            var changed = before
            changed.close[0] += 1
            try writer.replace(changed, timeframeKey: "1d")
            // Mid-transaction: another connection reads the committed state, without waiting.
            let seen = try reader.load(symbol: "GOOG")
            #expect(seen == before)
        }
        #expect(try reader.load(symbol: "GOOG").close[0] == before.close[0] + 1)
    }

    @Test("an overlapping newer file updates the overlap and appends the rest")
    func overlapUpdate() throws {
        let (store, _, dir) = try scratchStore()
        let old = TestSupport.write(Self.header + "2024-01-01,1,2,0.5,1.5,10\n2024-01-02,1.5,2,1,1.8,11\n2024-01-03,1.8,2.2,1.7,2,12\n", named: "x.csv", in: dir)
        try TestSupport.importFiles([old], into: store)
        let newerDir = TestSupport.scratchDirectory()
        let newer = TestSupport.write(Self.header + "2024-01-03,1.8,2.3,1.7,2.1,15\n2024-01-04,2.1,2.5,2,2.4,13\n2024-01-05,2.4,2.6,2.2,2.5,14\n", named: "x.csv", in: newerDir)
        let report = try TestSupport.importFiles([newer], into: store)
        #expect(report[0].added == 2 && report[0].updated == 1 && report[0].unchanged == 0)
        let s = try store.load(symbol: "X")
        #expect(s.count == 5)
        #expect(s.close == [1.5, 1.8, 2.1, 2.4, 2.5])
        #expect(s.high[2] == 2.3 && s.volume[2] == 15)
        #expect(try store.list()[0].first == UTCTime.epoch(year: 2024, month: 1, day: 1))
        #expect(try store.list()[0].last == UTCTime.epoch(year: 2024, month: 1, day: 5))
    }

    @Test("several files for one symbol in one import: later files win, one series")
    func severalFiles() throws {
        let (store, _, dir) = try scratchStore()
        let a = TestSupport.write(Self.header + "2024-01-01,1,2,0.5,1.5,10\n2024-01-02,1.5,2,1,1.8,11\n", named: "a.csv", in: dir)
        let b = TestSupport.write(Self.header + "2024-01-02,1.5,2,1,1.9,11\n2024-01-03,1.9,2,1,1.95,11\n", named: "b.csv", in: dir)
        let reports = try TestSupport.importFiles([a, b], into: store, options: ImportOptions(symbol: "AB"))
        #expect(reports.map(\.added) == [2, 1])
        #expect(reports.map(\.updated) == [0, 1])
        #expect(try store.load(symbol: "AB").close == [1.5, 1.9, 1.95])
    }

    @Test("a large series spanning several chunks loads back exactly")
    func chunks() throws {
        let (store, _, _) = try scratchStore()
        let series = Synth.series(symbol: "BIG", bars: CandleStore.chunkSize * 2 + 17, seed: 3, timeframe: .minute1)
        try store.write([ImportedFile(file: "-", format: .csv, symbol: "BIG", content: .candles(series))])
        let back = try store.load(symbol: "BIG")
        #expect(back == series)
    }

    @Test("load prefers the finest stored timeframe and resamples on request")
    func loadTimeframes() throws {
        let (store, _, _) = try scratchStore()
        try TestSupport.importFiles([TestSupport.repoFile("data/EURUSD.csv")], into: store)
        #expect(try store.load(symbol: "EURUSD").timeframe == .hour1)
        let daily = try store.load(symbol: "EURUSD", timeframe: .day1)
        #expect(daily.timeframe == .day1)
        #expect(UTCTime.iso(daily.time[0]) == "2017-04-19T00:00:00Z")
        #expect(throws: InputError.self) { try store.load(symbol: "EURUSD", timeframe: .minute5) }
    }
}
