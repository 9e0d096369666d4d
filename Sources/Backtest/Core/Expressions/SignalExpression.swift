/// A parsed signal expression: `cross_above(sma(close, $fast), sma(close, $slow)) and rsi(close) < 70`.
///
/// An expression describes whole series (one value per bar). It is parsed once, checked against
/// the declared parameters (`ExpressionChecker`), bound to parameter values into an
/// `ExpressionNode` tree and run as a plan of whole-array passes (`ExpressionPlan`); nothing is
/// interpreted bar by bar. The grammar, lowest precedence first:
///
///     expr       = or
///     or         = and ("or" and)*
///     and        = not ("and" not)*
///     not        = "not" not | comparison
///     comparison = sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?     (comparisons do not chain)
///     sum        = product (("+" | "-") product)*
///     product    = unary (("*" | "/") unary)*
///     unary      = "-" unary | postfix
///     postfix    = primary ("[" expr "]" | "." name)*
///     primary    = number | name | "$" name | (name | "$" name) "(" [expr ("," expr)*] ")" | "(" expr ")"
///
/// `SignalExpression(parsing:)` takes untrusted text: it never traps, and throws only
/// `ExpressionError` (nesting is limited to `maximumDepth` levels, so no input exhausts the stack;
/// the text to `maximumLength` characters and the tree to `maximumNodes` nodes, so a call of
/// 90,000 arguments is refused before it is bound; a bound `min` or `max` is a balanced tree,
/// so every bound tree is at most about `maximumDepth` x 14 levels deep and every recursive walk
/// of one, freeing included, stays shallow).
public struct SignalExpression: Sendable, CustomStringConvertible {
    /// The text as written.
    public let source: String
    let root: ExpressionSyntax

    /// Deepest nesting of parentheses, calls, offsets and operators the parser accepts.
    public static let maximumDepth = 100

    /// Most nodes (numbers, names, calls, operators) the parser builds: as many as a bound
    /// expression may have operations (`ExpressionNode.maximumSize`).
    public static let maximumNodes = ExpressionNode.maximumSize

    /// Longest text the parser reads, in UTF-8 bytes; longer text is refused before it is read.
    public static let maximumLength = 100_000

    /// Parses `source`.
    /// - Throws: `ExpressionError` (never anything else) with the offending range.
    public init(parsing source: String) throws {
        self.source = source
        if source.utf8.count > Self.maximumLength {
            throw ExpressionError(.tooLarge, "expression longer than \(Self.maximumLength) characters", at: 0..<1, in: source)
        }
        var parser = ExpressionParser(source: source, chars: Array(source))
        root = try parser.parse()
    }

    public var description: String { source }
}

/// A node of the syntax tree, with the characters it spans.
struct ExpressionSyntax: Sendable {
    enum BinaryOperator: String, Sendable, CaseIterable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "==", notEqual = "!="
        case and, or

        var isComparison: Bool {
            switch self {
            case .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual: return true
            default: return false
            }
        }
        var isLogical: Bool { self == .and || self == .or }
    }

    /// What a call calls: a function by name, or a word parameter naming one (`$type(close, 10)`).
    enum Callee: Sendable {
        case function(String)
        case parameter(String)
    }

    indirect enum Kind: Sendable {
        case number(Double)
        /// A bare name: a series such as `close` or `hl2`.
        case name(String)
        /// `$name`.
        case parameter(String)
        /// `f(a, b)`; `calleeRange` spans the function's name.
        case call(Callee, calleeRange: Range<Int>, arguments: [ExpressionSyntax])
        /// `x.name`; `nameRange` spans the name.
        case member(ExpressionSyntax, String, nameRange: Range<Int>)
        /// `x[n]`.
        case offset(ExpressionSyntax, ExpressionSyntax)
        /// `x@SYMBOL`, `x@TF` or `x@SYMBOL@TF`: `x` on another series; `keyRange` spans the keys.
        case other(ExpressionSyntax, OtherSeriesReference, keyRange: Range<Int>)
        case negate(ExpressionSyntax)
        case not(ExpressionSyntax)
        case binary(BinaryOperator, ExpressionSyntax, ExpressionSyntax, operatorRange: Range<Int>)
    }

    var kind: Kind
    /// Levels of nodes from here down (1 for a leaf): bounded by `SignalExpression.maximumDepth`,
    /// so every recursive walk over the tree has bounded depth.
    var height: Int
    var range: Range<Int>

    /// The nodes directly below this one.
    var children: [ExpressionSyntax] {
        switch kind {
        case .number, .name, .parameter: return []
        case .call(_, _, let arguments): return arguments
        case .member(let base, _, _), .other(let base, _, _): return [base]
        case .offset(let x, let n): return [x, n]
        case .negate(let x), .not(let x): return [x]
        case .binary(_, let a, let b, _): return [a, b]
        }
    }
}

/// Recursive descent over the tokens, one function per precedence level.
struct ExpressionParser {
    let source: String
    let chars: [Character]
    private var tokens: [ExpressionToken] = []
    private var position = 0
    private var depth = 0
    private var nodes = 0

    init(source: String, chars: [Character]) {
        self.source = source
        self.chars = chars
    }

    mutating func parse() throws -> ExpressionSyntax {
        tokens = try ExpressionLexer.tokens(chars, source: source)
        if case .end = tokens[0].kind {
            throw ExpressionError(.syntax, "empty expression", at: 0..<1, in: source)
        }
        let e = try expression()
        if case .end = current.kind { return e }
        if case .symbol(")") = current.kind {
            throw error("')' without a matching '('", at: current.range)
        }
        if case .symbol("]") = current.kind {
            throw error("']' without a matching '['", at: current.range)
        }
        throw error("expected an operator or the end of the expression, found \(current.quoted)", at: current.range)
    }

    private var current: ExpressionToken { tokens[position] }

    /// A node over `range`, refused when the tree would grow deeper than `maximumDepth` or
    /// larger than `maximumNodes`.
    private mutating func node(_ kind: ExpressionSyntax.Kind, _ range: Range<Int>) throws -> ExpressionSyntax {
        nodes += 1
        if nodes > SignalExpression.maximumNodes {
            throw ExpressionError(.tooLarge, "expression too large: more than \(SignalExpression.maximumNodes) numbers, names, calls "
                                  + "and operators", at: range, in: source)
        }
        var e = ExpressionSyntax(kind: kind, height: 1, range: range)
        e.height = 1 + (e.children.map(\.height).max() ?? 0)
        if e.height > SignalExpression.maximumDepth {
            throw ExpressionError(.tooDeep, "expression nested more than \(SignalExpression.maximumDepth) levels deep",
                                  at: range, in: source)
        }
        return e
    }

    private func error(_ reason: String, at range: Range<Int>) -> ExpressionError {
        ExpressionError(.syntax, reason, at: range, in: source)
    }

    private func isSymbol(_ s: String) -> Bool {
        if case .symbol(let t) = current.kind { return t == s }
        return false
    }

    private func isWord(_ w: String) -> Bool {
        if case .identifier(let t) = current.kind { return t == w }
        return false
    }

    /// Enters one level of nesting, failing past `maximumDepth`.
    private mutating func descend() throws {
        depth += 1
        if depth > SignalExpression.maximumDepth {
            throw ExpressionError(.tooDeep, "expression nested more than \(SignalExpression.maximumDepth) levels deep",
                                  at: current.range, in: source)
        }
    }

    private mutating func expression() throws -> ExpressionSyntax {
        try descend()
        defer { depth -= 1 }
        return try or()
    }

    private mutating func or() throws -> ExpressionSyntax {
        var left = try and()
        while isWord("or") {
            let op = current.range
            position += 1
            let right = try and()
            left = try node(.binary(.or, left, right, operatorRange: op), left.range.lowerBound..<right.range.upperBound)
        }
        return left
    }

    private mutating func and() throws -> ExpressionSyntax {
        var left = try not()
        while isWord("and") {
            let op = current.range
            position += 1
            let right = try not()
            left = try node(.binary(.and, left, right, operatorRange: op), left.range.lowerBound..<right.range.upperBound)
        }
        return left
    }

    private mutating func not() throws -> ExpressionSyntax {
        guard isWord("not") else { return try comparison() }
        let start = current.range.lowerBound
        position += 1
        try descend()
        defer { depth -= 1 }
        let operand = try not()
        return try node(.not(operand), start..<operand.range.upperBound)
    }

    private mutating func comparisonOperator() -> ExpressionSyntax.BinaryOperator? {
        guard case .symbol(let s) = current.kind, let op = ExpressionSyntax.BinaryOperator(rawValue: s),
              op.isComparison else { return nil }
        return op
    }

    private mutating func comparison() throws -> ExpressionSyntax {
        let left = try sum()
        guard let op = comparisonOperator() else { return left }
        let opRange = current.range
        position += 1
        let right = try sum()
        if comparisonOperator() != nil {
            throw error("comparisons do not chain: write 'a < b and b < c'", at: current.range)
        }
        return try node(.binary(op, left, right, operatorRange: opRange), left.range.lowerBound..<right.range.upperBound)
    }

    private mutating func sum() throws -> ExpressionSyntax {
        var left = try product()
        while isSymbol("+") || isSymbol("-") {
            let op: ExpressionSyntax.BinaryOperator = isSymbol("+") ? .add : .subtract
            let opRange = current.range
            position += 1
            let right = try product()
            left = try node(.binary(op, left, right, operatorRange: opRange), left.range.lowerBound..<right.range.upperBound)
        }
        return left
    }

    private mutating func product() throws -> ExpressionSyntax {
        var left = try unary()
        while isSymbol("*") || isSymbol("/") {
            let op: ExpressionSyntax.BinaryOperator = isSymbol("*") ? .multiply : .divide
            let opRange = current.range
            position += 1
            let right = try unary()
            left = try node(.binary(op, left, right, operatorRange: opRange), left.range.lowerBound..<right.range.upperBound)
        }
        return left
    }

    private mutating func unary() throws -> ExpressionSyntax {
        guard isSymbol("-") else { return try postfix() }
        let start = current.range.lowerBound
        position += 1
        try descend()
        defer { depth -= 1 }
        let operand = try unary()
        return try node(.negate(operand), start..<operand.range.upperBound)
    }

    private mutating func postfix() throws -> ExpressionSyntax {
        var e = try primary()
        while true {
            if isSymbol("[") {
                let open = current.range
                position += 1
                let n = try expression()
                guard isSymbol("]") else {
                    throw error("expected ']' to close the '[' at column \(open.lowerBound + 1), found \(current.quoted)", at: current.range)
                }
                let end = current.range.upperBound
                position += 1
                e = try node(.offset(e, n), e.range.lowerBound..<end)
            } else if isSymbol(".") {
                position += 1
                guard case .identifier(let name) = current.kind else {
                    throw error("expected an output name after '.', found \(current.quoted)", at: current.range)
                }
                let nameRange = current.range
                position += 1
                // `ta.sma(close, 20)`: Pine Script's (and pandas-ta's) namespace before a function.
                if isSymbol("("), case .name(let namespace) = e.kind, let f = ExpressionFunction.named(name.lowercased()) {
                    throw error("'\(namespace).\(name)' is another tool's spelling: bt's function is '\(f.rawValue)', "
                                + "written without a namespace (\(f.rawValue)(...))", at: e.range.lowerBound..<nameRange.upperBound)
                }
                e = try node(.member(e, name, nameRange: nameRange), e.range.lowerBound..<nameRange.upperBound)
            } else if case .at(let key) = current.kind {
                let keyRange = current.range
                position += 1
                e = try other(e, key, keyRange)
            } else {
                return e
            }
        }
    }

    /// `e@key`: a new reference, or the timeframe of `e`'s (`close@SPY` then `@1d`).
    private mutating func other(_ e: ExpressionSyntax, _ key: String, _ keyRange: Range<Int>) throws -> ExpressionSyntax {
        let timeframe = Timeframe(rawValue: key)
        if case .other(let base, var reference, let earlier) = e.kind {
            guard reference.timeframe == nil, let timeframe else {
                let why = reference.timeframe != nil && timeframe == nil
                    ? "write the symbol before the timeframe, as in close@SPY@1d"
                    : "an expression reads one symbol at one timeframe: EXPR@SYMBOL, EXPR@TF or EXPR@SYMBOL@TF"
                throw error("'@\(key)' after '@\(reference.description)': \(why)", at: keyRange)
            }
            reference.timeframe = timeframe
            return try node(.other(base, reference, keyRange: earlier.lowerBound..<keyRange.upperBound), e.range.lowerBound..<keyRange.upperBound)
        }
        if timeframe == nil, let problem = Symbol.problem(key) {
            throw error("'@\(key)' is neither a timeframe (\(Timeframe.allCases.map(\.rawValue).joined(separator: " "))) nor a symbol: \(problem)",
                        at: keyRange)
        }
        let reference = OtherSeriesReference(symbol: timeframe == nil ? key.uppercased() : nil, timeframe: timeframe)
        return try node(.other(e, reference, keyRange: keyRange), e.range.lowerBound..<keyRange.upperBound)
    }

    private static let keywords: Set<String> = ["and", "or", "not"]

    private mutating func primary() throws -> ExpressionSyntax {
        let token = current
        switch token.kind {
        case .number(let v):
            position += 1
            return try node(.number(v), token.range)
        case .identifier(let name):
            if Self.keywords.contains(name) {
                throw error("expected a value before '\(name)'", at: token.range)
            }
            position += 1
            if isSymbol("(") { return try call(.function(name), calleeRange: token.range) }
            return try node(.name(name), token.range)
        case .parameter(let name):
            position += 1
            if isSymbol("(") { return try call(.parameter(name), calleeRange: token.range) }
            return try node(.parameter(name), token.range)
        case .symbol("("):
            position += 1
            let inner = try expression()
            guard isSymbol(")") else {
                throw error("expected ')' to close the '(' at column \(token.range.lowerBound + 1), found \(current.quoted)", at: current.range)
            }
            let end = current.range.upperBound
            position += 1
            return ExpressionSyntax(kind: inner.kind, height: inner.height, range: token.range.lowerBound..<end)
        case .end:
            throw error("expected a value, found the end of the expression", at: token.range)
        default:
            throw error("expected a value, found \(token.quoted)", at: token.range)
        }
    }

    private mutating func call(_ callee: ExpressionSyntax.Callee, calleeRange: Range<Int>) throws -> ExpressionSyntax {
        let open = current.range
        position += 1  // "("
        try descend()
        defer { depth -= 1 }
        var arguments: [ExpressionSyntax] = []
        if !isSymbol(")") {
            while true {
                arguments.append(try expression())
                if isSymbol(",") { position += 1; continue }
                break
            }
        }
        guard isSymbol(")") else {
            throw error("expected ',' or ')' in the call opened at column \(open.lowerBound + 1), found \(current.quoted)", at: current.range)
        }
        let end = current.range.upperBound
        position += 1
        return try node(.call(callee, calleeRange: calleeRange, arguments: arguments), calleeRange.lowerBound..<end)
    }
}
