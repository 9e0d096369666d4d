extension ExecutionRequest {
    /// The fees, the account and the instrument's rules given, over `c`'s: everything of a run's
    /// configuration that depends on neither its candles, its strategy nor the store.
    func costsAndRules(_ c: inout ExecutionConfig) throws {
        if let v = number(.feeBps) { c.feeBps = v }
        if let v = number(.feeMin) { c.feeMin = v }
        if let v = number(.feePerUnit) { c.feePerUnit = v }
        c.makerBps = number(.makerBps)
        if let v = number(.borrowBps) { c.borrowBps = v }
        if let v = text(.feeMax) { c.feeMax = try ExecutionConfig.parseDistance(v, setting: .feeMax, of: "the notional") }
        try account(&c)
        c.tick = number(.tick)
        c.lot = number(.lot)
        c.minNotional = number(.minNotional)
        if let v = number(.maxParticipation) { c.maxParticipation = v == 0 ? nil : v }
    }

    /// The account settings given (docs/design/orders.md, "Margin" and "Funding"): leverage,
    /// margin mode, instrument, maintenance rate, liquidation fee and margin interest.
    private func account(_ c: inout ExecutionConfig) throws {
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
    }

    /// A perpetual's funding rows: the symbol's stored ones within the candles' time range
    /// (`ExecutionResources.funding`, by the base symbol).
    func funding(_ c: inout ExecutionConfig, symbol: String, candles: CandleSeries, resources: ExecutionResources) throws {
        if c.instrument.paysFunding, let first = candles.time.first {
            c.funding = try resources.funding(symbol: SeriesName.split(symbol)?.0 ?? symbol, fromMs: first &* 1000)
        }
    }
}
