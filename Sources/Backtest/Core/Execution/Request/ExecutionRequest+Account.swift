extension ExecutionRequest {
    /// The account settings given (docs/design/orders.md, "Margin" and "Funding"): leverage,
    /// margin mode, instrument, maintenance rate, liquidation fee and margin interest; a
    /// perpetual's funding rows are the symbol's stored ones within the candles' time range
    /// (`ExecutionResources.funding`).
    func account(_ c: inout ExecutionConfig, symbol: String, candles: CandleSeries, resources: ExecutionResources) throws {
        if let v = number(.leverage) { c.leverage = v }
        if let v = text(.margin) {
            guard let mode = MarginMode(rawValue: v) else { throw InputError("not cross or isolated", setting: .margin, value: v) }
            c.margin = mode
        }
        if let v = text(.instrument) {
            guard let kind = Instrument(rawValue: v) else {
                throw InputError("not one of " + Instrument.allCases.map(\.rawValue).joined(separator: ", "), setting: .instrument, value: v)
            }
            c.instrument = kind
        }
        if let v = text(.mmr) { c.mmr = try ExecutionConfig.parseDistance(v, setting: .mmr, of: "the notional") }
        if let v = number(.liqFeeBps) { c.liqFeeBps = v }
        if let v = number(.multiplier) { c.multiplier = v }
        if let v = text(.marginRate) { c.marginRate = try ExecutionConfig.parseFraction(v, setting: .marginRate) }
        if c.instrument == .perp, let first = candles.time.first {
            c.funding = try resources.funding(symbol: SeriesName.split(symbol)?.0 ?? symbol, fromMs: first &* 1000)
        }
    }
}
