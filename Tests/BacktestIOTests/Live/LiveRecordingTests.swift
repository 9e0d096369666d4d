import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestData

/// What `bt live` writes at each close: bars that follow the stored series are appended to it
/// (its last chunk, then new ones) without reading the rest, and load back exactly as a merge
/// would have stored them; bars that do not follow it are merged as before.
@Suite("Live recording: bars appended to the stored series")
struct LiveRecordingTests {
    static func bars(from start: Int64, count: Int, seed: UInt64, symbol: String = "LIVE") -> CandleSeries {
        var rng = SplitMix64(seed: seed)
        var s = CandleSeries(symbol: symbol, timeframe: .minute1)
        var price = 100.0
        for k in 0..<count {
            let o = price
            price = max(1, price * (1 + (rng.unit() - 0.5) / 100))
            s.append(time: start + Int64(k) * 60, open: o, high: max(o, price) + 0.05, low: min(o, price) - 0.05, close: price,
                     volume: 1 + rng.unit() * 10)
        }
        return s
    }

    static func chunkSizes(_ store: CandleStore, _ symbol: String) throws -> [Int] {
        let q = try store.db.prepare("SELECT length(time) / 8 FROM chunks WHERE symbol = ?1 ORDER BY start")
        q.bind(1, symbol)
        var out: [Int] = []
        while try q.step() { out.append(Int(q.int64(0))) }
        return out
    }

    @Test("bars recorded one close at a time load back as the history merged with them")
    func appendedBarsLoadBack() throws {
        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("live.sqlite").path)
        let start: Int64 = 1_710_000_000 / 60 * 60
        let history = Self.bars(from: start - 700 * 60, count: 700, seed: 1)
        try store.transaction { _ = try store.merge([ImportedFile(file: "h", format: nil, symbol: "LIVE", content: .candles(history))]) }
        let session = Self.bars(from: start, count: 1_500, seed: 2)
        var expected = history
        for k in 0..<session.count {
            let bar = session.slice(k..<(k + 1))
            // Now and then two bars at once (a backfill after a reconnect), and a minute skipped.
            guard k % 97 != 1 else { continue }
            let batch = k % 97 == 2 ? session.slice((k - 1)..<(k + 1)) : bar
            #expect(try store.transaction { try store.appendBars(batch) }, "bar \(k)")
            for i in 0..<batch.count {
                expected.append(time: batch.time[i], open: batch.open[i], high: batch.high[i], low: batch.low[i], close: batch.close[i],
                                volume: batch.volume[i])
            }
        }
        #expect(try store.loadStored(symbol: "LIVE", timeframeKey: "1m") == expected)
        let sizes = try Self.chunkSizes(store, "LIVE")
        #expect(sizes.reduce(0, +) == expected.count)
        #expect(sizes.allSatisfy { $0 <= CandleStore.liveChunkBars } && sizes.count == 3, "\(sizes)")
        let listed = try store.list().first { $0.symbol == "LIVE" }
        #expect(listed?.bars == expected.count && listed?.last == expected.time.last)
    }

    @Test("bars that do not simply follow the stored series are merged, as an import merges them")
    func barsThatDoNotFollowAreMerged() throws {
        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("live.sqlite").path)
        let start: Int64 = 1_710_000_000 / 60 * 60
        let history = Self.bars(from: start, count: 200, seed: 3)
        try store.transaction { _ = try store.merge([ImportedFile(file: "h", format: nil, symbol: "LIVE", content: .candles(history))]) }
        // A replaced bar (the exchange's kline for a bar built from incomplete trades), and a
        // bar inside the last stored bar's minute.
        var replaced = history.slice(199..<200)
        replaced.close[0] = replaced.open[0]
        #expect(try !store.transaction { try store.appendBars(replaced) })
        var inside = Self.bars(from: history.time[199] + 30, count: 1, seed: 4)
        inside.timeframe = .minute1
        #expect(try !store.transaction { try store.appendBars(inside) })
        #expect(try !store.transaction { try store.appendBars(Self.bars(from: start, count: 1, seed: 5, symbol: "NEW")) })
        try store.recordLiveBar(symbol: "LIVE", bars: replaced, prints: [], events: [], journal: nil)
        var expected = history
        expected.close[199] = replaced.close[0]
        #expect(try store.loadStored(symbol: "LIVE", timeframeKey: "1m") == expected)
        // A new symbol's first bar is stored by the merge too.
        try store.recordLiveBar(symbol: "NEW", bars: Self.bars(from: start, count: 1, seed: 5, symbol: "NEW"), prints: [], events: [],
                                journal: nil)
        #expect(try store.loadStored(symbol: "NEW", timeframeKey: "1m").count == 1)
    }
}
