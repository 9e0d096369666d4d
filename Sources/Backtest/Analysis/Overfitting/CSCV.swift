import BacktestCore
import Foundation

/// Probability of backtest overfitting by combinatorially symmetric cross-validation (CSCV).
///
/// Bailey, Borwein, Lopez de Prado and Zhu, "The Probability of Backtest Overfitting" (2015):
/// the T x N matrix of per-period returns of N trials is cut into S contiguous blocks of rows
/// (boundaries at `k*T/S`, so sizes differ by at most one). For every way of choosing S/2 blocks as
/// in-sample (the rest out-of-sample), the trial with the best in-sample Sharpe ratio (mean over
/// sample standard deviation, per period) is found; its out-of-sample Sharpe is ranked among all
/// trials (average rank for ties, 1 = worst), `omega = rank / (N + 1)`, and the logit
/// `lambda = ln(omega / (1 - omega))` is recorded. PBO is the share of splits with `lambda <= 0`:
/// the in-sample winner did no better than the out-of-sample median.
///
/// Trials enter as per-block sufficient statistics (sum and sum of squares of returns per block),
/// so memory is `N * S * 2` doubles whatever T is.
public struct CSCV: Sendable {
    /// Number of blocks S (even, at least 2).
    public let blocks: Int
    /// Rows per block.
    public let blockSizes: [Int]
    private var sums: [Double] = []
    private var squares: [Double] = []
    /// Number of trials added.
    public private(set) var trials = 0

    /// Prepares CSCV over series of `length` periods cut into `blocks` blocks.
    /// - Throws: `InputError` when `blocks` is odd or below 2, or longer than the series.
    public init(length: Int, blocks: Int = 16) throws {
        guard blocks >= 2, blocks % 2 == 0 else { throw InputError("CSCV needs an even number of blocks >= 2 (got \(blocks))") }
        guard length >= 2 * blocks else {
            throw InputError("CSCV needs at least \(2 * blocks) periods for \(blocks) blocks (got \(length))")
        }
        self.blocks = blocks
        blockSizes = (0..<blocks).map { k in (k + 1) * length / blocks - k * length / blocks }
    }

    /// Row boundaries: block k covers rows `bounds[k]..<bounds[k+1]`.
    var bounds: [Int] {
        var b = [0]
        for s in blockSizes { b.append(b.last! + s) }
        return b
    }

    /// One trial's per-block sums and sums of squares of its returns (S values each), computed
    /// without touching the accumulator, so workers can summarise trials in parallel.
    public func blockStatistics(returns: UnsafeBufferPointer<Double>) -> (sums: [Double], squares: [Double]) {
        precondition(returns.count == bounds.last!, "trial length differs from the CSCV length")
        let b = bounds
        var sums = [Double](repeating: 0, count: blocks), squares = sums
        for k in 0..<blocks {
            var s = 0.0, q = 0.0
            for i in b[k]..<b[k + 1] {
                let r = returns[i]
                s += r
                q += r * r
            }
            sums[k] = s
            squares[k] = q
        }
        return (sums, squares)
    }

    /// Adds one trial from its `blockStatistics`.
    public mutating func add(blockSums: [Double], blockSquares: [Double]) {
        precondition(blockSums.count == blocks && blockSquares.count == blocks, "one value per block")
        sums.append(contentsOf: blockSums)
        squares.append(contentsOf: blockSquares)
        trials += 1
    }

    /// Adds one trial's per-period returns (length T as given at init).
    public mutating func add(returns: [Double]) {
        let stats = returns.withUnsafeBufferPointer { blockStatistics(returns: $0) }
        add(blockSums: stats.sums, blockSquares: stats.squares)
    }

    /// The result: PBO and the logits of every split.
    public struct Result: Sendable {
        /// Probability of backtest overfitting, in [0, 1].
        public var pbo: Double
        /// One logit per split, in split order.
        public var logits: [Double]
        /// Number of splits evaluated, C(S, S/2).
        public var splits: Int { logits.count }
    }

    /// Evaluates every split, in parallel on all cores.
    /// - Throws: `InputError` with fewer than two trials.
    /// - Complexity: O(C(S, S/2) x N x S).
    public func evaluate() throws -> Result {
        guard trials >= 2 else { throw InputError("PBO needs at least two trials (got \(trials))") }
        let splits = Self.halfSubsets(of: blocks)
        var logits = [Double](repeating: .nan, count: splits.count)
        let n = trials, s = blocks
        let sizes = blockSizes
        sums.withUnsafeBufferPointer { sumBuf in
            squares.withUnsafeBufferPointer { sqBuf in
                logits.withUnsafeMutableBufferPointer { logitsOut in
                    // Read-only inputs; each chunk writes its own splits' logits.
                    nonisolated(unsafe) let sumBuf = sumBuf, sqBuf = sqBuf, out = logitsOut
                    let chunk = 64
                    let chunks = (splits.count + chunk - 1) / chunk
                    DispatchQueue.concurrentPerform(iterations: chunks) { c in
                        var oos = [Double](repeating: 0, count: n)
                        for j in (c * chunk)..<min(splits.count, (c + 1) * chunk) {
                            let mask = splits[j]
                            var countIn = 0, countOut = 0
                            for k in 0..<s { if mask & (1 << k) != 0 { countIn += sizes[k] } else { countOut += sizes[k] } }
                            var best = -Double.infinity, bestTrial = 0
                            for t in 0..<n {
                                var si = 0.0, qi = 0.0, so = 0.0, qo = 0.0
                                let base = t * s
                                for k in 0..<s {
                                    if mask & (1 << k) != 0 { si += sumBuf[base + k]; qi += sqBuf[base + k] }
                                    else { so += sumBuf[base + k]; qo += sqBuf[base + k] }
                                }
                                let isSharpe = Self.sharpe(sum: si, squares: qi, count: countIn)
                                oos[t] = Self.sharpe(sum: so, squares: qo, count: countOut)
                                if isSharpe > best { best = isSharpe; bestTrial = t }
                            }
                            let target = oos[bestTrial]
                            var less = 0, equal = 0
                            for t in 0..<n {
                                if oos[t] < target { less += 1 } else if oos[t] == target { equal += 1 }
                            }
                            let rank = Double(less) + Double(equal + 1) / 2
                            let omega = rank / Double(n + 1)
                            out[j] = log(omega / (1 - omega))
                        }
                    }
                }
            }
        }
        let overfit = logits.filter { $0 <= 0 }.count
        return Result(pbo: Double(overfit) / Double(logits.count), logits: logits)
    }

    /// Per-period Sharpe ratio (mean / sample sd) from sufficient statistics; -inf when undefined
    /// (so an undefined trial never wins in-sample and ranks lowest out-of-sample).
    @inline(__always)
    static func sharpe(sum: Double, squares: Double, count: Int) -> Double {
        guard count > 1 else { return -.infinity }
        let n = Double(count)
        let mean = sum / n
        let variance = max(0, (squares - sum * mean) / (n - 1))
        guard variance > 0 else { return -.infinity }
        return mean / variance.squareRoot()
    }

    /// Every subset of `s` blocks with `s/2` members, as bit masks, in increasing order.
    static func halfSubsets(of s: Int) -> [Int] {
        (0..<(1 << s)).filter { $0.nonzeroBitCount == s / 2 }
    }
}
