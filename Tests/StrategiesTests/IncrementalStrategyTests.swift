import Testing
import Backtest
@testable import Strategies
import TestSupport

/// The built-ins one bar at a time (`SignalStream`) equal their whole-series signals at every
/// checked prefix, over random streams with gaps.
@Suite("Built-in strategies one bar at a time")
struct IncrementalStrategyTests {
    static let cases: [(String, [String])] = [
        ("ma-cross", []), ("ma-cross", ["fast=3", "slow=7", "type=ema"]), ("rsi", []), ("rsi", ["period=3", "lower=40", "upper=60"]),
        ("macd", []), ("macd", ["fast=3", "slow=8", "signal=2"]), ("bollinger", []), ("bollinger", ["period=5", "k=0.5"]),
        ("donchian", []), ("donchian", ["period=3"]),
    ]

    @Test func everyBuiltInIsIncremental() {
        for s in Strategy.all { #expect(s.isIncremental, "\(s.name) has no incremental form") }
        #expect(Set(Self.cases.map(\.0)) == Set(Strategy.all.map(\.name)))
    }

    @Test("stream equals the batch at every checked prefix", arguments: 0..<cases.count)
    func streamEqualsBatch(_ index: Int) throws {
        let (name, assignments) = Self.cases[index]
        let strategy = try #require(Strategy.all.first { $0.name == name })
        let parameters = try strategy.parameters(assignments)
        for (seed, gaps) in [(UInt64(31), false), (32, true)] {
            let candles = RandomStream.candles(count: 1_300, seed: seed, gaps: gaps)
            let warm = 60
            var stream = try #require(try SignalStream(strategy, parameters, history: RandomStream.prefix(candles, warm)))
            var fired = 0
            for n in (warm + 1)...candles.count {
                let bar = stream.append(candles[bar: n - 1])
                fired += bar.entry || bar.exit ? 1 : 0
                guard RandomStream.checkpoints(count: candles.count, seed: seed).contains(n) || n % 50 == 0 else { continue }
                let batch = try strategy.signals(RandomStream.prefix(candles, n), parameters)
                #expect(stream.signals == batch, "\(name) \(assignments) at \(n) bars (seed \(seed))")
            }
            #expect(fired > 0, "\(name) never fired: the test would not see a wrong signal")
        }
    }
}
