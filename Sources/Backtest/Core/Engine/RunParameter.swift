/// One named setting of a run (a strategy parameter or an execution option), as the report
/// manifest and `bt run --json` show it.
public struct RunParameter: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case int(Int)
        case double(Double)
        case string(String)
        case bool(Bool)
        /// An option that is off (no stop-loss, no lot size).
        case none
    }

    /// snake_case name (`fast`, `fee_bps`).
    public var name: String
    public var value: Value

    public init(_ name: String, _ value: Value) {
        self.name = name; self.value = value
    }

    /// For human tables: numbers in shortest form, `none` when off.
    public var text: String {
        switch value {
        case .int(let v): return String(v)
        case .double(let v): return NumberText.shortest(v)
        case .string(let v): return v
        case .bool(let v): return v ? "true" : "false"
        case .none: return "none"
        }
    }

    /// As JSON: numbers as numbers, off as null.
    public var json: JSONValue {
        switch value {
        case .int(let v): return .int(v)
        case .double(let v): return .number(v)
        case .string(let v): return .string(v)
        case .bool(let v): return .bool(v)
        case .none: return .null
        }
    }
}
