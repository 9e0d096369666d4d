/// Gap handling and output allocation shared by every indicator.
extension Indicators {
    /// True when every value of every input is finite.
    ///
    /// `x * 0` is 0 for a finite `x` and NaN for NaN or an infinity, so a sum of them is 0 exactly
    /// when all are finite. Two four-lane sums, eight values a step, keep the adds independent
    /// (one accumulator made the scan wait on each add's latency, as long as an SMA's kernel).
    /// - Complexity: O(n), branch-free.
    static func allFinite(_ inputs: [UnsafeBufferPointer<Double>]) -> Bool {
        var a = SIMD4<Double>(), b = SIMD4<Double>()
        var tail = 0.0
        for x in inputs {
            guard let base = x.baseAddress else { continue }
            zeroSums(base, x.count, &a, &b, &tail)
        }
        return (a + b).sum() + tail == 0
    }

    /// True when each of `base[0..<count]` is finite (`allFinite` of one buffer, no array).
    @inline(__always)
    static func allFinite(_ base: UnsafePointer<Double>, count: Int) -> Bool {
        var a = SIMD4<Double>(), b = SIMD4<Double>()
        var tail = 0.0
        zeroSums(base, count, &a, &b, &tail)
        return (a + b).sum() + tail == 0
    }

    /// Adds `x * 0` of each of `base[0..<count]` into the two four-lane sums and `tail`.
    @inline(__always)
    static func zeroSums(
        _ base: UnsafePointer<Double>, _ count: Int, _ a: inout SIMD4<Double>, _ b: inout SIMD4<Double>, _ tail: inout Double
    ) {
        let raw = UnsafeRawPointer(base)
        let steps = count / 8
        var i = 0
        while i < steps {
            a += raw.loadUnaligned(fromByteOffset: i &* 64, as: SIMD4<Double>.self) * 0
            b += raw.loadUnaligned(fromByteOffset: i &* 64 &+ 32, as: SIMD4<Double>.self) * 0
            i &+= 1
        }
        for j in steps * 8 ..< count { tail += base[j] * 0 }
    }

    /// Calls `body` once per maximal run of bars where every input is finite, and writes NaN into
    /// `outputs` at the bars outside those runs. With clean input this is one call over `0..<n`.
    /// Package: the C library (`Sources/CBridge`) runs the kernels over caller buffers with it.
    package static func forEachFiniteRun(
        _ inputs: [UnsafeBufferPointer<Double>], outputs: [UnsafeMutableBufferPointer<Double>],
        _ body: (Range<Int>) -> Void
    ) {
        let n = outputs.first?.count ?? 0
        if allFinite(inputs) {
            body(0..<n)
            return
        }
        var i = 0
        while i < n {
            if !inputs.allSatisfy({ $0[i].isFinite }) {
                for out in outputs { out[i] = .nan }
                i += 1
                continue
            }
            var j = i + 1
            while j < n && inputs.allSatisfy({ $0[j].isFinite }) { j += 1 }
            body(i..<j)
            i = j
        }
    }

    /// `forEachFiniteRun` for a kernel that can tell from its own work whether its inputs were
    /// all finite: `whole` runs it over `0..<n` and returns true when it proved them finite
    /// (`Indicators.Checked`); otherwise its outputs are discarded and the inputs are scanned and
    /// split as `forEachFiniteRun` does, so the results are the same for every input. Clean input
    /// costs the kernel alone, without the separate pass over every input.
    package static func forEachFiniteRun(
        _ inputs: [UnsafeBufferPointer<Double>], outputs: [UnsafeMutableBufferPointer<Double>],
        trying whole: () -> Bool, _ body: (Range<Int>) -> Void
    ) {
        if whole() { return }
        forEachFiniteRun(inputs, outputs: outputs, body)
    }

    /// Kernels that also report whether they proved every input finite (true) or saw, or may have
    /// seen, a NaN or an infinity (false: an overflow to infinity from finite inputs, or input too
    /// short to be read, also gives false). Their outputs equal `Kernel`'s. Each reads its own
    /// running state instead of scanning the inputs again; `forEachFiniteRun(_:outputs:trying:_:)`
    /// falls back to the scan when one returns false.
    package enum Checked {
        /// `Kernel.sma`: each re-summation block's running sum took in its inputs (`RollingSum.sums`).
        package static func sma(_ x: UnsafeBufferPointer<Double>, period: Int, into out: UnsafeMutableBufferPointer<Double>) -> Bool {
            precondition(period >= 1 && out.count == x.count, "sma: period must be positive and out must match x")
            return RollingSum.sums(x, period: period, scale: 1 / Double(period), into: out)
        }

        /// `Kernel.ema`: the seed sums `x[0..<period]`, every later `x` enters the recurrence
        /// (times `k > 0`), and the carried value, multiplied by `1 - k` (0 for period 1, and
        /// `0 * NaN`, `0 * inf` are NaN), stays non-finite: the last output covers every input.
        package static func ema(_ x: UnsafeBufferPointer<Double>, period: Int, into out: UnsafeMutableBufferPointer<Double>) -> Bool {
            Kernel.ema(x, period: period, into: out)
            return x.count >= period && x.count > 0 && out[x.count - 1].isFinite
        }

        /// `Kernel.rsi`: every `x` enters a difference, and a difference that is NaN or infinite
        /// makes the average gain or the average loss non-finite for good (`max(d, 0)` keeps a
        /// NaN `d`; `d = -inf` gives the loss +inf); the final averages cover every input.
        package static func rsi(_ x: UnsafeBufferPointer<Double>, period: Int, into out: UnsafeMutableBufferPointer<Double>) -> Bool {
            Kernel.rsiAverages(x, period: period, into: out)
        }

        /// `Kernel.macd`: the slow EMA reads every `x` (seeded on `x[0..<slow]`), so its last
        /// value, and the last MACD value (fast minus slow), is non-finite if any `x` is.
        package static func macd(
            _ x: UnsafeBufferPointer<Double>, fast: Int, slow: Int, signal: Int,
            macd m: UnsafeMutableBufferPointer<Double>, signal s: UnsafeMutableBufferPointer<Double>,
            histogram h: UnsafeMutableBufferPointer<Double>
        ) -> Bool {
            Kernel.macd(x, fast: fast, slow: slow, signal: signal, macd: m, signal: s, histogram: h)
            let n = x.count
            return n > Lookback.macd(fast: fast, slow: slow, signal: signal) && m[n - 1].isFinite
        }

        /// `Kernel.atr`: the smoothed value covers the lows and closes; the highs are checked as
        /// it goes (a true range drops a NaN high).
        package static func atr(
            high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
            period: Int, into out: UnsafeMutableBufferPointer<Double>
        ) -> Bool {
            Kernel.atr(high: high, low: low, close: close, period: period, into: out, checking: true)
        }
    }

    /// A new array of `n` doubles filled by `fill` (which must write every element).
    static func array(_ n: Int, _ fill: (UnsafeMutableBufferPointer<Double>) -> Void) -> [Double] {
        [Double](unsafeUninitializedCapacity: n) { buffer, count in
            fill(buffer)
            count = n
        }
    }

    /// Runs a one-input, one-output kernel over each finite run of `x`.
    static func map(
        _ x: [Double], _ kernel: (UnsafeBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) -> Void
    ) -> [Double] {
        x.withUnsafeBufferPointer { xp in
            array(x.count) { out in
                forEachFiniteRun([xp], outputs: [out]) { r in
                    kernel(UnsafeBufferPointer(rebasing: xp[r]), UnsafeMutableBufferPointer(rebasing: out[r]))
                }
            }
        }
    }

    /// Runs a kernel over `inputs` (equal lengths) writing `outputs` arrays, per finite run.
    static func map(
        _ inputs: [[Double]], outputs k: Int,
        _ kernel: ([UnsafeBufferPointer<Double>], [UnsafeMutableBufferPointer<Double>]) -> Void
    ) -> [[Double]] {
        let n = inputs.first?.count ?? 0
        let outs = (0..<k).map { _ in UnsafeMutableBufferPointer<Double>.allocate(capacity: n) }
        defer { for o in outs { o.deallocate() } }
        withBuffers(inputs) { ins in
            forEachFiniteRun(ins, outputs: outs) { r in
                kernel(
                    ins.map { UnsafeBufferPointer(rebasing: $0[r]) },
                    outs.map { UnsafeMutableBufferPointer(rebasing: $0[r]) })
            }
        }
        return outs.map { Array($0) }
    }

    /// Calls `body` with buffer pointers to every array (recursively nested `withUnsafeBufferPointer`).
    static func withBuffers<R>(
        _ arrays: [[Double]], _ body: ([UnsafeBufferPointer<Double>]) -> R
    ) -> R {
        func go(_ i: Int, _ acc: [UnsafeBufferPointer<Double>]) -> R {
            if i == arrays.count { return body(acc) }
            return arrays[i].withUnsafeBufferPointer { go(i + 1, acc + [$0]) }
        }
        return go(0, [])
    }
}

extension UnsafeMutableBufferPointer where Element == Double {
    /// Writes NaN into `range` (a warm-up or a run too short to have any value).
    @inline(__always)
    func fillNaN(_ range: Range<Int>) {
        for i in range { self[i] = .nan }
    }
}
