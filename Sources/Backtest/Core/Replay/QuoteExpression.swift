import Foundation

/// A quote's price as an expression of the book at a replay step (`--quote-bid 'best_bid - 1'`),
/// parsed by the rule language's parser and evaluated once per step.
///
/// Values: `best_bid`, `best_ask`, `mid`, `spread`, `microprice`, `last_trade`, `position`,
/// `bid_qty(k)`, `ask_qty(k)` and `imbalance(k)` (k a whole number from 1); numbers; `+ - * /`,
/// unary minus, parentheses and `abs`, `min`, `max`, `floor`, `ceil`, `sqrt`, `log`, `exp`;
/// and the rule language's series functions over the values sampled at each step
/// (`ema(mid, 50)`, `highest(best_bid, 20)`, `bb(mid, 20, 2).upper`, `mid[1]`: `QuoteSeries`).
/// NaN (a value of an empty side, `0 / 0`, a series function in its warm-up) quotes nothing
/// on that side.
///
/// An expression with series functions keeps their state: `next` is called once per step, in
/// step order, and a copy made before the first step starts afresh.
package struct QuoteExpression: Sendable {
    package let text: String
    private let term: Term
    /// The series functions' states, indexed by `Term.series`.
    private var series: [QuoteSeries]

    private indirect enum Term: Sendable {
        case constant(Double)
        case value(Value)
        case level(OrderSide, Int)
        case imbalance(Int)
        case unary(ExpressionNode.UnaryOperation, Term)
        case binary(ExpressionNode.BinaryOperation, Term, Term)
        /// `series[k]` of the values of its arguments.
        case series(Int, [Term])
    }

    private enum Value: String, CaseIterable, Sendable {
        case bestBid = "best_bid", bestAsk = "best_ask", mid, spread, microprice
        case lastTrade = "last_trade", position
    }

    /// The functions a quote evaluates itself; the rule language's others are series functions.
    private static let ownFunctions = ["bid_qty", "ask_qty", "imbalance", "abs", "min", "max", "floor", "ceil", "sqrt", "log", "exp"]

    /// Parses and checks `text`, given as `setting`.
    /// - Throws: `InputError` at `setting`, the expression shown with a caret under the mistake.
    package init(_ text: String, setting: Setting) throws {
        let located = try LocatedExpression(text, origin: .setting(setting))
        self.text = text
        var series: [QuoteSeries] = []
        do {
            term = try Self.term(located.expression.root, source: text, series: &series)
        } catch let e as ExpressionError {
            throw LocatedExpression.inputError(e, .setting(setting))
        }
        self.series = series
    }

    /// The price at the next step, whose book is `state`.
    package mutating func next(_ state: BookState) -> Double { evaluate(term, state) }

    private mutating func evaluate(_ t: Term, _ s: BookState) -> Double {
        switch t {
        case .constant(let v): return v
        case .value(let v):
            switch v {
            case .bestBid: return s.bestBid
            case .bestAsk: return s.bestAsk
            case .mid: return s.mid
            case .spread: return s.spread
            case .microprice: return s.microprice
            case .lastTrade: return s.lastTrade
            case .position: return s.position
            }
        case .level(let side, let k): return s.quantity(side, level: k)
        case .imbalance(let k): return s.imbalance(levels: k)
        case .series(let k, let arguments):
            var inputs: [Double] = []
            for a in arguments { inputs.append(evaluate(a, s)) }
            return series[k].next(inputs)
        case .unary(let op, let x):
            let v = evaluate(x, s)
            switch op {
            case .negate: return -v
            case .abs: return Swift.abs(v)
            case .log: return Foundation.log(v)
            case .exp: return Foundation.exp(v)
            case .sqrt: return v.squareRoot()
            case .floor: return v.rounded(.down)
            case .ceil: return v.rounded(.up)
            case .not: return .nan
            }
        case .binary(let op, let a, let b):
            let x = evaluate(a, s), y = evaluate(b, s)
            switch op {
            case .add: return x + y
            case .subtract: return x - y
            case .multiply: return x * y
            case .divide: return x / y
            // NaN in either operand gives NaN, as everywhere else in the language.
            case .min: return x.isNaN || y.isNaN ? .nan : Swift.min(x, y)
            case .max: return x.isNaN || y.isNaN ? .nan : Swift.max(x, y)
            default: return .nan
            }
        }
    }

    private static func term(_ node: ExpressionSyntax, source: String, series: inout [QuoteSeries]) throws -> Term {
        func fail(_ kind: ExpressionError.Kind, _ reason: String, _ range: Range<Int> = node.range) -> ExpressionError {
            ExpressionError(kind, reason, at: range, in: source)
        }
        switch node.kind {
        case .number(let v): return .constant(v)
        case .name(let name):
            if let v = Value(rawValue: name) { return .value(v) }
            let known = Value.allCases.map(\.rawValue)
            let hint = Suggest.closest(to: name, among: known).map { "; did you mean '\($0)'?" }
                ?? " (a quote reads \(known.joined(separator: ", ")), bid_qty(k), ask_qty(k), imbalance(k))"
            throw fail(.unknownSeries, "unknown book value '\(name)'\(hint)")
        case .negate(let x): return .unary(.negate, try term(x, source: source, series: &series))
        case .binary(let op, let a, let b, let opRange):
            guard !op.isComparison, !op.isLogical else {
                throw fail(.type, "a quote is a price, not a condition", opRange)
            }
            return .binary(op.operation, try term(a, source: source, series: &series), try term(b, source: source, series: &series))
        case .call(.function(let name), let calleeRange, let arguments):
            if !ownFunctions.contains(name), ExpressionFunction.named(name) != nil {
                return try sampled(node, source: source, series: &series)
            }
            let args = try arguments.map { try term($0, source: source, series: &series) }
            func count(_ n: Int) throws {
                guard args.count == n else {
                    throw fail(.arguments, "\(name) takes \(n) argument\(n == 1 ? "" : "s"), not \(args.count)")
                }
            }
            func level() throws -> Int {
                try count(1)
                guard case .constant(let k) = args[0], k >= 1, k == k.rounded(), k <= 1_000_000 else {
                    throw fail(.notConstant, "\(name) takes a whole number of levels from 1", arguments[0].range)
                }
                return Int(k)
            }
            switch name {
            case "bid_qty": return .level(.buy, try level())
            case "ask_qty": return .level(.sell, try level())
            case "imbalance": return .imbalance(try level())
            case "min", "max":
                try count(2)
                return .binary(name == "min" ? .min : .max, args[0], args[1])
            case "abs", "floor", "ceil", "sqrt", "log", "exp":
                try count(1)
                let op: ExpressionNode.UnaryOperation = switch name {
                case "abs": .abs
                case "floor": .floor
                case "ceil": .ceil
                case "sqrt": .sqrt
                case "log": .log
                default: .exp
                }
                return .unary(op, args[0])
            default:
                let hint = Suggest.closest(to: name, among: ownFunctions + ExpressionFunction.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
                throw fail(.unknownFunction, "'\(name)' is not a function of quotes\(hint)", calleeRange)
            }
        case .call(.parameter, _, _), .parameter:
            throw fail(.unknownParameter, "quotes take no parameters")
        case .member, .offset:
            return try sampled(node, source: source, series: &series)
        case .other, .not:
            throw fail(.syntax, "quotes read the book of the replayed symbol: no '@' or conditions")
        }
    }

    /// A series function over sampled values, its arguments compiled as quote terms.
    private static func sampled(_ node: ExpressionSyntax, source: String, series: inout [QuoteSeries]) throws -> Term {
        let s = try QuoteSeries(node, source: source)
        let arguments = try s.arguments.map { try term($0, source: source, series: &series) }
        series.append(s)
        return .series(series.count - 1, arguments)
    }
}
