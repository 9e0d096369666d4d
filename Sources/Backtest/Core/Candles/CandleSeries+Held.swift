extension CandleSeries {
    /// One symbol's candles at `timeframe`, from the series it is held at (the store's, or those
    /// a caller of the C library gave): the series held at `timeframe`, else the finest resampled
    /// to it, following that series' session when it has one, as `--timeframe` makes them. The
    /// store and the C library's other series both choose here, so `close@1d` reads the same
    /// bars from either.
    /// - Parameters:
    ///   - held: the timeframes the symbol's series are held at, as the store writes them
    ///     (`1m`, `1d`), finest first.
    ///   - load: the series held at one of `held`.
    ///   - session: the session of the series held at one of `held`, if any.
    ///   - word: how the series are held, for the message (`stored`, `given`).
    /// - Throws: `InputError` when the symbol is held only at `timeframe` or coarser (and not at
    ///   it), or at a timeframe bt does not know.
    package static func held(_ symbol: String, at timeframe: Timeframe, held: [String], heldAs word: String = "stored",
                             load: (String) throws -> CandleSeries,
                             session: (String) throws -> TradingSession?) throws -> CandleSeries {
        if held.contains(timeframe.rawValue) { return try load(timeframe.rawValue) }
        guard let finest = held.first, let base = Timeframe(rawValue: finest), base < timeframe else {
            throw InputError("cannot make \(timeframe.rawValue) candles for '\(symbol)' from its \(word) "
                             + held.joined(separator: ", ") + " series")
        }
        let source = try load(finest)
        if let session = try session(finest) { return try source.resampled(to: timeframe, session: session) }
        return source.resampled(to: timeframe)
    }
}
