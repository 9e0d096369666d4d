import Testing
import AnalysisTestSupport
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Indicator cache keyed by spec and input")
struct IndicatorCacheTests {
    static let candles = SweepFixtures.candles(300)

    /// Equal, NaN (warm-up) included.
    static func same(_ a: [[Double]], _ b: [[Double]]) -> Bool {
        a.map { $0.map(\.bitPattern) } == b.map { $0.map(\.bitPattern) }
    }

    @Test("one computation per spec and input; the outputs are the spec's")
    func keys() throws {
        let cache = IndicatorCache()
        let c = Self.candles
        let sma = try cache.outputs(IndicatorSpec(.sma, 20), on: c)
        #expect(Self.same(sma, [try Indicators.sma(c.close, period: 20)]))
        #expect(Self.same(try cache.outputs(IndicatorSpec(kind: .sma, parameters: [20]), of: .column(.close), on: c), sma))
        #expect(cache.count == 1)
        let onVolume = try cache.outputs(IndicatorSpec(.sma, 20), of: .column(.volume), on: c)
        #expect(Self.same(onVolume, [try Indicators.sma(c.volume, period: 20)]))
        _ = try cache.outputs(IndicatorSpec(.ema, 20), on: c)
        _ = try cache.outputs(IndicatorSpec(.bb, 20, 2.5), on: c)
        #expect(cache.count == 4)
        let bands = try Indicators.bollinger(c.close, period: 20, k: 2.5)
        #expect(Self.same(try cache.outputs(IndicatorSpec(.bb, 20, 2.5), on: c), [bands.upper, bands.middle, bands.lower]))
        #expect(Self.same(try cache.outputs(IndicatorSpec(.atr), on: c), try IndicatorSpec(.atr).compute(on: c)))
        #expect(IndicatorCache.Key(IndicatorSpec(.atr)).input == .candles)
        #expect(cache.count == 5)
    }

    @Test("a failed computation is not cached, and says why")
    func errors() {
        let cache = IndicatorCache()
        for _ in 0..<2 {
            #expect(throws: InputError("sma: period 400 is longer than the series (300 bars)")) {
                try cache.outputs(IndicatorSpec(.sma, 400), on: Self.candles)
            }
        }
        #expect(cache.count == 0)
    }

    @Test("absurd periods fail the length check instead of trapping")
    func hugePeriods() {
        #expect(throws: InputError.self) { try IndicatorSpec(.rsi, 1e300).compute(on: Self.candles) }
        #expect(throws: InputError.self) { try IndicatorSpec(.macd, 12, 0x1p63, 9).compute(on: Self.candles) }
        #expect(IndicatorSpec.whole(0x1p63) == .max && IndicatorSpec.whole(-1e300) == .min && IndicatorSpec.whole(20.9) == 20)
    }
}
