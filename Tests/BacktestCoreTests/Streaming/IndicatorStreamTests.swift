import Testing
@testable import BacktestCore
import TestSupport

/// `IndicatorStream` against the batch indicators, bit for bit: the stream's outputs at each bar
/// equal `IndicatorSpec.compute` over the bars up to it (at its last index) and over the whole
/// series (the batch kernels are prefix-stable), for every indicator over random streams.
@Suite("Streaming indicators equal the batch, bit for bit")
struct IndicatorStreamTests {
    static let specs: [String] = [
        "sma:1", "sma:5", "sma:20", "ema:1", "ema:3", "ema:14", "wma:1", "wma:9", "rsi:1", "rsi:2", "rsi:14",
        "macd:12,26,9", "macd:2,3,1", "macd:5,13,4", "bb:20,2", "bb:5,0", "bb:1,1.5", "atr:1", "atr:5", "atr:14",
        "stoch:14,3,3", "stoch:5,1,1", "stoch:3,4,2", "roc:1", "roc:10", "obv", "willr:1", "willr:14", "cci:1", "cci:7",
        "cci:20", "adx:1", "adx:2", "adx:14", "stddev:1", "stddev:20", "donchian:1", "donchian:20", "vwap:1", "vwap:20",
    ]

    /// Every kind is covered.
    @Test func coversEveryIndicator() throws {
        let kinds = Set(try Self.specs.map { try IndicatorSpec(parsing: $0).kind })
        #expect(kinds == Set(IndicatorSpec.Kind.allCases))
    }

    @Test("stream equals the batch at every prefix", arguments: specs)
    func streamEqualsBatch(_ text: String) throws {
        let spec = try IndicatorSpec(parsing: text)
        for (seed, count, gaps) in [(UInt64(1), 1300, false), (2, 400, true), (3, 90, true)] {
            // A seed per spec (the sum of its bytes: stable across runs, unlike `hashValue`).
            let salt = text.utf8.reduce(UInt64(0)) { $0 &+ UInt64($1) }
            let candles = RandomStream.candles(count: count, seed: seed &+ salt, gaps: gaps)
            var stream = try IndicatorStream(spec)
            var streamed: [IndicatorValues] = []
            for i in 0..<candles.count { streamed.append(stream.next(candles[bar: i])) }
            for n in RandomStream.checkpoints(count: count, seed: seed) {
                let prefix = RandomStream.prefix(candles, n)
                guard let batch = try? spec.compute(on: prefix) else {
                    // The batch refuses a series shorter than a period; the stream has no value yet.
                    for k in 0..<streamed[n - 1].count { #expect(streamed[n - 1][k].isNaN, "\(text) n=\(n)") }
                    continue
                }
                for k in batch.indices {
                    let ok = sameBits(batch[k][n - 1], streamed[n - 1][k])
                    #expect(ok, "\(text) output \(k) at bar \(n - 1) of \(n) (seed \(seed)): batch \(batch[k][n - 1]), stream \(streamed[n - 1][k])")
                    if !ok { return }
                }
            }
            // The whole series: every bar (prefix stability of the batch).
            if let whole = try? spec.compute(on: candles) {
                for k in whole.indices {
                    let bad = (0..<count).first { !sameBits(whole[k][$0], streamed[$0][k]) }
                    #expect(bad == nil, "\(text) output \(k) differs first at bar \(bad ?? -1) of the whole series (seed \(seed))")
                }
            }
        }
    }

    /// One-series indicators fed values directly (an expression's series) equal `compute(series:)`.
    @Test func oneSeriesInput() throws {
        var g = SplitMix64(seed: 9)
        let x = (0..<600).map { i -> Double in i % 97 == 50 ? .nan : (g.unit() - 0.5) * (i % 200 < 20 ? 0 : 10) }
        for text in Self.specs {
            let spec = try IndicatorSpec(parsing: text)
            guard spec.kind.readsOneSeries else { continue }
            var stream = try IndicatorStream(spec)
            let streamed = x.map { stream.next($0) }
            let batch = try spec.compute(series: x)
            for k in batch.indices {
                let bad = x.indices.first { !sameBits(batch[k][$0], streamed[$0][k]) }
                #expect(bad == nil, "\(text) output \(k) differs first at \(bad ?? -1)")
            }
        }
    }
}
