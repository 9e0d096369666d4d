/// The vectorized backtest engine: signal vectors in, a per-bar ledger with fills and trades out.
public enum Engine {
    /// Simulates `request`: its signals traded over its window's bars under its configuration,
    /// starting flat (docs/design/orders.md). The one entry point of every front end.
    ///
    /// Semantics, per bar t (signals at t use data up to t's close):
    /// - `.nextOpen`: an order decided at t executes at bar t+1's open (reference price
    ///   `open[t+1]`); a signal on the last bar never fills. `.close`: it executes at `close[t]`.
    /// - Flat: an entry opens a long (or, with `allowShort`, a short entry opens a short). In a
    ///   position, entries of the same side are ignored (or, with `pyramid` N, add to it up to N
    ///   entries); an exit closes the whole position and, with `allowShort`, reverses it. An
    ///   entry and exit on the same bar cancel (as vectorbt).
    /// - Limit and stop entries (`config.entries`) are placed at the signal bar with prices read
    ///   there and work on the next `orderBars` bars; see `WorkingEntry`.
    /// - An exit that fills only partly (book or participation cap) keeps working: the remainder
    ///   is re-sent at each following fill bar until flat.
    /// - The exits attached to the position (`config.exits`) are checked on every bar of it, the
    ///   open first, then the range (`PositionLedger.checkLevels`); the peak, the trailing stop
    ///   and the break-even move follow each completed bar.
    /// - Borrow (`config.borrowBps`): a short held at bar t's close, after the bar's fills (one
    ///   opened at t's open or close included, one closed or reversed at t not), pays
    ///   borrowRate × |position| × close[t] × bar t's duration in days / 365
    ///   (`PositionLedger.chargeBorrow`) from cash at that close, so the charges compound.
    /// - A margin account (`config.isMarginAccount`; docs/design/orders.md, "Margin"): after the
    ///   open's fills, a perpetual's funding rows of the bar are settled and the position is
    ///   liquidated when the open or the bar's adverse extreme passes its liquidation price
    ///   (`Broker.settleOpen`); after one that leaves equity at 0 or below, no more orders.
    ///   Margin interest on cash below 0 is charged at the close with the borrow.
    /// - The ledger records cash, position and equity = cash + position × close at each close
    ///   (contracts: × multiplier; inverse contracts, in the coin: cash − position × multiplier / close).
    ///
    /// - Complexity: O(n) with no allocation per bar; each fill costs O(book levels) (the
    ///   series' spread pairs, when the cache has none yet, O(series)).
    /// - Throws: `InputError` when `config` has an out-of-range value, or from an expression's
    ///   indicator.
    public static func run(_ request: Request) throws -> BacktestResult {
        let config = request.config, window = request.window, series = window.series, candles = window.candles
        try config.validate()
        try config.validatePrices(candles)
        precondition(request.signals.count == series.count, "signals must have one element per bar of the window's series")
        let signals = window.start > 0 ? request.signals.slice(window.range) : request.signals
        // The order and exit expressions on the whole series (they keep its warm-up), and at
        // synthetic depth with an estimated spread the series' pairs: both from the cache, once
        // for every run that shares it.
        let inputs = try OrderInputs(config, candles: series, cache: request.cache, runBars: candles.count)
        let pairs = config.estimatesSpreadFromBars ? request.cache.spreadPairs(of: series) : nil
        var broker = Broker(config: config, candles: candles, distances: inputs.distances, entryPrices: inputs.entryPrices,
                            pairs: pairs)
        if signals.positionRules != nil { broker.ledger.exits.tracksPeak = true }
        let n = candles.count
        let shortEntries = signals.shortEntries ?? signals.exits
        let shortExits = signals.shortExits ?? signals.entries
        var cash = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        var position = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        var equity = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        // The order loop is compiled twice, with and without the account's bar events
        // (`AccountEvents`), so runs without them keep the loop they had (`Loop`).
        switch Loop(broker) {
        case .classic: simulateClassic(&broker, candles, signals, shortEntries, shortExits, &cash, &position, &equity)
        case .orders:
            if config.instrument.isInverse {
                simulateWithOrders(&broker, candles, signals, shortEntries, shortExits, &cash, &position, &equity, account: InverseAccountEvents.self)
            } else if config.hasAccountEvents {
                simulateWithOrders(&broker, candles, signals, shortEntries, shortExits, &cash, &position, &equity, account: WithAccountEvents.self)
            } else {
                simulateWithOrders(&broker, candles, signals, shortEntries, shortExits, &cash, &position, &equity, account: NoAccountEvents.self)
            }
        }
        if n > 0 { broker.finishOpenTrade(lastBar: n - 1) }
        // Contracts: what is held is worth position × multiplier × close (the statistics' exposure;
        // inverse contracts, position × multiplier / close coins).
        let value = config.instrument.isInverse ? zip(position, candles.close).map { $0 * config.multiplier / $1 }
            : config.multiplier == 1 ? nil : zip(position, candles.close).map { $0 * config.multiplier * $1 }
        broker.ledger.liquidity.rememberEnd()
        return BacktestResult(
            candles: candles, initialCash: config.initialCash, cash: cash, position: position, equity: equity,
            trades: broker.trades, fills: broker.fills, rejected: broker.rejected,
            ambiguousExitBars: broker.ambiguousExitBars, warnings: warnings(broker, candles: candles, config: config) + signals.unaligned.compactMap(\.warning) + window.splitWarning,
            positionValue: value,
            spreadEstimate: broker.liquidity.spreadSummary(fills: broker.fills.count),
            borrowPaid: config.borrowBps > 0 ? broker.borrowPaid : nil,
            account: AccountSummary(broker.account, config: config, symbol: candles.symbol))
    }

    /// The bar loop a run takes, chosen here alone: the classic one for market orders with
    /// stop and target levels (most runs, which pay nothing for the rest), or the one for orders
    /// beyond them: time exits, the peak (a trailing stop, break-even, rules that read the
    /// position), limit and stop entries, pyramiding, the account's bar events (borrow on
    /// shorts, margin interest, funding, liquidation) and levels checked before a signal exit
    /// (`ExitRules.levelsBeforeSignalExit`), so the classic loop carries no branch for them.
    enum Loop {
        case classic, orders

        init(_ broker: Broker) {
            let config = broker.config
            let beyond = config.exits.exitAfterBars != nil || broker.ledger.exits.tracksPeak
                || !config.entries.isMarket || config.entries.pyramid > 1 || config.hasAccountEvents
                || config.exits.levelsBeforeSignalExit
            self = beyond ? .orders : .classic
        }
    }

    /// The bar loop of `run` for market orders with stop and target levels: fills `cash`,
    /// `position` and `equity` at each close. `simulateWithOrders` without the branches of
    /// the orders beyond these; `OrdersPropertyTests.loopsAgree` holds the two equal bit for
    /// bit where both apply.
    static func simulateClassic(
        _ broker: inout Broker, _ candles: CandleSeries, _ signals: Signals,
        _ shortEntries: [Bool], _ shortExits: [Bool], _ cash: inout [Double], _ position: inout [Double], _ equity: inout [Double]
    ) {
        let config = broker.config
        let n = candles.count
        let allowShort = config.allowShort
        let nextOpen = config.fill == .nextOpen
        let hasStops = !config.exits.isEmpty
        let barSeconds = candles.timeframe?.seconds ?? 1
        candles.open.withUnsafeBufferPointer { open in
        candles.close.withUnsafeBufferPointer { close in
        candles.time.withUnsafeBufferPointer { time in
        signals.entries.withUnsafeBufferPointer { entries in
        signals.exits.withUnsafeBufferPointer { exits in
        shortEntries.withUnsafeBufferPointer { shortIn in
        shortExits.withUnsafeBufferPointer { shortOut in
        cash.withUnsafeMutableBufferPointer { cashOut in
        position.withUnsafeMutableBufferPointer { positionOut in
        equity.withUnsafeMutableBufferPointer { equityOut in
            // The broker's state mirrored in locals: bars without an event touch only these.
            var pending = OrderAction.none
            var hasPending = false
            var c = broker.cash, p = broker.position, closing = false
            let entryBits = entries.baseAddress, exitBits = exits.baseAddress
            let shortInBits = shortIn.baseAddress, shortOutBits = shortOut.baseAddress
            var t = 0
            while t < n {
                // Quiet bars (nothing pending, no stop to watch, no signal) only record the ledger:
                // find the next signal eight bars per load, then write the run in flat loops.
                if !hasPending && !closing && !(hasStops && p != 0), let entryBits, let exitBits {
                    let end = allowShort
                        ? nextSignal(from: t, to: n, entryBits, exitBits, shortInBits!, shortOutBits!)
                        : nextSignal(from: t, to: n, entryBits, exitBits, entryBits, exitBits)
                    if end > t {
                        for i in t..<end {
                            cashOut[i] = c
                            positionOut[i] = p
                            equityOut[i] = c + p * close[i]
                        }
                        t = end
                        if t == n { break }
                    }
                }
                if hasPending {
                    broker.execute(pending, bar: t, reference: open[t], timeMs: time[t] &* 1000)
                    hasPending = false
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                if hasStops && p != 0, broker.ledger.watches(t) {
                    broker.checkStops(bar: t)
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                let e = entries[t], x = exits[t]
                let se = allowShort && shortIn[t], sx = allowShort && shortOut[t]
                if e || x || se || sx || closing {
                    let action = decide(position: p, closing: closing,
                                        entry: e && !x, exit: x && !e, shortEntry: se && !sx, shortExit: sx && !se)
                    if action != .none {
                        if nextOpen {
                            if t + 1 < n { pending = action; hasPending = true }
                        } else {
                            // The book as of the bar's last millisecond.
                            let closeMs = (t + 1 < n ? time[t + 1] : time[t] + barSeconds) &* 1000 - 1
                            broker.execute(action, bar: t, reference: close[t], timeMs: max(time[t] &* 1000, closeMs))
                            c = broker.cash; p = broker.position; closing = broker.closing
                        }
                    }
                }
                cashOut[t] = c
                positionOut[t] = p
                equityOut[t] = c + p * close[t]
                t &+= 1
            }
        }}}}}}}}}}
    }

    /// The bar loop of `run` for orders beyond the classic ones (time exits, the peak and
    /// trailing stop, break-even, limit and stop entries, pyramiding): fills `cash`, `position`
    /// and `equity` at each close.
    @inline(never)
    static func simulateWithOrders<A: AccountEvents>(
        _ broker: inout Broker, _ candles: CandleSeries, _ signals: Signals,
        _ shortEntries: [Bool], _ shortExits: [Bool], _ cash: inout [Double], _ position: inout [Double], _ equity: inout [Double],
        account: A.Type
    ) {
        let config = broker.config
        let n = candles.count
        let allowShort = config.allowShort
        let nextOpen = config.fill == .nextOpen
        let hasStops = !config.exits.isEmpty
        let carries = A.happen
        // Units of the underlying per unit held (a contract's; 1 keeps equity = cash + position × close exactly).
        let multiplier = config.multiplier
        // Inverse contracts are worth −position × multiplier / close coins (`ContractValue`): a
        // constant of the loop's instantiation, so linear runs compile without the branch.
        let inverse = A.inverse
        let timeExits = config.exits.exitAfterBars != nil
        let levelsFirst = hasStops && config.exits.levelsBeforeSignalExit
        let tracksPeak = broker.ledger.exits.tracksPeak
        let marketEntries = config.entries.isMarket
        let pyramid = config.entries.pyramid
        let barSeconds = candles.timeframe?.seconds ?? 1
        // Rules that read the position, by role; the short roles default to the long ones as the
        // vectors do (an exit reverses into a short, an entry back).
        let rules = signals.positionRules
        let entryRule = rules?.entry, exitRule = rules?.exit
        let shortEntryRule = rules?.shortEntry ?? (signals.shortEntries == nil ? exitRule : nil)
        let shortExitRule = rules?.shortExit ?? (signals.shortExits == nil ? entryRule : nil)
        let readsState = rules != nil
        // An entry rule that reads the state may fire on any bar; exit rules only in a position.
        let watchesFlat = entryRule != nil || (allowShort && shortEntryRule != nil)
        candles.open.withUnsafeBufferPointer { open in
        candles.close.withUnsafeBufferPointer { close in
        candles.time.withUnsafeBufferPointer { time in
        signals.entries.withUnsafeBufferPointer { entries in
        signals.exits.withUnsafeBufferPointer { exits in
        shortEntries.withUnsafeBufferPointer { shortIn in
        shortExits.withUnsafeBufferPointer { shortOut in
        cash.withUnsafeMutableBufferPointer { cashOut in
        position.withUnsafeMutableBufferPointer { positionOut in
        equity.withUnsafeMutableBufferPointer { equityOut in
            // The broker's state mirrored in locals: bars without an event touch only these.
            var pending = OrderAction.none
            var hasPending = false
            var c = broker.cash, p = broker.position, closing = false, working = false
            let entryBits = entries.baseAddress, exitBits = exits.baseAddress
            let shortInBits = shortIn.baseAddress, shortOutBits = shortOut.baseAddress
            var t = 0
            bars: while t < n {
                // Quiet bars (nothing pending or working, no exit to watch, no signal) only record
                // the ledger: find the next signal eight bars per load, then write the run in flat loops.
                if !hasPending && !closing && !working && !((hasStops || readsState) && p != 0) && !watchesFlat
                    && !(carries && p != 0),
                   let entryBits, let exitBits {
                    let end = allowShort
                        ? nextSignal(from: t, to: n, entryBits, exitBits, shortInBits!, shortOutBits!)
                        : nextSignal(from: t, to: n, entryBits, exitBits, entryBits, exitBits)
                    if end > t {
                        let c = c, p = p, value = p * multiplier
                        if inverse {
                            for i in t..<end { cashOut[i] = c; positionOut[i] = p; equityOut[i] = c - value / close[i] }
                        } else {
                            for i in t..<end {
                                cashOut[i] = c
                                positionOut[i] = p
                                equityOut[i] = c + value * close[i]
                            }
                        }
                        t = end
                        if t == n { break }
                    }
                }
                // The open: the order decided at the last close (an added entry is dropped when
                // the position leaves at this open), then a time exit due now.
                if hasPending {
                    if case .open = pending, p != 0, timeExits, broker.ledger.timeExitDue(t) {} else if levelsFirst,
                       case .close(reverse: false) = pending, p != 0, broker.ledger.watches(t) {
                        // `ExitRules.levelsBeforeSignalExit`: the attached exits on the whole bar, then the signal exit.
                        broker.checkStops(bar: t)
                        if broker.position != 0 { broker.execute(pending, bar: t, reference: open[t], timeMs: time[t] &* 1000) }
                    } else {
                        broker.execute(pending, bar: t, reference: open[t], timeMs: time[t] &* 1000)
                    }
                    hasPending = false
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                do {
                    if timeExits && nextOpen && p != 0 && !broker.closing && broker.ledger.timeExitDue(t) {
                        broker.exitAll(bar: t, reference: open[t], timeMs: time[t] &* 1000, kind: .time)
                    }
                    // The account's: funding due in the bar, then liquidation, on what the open left.
                    if carries && broker.position != 0 {
                        broker.settleOpen(bar: t)
                        if broker.account.stoppedAt != nil {
                            // Equity gone: no order after this bar.
                            let c = broker.cash
                            for i in t..<n { cashOut[i] = c; positionOut[i] = 0; equityOut[i] = c }
                            break bars
                        }
                    }
                    if working {
                        broker.work(t)
                        working = broker.working != nil
                    }
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                // The range: the exits attached to the position.
                if hasStops && p != 0, broker.ledger.watches(t) {
                    broker.checkStops(bar: t)
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                // The close: the peak and trailing stop, then the signals.
                // A fill at the close takes the book as of the bar's last millisecond.
                @inline(__always) func closeMs() -> Int64 {
                    max(time[t] &* 1000, (t + 1 < n ? time[t + 1] : time[t] + barSeconds) &* 1000 - 1)
                }
                if tracksPeak && p != 0 { broker.ledger.closeBar(t) }
                var e = entries[t], x = exits[t]
                var se = allowShort && shortIn[t], sx = allowShort && shortOut[t]
                if readsState {
                    // The position-aware series at this close, after the bar's fills.
                    let state = broker.ledger.positionState(at: t)
                    if let r = entryRule, r.isTrue(at: t, state) { e = true }
                    if let r = exitRule, r.isTrue(at: t, state) { x = true }
                    if allowShort {
                        if let r = shortEntryRule, r.isTrue(at: t, state) { se = true }
                        if let r = shortExitRule, r.isTrue(at: t, state) { sx = true }
                    }
                }
                if e || x || se || sx || closing {
                    let adds = pyramid > 1 && p != 0 && (broker.ledger.trip?.entries ?? 0) < pyramid
                    var action = decide(position: p, closing: closing, entry: e && !x, exit: x && !e,
                                        shortEntry: se && !sx, shortExit: sx && !se, adds: adds)
                    if !marketEntries {
                        // Limit and stop entries work from the next bar; an exit while flat cancels one.
                        switch action {
                        case .open(let side):
                            broker.place(side, signalBar: t)
                            action = .none
                        case .close(reverse: true):
                            broker.place(p > 0 ? .short : .long, signalBar: t)
                            action = .close(reverse: false)
                        case .close(reverse: false):
                            if !closing { broker.working = nil }
                        case .none:
                            if p == 0, let w = broker.working, w.side == .long ? (x && !e) : (sx && !se) { broker.working = nil }
                        }
                        working = broker.working != nil
                    }
                    if action != .none {
                        if nextOpen {
                            if t + 1 < n { pending = action; hasPending = true }
                        } else {
                            broker.execute(action, bar: t, reference: close[t], timeMs: closeMs())
                            c = broker.cash; p = broker.position; closing = broker.closing
                        }
                    }
                }
                // A time exit due at this close (close fills), after a signal exit, which has priority.
                if timeExits && !nextOpen && p != 0 && !closing && broker.ledger.timeExitDue(t) {
                    broker.exitAll(bar: t, reference: close[t], timeMs: closeMs(), kind: .time)
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                // What the position held at this close pays for the bar: borrow, interest.
                if carries && p != 0 {
                    broker.closeAccount(bar: t)
                    c = broker.cash
                }
                cashOut[t] = c
                positionOut[t] = p
                equityOut[t] = inverse ? c - p * multiplier / close[t] : c + p * multiplier * close[t]
                t &+= 1
            }
        }}}}}}}}}}
    }

    /// Orders partly filled or rejected at or above this share of all orders get a warning.
    public static let heavyShare = 0.1

    /// What the run's statistics do not say: missing volume, heavy partial fills or rejections,
    /// stale levels of a recorded book.
    static func warnings(_ broker: Broker, candles: CandleSeries, config: ExecutionConfig) -> [RunWarning] {
        var out: [RunWarning] = []
        let capOn = (config.maxParticipation ?? 0) > 0
        var modelUsesVolume = false
        if case .synthetic = config.depth, !config.synthetic.usesProfile { modelUsesVolume = true }
        if (capOn || modelUsesVolume) && !candles.isEmpty && !candles.volume.contains(where: { $0 > 0 && $0.isFinite }) {
            var parts: [String] = []
            if capOn { parts.append("the participation cap") }
            if modelUsesVolume { parts.append("market impact") }
            out.append(RunWarning(.noVolume, "the candles have no volume: " + parts.joined(separator: " and ")
                + " \(parts.count > 1 ? "are" : "is") off" + (modelUsesVolume ? ", so fills pay the spread only" : "")))
        } else {
            var parts: [String] = []
            if broker.barsWithoutVolume > 0 {
                parts.append("\(broker.barsWithoutVolume) fill bar\(broker.barsWithoutVolume == 1 ? "" : "s") had no volume (no participation cap there)")
            }
            if modelUsesVolume && broker.liquidity.fillsWithoutVolume > 0 {
                let k = broker.liquidity.fillsWithoutVolume
                parts.append("\(k) fill\(k == 1 ? "" : "s") had no volume in the bars before (no market impact)")
            }
            if !parts.isEmpty { out.append(RunWarning(.missingVolume, parts.joined(separator: "; "))) }
        }
        let orders = broker.fills.count + broker.rejected.count
        var partial = 0, filledShare = 0.0
        for f in broker.fills where f.isPartial {
            partial += 1
            filledShare += f.quantityFilled / f.quantityAsked
        }
        if orders > 0, partial > 0, Double(partial) >= heavyShare * Double(orders) {
            let share = filledShare / Double(partial)
            out.append(RunWarning(.partialFills, "\(partial) of \(orders) orders filled only partly "
                + "(on average \(NumberText.percent(share)) of the quantity asked): positions are smaller than the "
                + "sizing asks; see partial_fills, avg_position_share and fills.csv"))
        }
        if let cut = broker.ledger.cuts.warning { out.append(cut) }
        if orders > 0, !broker.rejected.isEmpty, Double(broker.rejected.count) >= heavyShare * Double(orders) {
            let reasons = Dictionary(grouping: broker.rejected, by: \.reason).mapValues(\.count)
                .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            out.append(RunWarning(.rejections, "\(broker.rejected.count) of \(orders) orders were rejected ("
                + reasons.joined(separator: ", ") + ")"))
        }
        if broker.skippedEntries > 0 {
            out.append(.skippedEntries(broker.skippedEntries))
        }
        if broker.ledger.exits.unprotectedEntries.total > 0 {
            out.append(.unprotectedEntries(broker.ledger.exits.unprotectedEntries, rules: config.exits))
        }
        if broker.ledger.exits.unsetLevels.total > 0 {
            out.append(.unsetExitLevels(broker.ledger.exits.unsetLevels))
        }
        out += accountWarnings(broker, candles: candles, config: config)
        let stale = broker.liquidity.staleLevelsDropped
        if stale > 0 {
            out.append(RunWarning(.staleBook, "the recorded book crossed itself: \(stale) stale level\(stale == 1 ? " was" : "s were") "
                + "dropped (at a crossed or locked touch, the side set by the older event)"))
        }
        return out
    }

    /// The first bar in `start..<n` where any of the four signal vectors is true, or `n`.
    /// Reads eight bars of each vector per load (a Swift `Bool` is one byte, 0 or 1).
    @inline(__always)
    static func nextSignal(
        from start: Int, to n: Int,
        _ a: UnsafePointer<Bool>, _ b: UnsafePointer<Bool>, _ c: UnsafePointer<Bool>, _ d: UnsafePointer<Bool>
    ) -> Int {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), rc = UnsafeRawPointer(c), rd = UnsafeRawPointer(d)
        var i = start
        while i &+ 8 <= n {
            let word = ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) | rb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                | rc.loadUnaligned(fromByteOffset: i, as: UInt64.self) | rd.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if word != 0 { return i &+ (UInt64(littleEndian: word).trailingZeroBitCount &>> 3) }
            i &+= 8
        }
        while i < n {
            if a[i] || b[i] || c[i] || d[i] { return i }
            i &+= 1
        }
        return n
    }

    /// The order a bar's (de-conflicted) signals ask for, given the current position; `adds`:
    /// an entry on the position's side adds to it (`--pyramid`).
    @inline(__always)
    static func decide(position: Double, closing: Bool, entry: Bool, exit: Bool,
                       shortEntry: Bool, shortExit: Bool, adds: Bool = false) -> OrderAction {
        if closing { return .close(reverse: false) }
        if position > 0 { return exit || shortEntry ? .close(reverse: shortEntry) : adds && entry ? .open(.long) : .none }
        if position < 0 { return shortExit || entry ? .close(reverse: entry) : adds && shortEntry ? .open(.short) : .none }
        if entry && !shortEntry { return .open(.long) }
        if shortEntry && !entry { return .open(.short) }
        return .none
    }
}

/// Whether a bar loop has the account's bar events (`ExecutionConfig.hasAccountEvents`: borrow,
/// margin interest, funding, liquidation), as a type, so `Engine.simulateWithOrders` without them
/// is compiled without their branches (the classic loop has none: `Engine.Loop` sends runs with
/// them to the order loop).
protocol AccountEvents {
    static var happen: Bool { get }
    /// The account is an inverse contract's, in the coin: equity is cash − position × multiplier / close.
    static var inverse: Bool { get }
}
/// The loop settles a position's bars (`Broker.settleOpen`, `Broker.closeAccount`).
enum WithAccountEvents: AccountEvents { static var happen: Bool { true }; static var inverse: Bool { false } }
/// An inverse perpetual's loop: the account's events, equity in the coin.
enum InverseAccountEvents: AccountEvents { static var happen: Bool { true }; static var inverse: Bool { true } }
/// A cash account without borrow: nothing happens to a position but its fills.
enum NoAccountEvents: AccountEvents { static var happen: Bool { false }; static var inverse: Bool { false } }
