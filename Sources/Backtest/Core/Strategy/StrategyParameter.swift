/// One tunable parameter of a strategy: name, type and range, default, help.
public struct StrategyParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A whole number in `minimum...maximum`.
        case int(minimum: Int, maximum: Int = .max)
        /// A finite number within the bounds (nil: unbounded on that side).
        case double(lower: Bound?, upper: Bound?)
        /// One of the listed words.
        case choice([String])
    }

    /// A bound on a number parameter: `> 0` is `Bound(0, inclusive: false)`.
    public typealias Bound = StrategyFile.Bound

    public let name: String
    public let kind: Kind
    public let defaultValue: StrategyParameters.Value
    public let help: String

    public init(name: String, kind: Kind, defaultValue: StrategyParameters.Value, help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
    }

    public static func int(_ name: String, _ value: Int, minimum: Int = 1, _ help: String) -> StrategyParameter {
        StrategyParameter(name: name, kind: .int(minimum: minimum), defaultValue: .int(value), help: help)
    }
    public static func double(_ name: String, _ value: Double, above: Double = 0, _ help: String) -> StrategyParameter {
        StrategyParameter(name: name, kind: .double(lower: Bound(above, inclusive: false), upper: nil),
                          defaultValue: .double(value), help: help)
    }
    public static func choice(_ name: String, _ value: String, _ options: [String], _ help: String) -> StrategyParameter {
        StrategyParameter(name: name, kind: .choice(options), defaultValue: .string(value), help: help)
    }

    /// The value of `text` for this parameter, or an `InputError` saying what is expected.
    func parse(_ text: String) throws -> StrategyParameters.Value {
        switch kind {
        case .int(let minimum, let maximum):
            guard let v = Int(text), v >= minimum, v <= maximum else { throw rejection(text) }
            return .int(v)
        case .double(let lower, let upper):
            guard let v = Double(text), v.isFinite, Self.allows(v, lower, upper) else { throw rejection(text) }
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
        case .int(let minimum, let maximum):
            // The shortest text of a whole number below 1e15 is its digits; anything else is not
            // a whole number to `parse`.
            guard number == number.rounded(), abs(number) < 1e15, Int(number) >= minimum, Int(number) <= maximum else {
                throw rejection(NumberText.shortest(number))
            }
            return .int(Int(number))
        case .double(let lower, let upper):
            guard number.isFinite, Self.allows(number, lower, upper) else { throw rejection(NumberText.shortest(number)) }
            return .double(number == 0 ? 0 : number)
        case .choice(let options):
            let text = NumberText.shortest(number)
            guard options.contains(text) else { throw rejection(text) }
            return .string(text)
        }
    }

    private static func allows(_ v: Double, _ lower: Bound?, _ upper: Bound?) -> Bool {
        if let lower, lower.inclusive ? v < lower.value : v <= lower.value { return false }
        if let upper, upper.inclusive ? v > upper.value : v >= upper.value { return false }
        return true
    }

    /// Why `text` is not a value of this parameter.
    private func rejection(_ text: String) -> InputError {
        switch kind {
        case .int:
            InputError("parameter '\(name)' needs a whole number\(bounds), got '\(text)'", setting: .parameter)
        case .double:
            InputError("parameter '\(name)' needs a number\(bounds), got '\(text)'", setting: .parameter)
        case .choice(let options):
            InputError("parameter '\(name)' must be one of \(options.joined(separator: "|")), got '\(text)'", setting: .parameter)
        }
    }

    /// ` >= 1`, ` > 0 <= 100`, or empty without bounds.
    private var bounds: String {
        switch kind {
        case .int(let minimum, let maximum):
            return (minimum > .min ? " >= \(minimum)" : "") + (maximum < .max ? " <= \(maximum)" : "")
        case .double(let lower, let upper):
            var s = ""
            if let lower { s += (lower.inclusive ? " >= " : " > ") + lower.value.formatted }
            if let upper { s += (upper.inclusive ? " <= " : " < ") + upper.value.formatted }
            return s
        case .choice:
            return ""
        }
    }

    /// `int >= 1`, `number > 0`, `sma|ema`: for listings.
    public var typeDescription: String {
        switch kind {
        case .int: "int" + bounds
        case .double: "number" + bounds
        case .choice(let options): options.joined(separator: "|")
        }
    }
}

private extension Double {
    var formatted: String { NumberText.shortest(self) }
}
