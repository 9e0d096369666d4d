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
}

/// `--param name=value` for expressions that are not a strategy (condition screens): a number
/// defines a number `$name`, anything else a word.
enum ExpressionAssignment {
    static func parse(_ text: String) throws -> (name: String, value: ExpressionValue) {
        guard let eq = text.firstIndex(of: "="), StrategyFile.isIdentifier(String(text[..<eq])) else {
            throw InputError("'\(text)' is not name=value with a name of letters, digits and '_'", setting: .parameter)
        }
        let value = String(text[text.index(after: eq)...])
        if let v = Double(value), v.isFinite { return (String(text[..<eq]), .number(v)) }
        return (String(text[..<eq]), .word(value))
    }
}
