/// A function of the rule language over values sampled once per replay step: `ema(mid, 50)`,
/// `highest(best_bid, 20)`, `bb(mid, 20, 2).upper`, `mid[1]`.
///
/// The call is checked and bound by the rule language's own checker and binder, with each
/// series argument standing in as a candle column, and evaluated by its bar-by-bar stream
/// (`ExpressionPlan.Stream`), so each step's value equals, to the bit, what the batch
/// indicators give at the last index of the series of values sampled so far: TA-Lib's warm-up
/// (NaN until the lookback is filled), and a NaN input (a side of the book empty) giving NaN
/// and starting the window again. A step's value reads only the samples at or before it.
struct QuoteSeries: Sendable {
    private var stream: ExpressionPlan.Stream
    /// The series arguments, in the order `next` takes their values.
    let arguments: [ExpressionSyntax]

    /// The columns that stand for the series arguments, in order.
    private static let columns: [ExpressionSeries] = [.close, .open, .high, .low, .volume]

    /// Checks and binds `node` (a call, a call's output or an offset), each of its series
    /// arguments standing in as a column.
    /// - Throws: `ExpressionError`: a function a quote cannot use, a period that is not a whole
    ///   number, an unknown output, ...
    init(_ node: ExpressionSyntax, source: String) throws {
        var found: [ExpressionSyntax] = []
        let rewritten = try Self.substituted(node, source: source, found: &found)
        try ExpressionChecker(source: source, parameters: []).require(rewritten, .number, for: "a quote")
        let bound = try ExpressionBinder(source: source, values: [:]).bind(rewritten)
        do {
            stream = try ExpressionPlan.Stream(ExpressionPlan([bound]))
        } catch let e as InputError {
            throw ExpressionError(.value, e.reason, at: node.range, in: source)
        }
        arguments = found
    }

    /// The value at the next step, given its series arguments' values there.
    mutating func next(_ inputs: [Double]) -> Double {
        precondition(inputs.count == arguments.count, "\(arguments.count) series arguments, not \(inputs.count)")
        func input(_ k: Int) -> Double { k < inputs.count ? inputs[k] : .nan }
        stream.next(Candle(time: 0, open: input(1), high: input(2), low: input(3), close: input(0), volume: input(4)))
        return stream.root(0)
    }

    /// `node` with its series arguments replaced by columns, collected into `found`.
    private static func substituted(_ node: ExpressionSyntax, source: String, found: inout [ExpressionSyntax]) throws -> ExpressionSyntax {
        func fail(_ kind: ExpressionError.Kind, _ reason: String, _ range: Range<Int>) -> ExpressionError {
            ExpressionError(kind, reason, at: range, in: source)
        }
        func column(for argument: ExpressionSyntax) throws -> ExpressionSyntax {
            guard found.count < columns.count else {
                throw fail(.arguments, "a quote's series function reads at most \(columns.count) series", argument.range)
            }
            found.append(argument)
            return ExpressionSyntax(kind: .name(columns[found.count - 1].rawValue), height: 1, range: argument.range)
        }
        func rebuilt(_ kind: ExpressionSyntax.Kind, _ children: [ExpressionSyntax]) -> ExpressionSyntax {
            ExpressionSyntax(kind: kind, height: 1 + (children.map(\.height).max() ?? 0), range: node.range)
        }
        switch node.kind {
        case .offset(let x, let n):
            let c = try column(for: x)
            return rebuilt(.offset(c, n), [c, n])
        case .member(let base, let name, let nameRange):
            guard case .call = base.kind else { throw fail(.unknownOutput, "'.\(name)' needs an indicator call", nameRange) }
            let b = try substituted(base, source: source, found: &found)
            return rebuilt(.member(b, name, nameRange: nameRange), [b])
        case .call(.function(let name), let calleeRange, let arguments):
            guard let f = ExpressionFunction.named(name) else {
                throw fail(.unknownFunction, "'\(name)' is not a function of quotes", calleeRange)
            }
            if let kind = f.indicator, !kind.readsOneSeries {
                throw fail(.unknownFunction, "\(name) reads candles (high, low, close or volume); a quote's series are the "
                           + "book's values sampled at each step: use an indicator of one series, as ema(mid, 50)", calleeRange)
            }
            if f.result == .condition || f.parameters.contains(where: { $0.kind == .condition }) {
                throw fail(.type, "\(name) is about conditions; a quote is a price", calleeRange)
            }
            var replaced: [ExpressionSyntax] = []
            for (i, a) in arguments.enumerated() {
                guard i < f.parameters.count, f.parameters[i].kind != .series else {
                    replaced.append(i < f.parameters.count ? try column(for: a) : a)
                    continue
                }
                // A period or width read from the book would change every step.
                guard ExpressionFolding.value(a, parameters: [:]) != nil else {
                    throw fail(.notConstant, "\(f.parameters[i].name) of \(name) must be a fixed number, not a book value", a.range)
                }
                replaced.append(a)
            }
            return rebuilt(.call(.function(name), calleeRange: calleeRange, arguments: replaced), replaced)
        default:
            throw fail(.syntax, "not a series function", node.range)
        }
    }
}
