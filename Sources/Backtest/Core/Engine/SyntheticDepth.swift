#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The synthetic order book built for a fill bar when no recorded depth exists.
///
/// For a fill at reference price P on bar f (high H, low L, volume V):
///
/// 1. **Spread** s (a fraction of P): `spreadBps / 10_000` when given, else the Corwin-Schultz
///    (2012) high-low estimator averaged over the `spreadWindow` two-bar pairs ending at f
///    (negative estimates count as 0), clamped to [`minSpreadBps`, `maxSpreadBps`]. For the pair
///    (t-1, t): β = ln²(H₋₁/L₋₁) + ln²(H/L), γ = ln²(max(H₋₁,H)/min(L₋₁,L)),
///    α = (√(2β) − √β)/(3 − 2√2) − √(γ/(3 − 2√2)), S = 2(eᵅ − 1)/(1 + eᵅ).
///    Why: it needs only candles, uses no bar after f, and widens when ranges are noisy.
/// 2. **Levels**: `levels` per side spaced one tick δ apart (δ = `--tick`, else 1 bp of P). The
///    best ask is P(1 + s/2) rounded up to the tick and the best bid P(1 − s/2) rounded down, and
///    each is at least one tick from P when a tick is given.
/// 3. **Sizes**: a side holds D = `depthShare` · V / (1 + ρ/`rangeScale`) units, ρ = (H − L)/P:
///    a share of the bar's volume, thinner on wide-range bars (market makers quote less when
///    prices move a lot). Level k (0 = touch) holds D · 2(k+1)/(n(n+1)): books thicken away from
///    the touch.
/// 4. **Depletion and refill**: liquidity an order takes is removed from the touch outward and
///    refills geometrically with half-life `refillHalfLife` bars: T(f) = T(g) · 2^(−(f−g)/h) for
///    the quantity T still missing after the last fill at bar g. Repeated large orders therefore
///    walk deeper and pay more; a quiet stretch restores the book.
///
/// - Complexity: O(`levels` + `spreadWindow`) per fill; nothing per bar without a fill.
public struct SyntheticDepth: Sendable, Equatable {
    /// Fixed spread in basis points (`--spread-bps`); nil estimates it from the bars.
    public var spreadBps: Double?
    public var minSpreadBps = 1.0
    public var maxSpreadBps = 100.0
    /// Two-bar pairs averaged for the Corwin-Schultz estimate.
    public var spreadWindow = 20
    public var levels = 20
    /// Share of the bar's volume resting on one side of the book.
    public var depthShare = 0.2
    /// Relative bar range at which the book is half as deep as on a flat bar.
    public var rangeScale = 0.01
    /// Bars for taken liquidity to half refill.
    public var refillHalfLife = 1.0

    public init(spreadBps: Double? = nil) { self.spreadBps = spreadBps }

    /// The spread fraction for a fill on bar `f`, from bars up to and including `f`.
    public func spread(high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, at f: Int) -> Double {
        if let spreadBps { return spreadBps / 10_000 }
        let k = 3 - 2 * 2.0.squareRoot()
        var sum = 0.0, pairs = 0
        var t = f
        while t >= 1 && pairs < spreadWindow {
            let h1 = log(high[t - 1] / low[t - 1]), h2 = log(high[t] / low[t])
            let beta = h1 * h1 + h2 * h2
            let g = log(max(high[t - 1], high[t]) / min(low[t - 1], low[t]))
            let alpha = ((2 * beta).squareRoot() - beta.squareRoot()) / k - (g * g / k).squareRoot()
            let e = exp(alpha)
            let s = 2 * (e - 1) / (1 + e)
            if s.isFinite { sum += max(0, s) }
            pairs += 1
            t -= 1
        }
        let estimate = pairs > 0 ? sum / Double(pairs) : 0
        return min(max(estimate, minSpreadBps / 10_000), maxSpreadBps / 10_000)
    }

    /// The book around `reference` for a bar with the given range and volume.
    public func book(reference p: Double, high: Double, low: Double, volume: Double,
                     spread s: Double, tick: Double?) -> OrderBook {
        book(reference: p, high: high, low: low, volume: volume, spread: s, tick: tick, only: nil)
    }

    /// The same book with only one side (`.buy` for bids, `.sell` for asks) when `only` is set,
    /// for a market order that walks just that side.
    func book(reference p: Double, high: Double, low: Double, volume: Double,
              spread s: Double, tick: Double?, only: OrderSide?) -> OrderBook {
        let n = levels
        let range = max(0, high - low) / p
        let depth = max(0, depthShare * volume / (1 + range / rangeScale))
        var bids: [BookLevel] = [], asks: [BookLevel] = []
        bids.reserveCapacity(n)
        asks.reserveCapacity(n)
        guard depth > 0, p > 0 else { return OrderBook() }
        let unit = depth * 2 / Double(n * (n + 1))
        if let tick {
            let ask0 = max((p * (1 + s / 2) / tick - 1e-9).rounded(.up), (p / tick + 1e-9).rounded(.down) + 1)
            let bid0 = min((p * (1 - s / 2) / tick + 1e-9).rounded(.down), (p / tick - 1e-9).rounded(.up) - 1)
            for k in 0..<n {
                let q = unit * Double(k + 1)
                asks.append(BookLevel(price: (ask0 + Double(k)) * tick, quantity: q))
                let bidTicks = bid0 - Double(k)
                if bidTicks > 0 { bids.append(BookLevel(price: bidTicks * tick, quantity: q)) }
            }
        } else {
            let step = p * 1e-4
            for k in 0..<n {
                let q = unit * Double(k + 1)
                asks.append(BookLevel(price: p * (1 + s / 2) + Double(k) * step, quantity: q))
                let bid = p * (1 - s / 2) - Double(k) * step
                if bid > 0 { bids.append(BookLevel(price: bid, quantity: q)) }
            }
        }
        return OrderBook(sortedBids: only == .sell ? [] : bids, sortedAsks: only == .buy ? [] : asks)
    }

    /// Fraction of taken liquidity still missing `bars` bars later.
    func remaining(afterBars bars: Int) -> Double {
        refillHalfLife > 0 ? exp2(-Double(bars) / refillHalfLife) : 0
    }
}
