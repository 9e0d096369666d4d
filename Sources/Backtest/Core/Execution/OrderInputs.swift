/// What a run's orders and exits read bar by bar: the expressions of its `ExecutionConfig`
/// (limit and stop prices, exit distances) evaluated on one symbol's candles, in one plan.
struct OrderInputs {
    var distances = ExitLevels.Distances()
    /// nil: market entries.
    var entryPrices: EntryPrices?

    /// - Parameter runBars: how many of the last bars of `candles` the run covers (a
    ///   walk-forward fold, a portfolio symbol's bars after its history; nil: all): the inputs
    ///   are theirs, the expressions keeping the warm-up of the bars before.
    /// - Throws: `InputError` from an indicator of an expression (a period longer than the
    ///   series), or naming the setting of an exit whose distance is not a positive number on
    ///   any of the run's bars.
    init(_ config: ExecutionConfig, candles: CandleSeries, cache: IndicatorCache, runBars: Int? = nil) throws {
        let exits = config.exits, entries = config.entries
        var all = exits.expressions
        for e in entries.expressions where !all.contains(e) { all.append(e) }
        guard !all.isEmpty || !entries.isMarket else { return }
        let values = try all.values(on: candles, cache: cache)
        let index = Dictionary(all.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func series(_ e: PriceExpression?) -> [Double]? { e.flatMap { index[$0] }.map { values[$0] } }
        func series(_ d: ExitDistance?) -> [Double]? {
            if case .price(let e)? = d { return series(e) }
            return nil
        }
        distances = ExitLevels.Distances(stopLoss: series(exits.stopLoss), takeProfits: exits.takeProfits.map { series($0.distance) },
                                         trail: series(exits.trail))
        if !entries.isMarket {
            entryPrices = EntryPrices(limit: series(entries.limit), stop: series(entries.stop),
                                      shortLimit: series(entries.shortLimit), shortStop: series(entries.shortStop))
        }
        if let runBars, runBars < candles.count { self = suffix(runBars) }
        try requirePositiveDistances(exits, symbol: candles.symbol)
    }

    /// Refuses an exit whose distance in price is not a positive number on any bar of the run
    /// (`-atr(14)`, `1/0`, `log(0)`, `close[1000000]`): its level would never be set, and the
    /// run would be the run without it. Bars where it is not are counted as the run goes
    /// (`ExitLevels.unsetLevels`).
    private func requirePositiveDistances(_ exits: ExitRules, symbol: String) throws {
        func check(_ distance: ExitDistance?, _ values: [Double]?, _ setting: Setting, _ what: String) throws {
            guard case .price(let e)? = distance, let values, !values.isEmpty,
                  !values.contains(where: { $0 > 0 && $0.isFinite }) else { return }
            let bars = "\(symbol.isEmpty ? "the run's" : symbol + "'s") \(values.count) bar\(values.count == 1 ? "" : "s")"
            throw (e.origin ?? .setting(setting)).inputError(
                setting, value: e.text, "a distance in price must be a positive number, and this one is not on any of \(bars): "
                    + "the \(what) would never be set")
        }
        try check(exits.stopLoss, distances.stopLoss, .stopLoss, "stop-loss")
        for (t, values) in zip(exits.takeProfits, distances.takeProfits) { try check(t.distance, values, .takeProfit, "target") }
        try check(exits.trail, distances.trail, .trail, "trailing stop")
    }

    /// The inputs of the last `count` bars (a run over the end of the candles they were
    /// computed on, so expressions keep the warm-up of the bars before).
    private func suffix(_ count: Int) -> OrderInputs {
        func cut(_ v: [Double]?) -> [Double]? { v.map { Array($0.suffix(count)) } }
        var out = self
        out.distances = ExitLevels.Distances(stopLoss: cut(distances.stopLoss), takeProfits: distances.takeProfits.map(cut),
                                             trail: cut(distances.trail))
        out.entryPrices = entryPrices.map {
            EntryPrices(limit: cut($0.limit), stop: cut($0.stop), shortLimit: cut($0.shortLimit), shortStop: cut($0.shortStop))
        }
        return out
    }
}
