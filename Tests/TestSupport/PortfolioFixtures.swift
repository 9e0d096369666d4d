import BacktestCore

/// Random portfolio universes shared by the portfolio simulator's tests (Core) and the
/// portfolio universe's (Analysis).
package enum PortfolioFixtures {
    /// A seeded universe: `m` symbols of up to `n` daily bars; each misses about 3% of the days,
    /// one is listed late, one trades on some Saturdays; random signals and ranks (NaN warm-up).
    package static func universe(symbols m: Int, bars n: Int, seed: UInt64) -> [PortfolioSymbol] {
        var g = SplitMix64(seed: seed)
        let start: Int64 = 1_577_836_800  // 2020-01-01
        return (0..<m).map { j in
            var s = CandleSeries(symbol: "S\(j)", timeframe: .day1)
            var price = 20 + 80 * g.unit()
            let listed = j == 1 ? n / 3 : 0
            for d in 0..<n where d >= listed && (g.unit() >= 0.03 || d == n - 1) {
                let time = start + Int64(d) * 86_400
                if j == 2 && d % 11 == 0 && d > 0 {
                    // an extra bar half a day later (a calendar no other symbol has)
                    let o = price, c = price * (1 + 0.01 * (g.unit() - 0.5))
                    s.append(time: time - 43_200, open: o, high: max(o, c) * 1.003, low: min(o, c) * 0.997, close: c,
                             volume: 1_000 + 50_000 * g.unit())
                    price = c
                }
                let o = price * (1 + 0.004 * (g.unit() - 0.5))
                let c = o * (1 + 0.04 * (g.unit() - 0.5))
                s.append(time: time, open: o, high: max(o, c) * (1 + 0.01 * g.unit()), low: min(o, c) * (1 - 0.01 * g.unit()),
                         close: c, volume: j == 3 && d % 17 == 0 ? 0 : 1_000 + 50_000 * g.unit())
                price = c
            }
            let count = s.count
            var entries = [Bool](repeating: false, count: count), exits = entries
            var rank = [Double](repeating: .nan, count: count)
            for k in 0..<count {
                entries[k] = g.unit() < 0.06
                exits[k] = g.unit() < 0.05
                if k >= 10 { rank[k] = g.unit() < 0.05 ? .nan : (g.unit() - 0.5) * 10 }
            }
            return PortfolioSymbol(candles: s, signals: Signals(entries: entries, exits: exits), rank: rank)
        }
    }
}
