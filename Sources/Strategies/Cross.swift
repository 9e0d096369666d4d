import Backtest

/// Vectorized crossing and level tests over whole series. NaN (warm-up) is never a signal.
enum Cross {
    /// `a` crosses above `b` at t: a[t] > b[t] and a[t-1] <= b[t-1], all four values defined.
    /// - Complexity: O(n).
    static func above(_ a: [Double], _ b: [Double]) -> [Bool] {
        crossing(a, b) { a1, b1, a0, b0 in a1 > b1 && a0 <= b0 }
    }

    /// `a` crosses below `b` at t: a[t] < b[t] and a[t-1] >= b[t-1], all four values defined.
    static func below(_ a: [Double], _ b: [Double]) -> [Bool] {
        crossing(a, b) { a1, b1, a0, b0 in a1 < b1 && a0 >= b0 }
    }

    /// `above(a, b)` and `below(a, b)` in one pass.
    static func both(_ a: [Double], _ b: [Double]) -> (above: [Bool], below: [Bool]) {
        precondition(a.count == b.count, "series must have the same length")
        let n = a.count
        var below: [Bool] = []
        let above = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                [Bool](unsafeUninitializedCapacity: n) { up, count in
                    below = [Bool](unsafeUninitializedCapacity: n) { down, downCount in
                        if n > 0 { up[0] = false; down[0] = false }
                        for t in 1..<max(1, n) {
                            let a1 = a[t], b1 = b[t], a0 = a[t &- 1], b0 = b[t &- 1]
                            up[t] = a1 > b1 && a0 <= b0
                            down[t] = a1 < b1 && a0 >= b0
                        }
                        downCount = n
                    }
                    count = n
                }
            }
        }
        return (above, below)
    }

    /// `a` crosses above the constant `level`.
    static func above(_ a: [Double], level: Double) -> [Bool] {
        above(a, [Double](repeating: level, count: a.count))
    }

    static func below(_ a: [Double], level: Double) -> [Bool] {
        below(a, [Double](repeating: level, count: a.count))
    }

    /// Elementwise `predicate(a[t], b[t])`, false where either is NaN.
    static func compare(_ a: [Double], _ b: [Double], _ predicate: (Double, Double) -> Bool) -> [Bool] {
        precondition(a.count == b.count, "series must have the same length")
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                [Bool](unsafeUninitializedCapacity: a.count) { out, count in
                    for t in 0..<a.count { out[t] = !a[t].isNaN && !b[t].isNaN && predicate(a[t], b[t]) }
                    count = a.count
                }
            }
        }
    }

    /// NaN comparisons are false, so an undefined value never satisfies a crossing predicate:
    /// the predicates above are written so that "defined" is implied by them being true.
    @inline(__always)
    private static func crossing(_ a: [Double], _ b: [Double],
                                 _ predicate: (Double, Double, Double, Double) -> Bool) -> [Bool] {
        precondition(a.count == b.count, "series must have the same length")
        let n = a.count
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                [Bool](unsafeUninitializedCapacity: n) { out, count in
                    if n > 0 { out[0] = false }
                    for t in 1..<max(1, n) { out[t] = predicate(a[t], b[t], a[t &- 1], b[t &- 1]) }
                    count = n
                }
            }
        }
    }
}

extension Array where Element == Double {
    /// The series shifted one bar later (x[t-1] at t), NaN first.
    func laggedOneBar() -> [Double] {
        isEmpty ? [] : [.nan] + dropLast()
    }
}
