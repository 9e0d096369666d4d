import BacktestCore

extension CandleStore {
    /// Writes what a fetch of `symbol` brought back, in one transaction: its file, merged as
    /// `write(_:)` merges it, then its instrument settings over the symbol's stored ones (when the
    /// symbol has something stored: a fetch that found no rows of a new symbol stores none).
    /// Returns the file's report (empty without a file) and the settings stored after (nil: none
    /// were written).
    package func write(fetched result: FetchResult, symbol: String) throws
        -> (reports: [ImportReport], instrument: [Setting: ExecutionValue]?) {
        try transaction {
            let reports = try result.file.map { try merge([$0]) } ?? []
            guard !result.instrument.isEmpty, try storedSymbols().contains(symbol) else { return (reports, nil) }
            return (reports, try replaceInstrument(symbol: symbol, given: result.instrument))
        }
    }
}
