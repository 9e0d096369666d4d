import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// `CandleSeries.inferredTick` on prices as quoted by stocks, FX, crypto and sub-cent tokens,
/// down to 1e-8 (a sub-cent price gets its own tick, not a cent's), and over every price of the
/// series.
@Suite("Tick inference: relative to each price, over the whole series")
struct TickInferenceTests {
    struct Quote: CustomTestStringConvertible, Sendable {
        var name: String
        /// Prices are `k / 10^decimals` for integers `k` in this range, written as decimal text
        /// and parsed as an importer parses them.
        var units: ClosedRange<Int64>
        var decimals: Int
        var tick: Double?
        var testDescription: String { name }
    }

    static let quotes: [Quote] = [
        Quote(name: "SHIB/USDT near 0.00001234", units: 1_000...2_000, decimals: 8, tick: 1e-8),
        Quote(name: "a sub-cent token at 6 decimals", units: 1_000...9_999, decimals: 6, tick: 1e-6),
        Quote(name: "a sub-cent token at 4 decimals", units: 10...99, decimals: 4, tick: 1e-4),
        Quote(name: "below 1e-8 a tick: none fits", units: 100...999, decimals: 10, tick: nil),
        Quote(name: "a stock in cents", units: 1_000...99_999, decimals: 2, tick: 0.01),
        Quote(name: "EUR/USD at 5 digits", units: 100_000...160_000, decimals: 5, tick: 1e-5),
        Quote(name: "USD/JPY at 3 digits", units: 100_000...160_000, decimals: 3, tick: 1e-3),
        Quote(name: "BTC/USDT at 8 decimals", units: 4_000_000_000_000...4_500_000_000_000, decimals: 8, tick: 1e-8),
        Quote(name: "BTC/USD in whole dollars", units: 70_000...80_000, decimals: 0, tick: 1),
    ]

    /// `k / 10^decimals` as decimal text (`1234, 8` is "0.00001234").
    static func decimalText(_ k: Int64, decimals: Int) -> String {
        guard decimals > 0 else { return String(k) }
        let digits = String(repeating: "0", count: max(0, decimals + 1 - String(k).count)) + String(k)
        return digits.dropLast(decimals) + "." + digits.suffix(decimals)
    }

    /// Random bars of `q`'s prices, each parsed from its decimal text.
    static func series(_ q: Quote, bars: Int = 300, seed: UInt64 = 11) -> CandleSeries {
        var rng = SplitMix64(seed: seed)
        func price() -> Double { Double(decimalText(Int64.random(in: q.units, using: &rng), decimals: q.decimals))! }
        var s = CandleSeries(symbol: "Q", timeframe: .hour1)
        for i in 0..<bars {
            let a = price(), b = price(), c = price(), d = price()
            s.append(time: 1_700_000_000 + Int64(i) * 3600, open: a, high: max(a, b, c, d), low: min(a, b, c, d), close: d, volume: 1)
        }
        return s
    }

    @Test("each market's tick is found", arguments: quotes)
    func markets(_ q: Quote) {
        #expect(Self.decimalText(1234, decimals: 8) == "0.00001234" && Self.decimalText(123_456, decimals: 2) == "1234.56")
        #expect(Self.series(q).inferredTick == q.tick)
    }

    @Test("one finer price anywhere in the series sets the tick for all of it")
    func wholeSeries() {
        var s = Self.series(Self.quotes[4])
        #expect(s.inferredTick == 0.01)
        s.close[s.count - 1] += 0.001
        #expect(s.inferredTick == 0.001)
    }

    @Test("a nonzero price is never a multiple of a tick larger than itself; zero is a multiple of all")
    func noTickAbovePrice() {
        for x in [1e-12, 1.234e-5, 0.009999, 0.5, 9_999.5] {
            #expect(!CandleSeries.isMultiple(x, of: 10_000), "\(x)")
            #expect(!CandleSeries.isMultiple(-x, of: 10_000), "\(-x)")
        }
        #expect(CandleSeries.isMultiple(0, of: 10_000))
        #expect(EngineTest.candles([(0, 0, 0, 0, 1)]).inferredTick == nil)
    }

    @Test("the block test of a column answers as isMultiple does for every value")
    func blockTestEqualsScalar() {
        var rng = SplitMix64(seed: 7)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let ticks = (-8...4).map { pow(10.0, Double($0)) }
        for round in 0..<4_000 {
            let tick = ticks[round % ticks.count]
            // Multiples, multiples nudged by a few ulps or a millionth of the tick, exact
            // half-ticks (ties), huge quotients, negatives, zeros and non-finite values.
            var values: [Double] = []
            for _ in 0..<(1 + Int(unit() * 600)) {
                let k = (unit() * 2e6).rounded() * (unit() < 0.1 ? -1 : 1)
                var x = k * tick
                switch Int(unit() * 10) {
                case 0: x = x.nextUp.nextUp
                case 1: x += tick * 1e-6 * (unit() < 0.5 ? 0.999 : 1.001)
                case 2: x = (k + 0.5) * tick
                case 3: x = unit() * 1e12 + 0.5 * tick
                case 4: x = 0
                case 5 where unit() < 0.05: x = [Double.nan, .infinity, -.infinity][Int(unit() * 3)]
                default: break
                }
                values.append(x)
            }
            let expected = values.allSatisfy { CandleSeries.isMultiple($0, of: tick) }
            #expect(CandleSeries.allMultiples(values, of: tick) == expected, "tick \(tick): \(values)")
            let multiples = values.map { ($0 / tick).rounded() * tick }.filter(\.isFinite)
            #expect(CandleSeries.allMultiples(multiples, of: tick) == multiples.allSatisfy { CandleSeries.isMultiple($0, of: tick) })
        }
        // Exact half-tick quotients near 5e13 ticks, where the tolerance (1e-14 of the price) sits
        // between the two neighbours' distances: rounding the tie to even would answer otherwise.
        for (x, decimals) in [(500_476.321_278_465_04, 8), (496_323_572.209_055_07, 5), (49_938_048_457.381_5, 3)] {
            let tick = 1 / pow(10.0, Double(decimals))
            #expect(CandleSeries.allMultiples([Double](repeating: x, count: 8), of: tick) == CandleSeries.isMultiple(x, of: tick), "\(x)")
        }
    }

    @Test("the shipped data keeps its ticks")
    func shipped() throws {
        #expect(try ShippedData.goog().inferredTick == 0.01)
        #expect(try ShippedData.eurusd().inferredTick == 1e-5)
    }
}
