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

    /// `above(a, b)` and `below(a, b)` in one pass: eight bars per step, each comparison of
    /// the eight as one byte per bar (a Swift `Bool` is one byte, 0 or 1), the bar before's from
    /// the same bytes shifted by one; the same truth values as the scalar predicates, NaN and
    /// infinities included.
    static func both(_ a: [Double], _ b: [Double]) -> (above: [Bool], below: [Bool]) {
        precondition(a.count == b.count, "series must have the same length")
        let n = a.count
        var below: [Bool] = []
        let above = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                [Bool](unsafeUninitializedCapacity: n) { up, count in
                    below = [Bool](unsafeUninitializedCapacity: n) { down, downCount in
                        if n > 0 { up[0] = false; down[0] = false }
                        var t = 1
                        #if _endian(little)
                        if n > 8, let pa = a.baseAddress, let pb = b.baseAddress,
                           let pu = up.baseAddress, let pd = down.baseAddress {
                            t = crossings8(pa, pb, n, UnsafeMutableRawPointer(pu), UnsafeMutableRawPointer(pd))
                        }
                        #endif
                        while t < n {
                            let a1 = a[t], b1 = b[t], a0 = a[t &- 1], b0 = b[t &- 1]
                            up[t] = a1 > b1 && a0 <= b0
                            down[t] = a1 < b1 && a0 >= b0
                            t &+= 1
                        }
                        downCount = n
                    }
                    count = n
                }
            }
        }
        return (above, below)
    }

    /// The bars 1 ..< 1 + 8k of `both` (n > 8) into `up` and `down` as bytes 0 or 1; returns
    /// the first bar not written.
    @inline(__always)
    private static func crossings8(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ n: Int,
                                   _ up: UnsafeMutableRawPointer, _ down: UnsafeMutableRawPointer) -> Int {
        typealias V = SIMD8<Double>
        /// One byte per lane, 1 where the mask is set.
        @inline(__always) func bytes(_ m: SIMDMask<SIMD8<Int64>>) -> UInt64 {
            unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(m, to: SIMD8<Int64>.self)), to: UInt64.self)
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        // a <= b and a >= b at the bar before, in the top byte's place of the last step.
        var lastLE: UInt64 = a[0] <= b[0] ? 1 : 0, lastGE: UInt64 = a[0] >= b[0] ? 1 : 0
        var t = 1
        while t &+ 8 <= n {
            let x = ra.loadUnaligned(fromByteOffset: t &* 8, as: V.self)
            let y = rb.loadUnaligned(fromByteOffset: t &* 8, as: V.self)
            // Two comparisons: a > b is a >= b and not a <= b, a < b is a <= b and not a >= b
            // (NaN makes both false, and so the strict ones).
            let le = bytes(x .<= y), ge = bytes(x .>= y)
            up.storeBytes(of: ge & ~le & ((le << 8) | lastLE) & ones, toByteOffset: t, as: UInt64.self)
            down.storeBytes(of: le & ~ge & ((ge << 8) | lastGE) & ones, toByteOffset: t, as: UInt64.self)
            lastLE = (le >> 56) & 1
            lastGE = (ge >> 56) & 1
            t &+= 8
        }
        return t
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
