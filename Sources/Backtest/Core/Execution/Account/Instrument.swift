/// What a run trades (docs/design/orders.md, "Margin" and "Funding").
public enum Instrument: String, Sendable, CaseIterable {
    /// The asset itself: a cash account at leverage 1, a margin account above it.
    case spot
    /// A perpetual future: a margin account that pays or receives funding.
    case perp
    /// A dated future: a margin account without funding.
    case future

    /// The maintenance margin rate when none is given: 0.5% for perpetuals and futures (Binance's
    /// lowest tier is 0.4%, CME's index futures about a twentieth of their initial margin), 25%
    /// for spot on margin (FINRA's minimum for a margin account's long stock).
    public var defaultMaintenanceRate: Double { self == .spot ? 0.25 : 0.005 }
}

/// How a margin account backs its position (docs/design/orders.md, "Margin").
public enum MarginMode: String, Sendable, CaseIterable {
    /// The account's whole equity backs the position.
    case cross
    /// The position is backed by its own initial margin, |quantity| × average entry / leverage.
    case isolated
}
