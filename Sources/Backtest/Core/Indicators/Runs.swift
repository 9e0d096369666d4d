/// Gap handling and output allocation shared by every indicator.
extension Indicators {
    /// True when every value of every input is finite.
    ///
    /// `x * 0` is 0 for a finite `x` and NaN for NaN or an infinity, so a sum of them is 0 exactly
    /// when all are finite; two-lane SIMD sums keep it one load, multiply and add per two values.
    /// - Complexity: O(n), branch-free.
    static func allFinite(_ inputs: [UnsafeBufferPointer<Double>]) -> Bool {
        var acc = SIMD2<Double>()
        var tail = 0.0
        for x in inputs {
            guard let base = x.baseAddress else { continue }
            let raw = UnsafeRawPointer(base)
            let pairs = x.count / 2
            var i = 0
            while i < pairs {
                acc += raw.loadUnaligned(fromByteOffset: i &* 16, as: SIMD2<Double>.self) * 0
                i &+= 1
            }
            if x.count % 2 == 1 { tail += base[x.count - 1] * 0 }
        }
        return acc.sum() + tail == 0
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
