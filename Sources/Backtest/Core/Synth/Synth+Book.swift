import Foundation

extension Synth {
    /// Price levels on each side of a synthetic book.
    static let bookLevels = 10

    /// A recorded-style L2 stream consistent with `series`: a snapshot at the first bar's open,
    /// then for every bar an update at its open time re-centred on the open and one halfway to
    /// the next bar re-centred on the close. Each update sets the new ladder and sends qty 0 for
    /// levels that left it, as exchange depth streams do.
    ///
    /// Ladder: prices on a 0.01 grid; spread = max(0.01, 2% of the bar's range); 10 levels per
    /// side spaced by max(0.01, range / 20), so the visible book spans about the bar's range;
    /// level k (0 = best) holds `volume / 200 · (1 + 0.3 k) · lognormal(0, 0.3)`, rounded to
    /// 1e-4, so depth grows with the bar's volume and deeper levels hold more.
    /// - Complexity: O(bars · levels).
    package static func book(for series: CandleSeries, seed: UInt64) -> [BookEvent] {
        guard !series.isEmpty else { return [] }
        let rng = GSL.Random(seed: UInt(truncatingIfNeeded: mix(seed ^ 0xB00C)))
        var events: [BookEvent] = []
        events.reserveCapacity(series.count * 2)
        var bids: [Int64: Double] = [:], asks: [Int64: Double] = [:]  // price in cents -> qty

        func ladder(center: Double, bar i: Int) -> (bids: [Int64: Double], asks: [Int64: Double]) {
            let range = series.high[i] - series.low[i]
            let spread = max(1, Int64((range * 0.02 * 100).rounded()))
            let step = max(1, Int64((range / 20 * 100).rounded()))
            let bestBid = max(Int64(Double(bookLevels) * Double(step)) + 1, Int64((center * 100).rounded()) - spread / 2)
            let bestAsk = bestBid + spread
            let base = max(series.volume[i], 1) / 200
            var b: [Int64: Double] = [:], a: [Int64: Double] = [:]
            for k in 0..<bookLevels {
                let shape = base * (1 + 0.3 * Double(k))
                b[bestBid - Int64(k) * step] = quantity(shape * rng.lognormal(zeta: 0, sigma: 0.3))
                a[bestAsk + Int64(k) * step] = quantity(shape * rng.lognormal(zeta: 0, sigma: 0.3))
            }
            return (b, a)
        }

        func levels(_ side: [Int64: Double], descending: Bool) -> [BookLevel] {
            side.keys.sorted(by: descending ? (>) : (<)).map { BookLevel(price: Double($0) / 100, quantity: side[$0]!) }
        }

        func change(from old: [Int64: Double], to new: [Int64: Double]) -> [Int64: Double] {
            var diff = new
            for price in old.keys where new[price] == nil { diff[price] = 0 }
            return diff
        }

        for i in 0..<series.count {
            let end = i + 1 < series.count ? series.time[i + 1] : series.time[i] + (series.timeframe?.seconds ?? 60)
            let stamps = [(series.time[i], series.open[i]), (series.time[i] + max(1, (end - series.time[i]) / 2), series.close[i])]
            for (t, center) in stamps {
                let next = ladder(center: center, bar: i)
                if events.isEmpty {
                    events.append(BookEvent(timeMs: t * 1000, kind: .snapshot, bids: levels(next.bids, descending: true), asks: levels(next.asks, descending: false)))
                } else {
                    events.append(BookEvent(
                        timeMs: t * 1000, kind: .update,
                        bids: levels(change(from: bids, to: next.bids), descending: true),
                        asks: levels(change(from: asks, to: next.asks), descending: false)))
                }
                bids = next.bids
                asks = next.asks
            }
        }
        return events
    }

    @inline(__always)
    static func quantity(_ x: Double) -> Double { max(0.0001, (x * 10_000).rounded() / 10_000) }
}
