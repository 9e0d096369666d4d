import Backtest
import Foundation

/// Signals plus one engine run of a strategy on synthetic 1m bars, at depth none and synthetic,
/// with the orders benches' exits and limit entries (`BenchWorkloads.ordersConfig`), and as a
/// leveraged perpetual paying funding (`BenchWorkloads.perpConfig`), for `bt bench engine`.
package enum EngineBenchmark {
    package struct Figure: Sendable {
        /// Best of the runs, in seconds.
        package var seconds: Double
        package var fills: Int
    }

    package struct Result: Sendable {
        package var none: Figure
        package var synthetic: Figure
        /// Depth none with limit entries and every exit kind.
        package var orders: Figure
        /// A 10x perpetual with funding every 8 hours (`BenchWorkloads.perpConfig`).
        package var perp: Figure
    }

    /// The best of `repeats` runs of `strategy`'s signals and the engine over `bars` synthetic
    /// 1m bars (seed 1) at each depth; generating the bars is not timed.
    package static func run(_ strategy: Strategy, bars: Int, repeats: Int) throws -> Result {
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1)
        let parameters = try strategy.parameters([])
        func best(_ config: ExecutionConfig) throws -> Figure {
            var best = Double.infinity, fills = 0
            for _ in 0..<repeats {
                let start = DispatchTime.now().uptimeNanoseconds
                let result = try Engine.run(Engine.Request(candles, signals: try strategy.signals(candles, parameters), config: config))
                best = min(best, BenchWorkloads.seconds(since: start))
                fills = result.fills.count
            }
            return Figure(seconds: best, fills: fills)
        }
        let none = try best(BenchWorkloads.engineConfig(.none, candles: candles))
        let synthetic = try best(BenchWorkloads.engineConfig(.synthetic, candles: candles))
        return Result(none: none, synthetic: synthetic, orders: try best(BenchWorkloads.ordersConfig(candles: candles)),
                      perp: try best(BenchWorkloads.perpConfig(candles: candles)))
    }
}
