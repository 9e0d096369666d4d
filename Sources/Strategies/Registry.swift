import Backtest

extension Strategy {
    /// Every strategy bt knows, in the order `bt strategies` lists them. One line per strategy.
    public static let all: [Strategy] = [
        .maCross,
        .rsi,
        .macd,
        .bollinger,
        .donchian,
    ]
}

extension Strategy {
    /// The strategy called `name`; throws `InputError` listing the valid names (and the closest).
    public static func named(_ name: String) throws -> Strategy {
        if let s = all.first(where: { $0.name == name }) { return s }
        let names = all.map(\.name)
        let hint = Suggest.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw InputError("unknown strategy '\(name)'\(hint) (valid: \(names.joined(separator: ", ")))")
    }
}
