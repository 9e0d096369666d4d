import Foundation

/// A checked expression with its parameters bound: the exact computation, as a value.
///
/// Nodes are `Hashable`, so equal subexpressions are computed once per evaluation (the plan
/// merges them) and an indicator of a derived series is cached under the node it reads
/// (`IndicatorSpec.Input.expression`), shared by every sweep combination that asks for it.
/// Sugar is gone at this level: `change(x, n)` is `x - x[n]`, `hl2` is `(high + low) / 2`.
public indirect enum ExpressionNode: Hashable, Sendable {
    public enum UnaryOperation: Hashable, Sendable {
        case negate, not, abs, log, exp, sqrt, floor, ceil
    }

    public enum BinaryOperation: Hashable, Sendable {
        case add, subtract, multiply, divide
        case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual
        case and, or, min, max
    }

    /// Rolling functions over the last n bars, the current one included.
    public enum WindowOperation: Hashable, Sendable {
        case highest, lowest, sum
    }

    case column(CandleSeries.Column)
    /// A number, by its bit pattern (so that NaN is equal to itself as a key).
    case constant(bits: UInt64)
    case unary(UnaryOperation, ExpressionNode)
    case binary(BinaryOperation, ExpressionNode, ExpressionNode)
    /// The series `n` bars earlier: NaN for the first `n` bars.
    case shift(ExpressionNode, Int)
    /// Output `output` of an indicator, of `input` (nil: the candles' own columns).
    case indicator(IndicatorSpec, input: ExpressionNode?, output: Int)
    case window(WindowOperation, ExpressionNode, Int)
    /// `cross_above` (above) or `cross_below`.
    case cross(above: Bool, ExpressionNode, ExpressionNode)
    case barsSince(ExpressionNode)
    /// A series of the run's open position, read bar by bar during the run (`PositionRule`); a
    /// whole-array plan refuses it.
    case position(PositionSeries)
    /// A number or condition computed on another series (`sma(close, 50)@1d`, `close@SPY`) and
    /// aligned to the run's bars (`OtherSeries`): NaN where none of its bars has closed.
    case other(OtherSeries, ExpressionNode)

    static func constant(_ v: Double) -> ExpressionNode { .constant(bits: v.bitPattern) }

    /// The constant's value, for constant nodes.
    var constantValue: Double? {
        if case .constant(let bits) = self { return Double(bitPattern: bits) }
        return nil
    }

    /// The nodes directly below this one.
    var children: [ExpressionNode] {
        switch self {
        case .column, .constant, .position: return []
        case .unary(_, let x), .shift(let x, _), .window(_, let x, _), .barsSince(let x), .other(_, let x): return [x]
        case .binary(_, let a, let b), .cross(_, let a, let b): return [a, b]
        case .indicator(_, let input, _): return input.map { [$0] } ?? []
        }
    }

    /// Whether the tree has more than `limit` nodes, a subtree that appears twice counting twice
    /// (how hashing and comparing walk it). Visits at most `limit + 1` nodes, with a stack of its
    /// own rather than the thread's.
    func isLarger(than limit: Int) -> Bool {
        var budget = limit
        var pending = [self]
        while let n = pending.popLast() {
            budget -= 1
            if budget < 0 { return true }
            pending += n.children
        }
        return false
    }

    /// Most operations a bound expression may have (see `isLarger(than:)`).
    static let maximumSize = 10_000

    /// Leading bars that are undefined whatever the (finite) data: the warm-up. An indicator of
    /// a derived series starts after its input's warm-up, so warm-ups add up.
    public var warmUp: Int {
        switch self {
        // Another series' warm-up is in its own bars; in the run's it depends on the data.
        case .column, .constant, .position, .other: return 0
        case .unary(_, let x), .barsSince(let x): return x.warmUp
        case .binary(_, let a, let b): return Swift.max(a.warmUp, b.warmUp)
        case .shift(let x, let n): return x.warmUp + n
        case .indicator(let spec, let input, _): return (input?.warmUp ?? 0) + spec.lookback
        case .window(_, let x, let n): return x.warmUp + n - 1
        case .cross(_, let a, let b): return Swift.max(a.warmUp, b.warmUp) + 1
        }
    }
}

extension ExpressionSyntax.BinaryOperator {
    var operation: ExpressionNode.BinaryOperation {
        switch self {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        case .equal: .equal
        case .notEqual: .notEqual
        case .and: .and
        case .or: .or
        }
    }
}

extension ExpressionFunction {
    enum Pointwise {
        case unary(ExpressionNode.UnaryOperation)
        case binary(ExpressionNode.BinaryOperation)
    }

    /// The element-by-element functions, which fold over constants.
    var pointwise: Pointwise? {
        switch self {
        case .abs: .unary(.abs)
        case .log: .unary(.log)
        case .exp: .unary(.exp)
        case .sqrt: .unary(.sqrt)
        case .floor: .unary(.floor)
        case .ceil: .unary(.ceil)
        case .min: .binary(.min)
        case .max: .binary(.max)
        default: nil
        }
    }
}

/// Turns a checked syntax tree into an `ExpressionNode` for given parameter values: folds
/// constants, checks the values periods and offsets take, and removes the sugar.
struct ExpressionBinder {
    let source: String
    let values: [String: ExpressionValue]
    /// What `@` binds to.
    enum Other {
        /// An error at its keys: the caller reads no other series.
        case refused
        /// The series from `reader`, aligned to `run`'s bars.
        case read(OtherSeriesReader, run: CandleSeries)
        /// NaN: for what the run's own series alone shows (the indicators a chart draws).
        case leftOut
    }
    var other: Other = .refused

    private func fail(_ kind: ExpressionError.Kind, _ reason: String, _ range: Range<Int>) -> ExpressionError {
        ExpressionError(kind, reason, at: range, in: source)
    }

    /// - Precondition: `e` passed `ExpressionChecker` with parameters matching `values`' names.
    func bind(_ e: ExpressionSyntax) throws -> ExpressionNode {
        switch e.kind {
        case .number(let v):
            return .constant(v)
        case .name(let name):
            if let series = PositionSeries(rawValue: name) { return .position(series) }
            guard let series = ExpressionSeries(rawValue: name) else {
                throw fail(.unknownSeries, "unknown series '\(name)'", e.range)
            }
            return Self.node(series)
        case .parameter(let name):
            guard case .number(let v)? = values[name] else {
                throw fail(.unknownParameter, "no number value for '$\(name)'", e.range)
            }
            return .constant(v)
        case .call:
            return try call(e, output: nil)
        case .member(let base, let name, let nameRange):
            guard case .call = base.kind else { throw fail(.unknownOutput, "'.\(name)' needs an indicator call", nameRange) }
            let f = try function(of: base)
            guard let index = f.outputNames.firstIndex(of: name) else {
                throw fail(.unknownOutput, "\(f.rawValue) has no output '.\(name)'", nameRange)
            }
            return try call(base, output: index)
        case .offset(let x, let n):
            let value = try bind(x)
            let k = try constant(n, what: "an offset")
            try ExpressionChecker.checkOffset(k, n.range, source)
            return k == 0 ? value : .shift(value, Int(k))
        case .other(let x, let reference, let keyRange):
            let reader: OtherSeriesReader, run: CandleSeries
            switch other {
            case .refused:
                throw fail(.otherSeries, "'@\(reference)' reads another series, which only bt run, bt signals, bt sweep, "
                           + "bt screen, bt portfolio, their strategy files, bt live, and the C library "
                           + "and btcore given other series can do for now", keyRange)
            case .leftOut: return .constant(.nan)
            case .read(let r, let candles): (reader, run) = (r, candles)
            }
            let series: OtherSeries
            do {
                series = try reader.series(reference, for: run)
            } catch let refusal as OtherSeriesReader.Refusal {
                throw fail(.otherSeries, refusal.reason, keyRange)
            }
            if !run.isEmpty, series.alignment(to: run).isEmpty {
                throw fail(.otherSeries, "no \(series.name) bar closed within the run's bars (\(series.span)) in time to be read there: "
                           + (reader.followsStream ? "a live session's warm-up must hold one (more warm-up bars)"
                                                   : "the rule could never be true"), keyRange)
            }
            let inner = try ExpressionBinder(source: source, values: values).bind(x)
            return inner.constantValue != nil ? inner : .other(series, inner)
        case .negate(let x):
            return Self.unary(.negate, try bind(x))
        case .not(let x):
            return Self.unary(.not, try bind(x))
        case .binary(let op, let a, let b, _):
            return Self.binary(op.operation, try bind(a), try bind(b))
        }
    }

    /// The series node of a series name.
    static func node(_ series: ExpressionSeries) -> ExpressionNode {
        let (o, h, l, c) = (ExpressionNode.column(.open), ExpressionNode.column(.high), ExpressionNode.column(.low), ExpressionNode.column(.close))
        switch series {
        case .open: return o
        case .high: return h
        case .low: return l
        case .close: return c
        case .volume: return .column(.volume)
        case .hl2: return .binary(.divide, .binary(.add, h, l), .constant(2))
        case .hlc3: return .binary(.divide, .binary(.add, .binary(.add, h, l), c), .constant(3))
        case .ohlc4: return .binary(.divide, .binary(.add, .binary(.add, .binary(.add, o, h), l), c), .constant(4))
        }
    }

    static func unary(_ op: ExpressionNode.UnaryOperation, _ x: ExpressionNode) -> ExpressionNode {
        if let v = x.constantValue { return .constant(ExpressionKernels.unary(op, v)) }
        return .unary(op, x)
    }

    static func binary(_ op: ExpressionNode.BinaryOperation, _ a: ExpressionNode, _ b: ExpressionNode) -> ExpressionNode {
        if let x = a.constantValue, let y = b.constantValue { return .constant(ExpressionKernels.binary(op, x, y)) }
        return .binary(op, a, b)
    }

    /// `op` (min or max) over `xs` as a balanced tree, ⌈log₂ k⌉ levels deep rather than a chain of
    /// k: every walk of a bound tree (freeing, hashing, comparing, planning) recurses once per
    /// level, and a chain of thousands overflowed a 2 MB thread stack. The values are those of
    /// the chain: both pick the leftmost extreme (NaN if any is NaN) whatever the grouping.
    static func balanced(_ op: ExpressionNode.BinaryOperation, _ xs: ArraySlice<ExpressionNode>) -> ExpressionNode {
        guard xs.count > 1 else { return xs[xs.startIndex] }
        let middle = xs.startIndex + xs.count / 2
        return binary(op, balanced(op, xs[..<middle]), balanced(op, xs[middle...]))
    }

    /// The function a call calls (a word parameter resolved to its value).
    private func function(of call: ExpressionSyntax) throws -> ExpressionFunction {
        guard case .call(let callee, let calleeRange, _) = call.kind else {
            throw fail(.unknownFunction, "not a call", call.range)
        }
        switch callee {
        case .function(let name):
            guard let f = ExpressionFunction.named(name) else { throw fail(.unknownFunction, "unknown function '\(name)'", calleeRange) }
            return f
        case .parameter(let name):
            guard case .word(let word)? = values[name] else {
                throw fail(.unknownParameter, "no word value for '$\(name)'", calleeRange)
            }
            guard let f = ExpressionFunction.named(word) else {
                throw fail(.unknownFunction, "$\(name) is '\(word)', which is not a function", calleeRange)
            }
            return f
        }
    }

    /// The fixed value of a period, width or offset argument.
    private func constant(_ e: ExpressionSyntax, what: @autoclosure () -> String) throws -> Double {
        guard let v = ExpressionFolding.value(e, parameters: values) else {
            throw fail(.notConstant, "\(what()) must be a fixed number", e.range)
        }
        return v
    }

    private func call(_ e: ExpressionSyntax, output: Int?) throws -> ExpressionNode {
        guard case .call(_, _, let arguments) = e.kind else { throw fail(.unknownFunction, "not a call", e.range) }
        let f = try function(of: e)
        let parameters = f.parameters
        guard f.arity.contains(arguments.count) else {
            throw fail(.arguments, "\(f.rawValue) takes \(f.signature); got \(arguments.count) arguments", e.range)
        }
        // Fixed arguments (periods, widths) with their defaults; series arguments bound.
        var numbers: [Double] = []
        var series: [ExpressionNode] = []
        for (i, p) in parameters.enumerated() where !f.isVariadic {
            switch p.kind {
            case .series, .condition:
                series.append(try bind(arguments[i]))
            case .period, .width:
                let v: Double
                if i < arguments.count {
                    v = try constant(arguments[i], what: "\(p.name) of \(f.rawValue)")
                    try ExpressionChecker.checkArgument(v, p, of: f, arguments[i].range, source)
                } else {
                    v = p.defaultValue!
                }
                numbers.append(v)
            }
        }
        if let kind = f.indicator {
            let spec = IndicatorSpec(kind: kind, parameters: numbers)
            do {
                try spec.validate()
            } catch let error as InputError {
                throw fail(.value, "\(f.rawValue): \(error.reason)", e.range)
            }
            return .indicator(spec, input: kind.readsOneSeries ? series[0] : nil, output: output ?? 0)
        }
        if f.isVariadic {
            guard case .binary(let op)? = f.pointwise else { throw fail(.unknownFunction, "\(f.rawValue) is not variadic", e.range) }
            return Self.balanced(op, try arguments.map(bind)[...])
        }
        let n = numbers.first.map { Int($0) } ?? 0
        switch f {
        case .crossAbove: return .cross(above: true, series[0], series[1])
        case .crossBelow: return .cross(above: false, series[0], series[1])
        case .highest: return .window(.highest, series[0], n)
        case .lowest: return .window(.lowest, series[0], n)
        case .sum: return .window(.sum, series[0], n)
        case .change: return Self.binary(.subtract, series[0], .shift(series[0], n))
        case .rising: return Self.binary(.greater, series[0], .shift(.window(.highest, series[0], n), 1))
        case .falling: return Self.binary(.less, series[0], .shift(.window(.lowest, series[0], n), 1))
        case .zscore:
            let input = series[0]
            let mean = ExpressionNode.indicator(IndicatorSpec(.sma, Double(n)), input: input, output: 0)
            let sd = ExpressionNode.indicator(IndicatorSpec(.stddev, Double(n)), input: input, output: 0)
            return .binary(.divide, .binary(.subtract, input, mean), sd)
        case .barsSince: return .barsSince(series[0])
        default:
            guard case .unary(let op)? = f.pointwise else { throw fail(.unknownFunction, "\(f.rawValue) is not pointwise", e.range) }
            return Self.unary(op, series[0])
        }
    }
}
