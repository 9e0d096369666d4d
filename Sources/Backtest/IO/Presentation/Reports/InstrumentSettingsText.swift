import BacktestCore
import BacktestData

/// What `bt data instrument` prints: a symbol's stored instrument settings, each named as the
/// run's parameter is (snake_case: `instrument`, `tick`, `lot`, `mmr`, `maker_bps`, `fee_bps`,
/// `leverage`), in `ExecutionRequest.instrumentSettings`' order.
package enum InstrumentSettingsText {
    /// One line per stored setting, `name value` with the value as it was given (`mmr 0.4%`),
    /// or a line saying there are none.
    package static func text(symbol: String, _ settings: [Setting: ExecutionValue]) -> String {
        let rows = ExecutionRequest.instrumentSettings.compactMap { s in settings[s].map { [s.name, text($0)] } }
        guard !rows.isEmpty else { return "\(symbol): no instrument settings stored (runs use the defaults)\n" }
        return "\(symbol) instrument settings (the defaults of its runs):\n"
            + TextTable.render(rows, rightAligned: []).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
    }

    /// `{"symbol", then each stored setting}`: numbers as numbers, the maintenance rate as a
    /// fraction, the instrument's kind as text.
    package static func json(symbol: String, _ settings: [Setting: ExecutionValue]) throws -> JSONValue {
        .object([(key: "symbol", value: .string(symbol))] + (try members(settings)))
    }

    /// The stored settings as JSON members, as `json` writes them.
    package static func members(_ settings: [Setting: ExecutionValue]) throws -> [(key: String, value: JSONValue)] {
        try ExecutionRequest.instrumentSettings.compactMap { s -> (key: String, value: JSONValue)? in
            switch settings[s] {
            case .number(let v)?: return (s.name, .number(v))
            case .text(let t)? where s == .mmr:
                return (s.name, .number(try ExecutionConfig.parseDistance(t, setting: .mmr, of: "the notional")))
            case .text(let t)?: return (s.name, .string(t))
            case .texts, .flag, nil: return nil
            }
        }
    }

    private static func text(_ value: ExecutionValue) -> String {
        switch value {
        case .number(let v): NumberText.shortest(v)
        case .text(let t): t
        case .texts(let t): t.joined(separator: ",")
        case .flag(let f): f ? "true" : "false"
        }
    }
}
