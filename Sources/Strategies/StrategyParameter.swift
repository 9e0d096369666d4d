import Backtest

/// One tunable parameter of a strategy: name, type and range, default, help.
public struct StrategyParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A whole number >= `minimum`.
        case int(minimum: Int)
        /// A finite number > `above`.
        case double(above: Double)
        /// One of the listed words.
        case choice([String])
    }

    public let name: String
    public let kind: Kind
    public let defaultValue: StrategyParameters.Value
    public let help: String

    public static func int(_ name: String, _ value: Int, minimum: Int = 1, _ help: String) -> StrategyParameter {
        StrategyParameter(name: name, kind: .int(minimum: minimum), defaultValue: .int(value), help: help)
    }
    public static func double(_ name: String, _ value: Double, above: Double = 0, _ help: String) -> StrategyParameter {
        StrategyParameter(name: name, kind: .double(above: above), defaultValue: .double(value), help: help)
    }
    public static func choice(_ name: String, _ value: String, _ options: [String], _ help: String) -> StrategyParameter {
        StrategyParameter(name: name, kind: .choice(options), defaultValue: .string(value), help: help)
    }

    /// The value of `text` for this parameter, or an `InputError` saying what is expected.
    func parse(_ text: String) throws -> StrategyParameters.Value {
        switch kind {
        case .int(let minimum):
            guard let v = Int(text), v >= minimum else { throw rejection(text) }
            return .int(v)
        case .double(let above):
            guard let v = Double(text), v.isFinite, v > above else { throw rejection(text) }
            return .double(v)
        case .choice(let options):
            guard options.contains(text) else { throw rejection(text) }
            return .string(text)
        }
    }

    /// The value `number` gives this parameter (a swept value): what `parse` gives for the
    /// number's shortest text (`NumberText.shortest`), without the round trip through text.
    func value(_ number: Double) throws -> StrategyParameters.Value {
        switch kind {
        case .int(let minimum):
            // The shortest text of a whole number below 1e15 is its digits; anything else is not
            // a whole number to `parse`.
            guard number == number.rounded(), abs(number) < 1e15, Int(number) >= minimum else {
                throw rejection(NumberText.shortest(number))
            }
            return .int(Int(number))
        case .double(let above):
            guard number.isFinite, number > above else { throw rejection(NumberText.shortest(number)) }
            return .double(number == 0 ? 0 : number)
        case .choice(let options):
            let text = NumberText.shortest(number)
            guard options.contains(text) else { throw rejection(text) }
            return .string(text)
        }
    }

    /// Why `text` is not a value of this parameter.
    private func rejection(_ text: String) -> InputError {
        switch kind {
        case .int(let minimum):
            InputError("parameter '\(name)' needs a whole number >= \(minimum), got '\(text)'", setting: .parameter)
        case .double(let above):
            InputError("parameter '\(name)' needs a number > \(above.formatted), got '\(text)'", setting: .parameter)
        case .choice(let options):
            InputError("parameter '\(name)' must be one of \(options.joined(separator: "|")), got '\(text)'", setting: .parameter)
        }
    }

    /// `int >= 1`, `number > 0`, `sma|ema`: for listings.
    public var typeDescription: String {
        switch kind {
        case .int(let minimum): "int >= \(minimum)"
        case .double(let above): "number > \(above.formatted)"
        case .choice(let options): options.joined(separator: "|")
        }
    }
}

private extension Double {
    var formatted: String { NumberText.shortest(self) }
}
