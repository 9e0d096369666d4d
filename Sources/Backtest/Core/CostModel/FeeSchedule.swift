/// How a broker charges a fill, in the quote currency: a rate on the notional (the taker's,
/// or the maker's for a fill of an order that rested), a charge per unit, a minimum and a cap.
/// The single-symbol engine and the portfolio both charge fills and size orders through it.
///
/// A fill's fee (docs/guide/execution.md, "Fees"):
///
///     raw = notional × rate + quantity × perUnit       rate: makerRate for a maker fill, else takerRate
///     fee = raw < 0 ? raw : max(raw, minimum)          a rebate is paid out; a charge is at least the minimum
///     fee = min(fee, cap × notional)                   when a cap is set: the cap wins over the minimum
///
/// The cap wins, as brokers' "minimum $1, at most 1% of the trade value" does: a fill whose
/// minimum would exceed the cap pays the cap. A negative maker rate is a rebate; the minimum
/// is a floor on charges, so a rebate is not turned into a charge by it.
///
/// A maker fill is one of an order that rested: a limit entry filled at its limit price inside
/// the bar (including a stop-limit whose stop triggered at the open and whose limit was reached
/// later in the bar), and a take-profit filled at its level inside the bar. Everything else is a
/// taker fill: market orders, fills at a bar's open (a limit or target the open gapped through),
/// stop and stop-limit entries filled at their trigger, stops, trailing stops, time exits and
/// the remainders of exits sent again.
public struct FeeSchedule: Sendable, Equatable {
    /// Fraction of notional for taker fills (`fee_bps` / 10 000).
    public var takerRate: Double
    /// Fraction of notional for maker fills (`maker_bps` / 10 000; the taker's when not given).
    public var makerRate: Double
    /// Cash per unit filled (a share, a contract, a coin).
    public var perUnit: Double
    /// The least a charged fill pays.
    public var minimum: Double
    /// The most a fill pays, as a fraction of its notional (nil: no cap).
    public var cap: Double?

    public init(takerRate: Double, makerRate: Double? = nil, perUnit: Double = 0, minimum: Double = 0, cap: Double? = nil) {
        self.takerRate = takerRate
        self.makerRate = makerRate ?? takerRate
        self.perUnit = perUnit
        self.minimum = minimum
        self.cap = cap
    }

    /// The fee of a fill of `quantity` units worth `notional`; negative for a maker rebate.
    @inline(__always)
    public func fee(notional: Double, quantity: Double, maker: Bool) -> Double {
        let raw = notional * (maker ? makerRate : takerRate) + quantity * perUnit
        let charged = raw < 0 ? raw : max(raw, minimum)
        guard let cap else { return charged }
        return min(charged, cap * notional)
    }

    /// The largest notional a buy at `price` may have so that notional + fee stays within
    /// `cash` (0 when nothing fits). A rebate is not spent before it is paid: the rate counts as
    /// at least 0. Without the cap: min(cash / (1 + rate + perUnit / price), cash − minimum);
    /// the cap lets a fill that pays it reach cash / (1 + cap).
    @inline(__always)
    /// `price` is a unit's notional: a contract's multiplier × the price for contracts.
    public func affordableNotional(cash: Double, price: Double, maker: Bool) -> Double {
        let rate = max(0, maker ? makerRate : takerRate)
        // Without a per-unit fee the price is not read (nor a NaN one spread to the result).
        let unit = perUnit == 0 ? 0 : perUnit / price
        var n = min(cash / (1 + rate + unit), cash - minimum)
        if let cap { n = max(n, cash / (1 + cap)) }
        return max(0, n)
    }
}
