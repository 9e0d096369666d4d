import BacktestAnalysis
import BacktestCore
import Foundation

/// Candles and a sweep evaluator shared by the analysis and report tests.
package enum SweepFixtures {
    /// A deterministic walk with enough swings for crossings.
    package static func candles(_ n: Int = 600) -> CandleSeries {
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        var price = 100.0
        for i in 0..<n {
            let next = price * (1 + 0.02 * sin(Double(i) / 9) + 0.004 * cos(Double(i) * 1.7))
            s.append(time: Int64(i) * 86_400, open: price, high: max(price, next) * 1.004,
                     low: min(price, next) * 0.996, close: next, volume: 1_000_000)
            price = next
        }
        return s
    }

    /// Crossing of two SMAs whose windows come from `windows[combo]`, counting indicator work.
    package final class Counter: @unchecked Sendable {
        let lock = NSLock()
        package private(set) var computed = 0
        package init() {}
        package func hit() { lock.lock(); computed += 1; lock.unlock() }
    }

    package static func evaluator(_ windows: [(Int, Int)], counter: Counter, failing: Set<Int> = []) -> SweepEvaluator {
        var config = ExecutionConfig()
        config.depth = .none
        return SweepEvaluator(config: config, periodsPerYear: 252) { candles, cache, combo in
            if failing.contains(combo) { throw InputError("combination \(combo) cannot run") }
            let (f, s) = windows[combo]
            func sma(_ n: Int) throws -> [Double] {
                try cache.outputs(.init(IndicatorSpec(.sma, Double(n)))) { counter.hit(); return [try Indicators.sma(candles.close, period: n)] }[0]
            }
            let fast = try sma(f), slow = try sma(s)
            var entries = [Bool](repeating: false, count: candles.count), exits = entries
            for t in 1..<candles.count where !slow[t - 1].isNaN {
                entries[t] = fast[t] > slow[t] && fast[t - 1] <= slow[t - 1]
                exits[t] = fast[t] < slow[t] && fast[t - 1] >= slow[t - 1]
            }
            return Signals(entries: entries, exits: exits)
        }
    }
}
