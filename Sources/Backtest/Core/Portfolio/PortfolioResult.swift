/// One symbol of a portfolio: its candles (its own calendar), the strategy's signals on them,
/// the rank on each of its bars, and where its fills get their liquidity.
public struct PortfolioSymbol: Sendable {
    public var candles: CandleSeries
    /// Entry and exit signals at each bar's close; nil under rotation (signals are not used).
    public var signals: Signals?
    /// The rank of the symbol on each of its bars (higher is better, NaN undefined); nil without
    /// a rank (every contest is then a tie, decided by symbol).
    public var rank: [Double]?
    /// The configuration whose `depth` and `synthetic` book this symbol's fills use (a stored
    /// profile, an inferred tick, a recorded book); nil: the portfolio's own. Everything else
    /// (cash, fees, sizing, stops, lot, participation cap, fill timing) is the portfolio's.
    public var liquidity: ExecutionConfig?
    /// The volatility of inverse-volatility weights on each bar; nil computes it from the
    /// candles (`PortfolioRules.volatility`). A walk-forward fold passes the one of its prefix.
    public var volatility: [Double]?
    /// The symbol's bars from its first through its last here, when `candles` is their end (a
    /// window, a walk-forward fold): the exit expressions are computed on them, so they keep the
    /// warm-up of the bars before. nil: `candles` is all there is.
    public var history: CandleSeries?

    public init(candles: CandleSeries, signals: Signals? = nil, rank: [Double]? = nil, liquidity: ExecutionConfig? = nil,
                volatility: [Double]? = nil, history: CandleSeries? = nil) {
        precondition(history.map { $0.count >= candles.count && $0.time.last == candles.time.last } ?? true,
                     "the history must end where the candles end")
        self.candles = candles; self.signals = signals; self.rank = rank; self.liquidity = liquidity
        self.volatility = volatility; self.history = history
    }

    public var symbol: String { candles.symbol }
}

/// An order the planner handed to the executor: a target weight for a symbol on a bar.
public struct PortfolioOrder: Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// A new position (an entry signal that found a slot, or a symbol rotated in).
        case entry
        /// An exit signal, or a symbol rotated out: target 0.
        case exit
        /// A held position restored to its weight on a rebalance date.
        case rebalance
        /// The rest of an exit that filled only partly, sent again.
        case remainder
    }

    /// Row of the portfolio clock.
    public var row: Int
    /// Index into `PortfolioResult.symbols`.
    public var symbol: Int
    /// Target share of the portfolio's value (0 closes the position); with `Nu` or `N$` sizing,
    /// the weight that scales them.
    public var target: Double
    public var reason: Reason
}

/// A fill of one symbol: the engine's `Fill` with `index` a row of the portfolio clock, plus the
/// symbol and its own bar.
public struct PortfolioFill: Sendable, Equatable {
    public var symbol: Int
    /// The symbol's own bar (index into its candles).
    public var bar: Int
    public var fill: Fill
}

/// A round trip of one symbol, from the first buy of a flat position to flat again (or to the
/// end, marked to the symbol's last close): `Trade` with rows of the portfolio clock, plus the
/// symbol and its own bars. With rebalancing a round trip holds several buys and sells:
/// `quantity` is the shares bought, `entryPrice` their VWAP, `exitPrice` (sell proceeds + shares
/// still held × last close) / quantity (vectorbt's positions).
public struct PortfolioTrade: Sendable, Equatable {
    public var symbol: Int
    public var entryBar: Int
    public var exitBar: Int
    public var trade: Trade
    /// Fills of the round trip: buys and sells.
    public var buys: Int
    public var sells: Int
}

/// An order the broker refused, with its symbol (`index` a row of the clock).
public struct PortfolioRejection: Sendable, Equatable {
    public var symbol: Int
    public var bar: Int
    public var order: RejectedOrder
}

/// What a symbol added to the portfolio, in cash: profit and loss (fees included, the open
/// position marked to its last close) and what trading cost.
public struct PortfolioContribution: Sendable, Equatable {
    public var symbol: String
    public var bars: Int
    /// Rows at whose close the symbol was held.
    public var rowsHeld: Int
    public var trades: Int
    public var wins: Int
    public var fills: Int
    public var pnl: Double
    public var fees: Double
    public var spread: Double
    public var impact: Double
    /// Notional bought and sold (VWAP x quantity).
    public var traded: Double
    public var rejected: Int
    /// Entry signals dropped for want of a slot.
    public var skippedEntries: Int
}

/// Everything a portfolio run produced.
///
/// Per-row arrays run over the portfolio clock (the union of the symbols' bar times), each value
/// at the row's close: `cash`, `equity` = cash + Σ position × close (a symbol without a bar at
/// the row at its last close), `positionValue` = Σ |position × close|, `positions` = the number
/// of symbols held.
public struct PortfolioResult: Sendable {
    /// Symbols in ascending order (the order of every `symbol` index).
    public var symbols: [String]
    public var candles: [CandleSeries]
    /// The portfolio clock.
    public var time: [Int64]
    public var initialCash: Double
    public var cash: [Double]
    public var equity: [Double]
    public var positionValue: [Double]
    public var positions: [Int]
    /// The equal-weight buy and hold of the symbols: initial cash split in equal parts, each
    /// part buying its symbol at the symbol's first close (cash until then), held to the end.
    public var benchmark: [Double]
    public var orders: [PortfolioOrder]
    public var fills: [PortfolioFill]
    /// Round trips in the order they closed; positions open at the end last, by symbol.
    public var trades: [PortfolioTrade]
    public var rejected: [PortfolioRejection]
    public var ambiguousExitBars: Int
    /// Entry signals that found no free slot (dropped), in all.
    public var skippedEntries: Int
    public var warnings: [RunWarning]
    public var contributions: [PortfolioContribution]
    /// The portfolio as one account, for statistics, cost tables, sweeps and stitching: candles
    /// on the clock (a single symbol's own candles; for several, a close-only series of
    /// `benchmark`, so buy and hold is the equal-weight one), `position` = the number of symbols
    /// held, `positionValue` = `positionValue`, every fill, round trip and rejection.
    public var account: BacktestResult

    public var finalEquity: Double { equity.last ?? initialCash }
}
