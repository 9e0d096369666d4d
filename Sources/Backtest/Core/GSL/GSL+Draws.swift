import CGSL
import Foundation

/// A generator's raw 32-bit outputs in order: drawn from the generator itself (`GSL.Random`)
/// or read from a tape of them (`GSL.DrawTape`). One concrete type, so the draws that read it
/// inline (a protocol's witness calls cost a fifth of a bootstrap).
package struct RawDraws {
    @usableFromInline let random: GSL.Random?
    @usableFromInline let tape: GSL.DrawTape?
    @usableFromInline var values: [UInt32] = []
    @usableFromInline var position = 0

    /// The generator's outputs from its current state.
    package init(_ random: GSL.Random) { self.random = random; tape = nil }

    /// The tape's outputs from its start.
    package init(_ tape: GSL.DrawTape) { random = nil; self.tape = tape }

    /// The next output, as `gsl_rng_get` gives it.
    @inlinable @inline(__always)
    package mutating func next() -> UInt32 {
        if let random { return random.next32() }
        if position >= values.count { values = tape!.draws(atLeast: position + 1) }
        let v = values[position]
        position &+= 1
        return v
    }
}

extension GSL {
    /// `gsl_ran_geometric(r, p)` prepared for many draws with one `p` (`Random.geometric(_:)`),
    /// the block lengths of the Sharpe bootstrap.
    ///
    /// GSL draws `u = gsl_rng_uniform_pos(r)` (the Mersenne Twister's 32-bit `m` over 2^32, `m`
    /// not 0) and returns `k = (unsigned) (log(u) / log(1 - p) + 1)`, 1 when `p` is 1. That `k`
    /// falls as `m` grows, so it is fixed by the largest `m` giving each `k`: `thresholds[j]` is
    /// the largest `m` with `k >= j + 2`, found once by bisection with GSL's own formula (and
    /// checked at both sides of each boundary). A draw looks up the bucket of `m`'s top 12 bits,
    /// which holds the length and at most one threshold for almost every bucket; the few
    /// buckets with several thresholds (the smallest `m`, the longest blocks) count them, and
    /// an `m` past a table cut at `maximumTable` takes the formula. The same draws as GSL's bit
    /// for bit (tested over millions), without a logarithm or a division for almost all.
    package struct Geometric: Sendable {
        @usableFromInline let logQ: Double
        @usableFromInline let isOne: Bool
        /// Descending; at most `maximumTable` entries.
        @usableFromInline let thresholds: [UInt32]
        /// Whether the table holds every length (`m` = 1 gives at most `thresholds.count + 1`).
        @usableFromInline let complete: Bool
        /// One entry per 2^20 values of `m` (its top 12 bits): the length at the bucket's top,
        /// and the largest `m` in the bucket giving one more (its one threshold), so most draws
        /// take one load and one comparison. Bits 0-31: that threshold (0: none); bits 32-62:
        /// the length; bit 63: the bucket holds several thresholds (look them up).
        @usableFromInline let buckets: [UInt64]

        /// Longest table: lengths past it (probability (1 - p)^1024) take the formula.
        static let maximumTable = 1_024

        package init(p: Double) {
            precondition(p > 0 && p <= 1, "geometric: p must be in (0, 1]")
            isOne = p == 1
            logQ = Foundation.log(1 - p)
            var table: [UInt32] = [], complete = true
            if !isOne {
                let logQ = self.logQ
                func k(_ m: UInt32) -> Double { Self.formula(m, logQ: logQ) }
                var high = UInt32.max
                complete = false
                for j in 0..<Self.maximumTable {
                    let want = Double(j + 2)
                    guard k(1) >= want else { complete = true; break }
                    // Largest m in 1...high with k(m) >= want (k is non-increasing in m).
                    var lo: UInt32 = 1, hi = high
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2 + 1
                        if k(mid) >= want { lo = mid } else { hi = mid - 1 }
                    }
                    precondition(k(lo) >= want && (lo == UInt32.max || k(lo + 1) < want), "geometric: log is not monotone here")
                    table.append(lo)
                    high = lo
                }
            }
            thresholds = table
            self.complete = complete
            buckets = Self.buckets(table, complete: complete)
        }

        @usableFromInline static let bucketShift: UInt32 = 20
        @usableFromInline static let several: UInt64 = 1 << 63

        /// The bucket entries from the descending thresholds, without another logarithm. Without
        /// a complete table, a bucket reaching at or below the last threshold (lengths past the
        /// table, which only the formula gives) is marked as several, so its draws take the
        /// lookup and then the formula; every other bucket is exact as with a complete table
        /// (a mean length of 100 has every draw above the 1,024th threshold but 1 in 30,000).
        static func buckets(_ t: [UInt32], complete: Bool) -> [UInt64] {
            let count = 1 << (32 - Int(bucketShift))
            var out = [UInt64](repeating: several, count: count)
            // Walk the buckets from the top; `above` counts thresholds at or above the bucket's top.
            var above = 0
            for b in stride(from: count - 1, through: 0, by: -1) {
                let low = UInt32(b) << bucketShift, top = low | ((1 << bucketShift) - 1)
                while above < t.count && t[above] >= top { above += 1 }
                var inside = 0
                while above + inside < t.count && t[above + inside] >= low { inside += 1 }
                let length = UInt64(above + 1)
                // Past the table (incomplete): m at or below the last threshold has a length the
                // table does not hold.
                if !complete && above + inside == t.count { continue }
                switch inside {
                case 0: out[b] = length << 32
                // The one threshold inside lies in low ..< top (those at or above top are in
                // `above`) and is at least 1 (the bisection starts there), so it is never "none".
                case 1: out[b] = length << 32 | UInt64(t[above])
                default: out[b] = several
                }
            }
            return out
        }

        /// GSL's `log(u) / log(1 - p) + 1` before truncation, for `u = m / 2^32`.
        @usableFromInline static func formula(_ m: UInt32, logQ: Double) -> Double {
            Foundation.log(Double(m) / 4_294_967_296.0) / logQ + 1
        }

        /// `gsl_ran_geometric`'s draw from raw Mersenne Twister outputs: the first nonzero one
        /// (`gsl_rng_uniform_pos` draws again on 0), mapped by `draw(_:)`.
        @inlinable @inline(__always)
        package func draw(_ draws: inout RawDraws) -> Int {
            var m = draws.next()
            while m == 0 { m = draws.next() }
            return draw(m)
        }

        /// The length for a nonzero 32-bit draw `m`.
        @inlinable func draw(_ m: UInt32) -> Int {
            if isOne { return 1 }
            let e = buckets.withUnsafeBufferPointer { $0[Int(m >> Self.bucketShift)] }
            if e & Self.several == 0 {
                let length = Int(truncatingIfNeeded: e >> 32), boundary = UInt32(truncatingIfNeeded: e)
                return m <= boundary ? length &+ 1 : length
            }
            return thresholds.withUnsafeBufferPointer { t in
                // Entries at or above m: the first index whose threshold is below m.
                var lo = 0, count = t.count
                while count > 0 {
                    let half = count >> 1
                    if t[lo &+ half] >= m { lo = lo &+ half &+ 1; count = count &- half &- 1 } else { count = half }
                }
                if lo < t.count || complete { return lo &+ 1 }
                // Past the table: GSL's formula (C's conversion truncates; beyond UInt32 it is
                // undefined, here the low 32 bits as on x86-64).
                let k = Self.formula(m, logQ: logQ)
                return k < 0x1p32 ? Int(UInt32(k)) : Int(UInt32(truncatingIfNeeded: Int64(Swift.min(k, 0x1p62))))
            }
        }
    }

    /// `gsl_rng_uniform_int(r, n)` prepared for many draws with one `n` on the Mersenne Twister
    /// (`Random.int(_:)`): GSL's rule (`scale = range / n`, draw `k = get / scale` until `k < n`,
    /// range 2^32 - 1) with the division by `scale` done as a multiply by its reciprocal
    /// (ceil(2^64 / scale); exact for every 32-bit numerator, Lemire, Kaser and Kurz 2019,
    /// "Faster remainder by direct computation"), so the same draws without a 64-bit divide each.
    package struct UniformInt: Sendable {
        @usableFromInline let n: UInt64
        /// ceil(2^64 / scale); 0 when scale is 1 (n above 2^31), whose quotient is the draw itself.
        @usableFromInline let reciprocal: UInt64

        package init(below n: Int) {
            precondition(n > 0 && UInt64(n) <= UInt64(UInt32.max), "uniform int: n must be in 1...2^32 - 1")
            self.n = UInt64(n)
            let scale = UInt64(UInt32.max) / UInt64(n)
            reciprocal = scale == 1 ? 0 : UInt64.max / scale + 1
        }

        /// `gsl_rng_uniform_int`'s draw from raw Mersenne Twister outputs: the first whose
        /// quotient is below n.
        @inlinable @inline(__always)
        package func draw(_ draws: inout RawDraws) -> Int {
            while true {
                let k = quotient(UInt64(draws.next()))
                if k < n { return Int(truncatingIfNeeded: k) }
            }
        }

        /// `m / scale` for a 32-bit `m`.
        @inlinable func quotient(_ m: UInt64) -> UInt64 { reciprocal == 0 ? m : m.multipliedFullWidth(by: reciprocal).high }
    }

    /// The raw outputs of one seeded Mersenne Twister (`gsl_rng_get`), kept as they are drawn
    /// and shared: every reader sees the same sequence from its start, so work that would draw
    /// the same numbers many times (a screen's bootstraps, one per symbol, all seeded alike)
    /// draws them once and reads them after. Grows on demand; safe to use from parallel jobs.
    package final class DrawTape: Sendable {
        package let seed: UInt
        /// The generator, at the tape's end, and the outputs drawn so far.
        private let drawn: Locked<(rng: Random, values: [UInt32])>

        package init(seed: UInt) {
            self.seed = seed
            drawn = Locked((Random(seed: seed), []))
        }

        /// Draws are added in chunks of this many, so the tape's length depends only on the
        /// furthest draw read, not on the order readers asked in.
        static let chunk = 1 << 16

        /// The first `count` draws or more (`count` rounded up to whole chunks).
        @usableFromInline package func draws(atLeast count: Int) -> [UInt32] {
            drawn.withLock { tape in
                if tape.values.count < count {
                    let target = (count + Self.chunk - 1) / Self.chunk * Self.chunk
                    tape.values.reserveCapacity(target)
                    while tape.values.count < target { tape.values.append(tape.rng.next32()) }
                }
                return tape.values
            }
        }

        /// Draws kept so far.
        package var count: Int { drawn.withLock { $0.values.count } }
    }
}
