extension ExecutionRequest {
    /// The settings a symbol's instrument keeps with its series (`bt data instrument`): what is
    /// traded, its price and quantity increments, its maintenance rate, its fees, the leverage
    /// and a contract's multiplier. Stored ones are the defaults of every run on the symbol; a
    /// setting a request gives wins.
    public static let instrumentSettings: [Setting] = [.instrument, .tick, .lot, .mmr, .makerBps, .feeBps, .leverage, .multiplier]

    /// This request over `stored`: each instrument setting the request does not give, from
    /// `stored` (other settings in `stored` are not read).
    public func over(_ stored: [Setting: ExecutionValue]) throws -> ExecutionRequest {
        var merged = self
        for setting in Self.instrumentSettings where values[setting] == nil {
            if let value = stored[setting] { try merged.set(setting, value) }
        }
        return merged
    }

    /// Checks the settings given as a run checks them (the same parsing and
    /// `ExecutionConfig.validate`), over the defaults of everything else: what `bt data
    /// instrument` stores is a configuration a run accepts.
    /// - Throws: `InputError` naming the setting at fault, with the reason and the range.
    public func checkedAlone() throws {
        var c = ExecutionConfig()
        try costsAndRules(&c)
        try c.validate()
    }
}
