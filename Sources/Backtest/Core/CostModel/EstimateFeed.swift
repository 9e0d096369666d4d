import Foundation

/// The synthetic book's candle estimates of one run, computed on a second core while the engine
/// runs (and, given the chance, while the strategy's signals are computed): every
/// Corwin-Schultz pair of the series (`CandleEstimators.pairs`, what `SpreadWindow` computes as
/// it goes) and, at each bar after a signal turns on (the candidates: where fills happen), the
/// impact window's volume, dollar volume and σ, their volume-relation spread
/// (`CandleEstimators.impactWindow`, `volumeRelationSpread`) and the spread window's step from
/// the previous candidate. The same functions of the same bars, so a run reading the feed gives
/// the same results, bit for bit, as one computing them itself.
///
/// The producer works through the bars in chunks of `chunk` and publishes each: first the pairs
/// (they need only the candles), then, once the signals are handed over, the estimates of the
/// candidates in the chunks already paired. The engine waits for the chunk holding a fill's bar.
/// It takes the spread step whole when its window is in the state the feed's was in before that
/// candidate (it filled at the previous one last), and computes the step itself otherwise, and
/// the impact window of a fill on a bar that is no candidate (a stop, an exit's remainder): what
/// it computes depends on the bars and signals alone, never on which thread is ahead, so the
/// instruction counts of `make perf-check` repeat.
///
/// Used when a second core is idle (no `Parallel.map` job is running), the series is long enough
/// to repay a thread (`minimumBars`) and the spread is estimated from the bars.
package final class EstimateFeed: @unchecked Sendable {
    /// When a run uses a feed.
    package enum Policy: Sendable {
        /// With a spare core, on series of at least `minimumBars` bars.
        case automatic
        /// Whenever the synthetic book estimates its spread (tests of the concurrent path).
        case always
        /// Never: every estimate computed by the engine as it goes.
        case never
    }

    /// What the feed computed for a candidate bar: the impact window as `Liquidity` computes it,
    /// and the spread window's step.
    struct CandidateEstimates {
        var volume: Double?
        var dollars: Double?
        /// σ from the window: nil when `impactWindow` gave none (the bar is within the window of
        /// the series' start), `.some(nil)` when it is undefined.
        var sigma: Double??
        /// The volume-relation spread of that σ and the dollar volume (nil when either is).
        var relation: Double?
        /// The spread window's sample and state after it, from the feed's own window visiting
        /// every candidate in turn: the engine's, when its window was in the state the feed's
        /// was in before (it visited the previous candidate last, as crossing signals do).
        var spread: CandleEstimators.SpreadSample?
        var spreadAfter = SpreadWindow.State(start: 0, end: 0, added: 0, sum: 0, squares: 0)
    }

    /// Bars per published chunk (about 50 µs of pairs).
    static let chunk = SpreadPairs.chunk
    /// Shorter series compute their estimates in the engine (a thread costs more than it saves).
    static let minimumBars = 1 << 16

    /// Bars of the series.
    var count: Int { column.count }
    /// The spread window's length in bars (`Liquidity`'s), and a new window's state.
    let spreadWindow: Int
    private let firstSpreadState: SpreadWindow.State
    private let candles: CandleSeries
    private let model: SyntheticDepth
    private let fillsAtNextOpen: Bool
    /// The series' pairs, published chunk by chunk.
    let column: SpreadPairs
    /// The pair ending at bar k at `pairs[k]` (k ≥ 1; `pairs[0]` is 0).
    var pairs: UnsafeMutablePointer<Double> { column.values }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var handed: Signals?
    private var cancelled = false
    private var finished = false
    /// Bars below `published` have their pairs and, once `candidates` is set, their estimates.
    private var published = 0
    private var candidateBars: UnsafeMutablePointer<Int>?
    private var candidateCount = 0
    private var records: UnsafeMutablePointer<CandidateEstimates>?

    private init(candles: CandleSeries, model: SyntheticDepth, fillsAtNextOpen: Bool) {
        spreadWindow = Liquidity.spreadWindow(model, bars: candles.count)
        firstSpreadState = SpreadWindow(window: spreadWindow).state
        self.candles = candles
        self.model = model
        self.fillsAtNextOpen = fillsAtNextOpen
        column = SpreadPairs(count: candles.count)
    }

    deinit {
        candidateBars?.deallocate()
        records?.deallocate()  // `CandidateEstimates` is trivial: nothing to deinitialize
    }

    /// A feed for a run of `config` over `candles`, its producer started; nil when the run
    /// computes its estimates itself (see the type's conditions).
    static func start(_ candles: CandleSeries, config: ExecutionConfig, policy: Policy) -> EstimateFeed? {
        guard config.estimatesSpreadFromBars, candles.count >= 2 else { return nil }
        switch policy {
        case .never: return nil
        case .always: break
        case .automatic:
            guard candles.count >= minimumBars, ProcessInfo.processInfo.activeProcessorCount >= 2, Parallel.isIdle else { return nil }
        }
        let feed = EstimateFeed(candles: candles, model: config.synthetic, fillsAtNextOpen: config.fill == .nextOpen)
        // A thread of its own, not one of Dispatch's: the engine waits for it, and a pool whose
        // threads are all taken (by callers that run engines) might never start it.
        let thread = Thread { feed.produce() }
        thread.qualityOfService = .userInitiated
        thread.start()
        return feed
    }

    /// Hands over the run's signals: their bars name the candidates whose estimates are computed.
    func hand(_ signals: Signals) {
        condition.lock()
        handed = signals
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the producer at its next chunk (the run failed before it read the feed).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the producer has stopped.
    func finish() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Waits until bar `bar`'s chunk is published; returns the bars published (> `bar`).
    func waitPast(_ bar: Int) -> Int {
        precondition(bar >= 0 && bar < count, "a fill's bar must be one of the series'")
        condition.lock()
        defer { condition.unlock() }
        while published <= bar { condition.wait() }
        return published
    }

    /// The estimates of bar `bar` when it is a candidate, after `waitPast(bar)`, and the state
    /// of the feed's spread window before it; `cursor` is the caller's position in the
    /// candidates (bars are asked for in increasing order).
    @inline(__always)
    func estimates(at bar: Int, cursor: inout Int) -> (estimates: CandidateEstimates, spreadBefore: SpreadWindow.State)? {
        guard let bars = candidateBars else { return nil }
        while cursor < candidateCount && bars[cursor] < bar { cursor &+= 1 }
        guard cursor < candidateCount && bars[cursor] == bar else { return nil }
        return (records![cursor], cursor == 0 ? firstSpreadState : records![cursor &- 1].spreadAfter)
    }

    // MARK: - Producer

    private func produce() {
        let n = count
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: 2 * SpreadPairs.chunk + 2)
        defer {
            scratch.deallocate()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        var paired = 1, estimated = 0, next = 0
        var window = SpreadWindow(window: spreadWindow)
        var candidates: (bars: UnsafeMutablePointer<Int>, count: Int)?
        while estimated < n {
            condition.lock()
            if cancelled { condition.unlock(); return }
            if candidates == nil, let signals = handed {
                condition.unlock()
                let found = Self.candidates(signals, count: n, nextOpen: fillsAtNextOpen)
                records = .allocate(capacity: max(1, found.count))
                candidates = found
                condition.lock()
                candidateBars = found.bars
                candidateCount = found.count
            }
            if candidates == nil && paired >= n {
                // Every pair computed: wait for the signals (or the run's failure).
                condition.wait()
                condition.unlock()
                continue
            }
            condition.unlock()
            if let (bars, total) = candidates, estimated < paired {
                let end = min(paired, estimated + Self.chunk)
                let records = records!
                let from = next
                touchVolumes(from: estimated - model.impactWindow, to: end)
                while next < total && bars[next] < end {
                    // Two windows at a time where both take the common path.
                    if next + 1 < total && bars[next + 1] < end, let two = twoImpacts(at: (bars[next], bars[next + 1])) {
                        (records + next).initialize(to: two.0)
                        (records + next + 1).initialize(to: two.1)
                        next += 2
                    } else {
                        (records + next).initialize(to: impact(at: bars[next]))
                        next += 1
                    }
                }
                for i in from..<next {
                    records[i].spread = window.sample(pairs: pairs, before: bars[i])
                    records[i].spreadAfter = window.state
                }
                estimated = end
                condition.lock()
                published = end
                condition.broadcast()
                condition.unlock()
            } else {
                let end = min(n, paired + Self.chunk)
                column.compute(candles, from: paired, to: end, scratch: scratch)
                paired = end
            }
        }
    }

    /// The bars a signal is likely to fill on, in order: the bar after (at the next open), or
    /// the bar of (at the close), each bar where a signal turns on. A signal held for several
    /// bars fills at most once per turn of the position, most often on its first bar; crossing
    /// signals are on for one bar at a time, so every bar of theirs counts.
    static func candidates(_ s: Signals, count n: Int, nextOpen: Bool) -> (bars: UnsafeMutablePointer<Int>, count: Int) {
        // Short vectors default to the long ones, whose edges are counted already.
        let vectors = [s.entries, s.exits] + [s.shortEntries, s.shortExits].compactMap { $0 }
        let shift = nextOpen ? 1 : 0
        // Room for every bar: only the pages written are touched (counting the candidates first,
        // a software popcount on the baseline x86-64 target, cost half the search again).
        let bars = UnsafeMutablePointer<Int>.allocate(capacity: max(1, n))
        // Eight bars per load: a byte of `on & ~before` is 1 where a signal turns on (Bool is
        // one byte, 0 or 1; the byte before bar 0 counts as off).
        var turns = [UInt64](repeating: 0, count: (n + 7) / 8)
        for vector in vectors {
            vector.withUnsafeBytes { raw in
                var i = 0
                while i + 8 <= n {
                    let on = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    let before = i == 0 ? on << 8 : UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i - 1, as: UInt64.self))
                    turns[i / 8] |= on & ~before
                    i += 8
                }
                for k in i..<n where raw[k] != 0 && (k == 0 || raw[k - 1] == 0) { turns[k / 8] |= 1 << UInt64(8 * (k % 8)) }
            }
        }
        var found = 0
        for (w, word) in turns.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let t = 8 * w + bits.trailingZeroBitCount / 8
                if t + shift < n { bars[found] = t + shift; found += 1 }
                bits &= bits &- 1
            }
        }
        return (bars, found)
    }

    /// Reads the volumes of bars `from..<to` in order, so the impact windows that follow find
    /// them in cache: the pairs never read volume, and windows ~26 bars apart defeat the
    /// hardware's prefetching (a window's volumes were most of its time).
    private func touchVolumes(from: Int, to: Int) {
        let lo = max(0, from), hi = min(to, count)
        guard lo < hi else { return }
        var sum = 0.0
        candles.volume.withUnsafeBufferPointer { v in
            var k = lo
            while k < hi { sum += v[k]; k &+= 8 }  // one load per cache line
        }
        volumeSink = sum
    }

    /// Keeps `touchVolumes`' loads from being removed.
    private var volumeSink = 0.0

    /// `impact(at:)` of two bars from `CandleEstimators.impactWindows` (nil where it gives none).
    private func twoImpacts(at bars: (Int, Int)) -> (CandidateEstimates, CandidateEstimates)? {
        guard model.volumeRelation else { return nil }
        guard let two = candles.close.withUnsafeBufferPointer({ close in
            candles.volume.withUnsafeBufferPointer { volume in
                CandleEstimators.impactWindows(close, volume, before: bars, window: model.impactWindow)
            }
        }) else { return nil }
        func impact(_ w: (sigma: Double, volume: Double, dollars: Double)) -> CandidateEstimates {
            CandidateEstimates(volume: w.volume, dollars: w.dollars, sigma: .some(w.sigma),
                               relation: CandleEstimators.volumeRelationSpread(sigma: w.sigma, dollarVolume: w.dollars))
        }
        return (impact(two.0), impact(two.1))
    }

    /// What `Liquidity` computes for the impact window of a fill on `bar`, and its volume relation.
    private func impact(at bar: Int) -> CandidateEstimates {
        let w = model.impactWindow(candles, before: bar)
        var result = CandidateEstimates(volume: w.volume, dollars: w.dollars, sigma: w.sigma)
        if case .some(.some(let sigma)) = w.sigma, let d = w.dollars {
            result.relation = CandleEstimators.volumeRelationSpread(sigma: sigma, dollarVolume: d)
        }
        return result
    }
}
