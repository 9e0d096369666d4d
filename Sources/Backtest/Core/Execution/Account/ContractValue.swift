/// What a quantity of an instrument is worth in the account's currency (docs/design/orders.md,
/// "Inverse perpetuals").
///
/// Linear (spot, perp, future; the quote currency): q units are worth q × m × P, a buy pays it.
/// Inverse (`Instrument.inversePerp`; the base coin): a contract is m units of the quote
/// currency, worth m / P coins, and q contracts are held as the coin's short of q × m quote
/// units: a buy of q contracts *receives* q × m / P coins and the position is worth −q × m / P.
/// Equity = cash + value(position) in both, so a long's PnL is q × m × (1/entry − 1/exit) coins
/// (Binance COIN-M's, BitMEX's) and every identity of the linear ledger holds in the coin.
/// `notional` (|value|) is what fees, margin, funding and maintenance are charged on.
struct ContractValue {
    let multiplier: Double
    let inverse: Bool

    init(multiplier: Double, inverse: Bool) {
        self.multiplier = multiplier
        self.inverse = inverse
    }

    init(_ config: ExecutionConfig) {
        self.init(multiplier: config.multiplier, inverse: config.instrument.isInverse)
    }

    /// What `quantity` (signed) is worth at `price`: q × m × P, or −q × m / P inverse.
    @inline(__always)
    func value(_ quantity: Double, at price: Double) -> Double {
        inverse ? -quantity * multiplier / price : quantity * multiplier * price
    }

    /// The notional of one unit at `price` (m × P, or m / P coins inverse).
    @inline(__always)
    func unitNotional(at price: Double) -> Double {
        inverse ? multiplier / price : multiplier * price
    }

    /// The units whose notional at `price` is `notional`.
    @inline(__always)
    func quantity(notional: Double, at price: Double) -> Double {
        inverse ? notional * price / multiplier : notional / (multiplier * price)
    }

    /// The price of `quantity` units (> 0) worth `notional` (the average price of a round trip's
    /// fills: notional / q, inverse q / notional, the contracts' harmonic mean price as the
    /// exchanges average inverse entries), with `notional` in units of the multiplier.
    @inline(__always)
    func averagePrice(quantity: Double, notional: Double) -> Double {
        inverse ? quantity / notional : notional / quantity
    }
}
