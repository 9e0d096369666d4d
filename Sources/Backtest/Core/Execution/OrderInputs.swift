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
    }

    /// The inputs of the last `count` bars (a run over the end of the candles they were
    /// computed on, so expressions keep the warm-up of the bars before).
    func suffix(_ count: Int) -> OrderInputs {
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
