/// What a margin account did beyond its fills (docs/design/orders.md, "Margin" and "Funding"),
/// for the statistics and the report's headline.
public struct AccountSummary: Sendable, Equatable {
    public var instrument: Instrument
    public var margin: MarginMode
    public var leverage: Double
    /// The maintenance margin rate in force, as a fraction.
    public var maintenanceRate: Double
    /// Units of the underlying in a contract (1: not contracts).
    public var multiplier: Double
    /// Funding paid net of funding received, in cash (negative: the position earned funding);
    /// 0 for an instrument without funding.
    public var fundingPaid: Double
    /// The funding settled at each bar where some was (bar of the run's candles, cash; negative:
    /// received), in bar order.
    public var fundingFlows: [FundingFlow]
    /// Margin interest paid on borrowed cash.
    public var interestPaid: Double
    /// Positions the exchange closed (trades ending `liquidation`).
    public var liquidations: Int
    /// The smallest backing equity / maintenance margin at a close with a position (1 or less
    /// is liquidation); NaN when there was none or the maintenance rate is 0.
    public var minMarginRatio: Double
    /// The bar (of the run's candles) of the liquidation after which equity was 0 or below and
    /// trading stopped; nil when it never did.
    public var stoppedAt: Int?
    /// The currency of the account's cash, equity, PnL, fees and funding when it is not the
    /// quote currency: an inverse contract's coin (`BTC`, from the symbol, else `coin`); nil
    /// for linear instruments.
    public var currency: String?
    /// A portfolio whose symbols trade different instruments (kind, multiplier or maintenance
    /// rate): each symbol's, by symbol; nil when they all trade `instrument` alike (the fields
    /// above are then every symbol's; else the first symbol's).
    public var symbols: [SymbolInstrument]?

    /// A portfolio symbol's instrument (`AccountSummary.symbols`).
    public struct SymbolInstrument: Sendable, Equatable {
        public var symbol: String
        public var instrument: Instrument
        public var multiplier: Double
        public var maintenanceRate: Double

        public init(symbol: String, instrument: Instrument, multiplier: Double, maintenanceRate: Double) {
            self.symbol = symbol; self.instrument = instrument; self.multiplier = multiplier; self.maintenanceRate = maintenanceRate
        }

        /// `SYM perp` with its multiplier when not 1 and its maintenance rate: `ES future (multiplier 50) mmr 0.5%`.
        public var description: String {
            "\(symbol) \(instrument.rawValue)\(multiplier == 1 ? "" : " (multiplier \(NumberText.shortest(multiplier)))") "
                + "mmr \(NumberText.percent(maintenanceRate))"
        }
    }

    /// Whether some instrument of the account pays funding (a perpetual).
    public var paysFunding: Bool { symbols?.contains { $0.instrument.paysFunding } ?? instrument.paysFunding }

    public init(instrument: Instrument, margin: MarginMode, leverage: Double, maintenanceRate: Double, multiplier: Double = 1,
                fundingPaid: Double = 0, fundingFlows: [FundingFlow] = [],
                interestPaid: Double = 0, liquidations: Int = 0, minMarginRatio: Double = .nan,
                stoppedAt: Int? = nil, currency: String? = nil) {
        self.instrument = instrument; self.margin = margin; self.leverage = leverage; self.maintenanceRate = maintenanceRate
        self.multiplier = multiplier; self.fundingPaid = fundingPaid; self.fundingFlows = fundingFlows; self.interestPaid = interestPaid; self.liquidations = liquidations
        self.minMarginRatio = minMarginRatio; self.stoppedAt = stoppedAt; self.currency = currency
    }

    /// The account `record` kept under `config` on `symbol`; nil for a cash account.
    init?(_ record: AccountRecord, config: ExecutionConfig, symbol: String = "") {
        guard config.isMarginAccount else { return nil }
        self.init(instrument: config.instrument, margin: config.margin, leverage: config.leverage,
                  maintenanceRate: config.maintenanceRate, multiplier: config.multiplier, fundingPaid: record.fundingPaid, fundingFlows: record.fundingFlows, interestPaid: record.interestPaid,
                  liquidations: record.liquidations,
                  minMarginRatio: record.minMarginRatio.isFinite ? record.minMarginRatio : .nan, stoppedAt: record.stoppedAt,
                  currency: config.instrument.isInverse ? Instrument.settlementCoin(symbol: symbol) ?? "coin" : nil)
    }

    /// The account in the words of a headline: `perp, 10x cross margin, mmr 0.5%`; an inverse
    /// contract's adds its currency, `inverse-perp (multiplier 100), 3x cross margin, mmr 0.5%, equity in BTC`.
    /// A portfolio of different instruments names each: `mixed (ES future (multiplier 50) mmr
    /// 0.5%, SPY spot mmr 25%), 2x cross margin`.
    public var description: String {
        if let symbols {
            return "mixed (\(symbols.map(\.description).joined(separator: ", "))), \(NumberText.shortest(leverage))x \(margin.rawValue) margin"
        }
        return "\(instrument.rawValue)\(multiplier == 1 ? "" : " (multiplier \(NumberText.shortest(multiplier)))"), "
            + "\(NumberText.shortest(leverage))x \(margin.rawValue) margin, mmr \(NumberText.percent(maintenanceRate))"
            + (currency.map { ", equity in \($0)" } ?? "")
    }
}

/// Funding settled on one bar (`AccountSummary.fundingFlows`).
public struct FundingFlow: Sendable, Equatable {
    /// The bar of the run's candles whose span held the funding times.
    public var bar: Int
    /// Paid, in cash; negative when received.
    public var amount: Double

    public init(bar: Int, amount: Double) {
        self.bar = bar
        self.amount = amount
    }
}
