import Foundation

/// The whole-array passes an expression plan runs, and the scalar rules they apply.
///
/// Values are `Double`s: numbers as they are, NaN where undefined. Conditions are 1 (true),
/// 0 (false) or NaN (unknown), with Kleene's three-valued logic: a comparison with NaN is
/// unknown, `not` unknown is unknown, `false and unknown` is false, `true or unknown` is true. A
/// signal fires only where its condition is 1, so nothing fires on unknown.
enum ExpressionKernels {
    /// One operand of a binary pass: a whole series or a constant.
    enum Operand {
        case vector(UnsafePointer<Double>)
        case scalar(Double)
    }

    /// Where a pass writes: values, or straight into a signal's booleans (true where the value
    /// is 1), which saves a conversion pass for the conditions that are rules.
    protocol Sink {
        func set(_ i: Int, _ v: Double)
    }

    struct Values: Sink {
        let p: UnsafeMutablePointer<Double>
        @inline(__always) func set(_ i: Int, _ v: Double) { p[i] = v }
    }

    struct Truths: Sink {
        let p: UnsafeMutablePointer<Bool>
        @inline(__always) func set(_ i: Int, _ v: Double) { p[i] = v == 1 }
    }

    // MARK: - Scalar rules

    /// `op` applied to one value. Domain errors give NaN: `log` of x <= 0, `sqrt` of x < 0.
    @inline(__always)
    static func unary(_ op: ExpressionNode.UnaryOperation, _ x: Double) -> Double {
        switch op {
        case .negate: return -x
        case .not: return x.isNaN ? x : (x == 0 ? 1 : 0)
        case .abs: return Swift.abs(x)
        case .log: return x > 0 ? Foundation.log(x) : .nan
        case .exp: return Foundation.exp(x)
        case .sqrt: return x >= 0 ? x.squareRoot() : .nan
        case .floor: return x.rounded(.down)
        case .ceil: return x.rounded(.up)
        }
    }

    /// `op` applied to two values. Division by zero gives NaN (an undefined value never
    /// satisfies a comparison, where an infinity would); comparisons with NaN are unknown.
    @inline(__always)
    static func binary(_ op: ExpressionNode.BinaryOperation, _ a: Double, _ b: Double) -> Double {
        switch op {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        case .divide: return divide(a, b)
        case .less: return compare(a, b, a < b)
        case .lessOrEqual: return compare(a, b, a <= b)
        case .greater: return compare(a, b, a > b)
        case .greaterOrEqual: return compare(a, b, a >= b)
        case .equal: return compare(a, b, a == b)
        case .notEqual: return compare(a, b, a != b)
        case .and: return and(a, b)
        case .or: return or(a, b)
        case .min: return a.isNaN || b.isNaN ? .nan : (b < a ? b : a)
        case .max: return a.isNaN || b.isNaN ? .nan : (b > a ? b : a)
        }
    }

    @inline(__always)
    static func divide(_ a: Double, _ b: Double) -> Double { b == 0 ? .nan : a / b }

    @inline(__always)
    static func compare(_ a: Double, _ b: Double, _ holds: Bool) -> Double {
        a.isNaN || b.isNaN ? .nan : (holds ? 1 : 0)
    }

    @inline(__always)
    static func and(_ a: Double, _ b: Double) -> Double {
        a == 0 || b == 0 ? 0 : (a.isNaN || b.isNaN ? .nan : 1)
    }

    @inline(__always)
    static func or(_ a: Double, _ b: Double) -> Double {
        a == 1 || b == 1 ? 1 : (a.isNaN || b.isNaN ? .nan : 0)
    }

    // MARK: - Passes

    /// `out[i] = op(x[i])`.
    static func unary(_ op: ExpressionNode.UnaryOperation, _ x: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, count n: Int) {
        switch op {
        case .negate: for i in 0..<n { out[i] = -x[i] }
        case .not: for i in 0..<n { out[i] = unary(.not, x[i]) }
        case .abs: for i in 0..<n { out[i] = Swift.abs(x[i]) }
        case .log: for i in 0..<n { out[i] = unary(.log, x[i]) }
        case .exp: for i in 0..<n { out[i] = Foundation.exp(x[i]) }
        case .sqrt: for i in 0..<n { out[i] = unary(.sqrt, x[i]) }
        case .floor: for i in 0..<n { out[i] = x[i].rounded(.down) }
        case .ceil: for i in 0..<n { out[i] = x[i].rounded(.up) }
        }
    }

    /// `out[i] = op(a[i], b[i])`, either operand possibly a constant.
    static func binary<O: Sink>(_ op: ExpressionNode.BinaryOperation, _ a: Operand, _ b: Operand,
                                into out: O, count n: Int) {
        switch op {
        case .add: map(a, b, out, n) { $0 + $1 }
        case .subtract: map(a, b, out, n) { $0 - $1 }
        case .multiply: map(a, b, out, n) { $0 * $1 }
        case .divide: map(a, b, out, n) { divide($0, $1) }
        case .less: map(a, b, out, n) { compare($0, $1, $0 < $1) }
        case .lessOrEqual: map(a, b, out, n) { compare($0, $1, $0 <= $1) }
        case .greater: map(a, b, out, n) { compare($0, $1, $0 > $1) }
        case .greaterOrEqual: map(a, b, out, n) { compare($0, $1, $0 >= $1) }
        case .equal: map(a, b, out, n) { compare($0, $1, $0 == $1) }
        case .notEqual: map(a, b, out, n) { compare($0, $1, $0 != $1) }
        case .and: map(a, b, out, n) { and($0, $1) }
        case .or: map(a, b, out, n) { or($0, $1) }
        case .min: map(a, b, out, n) { binary(.min, $0, $1) }
        case .max: map(a, b, out, n) { binary(.max, $0, $1) }
        }
    }

    /// One loop per operand shape, with `f` inlined into each.
    @inline(__always)
    private static func map<O: Sink>(_ a: Operand, _ b: Operand, _ out: O, _ n: Int,
                                     _ f: (Double, Double) -> Double) {
        switch (a, b) {
        case (.vector(let x), .vector(let y)): for i in 0..<n { out.set(i, f(x[i], y[i])) }
        case (.vector(let x), .scalar(let y)): for i in 0..<n { out.set(i, f(x[i], y)) }
        case (.scalar(let x), .vector(let y)): for i in 0..<n { out.set(i, f(x, y[i])) }
        case (.scalar(let x), .scalar(let y)):
            let v = f(x, y)
            for i in 0..<n { out.set(i, v) }
        }
    }

    /// `not` into a sink (for a rule that is `not ...`).
    static func not<O: Sink>(_ x: UnsafePointer<Double>, into out: O, count n: Int) {
        for i in 0..<n { out.set(i, unary(.not, x[i])) }
    }

    /// `out[i] = x[i - k]`, NaN for `i < k`.
    static func shift(_ x: UnsafePointer<Double>, by k: Int, into out: UnsafeMutablePointer<Double>, count n: Int) {
        let lead = Swift.min(k, n)
        for i in 0..<lead { out[i] = .nan }
        if n > k { (out + k).update(from: x, count: n - k) }
    }

    /// `cross_above(a, b)`: 1 when a > b now and a <= b on the previous bar, 0 when not, NaN
    /// when any of the four values (or the previous bar) is missing. `cross_below` mirrors it.
    static func cross<O: Sink>(above: Bool, _ a: Operand, _ b: Operand, into out: O, count n: Int) {
        guard n > 0 else { return }
        out.set(0, .nan)
        if above {
            crossMap(a, b, out, n) { crossing(above: true, $0, $1, $2, $3) }
        } else {
            crossMap(a, b, out, n) { crossing(above: false, $0, $1, $2, $3) }
        }
    }

    /// The value of `cross_above(a, b)` (or `cross_below`) at a bar from both series' values
    /// now (`a1`, `b1`) and at the bar before (`a0`, `b0`): the rule of `cross` and of the
    /// plan's stream.
    @inline(__always)
    static func crossing(above: Bool, _ a1: Double, _ b1: Double, _ a0: Double, _ b0: Double) -> Double {
        guard !(a1.isNaN || b1.isNaN || a0.isNaN || b0.isNaN) else { return .nan }
        return (above ? a1 > b1 && a0 <= b0 : a1 < b1 && a0 >= b0) ? 1 : 0
    }

    /// `cross_above`/`cross_below` straight to booleans: a comparison with NaN is false, so
    /// true exactly where the three-valued result is 1, in one compare-and-select per bar.
    static func crossTruths(above: Bool, _ a: Operand, _ b: Operand, into out: UnsafeMutablePointer<Bool>, count n: Int) {
        guard n > 0 else { return }
        out[0] = false
        let values = ValuesOfTruths(p: out)
        #if _endian(little)
        if case .vector(let x) = a, case .vector(let y) = b, n > 8 {
            let t = crossTruths8(above: above, x, y, into: out, count: n)
            // The last bars one at a time (crossMap from bar t).
            for t in t..<n {
                let a1 = x[t], b1 = y[t], a0 = x[t - 1], b0 = y[t - 1]
                out[t] = above ? a1 > b1 && a0 <= b0 : a1 < b1 && a0 >= b0
            }
            return
        }
        #endif
        if above {
            crossMap(a, b, values, n) { a1, b1, a0, b0 in a1 > b1 && a0 <= b0 ? 1 : 0 }
        } else {
            crossMap(a, b, values, n) { a1, b1, a0, b0 in a1 < b1 && a0 >= b0 ? 1 : 0 }
        }
    }

    /// Bars 1 ..< 1 + 8k of `crossTruths` for two series (n > 8), eight per step: each
    /// comparison of the eight as one byte per bar (a `Bool` is one byte, 0 or 1), the bar
    /// before's from the same bytes shifted by one, so the truth values are the scalar
    /// predicates' (NaN and infinities included). Returns the first bar not written.
    private static func crossTruths8(above: Bool, _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>,
                                     into out: UnsafeMutablePointer<Bool>, count n: Int) -> Int {
        typealias V = SIMD8<Double>
        @inline(__always) func bytes(_ m: SIMDMask<SIMD8<Int64>>) -> UInt64 {
            unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(m, to: SIMD8<Int64>.self)), to: UInt64.self)
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), o = UnsafeMutableRawPointer(out)
        // above: a > b now, a <= b before; below: b > a now, b <= a before.
        let (p, q) = above ? (ra, rb) : (rb, ra)
        var last: UInt64 = p.load(as: Double.self) <= q.load(as: Double.self) ? 1 : 0
        var t = 1
        while t &+ 8 <= n {
            let x = p.loadUnaligned(fromByteOffset: t &* 8, as: V.self)
            let y = q.loadUnaligned(fromByteOffset: t &* 8, as: V.self)
            let le = bytes(x .<= y)
            o.storeBytes(of: bytes(x .> y) & ((le << 8) | last) & ones, toByteOffset: t, as: UInt64.self)
            last = (le >> 56) & 1
            t &+= 8
        }
        return t
    }

    /// A comparison straight to booleans (false where either side is NaN, as unknown is not true).
    static func compareTruths(_ op: ExpressionNode.BinaryOperation, _ a: Operand, _ b: Operand,
                              into out: UnsafeMutablePointer<Bool>, count n: Int) {
        let values = ValuesOfTruths(p: out)
        switch op {
        case .less: map(a, b, values, n) { $0 < $1 ? 1 : 0 }
        case .lessOrEqual: map(a, b, values, n) { $0 <= $1 ? 1 : 0 }
        case .greater: map(a, b, values, n) { $0 > $1 ? 1 : 0 }
        case .greaterOrEqual: map(a, b, values, n) { $0 >= $1 ? 1 : 0 }
        case .equal: map(a, b, values, n) { $0 == $1 ? 1 : 0 }
        case .notEqual: map(a, b, values, n) { !$0.isNaN && !$1.isNaN && $0 != $1 ? 1 : 0 }
        default: binary(op, a, b, into: Truths(p: out), count: n)
        }
    }

    /// `a and b` (or, with `either`, `a or b`) of two conditions' booleans, byte by byte.
    static func combineTruths(either: Bool, _ a: UnsafeMutablePointer<Bool>, _ b: UnsafeMutablePointer<Bool>,
                              into out: UnsafeMutablePointer<Bool>, count n: Int) {
        // Bools are stored as the bytes 0 and 1, so bitwise operations on the bytes are exact.
        a.withMemoryRebound(to: UInt8.self, capacity: n) { x in
            b.withMemoryRebound(to: UInt8.self, capacity: n) { y in
                out.withMemoryRebound(to: UInt8.self, capacity: n) { z in
                    if either {
                        for i in 0..<n { z[i] = x[i] | y[i] }
                    } else {
                        for i in 0..<n { z[i] = x[i] & y[i] }
                    }
                }
            }
        }
    }

    /// Stores 0/1 results as booleans without the NaN test `Truths` needs.
    private struct ValuesOfTruths: Sink {
        let p: UnsafeMutablePointer<Bool>
        @inline(__always) func set(_ i: Int, _ v: Double) { p[i] = v != 0 }
    }

    /// `out[t] = f(a[t], b[t], a[t-1], b[t-1])` for t >= 1, one loop per operand shape.
    @inline(__always)
    private static func crossMap<O: Sink>(_ a: Operand, _ b: Operand, _ out: O, _ n: Int,
                                          _ f: (Double, Double, Double, Double) -> Double) {
        switch (a, b) {
        case (.vector(let x), .vector(let y)): for t in 1..<n { out.set(t, f(x[t], y[t], x[t - 1], y[t - 1])) }
        case (.vector(let x), .scalar(let y)): for t in 1..<n { out.set(t, f(x[t], y, x[t - 1], y)) }
        case (.scalar(let x), .vector(let y)): for t in 1..<n { out.set(t, f(x, y[t], x, y[t - 1])) }
        case (.scalar(let x), .scalar(let y)):
            let v = f(x, y, x, y)
            for t in 1..<n { out.set(t, v) }
        }
    }

    /// Bars since `c` was last 1 (0 on a bar where it is); NaN before it first is. Unknown
    /// values do not count as true.
    static func barsSince(_ c: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, count n: Int) {
        var last = -1
        for i in 0..<n {
            if c[i] == 1 { last = i }
            out[i] = last < 0 ? .nan : Double(i - last)
        }
    }

    /// Highest, lowest or sum of the last `period` values, the current one included. NaN (or
    /// infinite) inputs split the series into runs, each computed on its own, as indicators do;
    /// each run's first `period - 1` outputs are NaN. Sums drift at most `RollingSum`'s bound.
    static func window(_ op: ExpressionNode.WindowOperation, _ x: UnsafeBufferPointer<Double>, period: Int,
                       into out: UnsafeMutableBufferPointer<Double>) {
        Indicators.forEachFiniteRun([x], outputs: [out]) { r in
            let input = UnsafeBufferPointer(rebasing: x[r])
            let output = UnsafeMutableBufferPointer(rebasing: out[r])
            switch op {
            case .sum:
                RollingSum.sums(input, period: period, scale: 1, into: output)
            case .highest, .lowest:
                output.fillNaN(0..<Swift.min(output.count, period - 1))
                if output.count < period {
                    output.fillNaN(0..<output.count)
                } else if let xs = input.baseAddress, let o = output.baseAddress {
                    RollingExtremes.extreme(xs, count: input.count, period: period, maximum: op == .highest, into: o)
                }
            }
        }
    }
}
