/// The portfolio's bar-by-bar loop: the planner (slots, ranks, rebalancing, rotation) and the
/// shared-cash executor over the portfolio clock. `Portfolio.run` documents the semantics.
struct PortfolioSimulation {
    enum Mode {
        case signals
        case rotation
        /// Given target orders, sorted by row then symbol (the executor alone).
        case table([PortfolioOrder])

        var isRotation: Bool { if case .rotation = self { return true } else { return false } }
    }

    /// What the planner keeps per symbol (the position itself is the symbol's `PositionLedger`).
    struct SymbolState {
        /// The first own bar whose time is at or after the current row's (advanced on demand).
        var cursor = 0
        /// Holds a slot (a filled entry, until its exit is sent or a stop hits).
        var held = false
        /// The slot held is a short one (`--short`).
        var short = false
        var inActive = false
        var rowsHeld = 0
        var skipped = 0
    }

    /// An order of the current row.
    struct PendingOrder {
        var symbol: Int
        var bar: Int
        var weight: Double
        var reason: PortfolioOrder.Reason
        var price = 0.0
        var key = 0.0
    }

    /// A symbol competing for a slot.
    struct Candidate {
        var symbol: Int
        var bar: Int
        var rank: Double
        var sigma: Double
    }

    let candles: [CandleSeries]
    let ranks: [[Double]?]
    let volatility: [[Double]]?
    let config: ExecutionConfig
    let rules: PortfolioRules
    let slots: Int
    let clock: PortfolioClock
    let nextOpen: Bool
    /// Each symbol's contract multiplier (`ExecutionConfig.multiplier`; 1 on spot): a position's
    /// value is quantity × multiplier × price.
    let multipliers: [Double]
    /// Each symbol's contract (`ContractValue`): linear, or an inverse contract's in the coin,
    /// where a position is worth −quantity × multiplier / price (every symbol settles in the one
    /// coin, `Portfolio.prepare`).
    let contracts: [ContractValue]
    /// The account's margin, funding, borrow and interest (`PortfolioAccount`); nil for a cash
    /// account without borrow, whose loop has none of them.
    var account: PortfolioAccount?
    let mode: Mode
    /// Where each symbol's fills get their liquidity (`PortfolioSymbol.liquidity`, else `config`).
    let liquidityConfigs: [ExecutionConfig]
    /// Whether positions have exits attached (`config.exits`).
    let hasExits: Bool
    /// Each symbol's exit rule that reads its position (`trade_return > 0.05`), with its entry
    /// vector (an entry on the same bar cancels it, as `Engine.run` has it); nil when none has one.
    let exitRules: [(rule: PositionRule, entries: [Bool])?]?
    /// Symbols whose exit rule fired at their last close: they exit at their next fill.
    var ruleExits: [Bool]
    /// Each symbol's limit and stop prices (nil: market entries).
    let entryPrices: [EntryPrices]?
    /// Each symbol's working limit or stop entry and the weight it was given (its slot is booked).
    var working: [(order: WorkingEntry, weight: Double)?]
    /// Entries whose limit or stop price, stop distance or volatility was not a positive number
    /// at the signal bar.
    var unpricedEntries = 0
    /// Entries each held position took (`--pyramid`; empty when 1): its target is that many
    /// weights.
    var stack: [Int]
    /// `--size vol:`: each symbol's standard deviation of the last 20 one-bar returns.
    let sizingVolatility: [[Double]]?
    let entries: PortfolioEvents
    let exits: PortfolioEvents
    /// With shorts (`config.allowShort`): short entry and short exit events (the signals' short
    /// vectors, else their exits and entries, as `Engine.run` reads them); nil without.
    let shortEvents: (entries: PortfolioEvents, exits: PortfolioEvents)?
    /// Short slots held (`--short`: up to `slots` of each side).
    var heldShorts = 0
    /// A neutral book's longs and shorts when it was last balanced, and whether a held symbol
    /// had no bar then (`balance`).
    var neutralLegs = (0, 0)
    var neutralPending = false
    /// Scratch: symbols whose position this row's order closes and reverses.
    var reversing: [Bool]
    let rebalanceRow: [Bool]

    /// Each symbol's position in the execution core, with its liquidity model.
    var ledgers: [PositionLedger]
    var state: [SymbolState]
    var cash: Double
    var log: PortfolioLog
    /// Symbols with a position, ascending (the order every sum over positions runs in).
    var active: [Int] = []
    var heldCount = 0
    var tableCursor = 0

    // Scratch buffers, reused every row.
    var orders: [PendingOrder] = []
    var candidates: [Candidate] = []
    var weightOf: [Double]
    /// Per-symbol marks for the planner (chosen by a rotation, has an order on the row).
    var chosen: [Bool]

    // Outputs.
    var outCash: [Double] = []
    var outEquity: [Double] = []
    var outValue: [Double] = []
    var outCount: [Int] = []
    var plannedOrders: [PortfolioOrder] = []
    var skippedEntries = 0
    var fills: [PortfolioFill] { log.fills }
    var trades: [PortfolioTrade] { log.trades }
    var rejected: [PortfolioRejection] { log.rejected }
    var ambiguousExitBars: Int { ledgers.reduce(0) { $0 + $1.ambiguousExitBars } }

    init(_ symbols: [PortfolioSymbol], rules: PortfolioRules, config: ExecutionConfig, mode: Mode,
         inputs: [OrderInputs]? = nil) {
        candles = symbols.map(\.candles)
        ranks = symbols.map(\.rank)
        self.config = config
        self.rules = rules
        self.mode = mode
        slots = rules.slots(symbols: symbols.count)
        nextOpen = config.fill == .nextOpen
        clock = PortfolioClock(candles.map(\.time))
        cash = config.initialCash
        let m = symbols.count
        state = [SymbolState](repeating: SymbolState(), count: m)
        liquidityConfigs = symbols.map { $0.liquidity ?? config }
        let configs = symbols.map { config.trading($0.liquidity) }
        ledgers = symbols.indices.map { j in
            PositionLedger(symbol: j, candles: symbols[j].candles, config: configs[j], liquidity: symbols[j].liquidity,
                           distances: inputs?[j].distances ?? .init())
        }
        multipliers = configs.map(\.multiplier)
        contracts = configs.map(ContractValue.init)
        // Borrow charges shorts only: a cash account of longs keeps the loop it had.
        account = configs.contains(where: \.isMarginAccount) || (config.allowShort && config.borrowBps > 0)
            ? PortfolioAccount(configs, leverage: config.leverage, mode: config.margin, marginRate: config.marginRate,
                               borrowRate: config.borrowRate, clock: clock, timeframe: symbols.count == 1 ? symbols[0].candles.timeframe : nil)
            : nil
        hasExits = !config.exits.isEmpty
        entryPrices = config.entries.isMarket ? nil : inputs?.map { $0.entryPrices! }
        working = [(order: WorkingEntry, weight: Double)?](repeating: nil, count: entryPrices == nil ? 0 : m)
        stack = [Int](repeating: 0, count: config.entries.pyramid > 1 ? m : 0)
        if case .volatility = config.sizing {
            sizingVolatility = symbols.map { s in  // from the history's bars when the candles are its end (warm-up)
                Array(PortfolioRules.volatility((s.history ?? s.candles).close).suffix(s.candles.count)).map { $0 / 100 }
            }
        } else {
            sizingVolatility = nil
        }
        log = PortfolioLog(initialCash: config.initialCash)
        let exitRules = symbols.map { s in s.signals.flatMap { signals in signals.positionRules?.exit.map { (rule: $0, entries: signals.entries) } } }
        self.exitRules = exitRules.contains { $0 != nil } ? exitRules : nil
        ruleExits = [Bool](repeating: false, count: self.exitRules == nil ? 0 : m)
        for j in ledgers.indices where exitRules[j] != nil { ledgers[j].exits.tracksPeak = true }
        weightOf = [Double](repeating: .nan, count: m)
        chosen = [Bool](repeating: false, count: m)
        volatility = rules.weighting == .inverseVolatility ? symbols.map { s in
            s.volatility ?? Array(PortfolioRules.volatility((s.history ?? s.candles).close).suffix(s.candles.count))
        } : nil
        rebalanceRow = clock.rebalanceRows(rules.rebalance)
        var entries = (symbols: [Int32](), bars: [Int32](), rows: [Int32]())
        var exits = entries, shortEntries = entries, shortExits = entries
        if case .signals = mode {
            let clock = self.clock, nextOpen = config.fill == .nextOpen
            for (j, s) in symbols.enumerated() {
                guard let signals = s.signals else { continue }
                let time = s.candles.time, n = time.count
                for k in 0..<n {
                    let e = signals.entries[k], x = signals.exits[k]
                    guard e != x else { continue }  // none, or both: an entry and an exit cancel
                    let fillBar = nextOpen ? k + 1 : k
                    guard fillBar < n else { continue }
                    let row = Int32(clock.row(of: time[fillBar]))
                    if e {
                        entries.symbols.append(Int32(j)); entries.bars.append(Int32(k)); entries.rows.append(row)
                    } else {
                        exits.symbols.append(Int32(j)); exits.bars.append(Int32(k)); exits.rows.append(row)
                    }
                }
                guard config.allowShort else { continue }
                let se = signals.shortEntries ?? signals.exits, sx = signals.shortExits ?? signals.entries
                for k in 0..<n where se[k] != sx[k] {
                    let fillBar = nextOpen ? k + 1 : k
                    guard fillBar < n else { continue }
                    let row = Int32(clock.row(of: time[fillBar]))
                    if se[k] {
                        shortEntries.symbols.append(Int32(j)); shortEntries.bars.append(Int32(k)); shortEntries.rows.append(row)
                    } else {
                        shortExits.symbols.append(Int32(j)); shortExits.bars.append(Int32(k)); shortExits.rows.append(row)
                    }
                }
            }
        }
        self.entries = PortfolioEvents(rows: clock.count, symbols: entries.symbols, bars: entries.bars, eventRows: entries.rows)
        self.exits = PortfolioEvents(rows: clock.count, symbols: exits.symbols, bars: exits.bars, eventRows: exits.rows)
        shortEvents = config.allowShort
            ? (PortfolioEvents(rows: clock.count, symbols: shortEntries.symbols, bars: shortEntries.bars, eventRows: shortEntries.rows),
               PortfolioEvents(rows: clock.count, symbols: shortExits.symbols, bars: shortExits.bars, eventRows: shortExits.rows))
            : nil
        reversing = [Bool](repeating: false, count: config.allowShort ? m : 0)
        // K may be any size (a weight is 1/K of the equity); what is reserved is bounded by the symbols.
        let held = min(slots, m)
        orders.reserveCapacity(max(16, min(m, 4 * held)))
        candidates.reserveCapacity(m)
        active.reserveCapacity(min(m, held + 8))
    }

    // MARK: - The loop

    mutating func run() -> PortfolioResult {
        let n = clock.count
        outCash = [Double](repeating: 0, count: n)
        outEquity = [Double](repeating: 0, count: n)
        outValue = [Double](repeating: 0, count: n)
        outCount = [Int](repeating: 0, count: n)
        for r in 0..<n {
            let t = clock.time[r]
            for j in active { advance(j, to: t) }
            // After a liquidation took the account's equity: no order, nothing held.
            if account?.stoppedAt == nil {
                if nextOpen {
                    plan(r, t)
                    executeOrders(r)
                    if account != nil { settleOpen(r, t) }
                    if entryPrices != nil { workEntries(r, t) }
                    checkStops(r, t)
                    closeBars(t)
                    readExitRules(t)
                } else {
                    if account != nil { settleOpen(r, t) }
                    if entryPrices != nil { workEntries(r, t) }
                    checkStops(r, t)
                    closeBars(t)
                    readExitRules(t)
                    plan(r, t)
                    executeOrders(r)
                    timeExitsAtClose(r, t)
                }
                if account != nil && account?.stoppedAt == nil { closeRow(r, t) }
            }
            mark(r, t)
        }
        return finish()
    }

    /// Moves symbol `j`'s cursor to its first bar at or after `t`.
    @inline(__always)
    mutating func advance(_ j: Int, to t: Int64) {
        let time = candles[j].time
        var c = state[j].cursor
        while c < time.count && time[c] < t { c += 1 }
        state[j].cursor = c
    }

    /// Whether symbol `j` (advanced to `t`) has a bar at `t`.
    @inline(__always)
    func hasBar(_ j: Int, _ t: Int64) -> Bool {
        let c = state[j].cursor
        return c < candles[j].count && candles[j].time[c] == t
    }

    /// The bar a decision for the current row reads (advanced to the row): the symbol's last bar
    /// before the row with next-open fills; with close fills its bar at the row (else the last).
    @inline(__always)
    func decisionBar(_ j: Int, hasBar: Bool) -> Int {
        let c = state[j].cursor
        return nextOpen || !hasBar ? c - 1 : c
    }

    /// The price symbol `j` trades at on its own bar `bar`: the open, or the close with close fills.
    @inline(__always)
    func reference(_ j: Int, _ bar: Int) -> Double {
        nextOpen ? candles[j].open[bar] : candles[j].close[bar]
    }

    /// What `quantity` of symbol `j` is worth at `price` (`ContractValue.value`: q × m × P, or
    /// −q × m / P in the coin).
    @inline(__always)
    func value(_ j: Int, _ quantity: Double, at price: Double) -> Double {
        contracts[j].value(quantity, at: price)
    }

    /// The notional of `quantity` of symbol `j` at `price`, signed as the quantity: q × m × P,
    /// or q × m / P coins.
    @inline(__always)
    func notional(_ j: Int, _ quantity: Double, at price: Double) -> Double {
        contracts[j].inverse ? quantity * multipliers[j] / price : quantity * multipliers[j] * price
    }

    /// The book time of a fill on symbol `j`'s bar: its open, or its bar's last millisecond.
    func fillTimeMs(_ j: Int, _ bar: Int) -> Int64 {
        let time = candles[j].time
        guard !nextOpen else { return time[bar] &* 1000 }
        let seconds = candles[j].timeframe?.seconds ?? 1
        let closeMs = (bar + 1 < time.count ? time[bar + 1] : time[bar] + seconds) &* 1000 - 1
        return max(time[bar] &* 1000, closeMs)
    }

    // MARK: - Marking

    /// Records the row's cash, equity (positions at their close, or last close without a bar),
    /// position value and count.
    private mutating func mark(_ r: Int, _ t: Int64) {
        var equity = cash, value = 0.0, count = 0
        for j in active {
            let c = state[j].cursor
            let close = candles[j].close
            let price = hasBar(j, t) ? close[c] : close[c - 1]
            let v = self.value(j, ledgers[j].quantity, at: price)
            equity += v
            value += abs(v)
            if ledgers[j].quantity != 0 {
                count += 1
                state[j].rowsHeld += 1
            }
        }
        outCash[r] = cash
        outEquity[r] = equity
        outValue[r] = value
        outCount[r] = count
    }

    /// The close of every held symbol with a bar at `t`: its peak, trailing stop and break-even
    /// move follow the bar (`PositionLedger.closeBar`).
    private mutating func closeBars(_ t: Int64) {
        for j in active where ledgers[j].exits.tracksPeak && hasBar(j, t) { ledgers[j].closeBar(state[j].cursor) }
    }

    /// Reads each held symbol's exit rule at its bar's close (after the bar's fills; with close
    /// fills, before this close's orders): one that fires exits at the symbol's next fill.
    private mutating func readExitRules(_ t: Int64) {
        guard let exitRules else { return }
        for j in active where state[j].held && !ledgers[j].closing && hasBar(j, t) {
            guard let (rule, entries) = exitRules[j] else { continue }
            let bar = state[j].cursor
            if !entries[bar] && rule.isTrue(at: bar, ledgers[j].positionState(at: bar)) { ruleExits[j] = true }
        }
    }

    /// Adds symbols that hold a position to `active` and removes those that no longer do,
    /// keeping it in ascending order.
    mutating func updateActive(_ j: Int) {
        let holds = ledgers[j].quantity != 0
        if holds && !state[j].inActive {
            var i = active.count
            while i > 0 && active[i - 1] > j { i -= 1 }
            active.insert(j, at: i)
            state[j].inActive = true
        } else if !holds && state[j].inActive {
            if let i = active.firstIndex(of: j) { active.remove(at: i) }
            state[j].inActive = false
            if !stack.isEmpty { stack[j] = 0 }
        }
    }
}

/// A portfolio's record of fills, round trips and rejections, by symbol.
struct PortfolioLog: ExecutionRecorder {
    var fills: [PortfolioFill] = []
    var trades: [PortfolioTrade] = []
    var rejected: [PortfolioRejection] = []
    #if DEBUG
    /// The cash rebuilt from the fills alone (`PortfolioSimulation.ledgerViolations`).
    var ledgerCash: Double
    #endif

    init(initialCash: Double) {
        #if DEBUG
        ledgerCash = initialCash
        #endif
    }

    mutating func record(fill: Fill, symbol: Int, bar: Int) {
        fills.append(PortfolioFill(symbol: symbol, bar: bar, fill: fill))
        #if DEBUG
        let signed = fill.side == .buy ? fill.quantityFilled : -fill.quantityFilled
        ledgerCash -= (fill.inverse ? -signed * fill.multiplier / fill.vwap : signed * fill.vwap * fill.multiplier) + fill.fee
        #endif
    }

    /// A charge to cash outside the fills (funding, borrow, interest; negative: received).
    mutating func record(charge amount: Double) {
        #if DEBUG
        ledgerCash -= amount
        #endif
    }

    mutating func record(trade: Trade, symbol: Int, entryBar: Int, exitBar: Int, entries: Int, exits: Int) {
        trades.append(PortfolioTrade(symbol: symbol, entryBar: entryBar, exitBar: exitBar, trade: trade, buys: entries, sells: exits))
    }

    mutating func record(rejection: RejectedOrder, symbol: Int, bar: Int) {
        rejected.append(PortfolioRejection(symbol: symbol, bar: bar, order: rejection))
    }
}
