import Testing
@testable import BacktestCore

/// Helpers shared by the engine tests: small hand-made series, random series, and the
/// accounting invariants every engine run in the suite is checked against.
enum EngineTest {
    /// A series from (open, high, low, close, volume) rows, one day apart.
    static func candles(_ rows: [(Double, Double, Double, Double, Double)]) -> CandleSeries {
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        for (i, r) in rows.enumerated() {
            s.append(time: 1_600_000_000 + Int64(i) * 86_400, open: r.0, high: r.1, low: r.2, close: r.3, volume: r.4)
        }
        return s
    }

    /// Flat-range bars where open = close = `prices[i]`, high/low ±1%, volume 1e9.
    static func flat(_ prices: [Double], volume: Double = 1e9) -> CandleSeries {
        candles(prices.map { ($0, $0 * 1.01, $0 * 0.99, $0, volume) })
    }

    /// A seeded random walk with fat-tailed shocks and varying volume.
    static func random(bars n: Int, seed: UInt) -> CandleSeries {
        let rng = GSL.Random(seed: seed)
        var s = CandleSeries(symbol: "RND", timeframe: .hour1)
        s.reserveCapacity(n)
        var price = 100.0
        for i in 0..<n {
            let open = price * (1 + rng.gaussian(sigma: 0.002))
            let close = open * (1 + rng.studentT(nu: 4) * 0.01)
            let high = max(open, close) * (1 + rng.uniform() * 0.01)
            let low = min(open, close) * (1 - rng.uniform() * 0.01)
            s.append(time: 1_600_000_000 + Int64(i) * 3600, open: open, high: high, low: low, close: close,
                     volume: 1_000 + rng.uniform() * 50_000)
            price = close
        }
        return s
    }

    /// Random entry/exit vectors with probability `p` per bar.
    static func randomSignals(bars n: Int, seed: UInt, p: Double = 0.08) -> Signals {
        let rng = GSL.Random(seed: seed)
        return Signals(entries: (0..<n).map { _ in rng.uniform() < p }, exits: (0..<n).map { _ in rng.uniform() < p })
    }

    /// Runs the engine and checks the accounting invariants on the result.
    static func run(_ candles: CandleSeries, _ signals: Signals, _ config: ExecutionConfig,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> BacktestResult {
        let r = try Engine.run(Engine.Request(candles, signals: signals, config: config))
        checkInvariants(r, config, sourceLocation: sourceLocation)
        return r
    }

    static func checkInvariants(_ r: BacktestResult, _ config: ExecutionConfig,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let n = r.candles.count
        #expect(r.cash.count == n && r.position.count == n && r.equity.count == n, sourceLocation: sourceLocation)
        var worst = 0.0
        for t in 0..<n {
            // Inverse contracts, in the coin: cash − position × multiplier / close.
            let expected = config.instrument.isInverse ? r.cash[t] - r.position[t] * config.multiplier / r.candles.close[t]
                : r.cash[t] + r.position[t] * config.multiplier * r.candles.close[t]
            worst = max(worst, abs(r.equity[t] - expected) / max(1, abs(expected)))
        }
        #expect(worst <= 1e-12, "equity != cash + position x multiplier x close (worst \(worst))", sourceLocation: sourceLocation)
        let pnl = r.trades.reduce(0) { $0 + $1.pnl }
        let final = r.equity.last ?? r.initialCash
        #expect(abs(r.initialCash + pnl - final) <= 1e-9 * max(1, abs(final)),
                "final equity \(final) != initial + trade PnL \(r.initialCash + pnl)", sourceLocation: sourceLocation)
        #expect(abs(r.trades.reduce(0) { $0 + $1.fees } - r.feesPaid) <= 1e-9 * max(1, r.feesPaid),
                "trade fees do not add up to fill fees", sourceLocation: sourceLocation)
        let borrow = r.borrowPaid ?? 0
        #expect(abs(r.trades.reduce(0) { $0 + $1.borrow } - borrow) <= 1e-9 * max(1, borrow),
                "trade borrow does not add up to the borrow paid", sourceLocation: sourceLocation)
        #expect((r.borrowPaid == nil) == (config.borrowBps == 0), sourceLocation: sourceLocation)
        for f in r.fills {
            #expect(f.quantityFilled > 0 && f.quantityFilled <= f.quantityAsked * (1 + 1e-12), sourceLocation: sourceLocation)
            #expect(f.quantityFilled <= f.depthAvailable * (1 + 1e-12), "fill beyond the depth walked", sourceLocation: sourceLocation)
            if let share = config.maxParticipation, share > 0, r.candles.volume[f.index] > 0 {
                #expect(f.quantityFilled <= share * r.candles.volume[f.index] * (1 + 1e-12),
                        "fill beyond the participation cap", sourceLocation: sourceLocation)
            }
            if let lot = config.lot, f.side == .buy, !config.allowShort {
                let lots = f.quantityFilled / lot
                #expect(abs(lots - lots.rounded()) < 1e-6, "fill not a lot multiple", sourceLocation: sourceLocation)
            }
        }
        if !config.allowShort {
            #expect(r.position.allSatisfy { $0 >= 0 }, sourceLocation: sourceLocation)
        }
        if !config.allowShort && !config.isMarginAccount {
            // A cash account never borrows cash; a margin account's cash goes below 0 when leveraged.
            #expect(r.cash.allSatisfy { $0 >= -1e-9 * r.initialCash }, "cash went negative", sourceLocation: sourceLocation)
        }
        // A margin account's funding and interest are the trades' sums (and nothing without one).
        #expect((r.account == nil) == !config.isMarginAccount, sourceLocation: sourceLocation)
        let funding = r.account?.fundingPaid ?? 0, interest = r.account?.interestPaid ?? 0
        #expect(abs(r.trades.reduce(0) { $0 + $1.funding } - funding) <= 1e-9 * max(1, abs(funding)),
                "trade funding does not add up to the funding paid", sourceLocation: sourceLocation)
        #expect(abs(r.trades.reduce(0) { $0 + $1.interest } - interest) <= 1e-9 * max(1, interest),
                "trade interest does not add up to the interest paid", sourceLocation: sourceLocation)
    }

    /// A config with depth none, no participation cap, 10 bps fees.
    static func plain() -> ExecutionConfig {
        var c = ExecutionConfig()
        c.depth = .none
        c.maxParticipation = nil
        return c
    }
}
