import BacktestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fits a `DepthProfile` from a symbol's recorded L2 book (and trades, when stored), then tests
/// it on held-out bars: what `bt calibrate` computes (docs/design/execution-model-research.md, section 2).
///
/// The book is replayed at millisecond precision with `BookReplay` (stale levels of a crossed
/// stream dropped). With t_first and t_last the first and last book event times inside the
/// requested range, the calibration window is [t_first, t_split] with
/// t_split = t_first + ⌊(t_last − t_first)(1 − holdout)⌋; bars opening at or after t_split (and
/// at or before t_last) are held out. "The book as of t" is the book after every event at or
/// before t; mid = (best bid + best ask)/2; a level's distance from the mid in bps is
/// (p/mid − 1)·1e4 for asks and (1 − p/mid)·1e4 for bids. Quantiles are type 7.
///
/// 1. **Samples**: the book as of t_first + k·Δ for every k with the time <= t_split, Δ = 1 s
///    (whole seconds more when the window would give more than `maxSamples` samples).
/// 2. **Tick**: the most common gap between adjacent levels within 10 bps of the mid over all
///    samples and both sides (gaps rounded to 9 significant digits; ties to the smaller).
/// 3. **Spread**: each book state between events, clipped to [t_first, t_split), weighs its
///    spread (ask − bid)/mid·1e4 by its duration; the median and 90th percentile are the
///    smallest spreads whose cumulative weight reaches 50% and 90%.
/// 4. **Power law per side**: Q(x), the quantity within x bps, on x_k = 50^{k/24} (1 to 50 bps,
///    k = 0...24); the median over samples at each x_k; then least squares of ln Q on ln x over
///    the points with Q > 0: b the slope, A = e^intercept.
/// 5. **Depth against bar volume**: for bars opening in [t_first, t_split), the mean over the
///    bar's samples of (Q_bid(10) + Q_ask(10))/2 against the bar's volume, Spearman's rank
///    correlation (average ranks for ties).
/// 6. **Refill half-life**: taker sweeps are trades in the window grouped by millisecond and
///    taker side (without a side: a buy when the price is at or above the mid 1 ms before).
///    C(t) is the cost in bps against the mid at t of a market order of q_ref = min(A_bid, A_ask)
///    on the side a sweep hit. Sweeps whose C jumps by at least half a tick in bps
///    (C(u) − C(u − 1 ms)) count; R(τ) = (C(u) − C(u + τ))/jump for τ from 50 ms to 60 s
///    (only where u + τ <= t_split); the half-life is where the median R first reaches 0.5,
///    linear between grid points from R(0) = 0. None without trades or recovery.
/// 7. **Held-out errors**: per holdout bar, side and size, |predicted − true| where the true
///    cost walks the book as of the bar's open and the prediction walks the fitted power law
///    (`DepthCurve.powerLaw` with half the median spread); median and 90th percentile per size,
///    both sides pooled.
package enum DepthCalibration {
    /// Sample spacing (at least), most samples, fit grid and refill lags.
    static let sampleMs: Int64 = 1000
    package static let maxSamples: Int64 = 50_000
    static let fitGrid: [Double] = (0...24).map { pow(50.0, Double($0) / 24) }
    static let refillLagsMs: [Int64] = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000,
                                        20_000, 30_000, 60_000]

    /// What `bt calibrate` reports beyond the profile.
    package struct Result: Sendable {
        package var profile: DepthProfile
        /// t_first, t_split and t_last (UTC ms).
        package var firstMs: Int64, splitMs: Int64, lastMs: Int64
        package var samples: Int
        /// Spacing of the samples (1 s unless the window is long).
        package var sampleSpacingMs: Int64
        /// Bars in the window used for the volume correlation.
        package var volumeBars: Int
        package var sweeps: Int, sweepsUsed: Int
        /// Per holdout size: bars tested, predicted cost per side, median true cost per side (bps).
        package var holdoutBars: Int
        package var predictedBuyBps: [Double], predictedSellBps: [Double]
        package var trueMedianBuyBps: [Double], trueMedianSellBps: [Double]
    }

    /// Calibrates on `events` (sorted by time) with `candles` and `trades` of the same symbol.
    /// - Parameters:
    ///   - fromMs, toMs: limit the book's time range (the book state at `fromMs` includes earlier events).
    ///   - holdout: the share of the range held out, in [0, 1).
    ///   - sizes: held-out order sizes; nil takes the 1-3-10 ladder from the power of ten at or
    ///     below A/100 up to 10·A (A the smaller side's depth within 1 bp).
    /// - Throws: `InputError` when the range holds no usable book.
    package static func calibrate(symbol: String, events: [BookEvent], candles: CandleSeries?, trades: [TradePrint],
                                 fromMs: Int64? = nil, toMs: Int64? = nil, holdout: Double = 0.5,
                                 sizes: [Double]? = nil) throws -> Result {
        precondition(holdout >= 0 && holdout < 1, "holdout must be in [0, 1)")
        guard let firstEvent = events.first?.timeMs, let lastEvent = events.last?.timeMs else {
            throw InputError("no recorded book events")
        }
        let t0 = max(firstEvent, fromMs ?? .min), tEnd = min(lastEvent, toMs ?? .max)
        guard t0 < tEnd else { throw InputError("the book has no time range between the requested dates") }
        let t1 = t0 + Int64((Double(tEnd - t0) * (1 - holdout)).rounded(.down))

        // 1-5: one replay for samples and spread states.
        var replay = BookReplay(events)
        var spreads: [(value: Double, weight: Double)] = []
        var samples: [Sample] = []
        var gapCounts: [Double: Int] = [:]
        let seconds = (t1 - t0) / 1000 / maxSamples + 1
        let step = max(sampleMs, seconds * 1000)
        var t = t0
        while replay.nextEvent < events.count {
            let e = events[replay.nextEvent]
            while t <= t1 && t < e.timeMs {
                if replay.hasState, let s = Sample(replay.book, at: t, gaps: &gapCounts) { samples.append(s) }
                t += step
            }
            replay.advanceOne()
            let start = max(e.timeMs, t0)
            let end = min(replay.nextTimeMs ?? t1, t1)
            if end > start, let bid = replay.book.bestBid, let ask = replay.book.bestAsk {
                spreads.append(((ask - bid) / ((ask + bid) / 2) * 10_000, Double(end - start)))
            }
        }
        while t <= t1 {
            if let s = Sample(replay.book, at: t, gaps: &gapCounts) { samples.append(s) }
            t += step
        }
        guard !samples.isEmpty, !spreads.isEmpty else {
            throw InputError("the calibration window holds no two-sided book")
        }
        let tick = gapCounts.min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }?.key
        let bid = fit(samples.map(\.bidDepth)), ask = fit(samples.map(\.askDepth))
        guard let bid, let ask else { throw InputError("the calibration window has no depth within 50 bps of the mid") }

        // 5. Depth against bar volume.
        var depth10: [Double] = [], volumes: [Double] = [], windowBars = 0
        if let candles, let tf = candles.timeframe ?? Timeframe.infer(from: candles.time) {
            let barMs = tf.seconds * 1000
            var k = 0
            for i in candles.time.indices {
                let open = candles.time[i] * 1000
                guard open >= t0 && open < t1 else { continue }
                windowBars += 1
                while k < samples.count && samples[k].timeMs < open { k += 1 }
                var j = k, sum = 0.0
                while j < samples.count && samples[j].timeMs < open + barMs {
                    sum += (samples[j].bidDepth10 + samples[j].askDepth10) / 2
                    j += 1
                }
                if j > k {
                    depth10.append(sum / Double(j - k))
                    volumes.append(candles.volume[i])
                }
            }
        }
        let correlation = depth10.count >= 2 ? Quantiles.spearman(depth10, volumes) : nil

        // 6. Refill.
        let minJump = (tick ?? 0) / samples[0].mid * 10_000 / 2
        let refill = refillHalfLife(events: events, trades: trades, from: t0, to: t1,
                                    reference: min(bid.a, ask.a), minJumpBps: minJump)

        var profile = DepthProfile(
            symbol: symbol, tick: tick,
            spreadBps: Quantiles.weighted(spreads, 0.5), spreadP90Bps: Quantiles.weighted(spreads, 0.9),
            bid: bid, ask: ask, volumeRankCorrelation: correlation,
            refillHalfLifeSeconds: refill.halfLifeMs.map { $0 / 1000 })

        // 7. Held-out errors.
        let ladder = sizes ?? defaultSizes(depth: min(bid.a, ask.a))
        var result = Result(profile: profile, firstMs: t0, splitMs: t1, lastMs: tEnd, samples: samples.count, sampleSpacingMs: step,
                            volumeBars: windowBars, sweeps: refill.sweeps, sweepsUsed: refill.used, holdoutBars: 0,
                            predictedBuyBps: [], predictedSellBps: [], trueMedianBuyBps: [], trueMedianSellBps: [])
        if holdout > 0, let candles {
            let opens = candles.time.map { $0 * 1000 }.filter { $0 >= t1 && $0 <= tEnd }
            var truth: [[(buy: Double?, sell: Double?)]] = []  // per bar, per size
            var check = BookReplay(events)
            for open in opens {
                check.advance(through: open)
                truth.append(ladder.map { (marketCost(check.book, .buy, $0), marketCost(check.book, .sell, $0)) })
            }
            let half = profile.spreadBps / 20_000
            var median: [Double] = [], p90: [Double] = []
            for (k, size) in ladder.enumerated() {
                let buy = DepthCurve.powerLaw(a: ask.a, b: ask.b, halfSpread: half).cost(size) * 10_000
                let sell = DepthCurve.powerLaw(a: bid.a, b: bid.b, halfSpread: half).cost(size) * 10_000
                let trueBuy = truth.compactMap { $0[k].buy }, trueSell = truth.compactMap { $0[k].sell }
                let errors = trueBuy.map { abs(buy - $0) } + trueSell.map { abs(sell - $0) }
                median.append(Quantiles.type7(errors, 0.5))
                p90.append(Quantiles.type7(errors, 0.9))
                result.predictedBuyBps.append(buy)
                result.predictedSellBps.append(sell)
                result.trueMedianBuyBps.append(Quantiles.type7(trueBuy, 0.5))
                result.trueMedianSellBps.append(Quantiles.type7(trueSell, 0.5))
            }
            result.holdoutBars = opens.count
            if !opens.isEmpty {
                profile.holdout = DepthProfile.Holdout(sizes: ladder, medianAbsErrorBps: median, p90AbsErrorBps: p90)
            }
        }
        result.profile = profile
        return result
    }

    /// The default held-out sizes: 1, 3, 10, 30, ... from the power of ten at or below depth/100
    /// up to 10 × depth.
    static func defaultSizes(depth: Double) -> [Double] {
        guard depth > 0, depth.isFinite else { return [1] }
        var decade = pow(10, (log10(depth / 100)).rounded(.down))
        var out: [Double] = []
        while out.count < 40 {
            for m in [1.0, 3.0] {
                let size = (m * decade * 1e12).rounded() / 1e12
                if size <= 10 * depth * (1 + 1e-12) { out.append(size) } else { return out }
            }
            decade *= 10
        }
        return out
    }

    // MARK: - Samples

    /// What one sample of the book contributes: time, mid, cumulative depth per side on the fit
    /// grid and within 10 bps.
    struct Sample {
        var timeMs: Int64
        var mid: Double
        var bidDepth: [Double]
        var askDepth: [Double]
        var bidDepth10: Double
        var askDepth10: Double

        /// Nil when a side is empty. Adds the sample's level gaps within 10 bps to `gaps`.
        init?(_ book: OrderBook, at t: Int64, gaps: inout [Double: Int]) {
            guard let bid = book.bestBid, let ask = book.bestAsk else { return nil }
            let mid = (bid + ask) / 2
            timeMs = t
            self.mid = mid
            (bidDepth, bidDepth10) = Self.depth(book, .buy, mid: mid, gaps: &gaps)
            (askDepth, askDepth10) = Self.depth(book, .sell, mid: mid, gaps: &gaps)
        }

        private static func depth(_ book: OrderBook, _ side: OrderSide, mid: Double,
                                  gaps: inout [Double: Int]) -> ([Double], Double) {
            let grid = DepthCalibration.fitGrid
            var out = [Double](repeating: 0, count: grid.count)
            var acc = 0.0, within10 = 0.0, k = 0
            var previous: Double?
            book.visitLevels(side) { level in
                let d = side == .sell ? (level.price / mid - 1) * 10_000 : (1 - level.price / mid) * 10_000
                if d <= 10 {
                    within10 += level.quantity
                    if let p = previous { gaps[roundedTo9Digits(abs(level.price - p)), default: 0] += 1 }
                    previous = level.price
                }
                while k < grid.count && d > grid[k] { out[k] = acc; k += 1 }
                guard k < grid.count else { return false }
                acc += level.quantity
                return true
            }
            while k < grid.count { out[k] = acc; k += 1 }
            return (out, within10)
        }
    }

    /// `x` rounded to 9 significant digits (as `%.9g` prints it).
    static func roundedTo9Digits(_ x: Double) -> Double {
        guard x != 0, x.isFinite else { return x }
        let e = Int(log10(abs(x)).rounded(.down))
        let digits = 8 - e
        if digits >= 0 {
            let scale = pow(10, Double(digits))
            return (x * scale).rounded() / scale
        }
        let scale = pow(10, Double(-digits))
        return (x / scale).rounded() * scale
    }

    /// Least squares of ln Q on ln x over the grid points with Q > 0, on the median curve over
    /// samples; nil with fewer than two such points.
    static func fit(_ curves: [[Double]]) -> DepthProfile.PowerLaw? {
        var xs: [Double] = [], ys: [Double] = []
        for (k, x) in fitGrid.enumerated() {
            let q = Quantiles.type7(curves.map { $0[k] }, 0.5)
            if q > 0 { xs.append(log(x)); ys.append(log(q)) }
        }
        guard xs.count >= 2 else { return nil }
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0
        for i in xs.indices {
            sxx += (xs[i] - mx) * (xs[i] - mx)
            sxy += (xs[i] - mx) * (ys[i] - my)
        }
        let b = sxy / sxx
        return DepthProfile.PowerLaw(a: exp(my - b * mx), b: b)
    }

    /// The cost in bps against the mid of a market order of `size` walking `book` (a buy walks
    /// the asks); nil when the side runs out or the book has no mid.
    static func marketCost(_ book: OrderBook, _ side: OrderSide, _ size: Double) -> Double? {
        guard let mid = book.mid else { return nil }
        var left = size, notional = 0.0
        book.visitLevels(side == .buy ? .sell : .buy) { level in
            let take = min(left, level.quantity)
            notional += take * level.price
            left -= take
            return left > 1e-12
        }
        guard left <= 1e-9 else { return nil }
        let vwap = notional / size
        return side == .buy ? (vwap / mid - 1) * 10_000 : (1 - vwap / mid) * 10_000
    }

    // MARK: - Refill

    /// The refill half-life (ms) after taker sweeps in [from, to]; see step 6.
    static func refillHalfLife(events: [BookEvent], trades: [TradePrint], from t0: Int64, to t1: Int64,
                               reference qRef: Double, minJumpBps: Double)
        -> (halfLifeMs: Double?, sweeps: Int, used: Int) {
        let inWindow = trades.filter { $0.timeMs >= t0 && $0.timeMs <= t1 }
        guard !inWindow.isEmpty else { return (nil, 0, 0) }
        // Sides of prints without one: a buy when the price is at or above the mid 1 ms before.
        var sides: [OrderSide] = []
        var replay = BookReplay(events)
        for print in inWindow {
            if let s = print.side { sides.append(s); continue }
            replay.advance(through: print.timeMs - 1)
            sides.append(replay.book.mid.map { print.price >= $0 ? .buy : .sell } ?? .buy)
        }
        // Sweeps: distinct (millisecond, side), sorted by time then side (buy first).
        var keys: [(timeMs: Int64, side: OrderSide)] = []
        for (i, p) in inWindow.enumerated() where !keys.contains(where: { $0.timeMs == p.timeMs && $0.side == sides[i] }) {
            keys.append((p.timeMs, sides[i]))
        }
        keys.sort { $0.timeMs != $1.timeMs ? $0.timeMs < $1.timeMs : ($0.side == .buy && $1.side == .sell) }
        // Probes: (time, sweep, lag index) with lag -2 = pre (u - 1 ms), -1 = post (u).
        var probes: [(timeMs: Int64, sweep: Int, lag: Int)] = []
        for (j, key) in keys.enumerated() {
            probes.append((key.timeMs - 1, j, -2))
            probes.append((key.timeMs, j, -1))
            for (k, tau) in refillLagsMs.enumerated() where key.timeMs + tau <= t1 {
                probes.append((key.timeMs + tau, j, k))
            }
        }
        probes.sort { $0.timeMs < $1.timeMs }
        var costs = [[Double?]](repeating: [Double?](repeating: nil, count: refillLagsMs.count + 2), count: keys.count)
        var book = BookReplay(events)
        for probe in probes {
            book.advance(through: probe.timeMs)
            costs[probe.sweep][probe.lag + 2] = marketCost(book.book, keys[probe.sweep].side, qRef)
        }
        var perLag = [[Double]](repeating: [], count: refillLagsMs.count)
        var used = 0
        for j in keys.indices {
            guard let pre = costs[j][0], let post = costs[j][1], post - pre >= minJumpBps else { continue }
            used += 1
            for k in refillLagsMs.indices {
                if let c = costs[j][k + 2] { perLag[k].append((post - c) / (post - pre)) }
            }
        }
        let medians = perLag.map { $0.isEmpty ? Double.nan : Quantiles.type7($0, 0.5) }
        var previousTau = 0.0, previousR = 0.0
        for (k, r) in medians.enumerated() where !r.isNaN {
            let tau = Double(refillLagsMs[k])
            if r >= 0.5 {
                return (previousTau + (0.5 - previousR) / (r - previousR) * (tau - previousTau), keys.count, used)
            }
            previousTau = tau
            previousR = r
        }
        return (nil, keys.count, used)
    }
}
