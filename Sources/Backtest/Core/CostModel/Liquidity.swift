#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine's source of fills for one run: no depth, fixed slippage, the model book with
/// depletion, or a replay of recorded L2 events.
struct Liquidity {
    private enum Source { case none, fixed, synthetic, book }
    private let source: Source
    private let model: SyntheticDepth
    private let slippage: Double
    private let candles: CandleSeries
    private let barSeconds: Double

    /// Model book: the spread's window over the series' pairs (nil when the spread is not
    /// estimated from the bars), and per side the units still missing and the time (ms) they
    /// were last updated.
    private var spreadWindow: SpreadWindow?
    private var takenAsks = 0.0, takenBids = 0.0
    private var askTimeMs: Int64 = 0, bidTimeMs: Int64 = 0

    /// Recorded book replay.
    private var replay: BookReplay
    /// The last millisecond `replay` applied, nil before its first advance.
    private var replayThroughMs: Int64?
    /// What earlier runs over the same recording found (`BookCheckpoints`), and the fills taken
    /// from the book so far in their terms. `replayCurrent` is false once a fill came from
    /// the checkpoints: `replay` is then behind `bookKey`.
    private let checkpoints: BookCheckpoints?
    private var bookKey = BookCheckpoints.Key()
    private var replayCurrent = true
    /// The replay's stale-level count as of the last fill through it.
    private var staleAtLastFill = 0

    /// Model fills whose trailing volume was zero or missing (impact off for them).
    private(set) var fillsWithoutVolume = 0
    /// The estimated spread of each model fill that filled, in order (empty when the spread is
    /// given or the source is not the model book).
    private(set) var spreadEstimates: [SpreadEstimate] = []

    /// - Parameter pairs: the Corwin-Schultz pairs of the series whose last bars `candles` are
    ///   (its `IndicatorCache`'s), read when the spread is estimated from the bars; nil: the
    ///   spread window computes the pairs of `candles` it reaches (a portfolio's symbol).
    init(config: ExecutionConfig, candles: CandleSeries, pairs: SpreadPairs? = nil) {
        model = config.synthetic
        self.candles = candles
        barSeconds = SyntheticDepth.barSeconds(candles)
        var events: [BookEvent] = []
        switch config.depth {
        case .none: source = .none; slippage = 0
        case .fixedSlippage(let bps): source = .fixed; slippage = bps / 10_000
        case .synthetic: source = .synthetic; slippage = 0
        case .book(let recorded): source = .book; slippage = 0; events = recorded
        }
        replay = BookReplay(events)
        checkpoints = source == .book ? config.bookCheckpoints : nil
        if config.estimatesSpreadFromBars {
            // A window longer than the series holds all of it (and `8 * window` stays finite).
            let window = max(1, min(model.spreadWindow, candles.count))
            spreadWindow = pairs.map { SpreadWindow(window: window, pairs: $0, bars: candles.count) }
                ?? SpreadWindow(window: window, filling: candles)
        }
        // One estimate per model fill: room for a fill every 16 bars, as the run's ledger.
        if source == .synthetic && model.spreadBps == nil { spreadEstimates.reserveCapacity(max(16, candles.count / 16)) }
    }

    /// Levels the recorded book's stale-level rule dropped up to the last fill.
    var staleLevelsDropped: Int { staleAtLastFill }

    /// Where the run's spread came from, over its `fills` fills.
    func spreadSummary(fills: Int) -> SpreadSummary {
        switch source {
        case .none: return SpreadSummary(method: .none, fills: fills, spreadBps: nil)
        case .fixed: return SpreadSummary(method: .fixed, fills: fills, spreadBps: slippage * 20_000)
        case .book: return SpreadSummary(method: .recorded, fills: fills, spreadBps: nil)
        case .synthetic:
            if let given = model.spreadBps {
                return SpreadSummary(method: model.usesProfile ? .profile : .given,
                                     fills: fills, spreadBps: given)
            }
            return SpreadSummary(estimates: spreadEstimates)
        }
    }

    /// Executes a market order of up to `quantity` units spending at most `notionalLimit`
    /// (before fees) on bar `bar`, referencing `reference`; a recorded book is taken as of
    /// `timeMs` (UTC milliseconds). With a `lot`, a partial fill is a multiple of it.
    mutating func execute(_ side: OrderSide, quantity: Double, notionalLimit: Double, reference: Double,
                          bar: Int, timeMs: Int64, lot: Double?) -> BookFill {
        switch source {
        case .none, .fixed:
            let d = source == .fixed ? slippage : 0
            let price = side == .buy ? reference * (1 + d) : reference * (1 - d)
            var q = price > 0 ? min(quantity, notionalLimit / price) : 0
            if let lot, q < quantity { q = (q / lot).rounded(.down) * lot }
            var fill = BookFill(quantityAsked: quantity, quantityFilled: q, notional: q * price,
                                levelsWalked: q > 0 ? 1 : 0, worstPrice: q > 0 ? price : .nan,
                                depthAvailable: .infinity)
            fill.spreadCost = q * reference * d
            return fill
        case .synthetic:
            return modelFill(side, quantity: quantity, notionalLimit: notionalLimit, reference: reference,
                             bar: bar, timeMs: timeMs, lot: lot)
        case .book:
            let request = BookCheckpoints.Request(side: side, quantity: quantity, notionalLimit: notionalLimit, lot: lot, timeMs: timeMs)
            if let checkpoints {
                if let known = checkpoints.outcome(after: bookKey), known.request == request {
                    bookKey = bookKey.after(request)
                    replayCurrent = false
                    staleAtLastFill = known.staleLevelsDropped
                    return known.fill
                }
                resumeReplay(before: timeMs, checkpoints)
            }
            replay.advance(through: timeMs)
            replayThroughMs = max(replayThroughMs ?? timeMs, timeMs)
            let mid = replay.book.mid
            let touch = side == .buy ? replay.book.bestAsk : replay.book.bestBid
            var fill = Self.walk(&replay.book, side, quantity: quantity, notionalLimit: notionalLimit, lot: lot)
            if let mid, let touch { fill.spreadCost = fill.quantityFilled * abs(touch - mid) }
            staleAtLastFill = replay.staleLevelsDropped
            if let checkpoints {
                // Only a fill the recording has passed is final: events appended later (at or
                // after the last one held) could still change the book at its millisecond.
                if let last = replay.events.last?.timeMs, last > timeMs {
                    checkpoints.record(.init(request: request, fill: fill, staleLevelsDropped: staleAtLastFill), after: bookKey)
                }
                bookKey = bookKey.after(request)
                checkpoints.remember(replay.state, throughMs: replayThroughMs!, after: bookKey)
            }
            return fill
        }
    }

    // MARK: - Recorded book checkpoints

    /// Makes `replay` the book after the fills of `bookKey`, at the furthest point known at or
    /// before `timeMs`: an earlier run's state when one is usable and further than `replay`,
    /// else `replay` itself, else (when fills came from the checkpoints and no state of theirs
    /// is usable) the replay done again from the first event with those fills taken.
    private mutating func resumeReplay(before timeMs: Int64, _ checkpoints: BookCheckpoints) {
        if let known = furtherState(checkpoints), known.throughMs <= timeMs {
            replay = BookReplay(replay.events, resuming: known.state)
            replayThroughMs = known.throughMs
            replayCurrent = true
        }
        guard !replayCurrent else { return }
        replay = BookReplay(replay.events)
        replayThroughMs = nil
        var key = BookCheckpoints.Key()
        while key != bookKey, let taken = checkpoints.outcome(after: key) {
            let r = taken.request
            replay.advance(through: r.timeMs)
            replayThroughMs = r.timeMs
            _ = Self.walk(&replay.book, r.side, quantity: r.quantity, notionalLimit: r.notionalLimit, lot: r.lot)
            key = key.after(r)
        }
        precondition(key == bookKey, "the checkpoints lost a fill they gave")
        replayCurrent = true
    }

    /// The checkpoints' state after the fills of `bookKey`, when a replay of these events may
    /// resume from it (`BookReplay.canResume`) and it is further on than `replay`, or `replay`
    /// is behind `bookKey`.
    private func furtherState(_ checkpoints: BookCheckpoints) -> BookCheckpoints.Reached? {
        guard let known = checkpoints.reached(after: bookKey),
              BookReplay.canResume(replay.events, from: known.state, throughMs: known.throughMs),
              !replayCurrent || known.state.position > replay.nextEvent else { return nil }
        return known
    }

    /// Leaves the checkpoints the book after this run's fills with every event before the last
    /// millisecond recorded applied (a later event cannot change those), so that the next run,
    /// over the same events and more, replays only what it has not seen. The last call of a
    /// run: it advances the run's own replay (which reports nothing after the last fill), or
    /// takes the checkpoints' state to advance it without a copy.
    mutating func rememberEnd() {
        guard let checkpoints, let last = replay.events.last?.timeMs else { return }
        var through = replayCurrent ? replayThroughMs ?? Int64.min : Int64.min
        if let known = furtherState(checkpoints), known.throughMs > through {
            guard last &- 1 > known.throughMs else { return }
            let taken = checkpoints.take(after: bookKey) ?? known
            replay = BookReplay(replay.events, resuming: taken.state)
            through = taken.throughMs
            replayCurrent = true
        }
        guard replayCurrent, last &- 1 > through else { return }
        replay.advance(through: last &- 1)
        replayThroughMs = last &- 1
        checkpoints.remember(replay.state, throughMs: last &- 1, after: bookKey)
    }

    /// Walks `book`, rounds a partial fill down to the lot, and removes what was taken.
    private static func walk(_ book: inout OrderBook, _ side: OrderSide, quantity: Double,
                             notionalLimit: Double, lot: Double?) -> BookFill {
        var fill = side == .buy
            ? book.fill(marketBuy: quantity, notionalLimit: notionalLimit)
            : book.fill(marketSell: quantity, notionalLimit: notionalLimit)
        if let lot, fill.isPartial {
            let q = (fill.quantityFilled / lot).rounded(.down) * lot
            fill = side == .buy ? book.fill(marketBuy: q) : book.fill(marketSell: q)
            fill.quantityAsked = quantity
        }
        book.remove(side == .buy ? .sell : .buy, quantity: fill.quantityFilled)
        return fill
    }

    // MARK: - Model book

    /// A fill through the model book of `bar`, after the depth still missing from earlier fills.
    private mutating func modelFill(_ side: OrderSide, quantity: Double, notionalLimit: Double, reference p: Double,
                                    bar: Int, timeMs: Int64, lot: Double?) -> BookFill {
        // Refill: what earlier fills took decays with the half-life in seconds.
        let halfLife = model.refillSeconds
        func decayed(_ taken: Double, since last: Int64) -> Double {
            guard taken > 0 else { return 0 }
            guard halfLife > 0 else { return 0 }
            return taken * exp2(-Double(max(0, timeMs - last)) / 1000 / halfLife)
        }
        let taken: Double
        if side == .buy {
            takenAsks = decayed(takenAsks, since: askTimeMs); askTimeMs = timeMs; taken = takenAsks
        } else {
            takenBids = decayed(takenBids, since: bidTimeMs); bidTimeMs = timeMs; taken = takenBids
        }
        // σ matters beyond the touch and to the volume relation of an estimated spread: it is
        // read when the order may reach past the touch or the relation is read (computed then,
        // unless it came with the volumes).
        let window = estimates(at: bar)
        var e = window.0
        if !model.usesProfile, !((e.volume ?? 0) > 0) { fillsWithoutVolume += 1 }
        let pastTouch = !model.usesProfile && model.impact > 0 && (e.volume ?? 0) > 0
            && taken + quantity > (e.volume ?? 0) * model.touchSeconds / max(barSeconds, 1e-9)
        let relation = model.spreadBps == nil && model.volumeRelation && (e.dollarVolume ?? 0) > 0
        if pastTouch || relation {
            e.sigma = window.sigma ?? candles.close.withUnsafeBufferPointer {
                CandleEstimators.volatility($0, before: bar, window: model.impactWindow)
            }
        }
        let estimate = model.spreadEstimate(e, reference: p)
        let half = model.spreadBps.map { $0 / 20_000 } ?? (estimate?.spread ?? 0) / 2
        let curve = model.curve(side, estimates: e, halfSpread: half, barSeconds: barSeconds)
        let sign = side == .buy ? 1.0 : -1.0
        // A sell stops where its price would reach 0.
        let available = side == .buy ? Double.infinity : max(0, curve.quantity(belowDistance: 0.999) - taken)
        var q = min(quantity, available)
        func notional(_ q: Double) -> Double { p * q * (1 + sign * curve.cost(q, after: taken)) }
        if q > 0, notionalLimit.isFinite, notional(q) > notionalLimit {
            q = Self.solve(limit: notionalLimit / p, upTo: q, sign: sign, curve: curve, taken: taken)
            while q > 0 && notional(q) > notionalLimit { q = q.nextDown }
        }
        if let lot, q < quantity { q = (q / lot).rounded(.down) * lot }
        q = max(0, q)
        if side == .buy { takenAsks += q } else { takenBids += q }
        if q > 0, let estimate { spreadEstimates.append(estimate) }
        var fill = BookFill(quantityAsked: quantity, quantityFilled: q, notional: q > 0 ? notional(q) : 0,
                            levelsWalked: q > 0 ? 1 : 0,
                            worstPrice: q > 0 ? p * (1 + sign * curve.marginal(taken + q)) : .nan,
                            depthAvailable: available < quantity ? available : .infinity)
        fill.spreadCost = q * p * curve.spreadPart
        return fill
    }

    /// The quantity q in (0, upTo] with q ± (C(taken + q) − C(taken)) = `limit` (units at the
    /// reference price), by Newton's method: from above for buys (convex), from below for sells
    /// (concave), so every step stays on one side of the root.
    private static func solve(limit: Double, upTo cap: Double, sign: Double, curve: DepthCurve, taken: Double) -> Double {
        let base = curve.cumulative(taken)
        var q = min(cap, limit / max(1e-12, 1 + sign * curve.marginal(taken)))
        for _ in 0..<60 {
            let f = q + sign * (curve.cumulative(taken + q) - base) - limit
            let slope = 1 + sign * curve.marginal(taken + q)
            guard slope > 0 else { break }
            let next = min(cap, max(0, q - f / slope))
            if abs(next - q) <= 1e-15 * max(q, 1e-300) { q = next; break }
            q = next
        }
        return q
    }

    /// The candle estimates for a fill on `bar`, with the spread from the running window, and σ
    /// when it came with the volumes (`SyntheticDepth.impactWindow`). σ is not put in the
    /// estimates: it matters only beyond the touch and to the volume relation, which the caller
    /// decides.
    private mutating func estimates(at bar: Int) -> (SyntheticDepth.Estimates, sigma: Double??) {
        let bars = spreadWindow?.sample(before: bar)
        let window = model.impactWindow(candles, before: bar)
        return (SyntheticDepth.Estimates(bars: bars, sigma: nil, volume: window.volume, dollarVolume: window.dollars),
                window.sigma)
    }
}
