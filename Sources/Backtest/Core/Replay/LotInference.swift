/// The lot of recorded quantities: the largest power of ten, from 1 down to 1e-12, that every
/// quantity seen is a whole multiple of (1e-8 for a Bitstamp book quoting satoshis).
package struct LotInference: Sendable {
    /// Decimal places needed so far.
    private var decimals = 0
    private static let maximumDecimals = 12

    package init() {}

    /// Takes one quantity (levels of 0 and non-finite values teach nothing).
    /// - Complexity: O(1) amortised: the places only grow, to 12 at most.
    package mutating func add(_ quantity: Double) {
        guard quantity.isFinite, quantity != 0 else { return }
        while decimals < Self.maximumDecimals {
            let scaled = Swift.abs(quantity) * Self.powers[decimals]
            // A quantity printed with `decimals` places is within rounding of a whole number: the
            // quantity's own rounding (half an ulp) and the product's, a few ulps of `scaled`.
            if Swift.abs(scaled - scaled.rounded()) <= 1e-6 + 4 * scaled * Double.ulpOfOne { return }
            decimals += 1
        }
    }

    package var lot: Double { 1 / Self.powers[decimals] }

    private static let powers: [Double] = (0...maximumDecimals).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }
}

extension LotInference {
    /// Takes the quantities of `event`: its print's, or its levels'.
    package mutating func add(_ event: MarketEvent) {
        switch event {
        case .trade(let t): add(t.quantity)
        case .book(let b):
            for level in b.bids { add(level.quantity) }
            for level in b.asks { add(level.quantity) }
        }
    }

    /// The lot of every quantity `source` gives, reading it to its end.
    package static func lot(of source: inout some MarketEventSource) throws -> Double {
        var inference = LotInference()
        while let e = try source.next() { inference.add(e) }
        return inference.lot
    }
}
