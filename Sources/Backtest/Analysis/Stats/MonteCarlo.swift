import BacktestCore
import Foundation

/// A Monte Carlo of one run: how its final equity, maximum drawdown and CAGR spread when its
/// trades come in another order and number, and when its bar returns are resampled in blocks.
///
/// - Trades: each resample draws as many trades as the run made, uniformly with replacement
///   (`gsl_rng_uniform_int`), each as its return on equity, `pnl / equity before the trade`
///   (the equity at the close before its entry bar; the initial cash for a trade entered on the
///   first bar), and compounds them from the initial cash; its drawdowns are measured after
///   each trade.
/// - Bars: each resample is the stationary block bootstrap of the per-bar returns
///   (`ReturnStats.returns`) the Sharpe interval uses (`Uncertainty.Resampler`: blocks with a
///   uniform start and a geometric length of mean round(n^(1/3)), wrapping), compounded bar by
///   bar from the initial cash.
///
/// Both run on one Mersenne Twister seeded with `seed`, the trades' resamples first. CAGR is
/// (final / initial)^(periodsPerYear / bars) - 1 over the run's bar count, as `Stat.cagr`;
/// percentiles are `gsl_stats_quantile_from_sorted_data` (numpy's default, linear). The ruin
/// probability is the share of resamples whose maximum drawdown is `ruin` or deeper.
/// - Complexity: O(resamples x (trades + bars)) time, O(resamples + bars) memory.
public struct MonteCarlo: Sendable, Equatable {
    /// What `bt run --monte-carlo N --seed S --ruin PCT` asks for.
    public struct Settings: Sendable, Equatable {
        public var resamples: Int
        public var seed: UInt32
        /// The drawdown counted as ruin, a fraction in (0, 1].
        public var ruin: Double

        /// The most resamples a Monte Carlo may draw.
        public static let maximumResamples = 10_000_000

        public init(resamples: Int, seed: UInt32 = 1, ruin: Double = 0.5) throws {
            guard resamples >= 1, resamples <= Self.maximumResamples else {
                throw InputError("must be 1 to \(Self.maximumResamples) resamples", setting: .monteCarlo, value: String(resamples))
            }
            guard ruin > 0, ruin <= 1 else { throw InputError("must be above 0% and at most 100%", setting: .ruin, value: String(ruin)) }
            (self.resamples, self.seed, self.ruin) = (resamples, seed, ruin)
        }

        /// The settings of the options as typed: nil without `resamples`; `ruin` in percent
        /// (`50%` or `50`), 50% when not given.
        /// - Throws: `InputError` for a count that is not a whole number from 1, a bad seed
        ///   (`Seed.parse`), a bad ruin, or a seed or ruin without a count.
        public init?(resamples: String?, seed: String?, ruin: String?) throws {
            guard let resamples else {
                if let given = seed.map({ (Setting.seed, $0) }) ?? ruin.map({ (Setting.ruin, $0) }) {
                    throw InputError("is for \(Setting.monteCarlo.mention)", setting: given.0, value: given.1)
                }
                return nil
            }
            guard let n = Int(resamples) else { throw InputError("not a whole number", setting: .monteCarlo, value: resamples) }
            var percent = 50.0
            if let ruin {
                let text = ruin.hasSuffix("%") ? String(ruin.dropLast()) : ruin
                guard let v = Double(text), v > 0, v <= 100 else {
                    throw InputError("give a drawdown above 0% and at most 100%", setting: .ruin, value: ruin)
                }
                percent = v
            }
            try self.init(resamples: n, seed: UInt32(try Seed.parse(seed, maximum: UInt64(UInt32.max))), ruin: percent / 100)
        }
    }

    /// The 5th, 50th and 95th percentiles of one figure over the resamples.
    public struct Percentiles: Sendable, Equatable {
        public var p5: Double, p50: Double, p95: Double
    }

    /// One resampling's figures.
    public struct Distribution: Sendable, Equatable {
        public var finalEquity: Percentiles
        /// Maximum drawdowns as negative fractions (-0.25 for 25% below the peak), as `Stat.maxDrawdown`.
        public var maxDrawdown: Percentiles
        public var cagr: Percentiles
        /// The share of resamples whose maximum drawdown reached the ruin level.
        public var ruinProbability: Double
    }

    public var settings: Settings
    /// Of the trades; nil when the run made none.
    public var trades: Distribution?
    /// Of the bar returns; nil with fewer than 3 bars.
    public var bars: Distribution?
    /// The bootstrap's mean block length, in bars.
    public var blockLength: Double
    /// The equity bands of the bar resamples' paths (the report's equity chart); nil with
    /// fewer than 3 bars.
    public var bands: Bands?

    /// The 5th, 50th and 95th percentiles of the bar resamples' equity at evenly spaced bars:
    /// each resample is a path of equity bar by bar (its compounded returns from the initial
    /// cash), and each checkpoint's percentiles are taken over the paths' values at that bar.
    /// The last checkpoint is the last bar, so there the bands are `bars.finalEquity` (when every
    /// resample enters them, `resamples == settings.resamples`).
    public struct Bands: Sendable, Equatable {
        /// The checkpoints' bar indices, ascending, the first and the last bar included.
        public var bars: [Int]
        public var p5: [Double], p50: [Double], p95: [Double]
        /// The resamples the bands are taken over: the first `min(resamples, resampleLimit)`.
        public var resamples: Int

        /// Checkpoints at most: evenly spaced bars, joined by straight lines on the chart.
        public static let checkpointLimit = 500
        /// Resamples entering the bands at most (memory: checkpoints x resamples values).
        public static let resampleLimit = 10_000

        /// `count` (at most `checkpointLimit`) bar indices evenly spaced over `bars` bars.
        static func checkpoints(bars n: Int) -> [Int] {
            let k = min(n, checkpointLimit)
            guard k > 1 else { return Array(0..<k) }
            return (0..<k).map { j in Int((Double(j) * Double(n - 1) / Double(k - 1)).rounded()) }
        }
    }

    /// - Parameter withBands: whether to take the equity bands too (`bands`; a screen has no chart).
    public init(_ result: BacktestResult, periodsPerYear: Double, settings: Settings, withBands: Bool = true) {
        self.settings = settings
        let random = GSL.Random(seed: UInt(settings.seed))
        let n = result.equity.count
        let initial = result.initialCash
        let years = Double(n) / periodsPerYear
        let returns = Self.tradeReturns(result)
        trades = returns.isEmpty ? nil : Self.distribution(settings: settings, initial: initial, years: years) { path in
            for _ in returns.indices { path(returns[random.int(below: returns.count)]) }
        }.distribution
        let bootstrap = Uncertainty.Bootstrap(resamples: settings.resamples)
        let resampler = Uncertainty.Resampler(count: max(n, 1), bootstrap: bootstrap)
        blockLength = max(1, cbrt(Double(n)).rounded())
        guard n > 2 else { bars = nil; bands = nil; return }
        let barReturns = ReturnStats.returns(equity: result.equity, initial: initial)
        var draws = RawDraws(random)
        (bars, bands) = Self.distribution(settings: settings, initial: initial, years: years,
                                          checkpoints: withBands ? Bands.checkpoints(bars: n) : []) { path in
            resampler.drawResample(&draws) { start, k in
                for i in 0..<k { path(barReturns[(start + i) % n]) }
            }
        }
    }

    /// Each trade's return on the equity before it: `pnl / equity[entryIndex - 1]`, the initial
    /// cash for a trade entered on the first bar (open trades as marked at the end).
    public static func tradeReturns(_ result: BacktestResult) -> [Double] {
        result.trades.map { trade in
            let before = trade.entryIndex > 0 ? result.equity[trade.entryIndex - 1] : result.initialCash
            return before == 0 ? 0 : trade.pnl / before
        }
    }

    /// The figures over `settings.resamples` paths, each compounded from `initial` over the
    /// returns `resample` gives its `path` function in order; with `checkpoints` (step indices,
    /// ascending), the bands of the first `Bands.resampleLimit` paths' equity after those steps.
    static func distribution(settings: Settings, initial: Double, years: Double, checkpoints: [Int] = [],
                             resample: ((Double) -> Void) -> Void) -> (distribution: Distribution, bands: Bands?) {
        var finals: [Double] = [], drawdowns: [Double] = [], cagrs: [Double] = []
        finals.reserveCapacity(settings.resamples)
        drawdowns.reserveCapacity(settings.resamples)
        var ruined = 0
        // The paths' equity at each checkpoint, one contiguous run of `banded` values per checkpoint.
        let banded = checkpoints.isEmpty ? 0 : min(settings.resamples, Bands.resampleLimit)
        var atCheckpoints = [Double](repeating: .nan, count: banded * checkpoints.count)
        for sample in 0..<settings.resamples {
            var equity = initial, peak = initial, worst = 0.0
            var step = 0, next = 0
            let banding = sample < banded
            resample { r in
                equity *= 1 + r
                peak = max(peak, equity)
                if peak > 0 { worst = min(worst, equity / peak - 1) }
                if banding, next < checkpoints.count, checkpoints[next] == step {
                    atCheckpoints[next * banded + sample] = equity
                    next += 1
                }
                step += 1
            }
            finals.append(equity)
            drawdowns.append(worst)
            cagrs.append(equity > 0 && initial > 0 ? pow(equity / initial, 1 / years) - 1 : -1)
            if worst <= -settings.ruin { ruined += 1 }
        }
        func percentiles(_ x: [Double]) -> Percentiles {
            let sorted = GSL.sorted(x)
            return Percentiles(p5: GSL.quantile(sorted: sorted, 0.05), p50: GSL.quantile(sorted: sorted, 0.5),
                               p95: GSL.quantile(sorted: sorted, 0.95))
        }
        let distribution = Distribution(finalEquity: percentiles(finals), maxDrawdown: percentiles(drawdowns), cagr: percentiles(cagrs),
                                        ruinProbability: Double(ruined) / Double(settings.resamples))
        guard banded > 0 else { return (distribution, nil) }
        let columns = checkpoints.indices.map { percentiles(Array(atCheckpoints[$0 * banded ..< ($0 + 1) * banded])) }
        return (distribution, Bands(bars: checkpoints, p5: columns.map(\.p5), p50: columns.map(\.p50), p95: columns.map(\.p95),
                                    resamples: banded))
    }
}
