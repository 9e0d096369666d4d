/// A `$name` an expression may use, as declared by a strategy file or by `--param`/`--grid`.
public struct ExpressionParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A number (whole where a period or offset needs one; checked when bound).
        case number
        /// A word among `choices`, each the name of a function: `$type(close, 10)` with
        /// `type` in `sma|ema`.
        case word([String])
    }

    public var name: String
    public var kind: Kind

    public init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// A parameter's value when an expression is bound.
public enum ExpressionValue: Sendable, Equatable {
    case number(Double)
    case word(String)
}

/// What an expression gives: a number series or a condition series.
public enum ExpressionType: String, Sendable, Equatable {
    case number, condition
}

/// Static checks before anything runs: names, argument counts, types, constant arguments and
/// the literal values of periods and offsets. Every error points at the offending characters.
struct ExpressionChecker {
    /// A checked node's type.
    enum Shape: Equatable {
        case number
        case condition
        /// A multi-output indicator call (`bb(...)`), before `.name` picks an output.
        case outputs(ExpressionFunction)
    }

    struct Checked: Equatable {
        var shape: Shape
        /// True when the value is fixed before any data is seen (literals, parameters, arithmetic of those).
        var constant: Bool
        /// The first position series the value reads, if any (`trade_return`, ...).
        var position: PositionUse? = nil
    }

    /// A position series as written: its name and characters.
    struct PositionUse: Equatable {
        var name: String
        var range: Range<Int>
    }

    let source: String
    let parameters: [ExpressionParameter]

    private func fail(_ kind: ExpressionError.Kind, _ reason: String, _ range: Range<Int>) -> ExpressionError {
        ExpressionError(kind, reason, at: range, in: source)
    }

    private func declared(_ name: String) -> ExpressionParameter? {
        parameters.first { $0.name == name }
    }

    /// The node as a value: a multi-output call without a default output is an error here.
    func value(_ e: ExpressionSyntax) throws -> Checked {
        let c = try check(e)
        guard case .outputs(let f) = c.shape else { return c }
        if case .outputs(_, let defaultOutput?) = f.result, defaultOutput >= 0 {
            return Checked(shape: .number, constant: false)
        }
        let choices = Self.list(f.outputNames.map { "." + $0 }, last: "or")
        throw fail(.unknownOutput, "\(f.rawValue)(...) has several outputs: add \(choices)", e.range)
    }

    /// Checks that `e` is a value of `type`.
    @discardableResult
    func require(_ e: ExpressionSyntax, _ type: ExpressionType, for what: String) throws -> Checked {
        try expect(try value(e), type, for: what, at: e.range)
    }

    /// `c`, if it is a value of `type`.
    private func expect(_ c: Checked, _ type: ExpressionType, for what: String, at range: Range<Int>) throws -> Checked {
        switch (type, c.shape) {
        case (.number, .number), (.condition, .condition): return c
        case (.number, _):
            throw fail(.type, "\(what) needs a number, but this is a condition", range)
        case (.condition, _):
            throw fail(.type, "\(what) needs a condition, but this is a number (compare it, e.g. x > 0)", range)
        }
    }

    func check(_ e: ExpressionSyntax) throws -> Checked {
        switch e.kind {
        case .number:
            return Checked(shape: .number, constant: true)
        case .name(let name):
            if ExpressionSeries(rawValue: name) != nil { return Checked(shape: .number, constant: false) }
            if PositionSeries(rawValue: name) != nil {
                return Checked(shape: .number, constant: false, position: PositionUse(name: name, range: e.range))
            }
            if let f = ExpressionFunction.named(name) {
                throw fail(.unknownSeries, "'\(name)' is a function: call it, as in \(f.signature)", e.range)
            }
            let hint = Suggest.closest(to: name, among: ExpressionSeries.allCases.map(\.rawValue)
                                       + PositionSeries.allCases.map(\.rawValue) + ExpressionFunction.allCases.map(\.rawValue))
                .map { "; did you mean '\($0)'?" } ?? ""
            let series = ExpressionSeries.allCases.map(\.rawValue).joined(separator: ", ")
            let position = PositionSeries.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(.unknownSeries, "unknown series '\(name)'\(hint) (series: \(series); in rules also \(position))", e.range)
        case .parameter(let name):
            let p = try parameter(name, e.range)
            if case .word(let choices) = p.kind {
                throw fail(.type, "$\(name) is a word (\(choices.joined(separator: "|"))): it can only name a function, as in $\(name)(close, 10)", e.range)
            }
            return Checked(shape: .number, constant: true)
        case .call(let callee, let calleeRange, let arguments):
            switch callee {
            case .function(let name):
                guard let f = ExpressionFunction.named(name) else {
                    let names = ExpressionFunction.allCases.map(\.rawValue)
                    let hint = ExpressionFunction.foreignName(name).map { "; bt calls it '\($0.rawValue)'" }
                        ?? Suggest.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
                    let extra = ExpressionSeries(rawValue: name) != nil ? "; '\(name)' is a series: write it without parentheses" : ""
                    throw fail(.unknownFunction, "unknown function '\(name)'\(hint)\(extra)", calleeRange)
                }
                return try call(f, arguments, e)
            case .parameter(let name):
                let p = try parameter(name, calleeRange)
                guard case .word(let choices) = p.kind, !choices.isEmpty else {
                    throw fail(.type, "$\(name) is a number, not a function name", calleeRange)
                }
                // The arguments are checked once for all choices (nested $type calls stay linear).
                let checked = try arguments.map(value)
                var result: Checked?
                for choice in choices {
                    guard let f = ExpressionFunction.named(choice) else {
                        throw fail(.unknownFunction, "$\(name) may be '\(choice)', which is not a function", calleeRange)
                    }
                    let c = try call(f, arguments, e, checked: checked)
                    if let result, result.shape != c.shape {
                        throw fail(.type, "$\(name)'s choices (\(choices.joined(separator: "|"))) give different kinds of result", calleeRange)
                    }
                    result = c
                }
                return result!
            }
        case .member(let base, let name, let nameRange):
            let b = try check(base)
            guard case .outputs(let f) = b.shape else {
                throw fail(.unknownOutput, "'.\(name)': only macd, bb, stoch and donchian have outputs", nameRange)
            }
            guard f.outputNames.contains(name) else {
                let hint = Suggest.closest(to: name, among: f.outputNames).map { "; did you mean '.\($0)'?" } ?? ""
                throw fail(.unknownOutput, "\(f.rawValue) has no output '.\(name)'\(hint) (outputs: \(f.outputNames.map { "." + $0 }.joined(separator: ", ")))", nameRange)
            }
            return Checked(shape: .number, constant: false)
        case .offset(let x, let n):
            let v = try value(x)
            if let p = v.position { throw refuse(p, "it has no value n bars ago for [n]") }
            let count = try require(n, .number, for: "an offset")
            guard count.constant else {
                throw fail(.notConstant, "an offset must be a fixed whole number (a literal or $parameter), not a series", n.range)
            }
            if let k = ExpressionFolding.value(n, parameters: [:]) { try Self.checkOffset(k, n.range, source) }
            return Checked(shape: v.shape, constant: false)
        case .other(let x, let reference, _):
            let v = try value(x)
            if let p = v.position { throw refuse(p, "it has no values on another series or timeframe for '@\(reference)'") }
            if let inner = Self.firstOther(in: x) {
                throw fail(.otherSeries, "'@' inside an expression read with '@\(reference)': read one series, as in "
                           + "sma(close, 50)@SPY@1d", inner)
            }
            return Checked(shape: v.shape, constant: v.constant)
        case .negate(let x):
            let c = try require(x, .number, for: "'-'")
            return Checked(shape: .number, constant: c.constant, position: c.position)
        case .not(let x):
            let c = try require(x, .condition, for: "'not'")
            return Checked(shape: .condition, constant: c.constant, position: c.position)
        case .binary(let op, let a, let b, _):
            let operand: ExpressionType = op.isLogical ? .condition : .number
            let l = try require(a, operand, for: "'\(op.rawValue)'")
            let r = try require(b, operand, for: "'\(op.rawValue)'")
            let shape: Shape = op.isLogical || op.isComparison ? .condition : .number
            return Checked(shape: shape, constant: l.constant && r.constant, position: l.position ?? r.position)
        }
    }

    private func parameter(_ name: String, _ range: Range<Int>) throws -> ExpressionParameter {
        if let p = declared(name) { return p }
        let names = parameters.map(\.name)
        let hint = Suggest.closest(to: name, among: names).map { "; did you mean '$\($0)'?" } ?? ""
        let defined = names.isEmpty ? "no parameters are defined" : "defined: " + names.map { "$" + $0 }.joined(separator: ", ")
        throw fail(.unknownParameter, "undefined parameter '$\(name)'\(hint) (\(defined))", range)
    }

    /// - Parameter checked: the arguments' checks when already done (a word parameter's choices).
    private func call(_ f: ExpressionFunction, _ arguments: [ExpressionSyntax], _ e: ExpressionSyntax,
                      checked: [Checked]? = nil) throws -> Checked {
        let arity = f.arity
        guard arity.contains(arguments.count) else {
            let count: String
            if arity.upperBound == Int.max { count = "\(arity.lowerBound) or more arguments" }
            else if arity.lowerBound == arity.upperBound { count = "\(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")" }
            else { count = "\(arity.lowerBound) to \(arity.upperBound) arguments" }
            throw fail(.arguments, "\(f.rawValue) takes \(count), \(f.signature); got \(arguments.count)", e.range)
        }
        let parameters = f.parameters
        var allConstant = true
        var position: PositionUse?
        for (i, argument) in arguments.enumerated() {
            let p = parameters[min(i, parameters.count - 1)]
            let what = "argument \(p.name) of \(f.rawValue)"
            let c = try checked?[i] ?? value(argument)
            if let use = c.position {
                guard f.pointwise != nil else { throw refuse(use, "it cannot feed \(f.rawValue)(...)") }
                position = position ?? use
            }
            switch p.kind {
            case .series:
                allConstant = try expect(c, .number, for: what, at: argument.range).constant && allConstant
            case .condition:
                allConstant = try expect(c, .condition, for: what, at: argument.range).constant && allConstant
            case .period, .width:
                _ = try expect(c, .number, for: what, at: argument.range)
                guard c.constant else {
                    throw fail(.notConstant, "\(what) must be a fixed number (a literal or $parameter), not a series", argument.range)
                }
                if let v = ExpressionFolding.value(argument, parameters: [:]) {
                    try Self.checkArgument(v, p, of: f, argument.range, source)
                }
            }
        }
        switch f.result {
        case .number:
            // Pointwise functions of constants are constants (min(2, $n) folds); windows are not.
            let pointwise: Set<ExpressionFunction> = [.abs, .min, .max, .log, .exp, .sqrt, .floor, .ceil]
            return Checked(shape: .number, constant: pointwise.contains(f) && allConstant, position: position)
        case .condition: return Checked(shape: .condition, constant: false)
        case .outputs: return Checked(shape: .outputs(f), constant: false)
        }
    }

    /// The error for a position series that feeds something needing its past.
    private func refuse(_ use: PositionUse, _ what: String) -> ExpressionError {
        fail(.positionSeries, "'\(use.name)' is a position series, known only bar by bar during a run: \(what); position series "
             + "cannot be the input of an indicator, a window, an offset, a crossing or bars_since (those need the past); "
             + "compare or combine them directly", use.range)
    }

    /// The first position series `e` reads as written (the leftmost), if any.
    static func firstPositionSeries(in e: ExpressionSyntax) -> PositionUse? {
        if case .name(let name) = e.kind, PositionSeries(rawValue: name) != nil {
            return PositionUse(name: name, range: e.range)
        }
        for child in e.children {
            if let use = firstPositionSeries(in: child) { return use }
        }
        return nil
    }

    /// The keys of the first `@` in `e` (the leftmost), if any.
    static func firstOther(in e: ExpressionSyntax) -> Range<Int>? {
        if case .other(_, _, let keyRange) = e.kind { return keyRange }
        for child in e.children {
            if let range = firstOther(in: child) { return range }
        }
        return nil
    }

    /// Throws unless `v` can be the offset of `x[n]`.
    static func checkOffset(_ v: Double, _ range: Range<Int>, _ source: String) throws {
        guard v >= 0, v == v.rounded(), v <= 1e7 else {
            let why = v < 0 ? " (nothing can read a later bar)" : ""
            throw ExpressionError(.offset, "an offset must be a whole number >= 0 (x[1] is the previous bar), got \(NumberText.shortest(v))\(why)",
                                  at: range, in: source)
        }
    }

    /// Throws unless `v` can be argument `p` of `f`.
    static func checkArgument(_ v: Double, _ p: ExpressionFunction.Parameter, of f: ExpressionFunction,
                              _ range: Range<Int>, _ source: String) throws {
        switch p.kind {
        case .period:
            guard v >= 1, v == v.rounded(), v <= 1e7 else {
                throw ExpressionError(.value, "\(p.name) of \(f.rawValue) must be a whole number from 1 to 10000000, got \(NumberText.shortest(v))",
                                      at: range, in: source)
            }
        case .width:
            guard v >= 0, v.isFinite else {
                throw ExpressionError(.value, "\(p.name) of \(f.rawValue) must be a number >= 0, got \(NumberText.shortest(v))",
                                      at: range, in: source)
            }
        case .series, .condition:
            break
        }
    }

    /// `a, b or c`.
    static func list(_ items: [String], last word: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
    }
}

extension ExpressionFunction {
    /// The names `.name` may pick, for multi-output indicators.
    var outputNames: [String] {
        if case .outputs(let names, _) = result { return names }
        return []
    }
}

/// Values of constant subexpressions: literals, parameters and pointwise arithmetic of them.
enum ExpressionFolding {
    /// The value of `e` when it is constant and every parameter it uses is in `parameters`; nil
    /// otherwise (a series, or a parameter not given).
    static func value(_ e: ExpressionSyntax, parameters: [String: ExpressionValue]) -> Double? {
        switch e.kind {
        case .number(let v): return v
        case .parameter(let name):
            if case .number(let v)? = parameters[name] { return v }
            return nil
        case .negate(let x): return value(x, parameters: parameters).map { -$0 }
        case .not(let x): return value(x, parameters: parameters).map { ExpressionKernels.unary(.not, $0) }
        case .binary(let op, let a, let b, _):
            guard let x = value(a, parameters: parameters), let y = value(b, parameters: parameters) else { return nil }
            return ExpressionKernels.binary(op.operation, x, y)
        case .call(.function(let name), _, let arguments):
            guard let f = ExpressionFunction.named(name), let pointwise = f.pointwise else { return nil }
            let values = arguments.compactMap { value($0, parameters: parameters) }
            guard !values.isEmpty, values.count == arguments.count else { return nil }
            switch pointwise {
            case .unary(let op): return values.count == 1 ? ExpressionKernels.unary(op, values[0]) : nil
            case .binary(let op): return values.dropFirst().reduce(values[0]) { ExpressionKernels.binary(op, $0, $1) }
            }
        default: return nil
        }
    }
}
