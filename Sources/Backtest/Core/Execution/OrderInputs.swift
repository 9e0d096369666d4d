/// What a run's orders and exits read bar by bar: the expressions of its `ExecutionConfig`
/// (limit and stop prices, exit distances) evaluated on one symbol's candles, in one plan.
struct OrderInputs {
    var distances = ExitLevels.Distances()
    /// nil: market entries.
    var entryPrices: EntryPrices?

    /// - Throws: `InputError` from an indicator of an expression (a period longer than the series).
    init(_ config: ExecutionConfig, candles: CandleSeries, cache: IndicatorCache) throws {
        let exits = config.exits, entries = config.entries
        var all = exits.expressions
        for e in entries.expressions where !all.contains(e) { all.append(e) }
        guard !all.isEmpty || !entries.isMarket else { return }
        let values = try all.values(on: candles, cache: cache)
        func series(_ e: PriceExpression?) -> [Double]? { e.flatMap { all.firstIndex(of: $0) }.map { values[$0] } }
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
    }
}
