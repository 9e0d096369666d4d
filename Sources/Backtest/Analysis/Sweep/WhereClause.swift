import BacktestCore

/// A filter on sweep combinations, as given to `--where`: comparisons between parameter names and
/// numbers joined by `and` (also `&&` or `,`), e.g. `fast<slow`, `fast*2 <= slow and k>=1.5`.
///
/// Grammar: `clause := cmp (("and" | "&&" | ",") cmp)*`, `cmp := term op term`,
/// `op := < <= > >= == !=`, `term := operand (("*" | "+" | "-" | "/") operand)*` evaluated left to
/// right, `operand := name | number`.
public struct WhereClause: Sendable, Equatable {
    enum Token: Equatable, Sendable { case name(String), number(Double), op(String), arith(Character) }

    struct Term: Equatable, Sendable {
        var first: Token
        var rest: [(Character, Token)]
        static func == (a: Term, b: Term) -> Bool {
            a.first == b.first && a.rest.count == b.rest.count
                && zip(a.rest, b.rest).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    struct Comparison: Equatable, Sendable {
        var lhs: Term
        var op: String
        var rhs: Term
    }

    let comparisons: [Comparison]
    /// The text as given.
    public let text: String

    /// Parses `text`; every name must be one of `names` (the swept and fixed parameters).
    public init(_ text: String, names: Set<String>) throws {
        self.text = text
        guard !text.trimmingSpaces.isEmpty else { throw InputError("no condition given", setting: .where) }
        let normalized = text.replacing("&&", with: " and ").replacing(",", with: " and ")
        var comparisons: [Comparison] = []
        for part in normalized.components(separatedByWord: "and") {
            guard !part.isEmpty else { throw InputError("empty condition around 'and'", setting: .where, value: text) }
            let tokens = try Self.tokenize(part, names: names, whole: text)
            guard let opIndex = tokens.firstIndex(where: { if case .op = $0 { return true } else { return false } }),
                  case .op(let op) = tokens[opIndex]
            else { throw InputError("'\(part.trimmingSpaces)' has no comparison (< <= > >= == !=)", setting: .where, value: text) }
            let lhs = try Self.term(Array(tokens[..<opIndex]), whole: text)
            let rhs = try Self.term(Array(tokens[(opIndex + 1)...]), whole: text)
            comparisons.append(Comparison(lhs: lhs, op: op, rhs: rhs))
        }
        self.comparisons = comparisons
    }

    /// True when every comparison holds for `values`.
    public func matches(_ values: [String: Double]) -> Bool {
        comparisons.allSatisfy { c in
            let a = Self.evaluate(c.lhs, values), b = Self.evaluate(c.rhs, values)
            switch c.op {
            case "<": return a < b
            case "<=": return a <= b
            case ">": return a > b
            case ">=": return a >= b
            case "==": return a == b
            default: return a != b
            }
        }
    }

    static func evaluate(_ term: Term, _ values: [String: Double]) -> Double {
        func value(_ t: Token) -> Double {
            switch t {
            case .name(let n): return values[n] ?? .nan
            case .number(let v): return v
            default: return .nan
            }
        }
        var acc = value(term.first)
        for (op, t) in term.rest {
            let v = value(t)
            switch op {
            case "*": acc *= v
            case "/": acc /= v
            case "+": acc += v
            default: acc -= v
            }
        }
        return acc
    }

    static func term(_ tokens: [Token], whole: String) throws -> Term {
        func operand(_ t: Token) throws -> Token {
            switch t {
            case .name, .number: return t
            default: throw InputError("expected a name or number", setting: .where, value: whole)
            }
        }
        guard let first = tokens.first else { throw InputError("missing operand", setting: .where, value: whole) }
        var rest: [(Character, Token)] = []
        var i = 1
        while i < tokens.count {
            guard case .arith(let op) = tokens[i], i + 1 < tokens.count else {
                throw InputError("unexpected token", setting: .where, value: whole)
            }
            rest.append((op, try operand(tokens[i + 1])))
            i += 2
        }
        return Term(first: try operand(first), rest: rest)
    }

    static func tokenize(_ s: String, names: Set<String>, whole: String) throws -> [Token] {
        var tokens: [Token] = []
        let chars = Array(s)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " { i += 1; continue }
            if "<>=!".contains(c) {
                var op = String(c)
                if i + 1 < chars.count && chars[i + 1] == "=" { op.append("="); i += 1 }
                guard ["<", "<=", ">", ">=", "==", "!="].contains(op) else {
                    throw InputError("unknown operator '\(op)'", setting: .where, value: whole)
                }
                tokens.append(.op(op))
                i += 1
            } else if "*/+-".contains(c) && !(c == "-" && (tokens.last == nil || { if case .op = tokens.last! { return true } else { return false } }())) {
                tokens.append(.arith(c))
                i += 1
            } else if c.isNumber || c == "." || c == "-" {
                var j = i + 1
                while j < chars.count && (chars[j].isNumber || chars[j] == ".") { j += 1 }
                guard let v = Double(String(chars[i..<j])) else {
                    throw InputError("'\(String(chars[i..<j]))' is not a number", setting: .where, value: whole)
                }
                tokens.append(.number(v))
                i = j
            } else if c.isLetter || c == "_" {
                var j = i + 1
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_") { j += 1 }
                let name = String(chars[i..<j])
                guard names.contains(name) else {
                    let hint = Suggest.closest(to: name, among: names.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                    throw InputError("unknown parameter '\(name)'\(hint)", setting: .where, value: whole)
                }
                tokens.append(.name(name))
                i = j
            } else {
                throw InputError("unexpected character '\(c)'", setting: .where, value: whole)
            }
        }
        return tokens
    }
}

extension String {
    /// Splits on a whole word (surrounded by spaces or ends), case-insensitive.
    func components(separatedByWord word: String) -> [String] {
        let parts = self.split(separator: " ", omittingEmptySubsequences: true)
        var out: [String] = []
        var current: [Substring] = []
        for p in parts {
            if p.lowercased() == word {
                out.append(current.joined(separator: " "))
                current = []
            } else {
                current.append(p)
            }
        }
        out.append(current.joined(separator: " "))
        return out
    }
}
