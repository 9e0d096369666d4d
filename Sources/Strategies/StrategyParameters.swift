import Backtest

/// A strategy's resolved parameter values, in the strategy's declared order.
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
    }

    /// (name, value) pairs in declaration order.
    public private(set) var values: [(name: String, value: Value)]

    public static func == (a: Self, b: Self) -> Bool {
        a.values.map(\.name) == b.values.map(\.name) && a.values.map(\.value) == b.values.map(\.value)
    }

    /// Defaults of `strategy`, overridden by `name=value` assignments.
    init(parsing assignments: [String], for strategy: Strategy) throws {
        values = strategy.parameters.map { ($0.name, $0.defaultValue) }
        let valid = strategy.parameters.map(\.name)
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
                throw InputError("'\(assignment)' is not name=value (parameters of \(strategy.name): \(valid.joined(separator: ", ")))",
                                 setting: .parameter)
            }
            let name = String(assignment[..<eq]), text = String(assignment[assignment.index(after: eq)...])
            guard let i = strategy.parameters.firstIndex(where: { $0.name == name }) else {
                let hint = Suggest.closest(to: name, among: valid).map { "; did you mean '\($0)'?" } ?? ""
                throw InputError("unknown parameter '\(name)' for \(strategy.name)\(hint) (valid: \(valid.joined(separator: ", ")))",
                                 setting: .parameter)
            }
            values[i].value = try strategy.parameters[i].parse(text)
        }
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
