/// Direction of a position.
public enum PositionSide: String, Sendable, Codable { case long, short }

/// One executed order (possibly partial): what was asked, what the book gave, what it cost.
public struct Fill: Sendable, Equatable {
    /// Bar index and UTC time of the fill bar.
    public var index: Int
    public var time: Int64
    public var side: OrderSide
    /// An inverse contract's fill (`Instrument.inversePerp`): its quantity is contracts of
    /// `multiplier` quote units, its cash figures (fee, spread, slippage) are in the base coin.
    /// (Beside `side`, in its padding: a fill stays the size it was.)
    public var inverse: Bool
    /// The price the order referenced (next open or this close) before depth and spread.
    public var referencePrice: Double
    /// Volume-weighted average price actually paid or received.
    public var vwap: Double
    /// Cost of depth against the reference, in basis points, positive when it hurt.
    public var slippageBps: Double
    public var quantityAsked: Double
    public var quantityFilled: Double
    public var fee: Double
    /// Quantity resting on the side the order walked, after earlier fills' depletion
    /// (infinity with `--depth none` and for buys through the model book). `quantityFilled`
    /// never exceeds it.
    public var depthAvailable: Double
    /// The half-spread part of the slippage, in cash (>= 0): quantity times the distance from the
    /// mid (recorded book) or the reference (model book, fixed slippage) to the touch.
    public var spreadCost: Double
    /// Units of the underlying in a unit of quantity (a contract's multiplier; 1 otherwise).
    public var multiplier: Double
    /// True when less than asked was filled (book exhausted or participation cap).
    public var isPartial: Bool { quantityFilled < quantityAsked }

    /// What the fill traded, in the account's currency: VWAP × quantity × multiplier, or an
    /// inverse contract's quantity × multiplier / VWAP coins.
    public var notional: Double { inverse ? quantityFilled * multiplier / vwap : vwap * quantityFilled * multiplier }
    /// What the fill cost against the reference price, in cash: (VWAP − reference) × quantity for
    /// a buy, (reference − VWAP) × quantity for a sell, times the multiplier; inverse, in coins,
    /// quantity × multiplier × (1/reference − 1/VWAP) for a buy (the sell's negated). Fees not included.
    public var slippageCost: Double {
        guard quantityFilled > 0 else { return 0 }
        if inverse {
            let coins = quantityFilled * multiplier * (1 / referencePrice - 1 / vwap)
            return side == .buy ? coins : -coins
        }
        return (side == .buy ? (vwap - referencePrice) * quantityFilled : (referencePrice - vwap) * quantityFilled) * multiplier
    }
    /// The slippage beyond the half spread, in cash: walking the book (the model's impact, or a
    /// recorded book's depth and its mid's distance from the reference price).
    public var impactCost: Double { slippageCost - spreadCost }

    public init(index: Int, time: Int64, side: OrderSide, referencePrice: Double, vwap: Double,
                slippageBps: Double, quantityAsked: Double, quantityFilled: Double, fee: Double,
                depthAvailable: Double = .infinity, spreadCost: Double = 0, multiplier: Double = 1, inverse: Bool = false) {
        self.index = index; self.time = time; self.side = side; self.referencePrice = referencePrice
        self.vwap = vwap; self.slippageBps = slippageBps; self.quantityAsked = quantityAsked
        self.quantityFilled = quantityFilled; self.fee = fee; self.depthAvailable = depthAvailable
        self.spreadCost = spreadCost
        self.multiplier = multiplier
        self.inverse = inverse
    }
}

/// A closed (or, at the end of the data, still open and marked to the last close) round trip.
public struct Trade: Sendable, Equatable {
    public var side: PositionSide
    public var entryIndex: Int
    public var exitIndex: Int
    public var entryTime: Int64
    public var exitTime: Int64
    public var quantity: Double
    /// Average fill prices (VWAP through depth).
    public var entryPrice: Double
    public var exitPrice: Double
    /// Average slippage of the entry and exit fills, in basis points.
    public var slippageBps: Double
    /// Entry plus exit fees, in cash.
    public var fees: Double
    /// Borrow fees paid while the trade was a short, in cash (`ExecutionConfig.borrowBps`; 0 for
    /// a long).
    public var borrow: Double
    /// Margin interest paid while the trade's borrowed cash was out, in cash
    /// (`ExecutionConfig.marginRate`; 0 without it).
    public var interest: Double
    /// Funding paid net of funding received while the trade was held, in cash (a perpetual's;
    /// negative when it earned funding).
    public var funding: Double
    /// Profit and loss in cash, fees, borrow, interest and funding included.
    public var pnl: Double
    /// `pnl` over the entry notional (quantity x entry price), as a fraction.
    public var returnFraction: Double
    /// Bars between entry and exit fills.
    public var barsHeld: Int { exitIndex - entryIndex }
    /// True when the position was still open at the end and is marked to the last close.
    public var isOpen: Bool
    /// How the trade ended: the kind of the fill that closed it (`end` when still open).
    public var exitKind: ExitKind

    /// - Parameter exitKind: nil: `end` for an open trade, else `signal`.
    public init(side: PositionSide, entryIndex: Int, exitIndex: Int, entryTime: Int64, exitTime: Int64,
                quantity: Double, entryPrice: Double, exitPrice: Double, slippageBps: Double,
                fees: Double, borrow: Double = 0, interest: Double = 0, funding: Double = 0, pnl: Double, returnFraction: Double, isOpen: Bool = false,
                exitKind: ExitKind? = nil) {
        self.side = side; self.entryIndex = entryIndex; self.exitIndex = exitIndex
        self.entryTime = entryTime; self.exitTime = exitTime; self.quantity = quantity
        self.entryPrice = entryPrice; self.exitPrice = exitPrice; self.slippageBps = slippageBps
        self.fees = fees; self.borrow = borrow; self.interest = interest; self.funding = funding; self.pnl = pnl; self.returnFraction = returnFraction; self.isOpen = isOpen
        self.exitKind = exitKind ?? (isOpen ? .end : .signal)
    }
}

/// Why an order was refused.
public enum RejectionReason: String, Sendable, Codable {
    case belowMinNotional = "below_min_notional"
    case zeroQuantity = "zero_quantity_after_lot"
    case noLiquidity = "no_liquidity"
    case insufficientCash = "insufficient_cash"
}

/// An order the broker refused, with why.
public struct RejectedOrder: Sendable, Equatable {
    public var index: Int
    public var time: Int64
    public var side: OrderSide
    public var reason: RejectionReason
    public init(index: Int, time: Int64, side: OrderSide, reason: RejectionReason) {
        self.index = index; self.time = time; self.side = side; self.reason = reason
    }
}

/// Everything a run produced, for stats, charts and reports.
///
/// Per-bar arrays have the candles' length: `cash`, signed `position` (units, negative when
/// short) and `equity` = cash + position x close, all at each bar's close.
public struct BacktestResult: Sendable {
    public var candles: CandleSeries
    public var initialCash: Double
    public var cash: [Double]
    public var position: [Double]
    public var equity: [Double]
    public var trades: [Trade]
    public var fills: [Fill]
    public var rejected: [RejectedOrder]
    /// Bars where stop-loss and take-profit could both have triggered (the worse was taken).
    public var ambiguousExitBars: Int
    /// What the reader of the results must know (no volume, heavy partial fills or rejections,
    /// a recorded book that crossed itself); empty for a run without surprises.
    public var warnings: [RunWarning]
    /// The market value of what is held at each close, when it is not `position` x close: a
    /// portfolio's `position` counts the symbols held and this is the sum of their |values|.
    public var positionValue: [Double]?
    /// Where the fills' spread came from and how sure the estimate is; nil when the engine did
    /// not say (results built by hand).
    public var spreadEstimate: SpreadSummary?
    /// Borrow fees paid on shorts, in cash; nil when the run charged no borrow
    /// (`ExecutionConfig.borrowBps` 0), so reports leave the borrow out as before it existed.
    public var borrowPaid: Double?
    /// A margin account's funding, interest, liquidations and margin use; nil for a cash
    /// account (spot at leverage 1), so reports leave them out.
    public var account: AccountSummary?

    public init(candles: CandleSeries, initialCash: Double, cash: [Double], position: [Double],
                equity: [Double], trades: [Trade], fills: [Fill], rejected: [RejectedOrder],
                ambiguousExitBars: Int, warnings: [RunWarning] = [], positionValue: [Double]? = nil,
                spreadEstimate: SpreadSummary? = nil, borrowPaid: Double? = nil, account: AccountSummary? = nil) {
        self.candles = candles; self.initialCash = initialCash; self.cash = cash
        self.position = position; self.equity = equity; self.trades = trades; self.fills = fills
        self.rejected = rejected; self.ambiguousExitBars = ambiguousExitBars; self.warnings = warnings
        self.positionValue = positionValue; self.spreadEstimate = spreadEstimate; self.borrowPaid = borrowPaid
        self.account = account
    }

    public var finalEquity: Double { equity.last ?? initialCash }
    public var feesPaid: Double { fills.reduce(0) { $0 + $1.fee } }
    public var partialFills: Int { fills.filter(\.isPartial).count }
    /// The orders the broker was given: every fill (partial ones included) and every rejection.
    public var orders: Int { fills.count + rejected.count }
    /// More than half of the orders were rejected, so the statistics describe a run that hardly
    /// traded rather than the strategy (a tick or minimum far from the prices, cash run out).
    public var mostlyRejected: Bool { rejected.count > orders - rejected.count }
    /// The half-spread part of all fills' slippage, in cash.
    public var spreadCost: Double { fills.reduce(0) { $0 + $1.spreadCost } }
    /// All fills' slippage beyond the half spread, in cash.
    public var impactCost: Double { fills.reduce(0) { $0 + $1.impactCost } }

    /// The run's profit and loss split into what trading cost: net PnL (final equity − initial
    /// cash) = gross PnL − fees − spread − impact − borrow, where gross PnL is what the same fills
    /// would have made at their reference prices without fees or borrow.
    public var costSplit: CostSplit {
        CostSplit(initialCash: initialCash, netPnL: finalEquity - initialCash, fees: feesPaid,
                  spread: spreadCost, impact: impactCost, borrow: borrowPaid ?? 0,
                  interest: account?.interestPaid ?? 0, funding: account?.fundingPaid ?? 0)
    }
}

/// Gross and net results and the costs between them (`BacktestResult.costSplit`).
public struct CostSplit: Sendable, Equatable {
    public var initialCash: Double
    public var netPnL: Double
    public var fees: Double
    public var spread: Double
    public var impact: Double
    /// Borrow fees paid on shorts (`BacktestResult.borrowPaid`).
    public var borrow: Double = 0
    /// Margin interest on borrowed cash (`AccountSummary.interestPaid`).
    public var interest: Double = 0
    /// Funding paid net of funding received (`AccountSummary.fundingPaid`; negative: earned).
    public var funding: Double = 0

    /// Net PnL plus every cost.
    public var grossPnL: Double { netPnL + fees + spread + impact + borrow + interest + funding }
    public var grossReturn: Double { grossPnL / initialCash }
    public var netReturn: Double { netPnL / initialCash }
    /// A cost as a share of gross PnL (NaN when gross PnL is 0).
    public func share(_ cost: Double) -> Double { grossPnL == 0 ? .nan : cost / grossPnL }
}

/// Something about a run its statistics do not show, said in words next to them.
public struct RunWarning: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The candles have no volume at all: participation cap and impact were off.
        case noVolume = "no_volume"
        /// Some fill bars (or the bars before them) had no volume.
        case missingVolume = "missing_volume"
        /// A large share of orders filled only partly.
        case partialFills = "partial_fills"
        /// Entries filled below the size asked, by cash or margin, or by the cap or the book
        /// (`OrderCuts`; said for every run with one).
        case cutOrders = "cut_orders"
        /// A large share of orders were rejected.
        case rejections = "rejected_orders"
        /// The recorded book crossed itself; stale levels were dropped.
        case staleBook = "stale_book"
        /// Entry signals that placed no order: a limit or stop price, a stop distance or a
        /// volatility that was not a positive number at the signal bar.
        case skippedEntries = "skipped_entries"
        /// Entry signals not taken: a stop-loss, target or trail given as an expression was not
        /// yet defined at the signal bar (`--allow-unprotected` takes them).
        case unprotectedEntries = "unprotected_entries"
        /// Exit levels not set (or a trailing stop not moved): a distance in price that was not
        /// a positive number at the bar it was read.
        case unsetExitLevels = "unset_exit_levels"
        /// A window of the synthetic book longer than the series, clamped to it
        /// (`ExecutionWarning`; a front end without its own warning channel keeps it here).
        case longWindow = "long_window"
        /// A perpetual run without funding rows in its bars: funding was not charged.
        case noFunding = "no_funding"
        /// Equity was 0 or below after a liquidation: the account stopped trading.
        case accountStopped = "account_stopped"
        /// Bars where a series the rules read with `@` had no closed bar (`UnalignedBars`).
        case noClosedBar = "no_closed_bar"
        /// Raw prices with a move like a stock split (`LikelySplit`; `CandleWindow.likelySplits`).
        case likelySplit = "likely_split"
    }
    public var kind: Kind
    public var message: String
    /// The warning's figures, an object whose members `json` adds after kind and message
    /// (`cut_orders`: counts and fractions); empty for most.
    public var figures: JSONValue = .object([])
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// `{"kind", "message"}` and the figures, as `--json` writes a warning.
    public var json: JSONValue {
        guard case .object(let members) = figures else { return ["kind": .string(kind.rawValue), "message": .string(message)] }
        return .object([(key: "kind", value: .string(kind.rawValue)), (key: "message", value: .string(message))] + members)
    }

    /// `k` entry signals that placed no order (the same words for a run and a portfolio).
    static func skippedEntries(_ k: Int) -> RunWarning {
        RunWarning(.skippedEntries, "\(k) entry signal\(k == 1 ? "" : "s") placed no order: the order's price, stop distance "
            + "or volatility was not a positive number at the signal bar (an expression still in its warm-up?)")
    }

    /// Entry signals not taken because an exit was not yet defined (the same words for a run and
    /// a portfolio), one clause per exit: `12 entry signals placed no order: their sl was not
    /// yet defined (sl 2 * atr(300) still in its warm-up?)`.
    static func unprotectedEntries(_ k: UnsetLevels, rules: ExitRules) -> RunWarning {
        func text(_ d: ExitDistance?) -> String {
            if case .price(let e)? = d { return " " + e.text }
            return ""
        }
        let targetText = text(rules.takeProfits.first { if case .price = $0.distance { true } else { false } }?.distance)
        let parts = [(Setting.stopLoss, k.stopLoss, text(rules.stopLoss)), (.takeProfit, k.takeProfit, targetText),
                     (.trail, k.trail, text(rules.trail))].filter { $0.1 > 0 }
            .map { "\($0.1) entry signal\($0.1 == 1 ? "" : "s") placed no order: \($0.1 == 1 ? "its" : "their") \($0.0.name) "
                + "was not yet defined (\($0.0.name)\($0.2) still in its warm-up?)" }
        return RunWarning(.unprotectedEntries, parts.joined(separator: "; ") + "; \(Setting.allowUnprotected.mention) takes them")
    }

    /// The readings of exits' distances in price that gave no level (the same words for a run
    /// and a portfolio): `sl 3 times, trail 12 times`.
    static func unsetExitLevels(_ k: UnsetLevels) -> RunWarning {
        let counts = [(Setting.stopLoss, k.stopLoss), (.takeProfit, k.takeProfit), (.trail, k.trail)].filter { $0.1 > 0 }
            .map { "\($0.0.name) \($0.1) time\($0.1 == 1 ? "" : "s")" }
        return RunWarning(.unsetExitLevels, "exit levels were not set or moved: the distance in price was not a positive number "
            + "at the bar it was read (" + counts.joined(separator: ", ") + "; an expression still in its warm-up, or negative there?)")
    }
}
