import BacktestCore

extension ExecutionConfig {
    /// This configuration with trading costs scaled by `m` (1 = unchanged), for the
    /// cost-sensitivity table: every part of the fees (`feeBps`, `makerBps`, `feePerUnit`,
    /// `feeMin` and the cap `feeMax`) scales by m, so each fill's fee is m times (the maker rate
    /// kept within its range and the cap at most 100% of the notional), and so does the borrow
    /// rate of shorts (`borrowBps`, at most its largest), margin interest (`marginRate`) and the
    /// liquidation fee (`liqFeeBps`); funding, a market rate, is not a cost scaled. The synthetic book's
    /// distances from the reference (half spread and impact) scale by m, and so does fixed
    /// slippage. m = 0 turns depth off (fills at the reference price). A recorded book
    /// (`--depth book`) cannot be rescaled and is kept for m > 0.
    public func scalingCosts(by m: Double) -> ExecutionConfig {
        precondition(m >= 0, "cost multiplier must be >= 0")
        var c = self
        c.feeBps *= m
        c.feeMin *= m
        c.feePerUnit *= m
        c.makerBps = makerBps.map { min(max($0 * m, -ExecutionConfig.largestRebateBps), 9_999) }
        // At 0x every part of the fee is 0, so no cap charges the same; a cap of 0 is not a valid one.
        c.feeMax = m > 0 ? feeMax.map { min($0 * m, 1) } : nil
        c.borrowBps = min(borrowBps * m, ExecutionConfig.largestBorrowBps)
        c.marginRate = min(marginRate * m, ExecutionConfig.largestMarginRate)
        c.liqFeeBps = min(liqFeeBps * m, 9_999)
        guard m > 0 else { c.depth = .none; return c }
        switch depth {
        case .synthetic: c.synthetic.costScale *= m
        case .fixedSlippage(let bps): c.depth = .fixedSlippage(bps: min(bps * m, 9_999))
        case .none, .book: break
        }
        return c
    }
}

extension CostSensitivity {
    /// The cost table and break-even fee for a strategy's `signals` on `candles` under `config`,
    /// re-running `Engine.run` at each multiplier and, for the break-even, with `feeBps` varied
    /// and depth impact as configured. The break-even varies the taker rate (and the maker
    /// rate with it when `makerBps` is not given); a given maker rate, the per-unit fee, the
    /// minimum and the cap stay as configured.
    public static func run(_ candles: CandleSeries, signals: Signals, config: ExecutionConfig,
                           periodsPerYear: Double? = nil) throws -> CostSensitivity {
        try run(CandleWindow(candles), signals: signals, config: config, periodsPerYear: periodsPerYear)
    }

    /// The cost table of a run over `window` (`Engine.run(_:)`), `signals` computed on all of
    /// `window.series`. Its runs (one per multiplier, 20-40 for the break-even) share `cache`
    /// (the series', as the run's: its spread pairs at synthetic depth and the expressions'
    /// indicators are computed once).
    public static func run(_ window: CandleWindow, signals: Signals, config: ExecutionConfig,
                           periodsPerYear: Double? = nil, cache: IndicatorCache = IndicatorCache()) throws -> CostSensitivity {
        try CostSensitivity(periodsPerYear: periodsPerYear,
                            run: {
                                try Engine.run(Engine.Request(window, signals: signals, config: config.scalingCosts(by: $0), cache: cache))
                            },
                            totalReturn: { fee in
                                var c = config
                                c.feeBps = min(fee, 9_999)
                                let r = try Engine.run(Engine.Request(window, signals: signals, config: c, cache: cache))
                                return r.totalReturn
                            })
    }
}
