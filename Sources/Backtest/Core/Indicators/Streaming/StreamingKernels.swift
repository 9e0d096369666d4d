/// The batch kernels' running parts continued one value at a time, each in the same floating-point
/// operations in the same order as its batch counterpart, so that a stream's value at a bar is
/// the batch value at that bar to the bit (the batch kernels are prefix-stable: see
/// `Indicators.recurrence` and `RollingSum.sums`). `IndicatorStream` is built from them.

/// The last `capacity` values, oldest first; O(1) per value.
struct RecentValues: Sendable {
    private var ring: [Double]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        ring = [Double](repeating: 0, count: Swift.max(1, capacity))
    }

    var capacity: Int { ring.count }

    /// Adds `x`, dropping the oldest value when full.
    mutating func push(_ x: Double) {
        if count < ring.count {
            ring[(head + count) % ring.count] = x
            count += 1
        } else {
            ring[head] = x
            head = (head + 1) % ring.count
        }
    }

    /// The value `age` pushes ago (0: the newest). - Precondition: `age < count`.
    func back(_ age: Int) -> Double {
        ring[(head + count - 1 - age) % ring.count]
    }

    /// The `i`-th oldest value held. - Precondition: `i < count`.
    subscript(i: Int) -> Double {
        ring[(head + i) % ring.count]
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}

/// `Indicators.recurrence` (`blockSize` 4) or `Indicators.wilder8` (8) continued a value at a
/// time: `y[i] = a^(j+1) * y[t-1] + v_j` within a block started at `t`, `v_j = a * v_(j-1) + u(t+j)`.
struct StreamingRecurrence: Sendable {
    private let a: Double
    private let powers: [Double]
    /// The value at the end of the last full block (the batch's carried `y`).
    private var carried: Double
    private var v = 0.0
    private var phase = 0

    /// - Parameter previous: the value before the first `next` (the batch's `previous`).
    init(a: Double, previous: Double, blockSize: Int = 4) {
        self.a = a
        let a2 = a * a, a3 = a2 * a, a4 = a2 * a2
        if blockSize == 8 {
            let a5 = a4 * a, a6 = a4 * a2, a7 = a4 * a3, a8 = a4 * a4
            powers = [a, a2, a3, a4, a5, a6, a7, a8]
        } else {
            powers = [a, a2, a3, a4]
        }
        carried = previous
    }

    /// The next value, for the next `u`.
    mutating func next(_ u: Double) -> Double {
        v = phase == 0 ? u : a * v + u
        let y = powers[phase] * carried + v
        phase += 1
        if phase == powers.count {
            carried = y
            phase = 0
        }
        return y
    }
}

/// `RollingSum.sums` continued a value at a time: `scale * sum(x[i-p+1...i])`, NaN in the
/// warm-up, re-summed directly at the same bars as the batch.
struct StreamingSum: Sendable {
    let period: Int
    let scale: Double
    private var window: RecentValues
    /// Values taken since the start (or the last `reset`).
    private var taken = 0
    /// The running sum at the last re-summation or full four-value block.
    private var sum = 0.0
    private var pending = 0.0
    private var phase = 0

    init(period: Int, scale: Double) {
        self.period = period
        self.scale = scale
        window = RecentValues(capacity: period + 1)
    }

    mutating func reset() {
        window.removeAll()
        taken = 0
        phase = 0
    }

    mutating func next(_ x: Double) -> Double {
        window.push(x)
        let i = taken
        taken += 1
        let p = period
        guard i >= p - 1 else { return .nan }
        let sinceResum = (i - (p - 1)) % (RollingSum.resumEvery(p) + 1)
        if sinceResum == 0 {
            sum = directSum()
            phase = 0
            return sum * scale
        }
        let d = x - window.back(p)
        pending = phase == 0 ? d : pending + d
        phase += 1
        if phase == 4 {
            sum += pending
            phase = 0
            return sum * scale
        }
        return (sum + pending) * scale
    }

    /// `RollingSum.direct` over the last `period` values, oldest first.
    private func directSum() -> Double {
        let p = period
        let first = window.count - p
        var a = 0.0, b = 0.0, c = 0.0, d = 0.0
        var i = 0
        while i + 4 <= p {
            a += window[first + i]; b += window[first + i + 1]; c += window[first + i + 2]; d += window[first + i + 3]
            i += 4
        }
        while i < p { a += window[first + i]; i += 1 }
        return (a + b) + (c + d)
    }
}

/// `Indicators.rollingMeanSD` continued a value at a time: the population standard deviation of
/// the last `period` values, NaN in the warm-up.
struct StreamingDeviation: Sendable {
    let period: Int
    private var window: RecentValues
    private var taken = 0
    private var shift = 0.0, s1 = 0.0, s2 = 0.0

    init(period: Int) {
        self.period = period
        window = RecentValues(capacity: period + 1)
    }

    mutating func reset() {
        window.removeAll()
        taken = 0
    }

    mutating func next(_ x: Double) -> Double {
        window.push(x)
        let i = taken
        taken += 1
        let p = period
        guard i >= p - 1 else { return .nan }
        if (i - (p - 1)) % Swift.max(256, 4 * p) == 0 {
            shift = x
            s1 = 0; s2 = 0
            let first = window.count - p
            for j in 0..<p {
                let d = window[first + j] - shift
                s1 += d
                s2 += d * d
            }
        } else {
            let dNew = x - shift, dOld = window.back(p) - shift
            s1 += dNew - dOld
            s2 += dNew * dNew - dOld * dOld
        }
        let invP = 1 / Double(p)
        let m = s1 * invP
        let m2 = s2 * invP
        var v = m2 - m * m
        if v <= 1e-14 * m2 { v = 0 }
        return v.squareRoot()
    }
}

/// The highest (or lowest) of the last `period` values, as `RollingExtremes.extreme` gives it
/// (of equal values, the newest: it decides the sign of a zero). NaN in the warm-up.
struct StreamingExtreme: Sendable {
    let period: Int
    let maximum: Bool
    private var window: RecentValues

    init(period: Int, maximum: Bool) {
        self.period = period
        self.maximum = maximum
        window = RecentValues(capacity: period)
    }

    mutating func reset() { window.removeAll() }

    mutating func next(_ x: Double) -> Double {
        window.push(x)
        guard window.count == period else { return .nan }
        var best = window[0]
        for i in 1..<period {
            let v = window[i]
            if maximum ? v >= best : v <= best { best = v }
        }
        return best
    }
}
