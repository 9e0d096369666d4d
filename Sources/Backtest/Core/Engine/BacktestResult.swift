/// Direction of a position.
public enum PositionSide: String, Sendable, Codable { case long, short }

/// One executed order (possibly partial): what was asked, what the book gave, what it cost.
public struct Fill: Sendable, Equatable {
    /// Bar index and UTC time of the fill bar.
    public var index: Int
    public var time: Int64
    public var side: OrderSide
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
    /// (infinity with `--depth none`). `quantityFilled` never exceeds it.
    public var depthAvailable: Double
    /// True when less than asked was filled (book exhausted or participation cap).
    public var isPartial: Bool { quantityFilled < quantityAsked }

    public init(index: Int, time: Int64, side: OrderSide, referencePrice: Double, vwap: Double,
                slippageBps: Double, quantityAsked: Double, quantityFilled: Double, fee: Double,
                depthAvailable: Double = .infinity) {
        self.index = index; self.time = time; self.side = side; self.referencePrice = referencePrice
        self.vwap = vwap; self.slippageBps = slippageBps; self.quantityAsked = quantityAsked
        self.quantityFilled = quantityFilled; self.fee = fee; self.depthAvailable = depthAvailable
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
    /// Profit and loss in cash, fees included.
    public var pnl: Double
    /// `pnl` over the entry notional (quantity x entry price), as a fraction.
    public var returnFraction: Double
    /// Bars between entry and exit fills.
    public var barsHeld: Int { exitIndex - entryIndex }
    /// True when the position was still open at the end and is marked to the last close.
    public var isOpen: Bool

    public init(side: PositionSide, entryIndex: Int, exitIndex: Int, entryTime: Int64, exitTime: Int64,
                quantity: Double, entryPrice: Double, exitPrice: Double, slippageBps: Double,
                fees: Double, pnl: Double, returnFraction: Double, isOpen: Bool = false) {
        self.side = side; self.entryIndex = entryIndex; self.exitIndex = exitIndex
        self.entryTime = entryTime; self.exitTime = exitTime; self.quantity = quantity
        self.entryPrice = entryPrice; self.exitPrice = exitPrice; self.slippageBps = slippageBps
        self.fees = fees; self.pnl = pnl; self.returnFraction = returnFraction; self.isOpen = isOpen
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

    public init(candles: CandleSeries, initialCash: Double, cash: [Double], position: [Double],
                equity: [Double], trades: [Trade], fills: [Fill], rejected: [RejectedOrder],
                ambiguousExitBars: Int) {
        self.candles = candles; self.initialCash = initialCash; self.cash = cash
        self.position = position; self.equity = equity; self.trades = trades; self.fills = fills
        self.rejected = rejected; self.ambiguousExitBars = ambiguousExitBars
    }

    public var finalEquity: Double { equity.last ?? initialCash }
    public var feesPaid: Double { fills.reduce(0) { $0 + $1.fee } }
    public var partialFills: Int { fills.filter(\.isPartial).count }
}
