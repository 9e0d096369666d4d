import Backtest
import Foundation

/// Timing of the candlestick chart, for `bt bench chart`.
package enum ChartBenchmark {
    package struct Result: Sendable {
        package var candles: Int
        package var size: ChartSize
        package var runs: Int
        /// Milliseconds per render.
        package var median: Double
        package var best: Double
    }

    /// Renders `count` deterministic random-walk candles with one SMA overlay at `size`, `runs`
    /// times (after one warm-up render), colour off.
    package static func run(count: Int = 10_000, size: ChartSize = ChartSize(width: 120, height: 40), runs: Int = 50) throws -> Result {
        precondition(count > 0 && runs > 0, "count and runs must be positive")
        let rng = GSL.Random(seed: 2024)
        var s = CandleSeries(symbol: "BENCH", timeframe: .minute1)
        s.reserveCapacity(count)
        var price = 100.0
        for i in 0..<count {
            let open = price
            price *= 1 + rng.gaussian(sigma: 0.002)
            s.append(time: 1_700_000_000 + Int64(i) * 60, open: open, high: max(open, price) * 1.001,
                     low: min(open, price) * 0.999, close: price, volume: 100 + rng.uniform() * 50)
        }
        let overlay = CandleChart.Overlay(name: "sma_20", values: try Indicators.sma(s.close, period: 20))
        _ = try CandleChart.render(s, overlays: [overlay], size: size)
        var times = [Double]()
        for _ in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            _ = try CandleChart.render(s, overlays: [overlay], size: size)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        return Result(candles: count, size: size, runs: runs, median: GSL.quantile(times, 0.5), best: times.min()!)
    }
}
