/// The vectorized backtest engine: signal vectors in, a per-bar ledger with fills and trades out.
public enum Engine {
    /// Simulates `signals` on `candles` under `config`.
    ///
    /// Semantics, per bar t (signals at t use data up to t's close):
    /// - `.nextOpen`: an order decided at t executes at bar t+1's open (reference price
    ///   `open[t+1]`); a signal on the last bar never fills. `.close`: it executes at `close[t]`.
    /// - Flat: an entry opens a long (or, with `allowShort`, a short entry opens a short). In a
    ///   position, entries of the same side are ignored; an exit closes the whole position and,
    ///   with `allowShort`, reverses it. An entry and exit on the same bar cancel (as vectorbt).
    /// - An exit that fills only partly (book or participation cap) keeps working: the remainder
    ///   is re-sent at each following fill bar until flat.
    /// - Stops are checked on every bar's high and low once the position exists (from the fill
    ///   bar itself for next-open fills, from the next bar for close fills); see
    ///   `Broker.checkStops`.
    /// - The ledger records cash, position and equity = cash + position × close at each close.
    ///
    /// - Complexity: O(n) with no allocation per bar; each fill costs O(book levels).
    /// - Throws: `InputError` when `config` has an out-of-range value.
    public static func run(_ candles: CandleSeries, signals: Signals, config: ExecutionConfig) throws -> BacktestResult {
        try config.validate()
        precondition(signals.count == candles.count, "signals must have one element per bar")
        let n = candles.count
        var broker = Broker(config: config, candles: candles)
        let allowShort = config.allowShort
        let nextOpen = config.fill == .nextOpen
        let hasStops = config.stopLoss != nil || config.takeProfit != nil
        let shortEntries = signals.shortEntries ?? signals.exits
        let shortExits = signals.shortExits ?? signals.entries
        let barSeconds = candles.timeframe?.seconds ?? 1

        var cash = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        var position = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        var equity = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }

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
            for t in 0..<n {
                if hasPending {
                    broker.execute(pending, bar: t, reference: open[t], time: time[t])
                    hasPending = false
                    c = broker.cash; p = broker.position; closing = broker.closing
                }
                if hasStops && p != 0, let entry = broker.entryIndex, nextOpen || entry < t {
                    broker.checkStops(bar: t, heldBeforeBar: entry < t)
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
                            let closeTime = t + 1 < n ? time[t + 1] - 1 : time[t] + barSeconds - 1
                            broker.execute(action, bar: t, reference: close[t], time: max(time[t], closeTime))
                            c = broker.cash; p = broker.position; closing = broker.closing
                        }
                    }
                }
                cashOut[t] = c
                positionOut[t] = p
                equityOut[t] = c + p * close[t]
            }
        }}}}}}}}}}
        if n > 0 { broker.finishOpenTrade(lastBar: n - 1) }
        return BacktestResult(
            candles: candles, initialCash: config.initialCash, cash: cash, position: position, equity: equity,
            trades: broker.trades, fills: broker.fills, rejected: broker.rejected,
            ambiguousExitBars: broker.ambiguousExitBars)
    }

    /// The order a bar's (de-conflicted) signals ask for, given the current position.
    @inline(__always)
    static func decide(position: Double, closing: Bool, entry: Bool, exit: Bool,
                       shortEntry: Bool, shortExit: Bool) -> OrderAction {
        if closing { return .close(reverse: false) }
        if position > 0 { return exit || shortEntry ? .close(reverse: shortEntry) : .none }
        if position < 0 { return shortExit || entry ? .close(reverse: entry) : .none }
        if entry && !shortEntry { return .open(.long) }
        if shortEntry && !entry { return .open(.short) }
        return .none
    }
}
