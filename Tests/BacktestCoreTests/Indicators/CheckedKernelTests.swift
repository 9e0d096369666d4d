import Testing
import TestSupport
@testable import BacktestCore

/// `Indicators.Checked` (the kernels that tell from their own running state whether every input
/// was finite) against the scan-and-split path they let the C library skip, on random series
/// with NaN and infinities punched in anywhere, including the first and last bars.
@Suite("Checked kernels: the same outputs as scanning for gaps, and never miss one")
struct CheckedKernelTests {
    typealias Kernel = ([UnsafeBufferPointer<Double>], [UnsafeMutableBufferPointer<Double>]) -> Void
    typealias Checked = ([UnsafeBufferPointer<Double>], [UnsafeMutableBufferPointer<Double>]) -> Bool

    /// name, number of inputs, kernel, checked kernel, for a period.
    static func kernels(_ p: Int) -> [(String, Int, Kernel, Checked)] {
        [
            ("sma", 1, { i, o in Indicators.Kernel.sma(i[0], period: p, into: o[0]) },
             { i, o in Indicators.Checked.sma(i[0], period: p, into: o[0]) }),
            ("ema", 1, { i, o in Indicators.Kernel.ema(i[0], period: p, into: o[0]) },
             { i, o in Indicators.Checked.ema(i[0], period: p, into: o[0]) }),
            ("rsi", 1, { i, o in Indicators.Kernel.rsi(i[0], period: p, into: o[0]) },
             { i, o in Indicators.Checked.rsi(i[0], period: p, into: o[0]) }),
            ("macd", 1, { i, o in Indicators.Kernel.macd(i[0], fast: p, slow: p + 1 + p % 7, signal: 1 + p % 5, macd: o[0], signal: o[1], histogram: o[2]) },
             { i, o in Indicators.Checked.macd(i[0], fast: p, slow: p + 1 + p % 7, signal: 1 + p % 5, macd: o[0], signal: o[1], histogram: o[2]) }),
            ("atr", 3, { i, o in Indicators.Kernel.atr(high: i[0], low: i[1], close: i[2], period: p, into: o[0]) },
             { i, o in Indicators.Checked.atr(high: i[0], low: i[1], close: i[2], period: p, into: o[0]) }),
        ]
    }

    /// Random-walk high/low/close of `n` bars with `bad` values (NaN, +inf, -inf) at random bars
    /// of random inputs; sometimes near the largest double, where sums overflow.
    static func series(_ n: Int, bad: Int, huge: Bool, _ rng: inout SplitMix64) -> [[Double]] {
        var price = huge ? 1e307 : 100.0
        var close = [Double](), high = [Double](), low = [Double]()
        for _ in 0..<n {
            price *= 1 + (rng.unit() - 0.5) * 0.02
            close.append(price)
            high.append(price * (1 + rng.unit() * 0.01))
            low.append(price * (1 - rng.unit() * 0.01))
        }
        var inputs = [high, low, close]
        let values: [Double] = [.nan, .infinity, -.infinity, -.nan]
        for _ in 0..<bad {
            let at: Int
            switch rng.int(0...3) {
            case 0: at = 0
            case 1: at = n - 1
            default: at = rng.int(0...(n - 1))
            }
            inputs[rng.int(0...2)][at] = values[rng.int(0...3)]
        }
        return inputs
    }

    @Test("bit-identical outputs to forEachFiniteRun's scan and split, and false whenever an input is not finite",
          arguments: ["sma", "ema", "rsi", "macd", "atr"])
    func randomGaps(_ name: String) {
        var rng = SplitMix64(seed: 0xC0FFEE)
        var proved = 0
        for case_ in 0..<4000 {
            let n = rng.int(1...260)
            let p = rng.int(1...24)
            let bad = case_ % 3 == 0 ? 0 : rng.int(1...4)
            let all = Self.series(n, bad: bad, huge: case_ % 50 == 1, &rng)
            let (_, count, kernel, checked) = Self.kernels(p).first { $0.0 == name }!
            // One-input kernels read the close (or, a third of the time, the high, with its gaps).
            let inputs = count == 3 ? all : [all[case_ % 3 == 1 ? 0 : 2]]
            let finite = inputs.allSatisfy { $0.allSatisfy(\.isFinite) }
            let k = name == "macd" ? 3 : 1
            let old = (0..<k).map { _ in UnsafeMutableBufferPointer<Double>.allocate(capacity: n) }
            let new = (0..<k).map { _ in UnsafeMutableBufferPointer<Double>.allocate(capacity: n) }
            defer { for b in old + new { b.deallocate() } }
            func split(_ ins: [UnsafeBufferPointer<Double>], _ outs: [UnsafeMutableBufferPointer<Double>]) -> (Range<Int>) -> Void {
                { r in kernel(ins.map { UnsafeBufferPointer(rebasing: $0[r]) }, outs.map { UnsafeMutableBufferPointer(rebasing: $0[r]) }) }
            }
            var said = false
            Indicators.withBuffers(inputs) { ins in
                for b in old + new { b.initialize(repeating: 7) }
                Indicators.forEachFiniteRun(ins, outputs: old, split(ins, old))
                said = checked(ins, new)
                if said { proved += 1 }
                #expect(!said || finite, "\(name) n \(n) period \(p): a non-finite input was missed")
                // The dispatching path as the C library calls it.
                for b in new { b.initialize(repeating: 7) }
                Indicators.forEachFiniteRun(ins, outputs: new, trying: { checked(ins, new) }, split(ins, new))
            }
            #expect(zip(old, new).allSatisfy { zip($0, $1).allSatisfy { $0.bitPattern == $1.bitPattern } },
                    "\(name) n \(n) period \(p) bad \(bad): outputs differ")
            if !said && finite && case_ % 50 != 1 {
                // Clean, ordinary input the kernel could read in full must be proved finite.
                let readsAll: Bool
                switch name {
                case "atr", "rsi": readsAll = n > p
                case "macd": readsAll = n > Indicators.Lookback.macd(fast: p, slow: p + 1 + p % 7, signal: 1 + p % 5)
                default: readsAll = n >= p
                }
                #expect(!readsAll, "\(name) n \(n) period \(p): clean input not proved finite")
            }
        }
        #expect(proved > 500)
    }
}
