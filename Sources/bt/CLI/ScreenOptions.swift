import Backtest

/// `bt screen`'s options as values: the symbols screened, and `--param` for condition screens.
extension ParsedArguments {
    /// `--symbols A,B,...` (checked and upper-cased; `SYMBOL@TF` names one series) or `--all`
    /// (every stored symbol at `--timeframe`, else at its only timeframe), exactly one of them.
    func screenSymbols(store: CandleStore) throws -> [String] {
        let symbols: [String]
        switch (try symbolList(.symbols), flag(.all)) {
        case (nil, false): throw UsageError("give \(Option.symbols) A,B,C or \(Option.all)", command: "screen")
        case (.some, true): throw UsageError("give either \(Option.symbols) or \(Option.all), not both", command: "screen")
        case (let list?, false):
            symbols = list
        case (nil, true):
            // One timeframe for all: --timeframe, else each symbol's only series.
            symbols = try store.allSeries(timeframe: try timeframe)
        }
        guard !symbols.isEmpty else { throw InputError("no symbols to screen") }
        return symbols
    }

    /// The condition screen of `--where` (`condition`) and `--show`, reading `parameters` as `$names`
    /// and other series with one reader for every symbol.
    func conditionScreen(_ condition: String, parameters: [(name: String, value: ExpressionValue)]) throws -> ConditionScreen {
        let e = try [LocatedExpression(condition, origin: .setting(.where))] + values(.show).map { try LocatedExpression($0, origin: .setting(.show)) }
        return try ConditionScreen(condition: e[0], shows: Array(e.dropFirst()), parameters: parameters, reading: otherSeries(reading: e))
    }
}
