/// What a run trades (docs/design/orders.md, "Margin" and "Funding").
public enum Instrument: String, Sendable, CaseIterable {
    /// The asset itself: a cash account at leverage 1, a margin account above it.
    case spot
    /// A perpetual future: a margin account that pays or receives funding.
    case perp
    /// A dated future: a margin account without funding.
    case future
    /// An inverse (coin-margined) perpetual, such as a $100 BTCUSD contract: a contract is
    /// `multiplier` units of the quote currency, the account and its PnL are in the base coin
    /// (`ContractValue`), and it pays or receives funding.
    case inversePerp = "inverse-perp"

    /// The maintenance margin rate when none is given: 0.5% for perpetuals and futures (Binance's
    /// lowest tier is 0.4%, CME's index futures about a twentieth of their initial margin), 25%
    /// for spot on margin (FINRA's minimum for a margin account's long stock).
    public var defaultMaintenanceRate: Double { self == .spot ? 0.25 : 0.005 }

    /// True for the perpetuals, which pay or receive funding.
    public var paysFunding: Bool { self == .perp || self == .inversePerp }

    /// True when the account is kept in the base coin (`ContractValue`).
    public var isInverse: Bool { self == .inversePerp }

    /// The coin an inverse contract on `symbol` settles in: its base, the symbol without a
    /// `@timeframe`, a `_PERP` suffix and a USD quote (`BTCUSD_PERP`, `BTCUSD`, `BTC-USD` give
    /// `BTC`); nil when the symbol does not end in USD (the base cannot be told).
    public static func settlementCoin(symbol: String) -> String? {
        var s = (symbol.split(separator: "@", maxSplits: 1).first ?? "").uppercased()[...]
        for suffix in ["_PERP", "-PERP", "PERP"] where s.hasSuffix(suffix) { s = s.dropLast(suffix.count); break }
        for quote in ["USDT", "USDC", "USD"] where s.hasSuffix(quote) && s.count > quote.count {
            let base = s.dropLast(quote.count)
            let trimmed = base.hasSuffix("-") || base.hasSuffix("_") || base.hasSuffix("/") ? base.dropLast() : base
            return trimmed.isEmpty ? nil : String(trimmed)
        }
        return nil
    }
}

/// How a margin account backs its position (docs/design/orders.md, "Margin").
public enum MarginMode: String, Sendable, CaseIterable {
    /// The account's whole equity backs the position.
    case cross
    /// The position is backed by its own initial margin, |quantity| × average entry / leverage.
    case isolated
}
