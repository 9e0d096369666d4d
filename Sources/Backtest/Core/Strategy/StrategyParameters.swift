/// A strategy's resolved parameter values, in the strategy's declared order. Values are set from
/// `name=value` text or from numbers (a sweep's grid), checked against the declarations either way.
public struct StrategyParameters: Sendable, Equatable {
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case int(Int), double(Double), string(String)
        public var description: String {
            switch self {
            case .int(let v): String(v)
            case .double(let v): NumberText.shortest(v)
            case .string(let v): v
            }
        }
        /// As JSON: numbers as numbers, words as strings.
        public var json: JSONValue {
            switch self {
            case .int(let v): .int(v)
            case .double(let v): .number(v)
            case .string(let v): .string(v)
            }
        }
    }

    /// (name, value) pairs in declaration order.
    public private(set) var values: [(name: String, value: Value)]
    /// The strategy's name and declarations, to check new values against.
    private let strategy: String
    private let declarations: [StrategyParameter]

    public static func == (a: Self, b: Self) -> Bool {
        a.values.map(\.name) == b.values.map(\.name) && a.values.map(\.value) == b.values.map(\.value)
    }

    /// Defaults of `strategy`, overridden by `name=value` assignments.
    init(parsing assignments: [String], for strategy: Strategy) throws {
        self.strategy = strategy.name
        declarations = strategy.parameters
        values = declarations.map { ($0.name, $0.defaultValue) }
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
                throw InputError("'\(assignment)' is not name=value (parameters of \(strategy.name): \(validNames))",
                                 setting: .parameter)
            }
            let i = try index(of: String(assignment[..<eq]))
            values[i].value = try declarations[i].parse(String(assignment[assignment.index(after: eq)...]))
        }
    }

    /// Sets parameter `name` to `number`, checked as the assignment `name=<number>` would be (the
    /// same errors), without going through text: a sweep sets its swept values this way.
    /// - Throws: `InputError` for an unknown name or a value the parameter does not take
    ///   (a fraction for a whole number, a number below the minimum, a number for a choice).
    public mutating func set(_ name: String, to number: Double) throws {
        let i = try index(of: name)
        values[i].value = try declarations[i].value(number)
    }

    private var validNames: String { declarations.map(\.name).joined(separator: ", ") }

    private func index(of name: String) throws -> Int {
        if let i = declarations.firstIndex(where: { $0.name == name }) { return i }
        let hint = Suggest.closest(to: name, among: declarations.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
        throw InputError("unknown parameter '\(name)' for \(strategy)\(hint) (valid: \(validNames))", setting: .parameter)
    }

    public subscript(name: String) -> Value? { values.first { $0.name == name }?.value }

    /// The integer parameter `name` (a programmer error if it is not declared as one).
    public func int(_ name: String) -> Int {
        guard case .int(let v)? = self[name] else { preconditionFailure("no int parameter '\(name)'") }
        return v
    }

    public func double(_ name: String) -> Double {
        switch self[name] {
        case .double(let v)?: return v
        case .int(let v)?: return Double(v)
        default: preconditionFailure("no numeric parameter '\(name)'")
        }
    }

    public func string(_ name: String) -> String {
        guard case .string(let v)? = self[name] else { preconditionFailure("no choice parameter '\(name)'") }
        return v
    }
}

extension StrategyParameters {
    /// Every parameter, defaults included, for report manifests and `bt run --json`.
    public var runParameters: [RunParameter] {
        values.map { name, value in
            switch value {
            case .int(let v): RunParameter(name, .int(v))
            case .double(let v): RunParameter(name, .double(v))
            case .string(let v): RunParameter(name, .string(v))
            }
        }
    }
}
