/// A JSON value; objects keep their keys in order. The JSON importers parse into it and every
/// JSON bt writes (`bt run --json`, `stats.json`, the CLI's `--json` listings) is built as one
/// and written by `serialized(_:)`.
public indirect enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// Written in shortest round-trip form, whole numbers below 1e15 without a fraction
    /// (`NumberText.shortest`); NaN and infinities are written as `null`.
    case number(Double)
    /// Written as the integer it is (never produced by parsing).
    case int(Int)
    /// A number already written as JSON text, written as is: for figures printed with a fixed
    /// number of decimals (benchmark timings). Never produced by parsing.
    case numberLiteral(String)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(x), .array(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.numberLiteral(x), .numberLiteral(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object with the literal's keys in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}
