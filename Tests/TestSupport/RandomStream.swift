import BacktestCore

/// Random candle streams for the streaming property tests: a random walk with flat stretches
/// (zero ranges: the indicators' 0/0 branches), repeated closes, zero volumes, and, when asked,
/// gaps (a bar that is NaN throughout, or one NaN column) that restart the indicators.
package enum RandomStream {
    package static func candles(count n: Int, seed: UInt64, gaps: Bool = false) -> CandleSeries {
        var g = SplitMix64(seed: seed)
        var s = CandleSeries(symbol: "RND")
        s.reserveCapacity(n)
        var close = 100 + 50 * g.unit()
        for i in 0..<n {
            let open = close
            let flat = g.unit() < 0.05
            if !flat { close = max(0.01, close * (1 + 0.02 * (g.unit() - 0.5))) }
            // Rounded to cents now and then, so that closes repeat and extremes tie.
            if g.unit() < 0.3 { close = (close * 100).rounded() / 100 }
            var high = max(open, close) + (flat ? 0 : g.unit() * 0.5)
            var low = min(open, close) - (flat ? 0 : g.unit() * 0.5)
            var volume = g.unit() < 0.05 ? 0 : (g.unit() * 1000).rounded()
            var c = close
            if gaps && g.unit() < 0.01 {
                switch g.int(0...3) {
                case 0: high = .nan; low = .nan; c = .nan; volume = .nan
                case 1: high = .nan
                case 2: volume = .infinity
                default: c = .nan
                }
            }
            s.append(Candle(time: Int64(i) * 60, open: open, high: high, low: low, close: c, volume: volume))
        }
        return s
    }

    /// The first `n` bars of `s`.
    package static func prefix(_ s: CandleSeries, _ n: Int) -> CandleSeries {
        CandleSeries(symbol: s.symbol, timeframe: s.timeframe, time: Array(s.time[..<n]), open: Array(s.open[..<n]),
                     high: Array(s.high[..<n]), low: Array(s.low[..<n]), close: Array(s.close[..<n]), volume: Array(s.volume[..<n]))
    }

    /// Prefix lengths to recompute the batch at: every length up to 80, then a spread that lands
    /// on and around the re-summation and block boundaries, and the whole series.
    package static func checkpoints(count n: Int, seed: UInt64) -> [Int] {
        var g = SplitMix64(seed: seed ^ 0xABCD)
        var lengths = Set(1...min(n, 80))
        for b in [128, 129, 256, 257, 258, 259, 260, 1025, 1026, 1027, 1028, 1029, 1100] where b <= n { lengths.insert(b) }
        for _ in 0..<25 { lengths.insert(g.int(1...n)) }
        lengths.insert(n)
        return lengths.sorted()
    }
}

/// Same bits (NaN payloads aside: every NaN is the same NaN here).
package func sameBits(_ a: Double, _ b: Double) -> Bool {
    (a.isNaN && b.isNaN) || a.bitPattern == b.bitPattern
}
