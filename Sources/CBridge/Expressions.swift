import Backtest
import CBTABI

/// A compiled expression (`bt_expr`): parsed, checked and bound once, run as a plan of
/// whole-array passes on each call. Read-only after it is made, so threads may share it; each
/// evaluation takes its own workspace from the pool. An expression that reads other series
/// with `@` (compiled with a `bt_other`, or with none: the run's own bars) is bound on each
/// call instead, against that call's bars.
final class CompiledExpression: @unchecked Sendable {
    let text: String
    let isCondition: Bool
    private let located: LocatedExpression
    private let values: [String: ExpressionValue]
    /// nil when the expression reads other series.
    private let plan: ExpressionPlan?
    private let other: OtherHandle?
    let pool = ExpressionWorkspace.Pool()

    /// - Parameter other: where `@` reads other series; nil refuses `@` unless `reading`.
    init(text: String, assignments: [String], reading: Bool = false, other: OtherHandle? = nil) throws {
        self.text = text
        self.other = other
        let (declared, values) = try Parameters.parse(assignments)
        self.values = values
        do {
            located = try LocatedExpression(text, origin: .setting(.show))
            isCondition = try located.check(parameters: declared) == .condition
            try located.requireNoPositionSeries(for: "an expression on its own (bt_expr)")
            plan = reading && located.readsOtherSeries ? nil : ExpressionPlan([try located.bind(values)])
        } catch let e as InputError {
            throw Self.named(e)
        }
    }

    /// `e` naming the expression as what it is here (not a setting).
    private static func named(_ e: InputError) -> BridgeError {
        BridgeError.input(e.message { _ in "expression" })
    }

    /// The values on `candles`, handed to `body` (valid only inside it).
    func evaluate(_ candles: CandleSeries, _ body: (UnsafeBufferPointer<Double>) -> Void) throws {
        guard let plan else {
            let reader = OtherHandle.reader(other, for: candles)
            let values: [Double]
            do {
                values = try located.values(on: candles, parameters: self.values, reading: reader)
            } catch let e as InputError {
                throw Self.named(e)
            }
            values.withUnsafeBufferPointer(body)
            return
        }
        try pool.withWorkspace { workspace in
            try plan.evaluate(on: candles, cache: IndicatorCache(), workspace: workspace) { body($0[0]) }
        }
    }
}

/// `name=value` assignments as `--param` reads them: a number declares a number, anything else a
/// word (the name of a function).
enum Parameters {
    static func parse(_ assignments: [String]) throws -> ([ExpressionParameter], [String: ExpressionValue]) {
        var declared: [ExpressionParameter] = []
        var values: [String: ExpressionValue] = [:]
        for a in assignments {
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex, StrategyFile.isIdentifier(String(a[..<eq])) else {
                throw BridgeError.input("parameter '\(a)' is not name=value with a name of letters, digits and '_'")
            }
            let name = String(a[..<eq]), text = String(a[a.index(after: eq)...])
            let value: ExpressionValue
            if let v = Double(text), v.isFinite {
                value = .number(v)
                declared.removeAll { $0.name == name }
                declared.append(ExpressionParameter(name, .number))
            } else {
                value = .word(text)
                declared.removeAll { $0.name == name }
                declared.append(ExpressionParameter(name, .word([text])))
            }
            values[name] = value
        }
        return (declared, values)
    }
}

@_cdecl("bt_expr_compile")
public func bt_expr_compile(_ text: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                            _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let expression = try CompiledExpression(text: try requiredString(text, "text"),
                                                assignments: try stringList(params, nparams, "params"))
        out.pointee = Handles.shared.add(expression)
    }
}

@_cdecl("bt_expr_compile_other")
public func bt_expr_compile_other(_ text: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ nparams: Int,
                                  _ other: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let expression = try CompiledExpression(text: try requiredString(text, "text"),
                                                assignments: try stringList(params, nparams, "params"),
                                                reading: true, other: try otherSeries(other))
        out.pointee = Handles.shared.add(expression)
    }
}

@_cdecl("bt_expr_is_condition")
public func bt_expr_is_condition(_ handle: OpaquePointer?) -> Int32 {
    var result: Int32 = -1
    _ = guarded {
        result = try Handles.shared.get(handle, as: CompiledExpression.self, "expr").isCondition ? 1 : 0
    }
    return result
}

@_cdecl("bt_expr_eval")
public func bt_expr_eval(_ handle: OpaquePointer?, _ bars: UnsafePointer<bt_bars>?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    evaluate(handle, bars, out) { values, out in out.update(from: values.baseAddress!, count: values.count) }
}

@_cdecl("bt_expr_signal")
public func bt_expr_signal(_ handle: OpaquePointer?, _ bars: UnsafePointer<bt_bars>?, _ out: UnsafeMutablePointer<UInt8>?) -> Int32 {
    evaluate(handle, bars, out) { values, out in
        for i in 0..<values.count { out[i] = values[i] == 1 ? 1 : 0 }
    }
}

/// The compiled expression `handle` over `bars`, its values (exactly one per bar) given to `write` with
/// the caller's `out` (checked non-NULL when there are bars).
private func evaluate<T>(_ handle: OpaquePointer?, _ bars: UnsafePointer<bt_bars>?, _ out: UnsafeMutablePointer<T>?,
                         _ write: (UnsafeBufferPointer<Double>, UnsafeMutablePointer<T>) -> Void) -> Int32 {
    guarded {
        let e = try Handles.shared.get(handle, as: CompiledExpression.self, "expr")
        let candles = try Bars.candles(bars, for: .expression)
        if candles.isEmpty { return }
        guard let out else { throw BridgeError.argument("out is NULL") }
        try e.evaluate(candles) { values in write(UnsafeBufferPointer(rebasing: values[..<candles.count]), out) }
    }
}

@_cdecl("bt_expr_free")
public func bt_expr_free(_ handle: OpaquePointer?) {
    freeHandle(handle, as: CompiledExpression.self, "bt_expr_free")
}
