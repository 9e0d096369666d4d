import Backtest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timings of the indicator kernels, for `bt bench indicators`.
///
/// Each measurement is the best of many repetitions of one kernel over a random-walk OHLC series,
/// writing into buffers allocated once (what a parameter sweep does, and what TA-Lib's C API
/// does with caller buffers). Best-of filters out scheduler noise on a shared machine.
package enum IndicatorBenchmark {
    /// The measured computations, in report order, with their `bt indicators` column names.
    package static let names = ["sma_20", "ema_20", "rsi_14", "macd_12_26_9", "bb_20_2", "atr_14"]

    /// Best nanoseconds per bar for each of `names` over `bars` bars, repeating each for about
    /// `budget` seconds (at least `minimumRepetitions` times).
    package static func nanosecondsPerBar(bars: Int, budget: Double = 0.3, minimumRepetitions: Int = 5) -> [(String, Double)] {
        let data = Workload(bars: bars)
        return names.map { name in
            let best = data.best(of: name, budget: budget, minimumRepetitions: minimumRepetitions)
            return (name, best * 1e9 / Double(bars))
        }
    }

    /// Best microseconds per call for each of `names` over `bars` bars.
    package static func microsecondsPerCall(bars: Int, names selected: [String], budget: Double = 0.1) -> [(String, Double)] {
        let data = Workload(bars: bars)
        return selected.map { ($0, data.best(of: $0, budget: budget, minimumRepetitions: 100) * 1e6) }
    }

    /// Inputs and output buffers for one series length (also `bt bench kernel`'s indicator workloads).
    package final class Workload {
        let n: Int
        var high: [Double], low: [Double], close: [Double]
        let out0: UnsafeMutableBufferPointer<Double>, out1: UnsafeMutableBufferPointer<Double>, out2: UnsafeMutableBufferPointer<Double>

        package init(bars: Int) {
            n = bars
            var state: UInt64 = 0x1234_5678
            func unit() -> Double {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
            }
            close = []; high = []; low = []
            close.reserveCapacity(bars); high.reserveCapacity(bars); low.reserveCapacity(bars)
            var price = 100.0
            for _ in 0..<bars {
                price *= 1 + (unit() - 0.5) * 0.02
                close.append(price)
                high.append(price * (1 + unit() * 0.01))
                low.append(price * (1 - unit() * 0.01))
            }
            out0 = .allocate(capacity: bars); out1 = .allocate(capacity: bars); out2 = .allocate(capacity: bars)
            out0.initialize(repeating: 0); out1.initialize(repeating: 0); out2.initialize(repeating: 0)
        }

        deinit { out0.deallocate(); out1.deallocate(); out2.deallocate() }

        /// One run of the named computation (one of `names`).
        package func run(_ name: String) {
            close.withUnsafeBufferPointer { c in
                switch name {
                case "sma_20": Indicators.Kernel.sma(c, period: 20, into: out0)
                case "ema_20": Indicators.Kernel.ema(c, period: 20, into: out0)
                case "rsi_14": Indicators.Kernel.rsi(c, period: 14, into: out0)
                case "macd_12_26_9":
                    Indicators.Kernel.macd(c, fast: 12, slow: 26, signal: 9, macd: out0, signal: out1, histogram: out2)
                case "bb_20_2": Indicators.Kernel.bollinger(c, period: 20, k: 2, upper: out0, middle: out1, lower: out2)
                case "atr_14":
                    high.withUnsafeBufferPointer { h in
                        low.withUnsafeBufferPointer { l in
                            Indicators.Kernel.atr(high: h, low: l, close: c, period: 14, into: out0)
                        }
                    }
                default: preconditionFailure("unknown benchmark \(name)")
                }
            }
        }

        /// Best seconds per run.
        func best(of name: String, budget: Double, minimumRepetitions: Int) -> Double {
            run(name)  // warm caches and page in the outputs
            var best = Double.infinity
            var spent = 0.0
            var reps = 0
            while reps < minimumRepetitions || spent < budget {
                let t0 = now()
                run(name)
                let dt = now() - t0
                best = min(best, dt)
                spent += dt
                reps += 1
                if reps > 1_000_000 { break }
            }
            return best
        }

        private func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        }
    }
}
