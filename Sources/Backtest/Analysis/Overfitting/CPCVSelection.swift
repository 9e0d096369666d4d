import BacktestCore
import Foundation

/// A sweep's selection under combinatorial purged cross-validation: for each split of `cv`, the
/// trial with the best per-bar Sharpe ratio on the split's train bars; its returns on the test
/// groups recombined into `cv`'s paths.
///
/// As CSCV does, trials enter as sufficient statistics of their full run's per-bar returns
/// (each combination runs once over the whole series, so positions carry across the boundaries):
/// the sum and sum of squares over segments cut at every group's and every train run's bounds,
/// so every train set and group is a union of segments. Per split: the train winner (per-bar
/// Sharpe, mean over sample sd), its test Sharpe ranked among all trials' (average rank for
/// ties), `omega = rank / (T + 1)`, the logit `ln(omega / (1 - omega))`; PBO is the share of
/// splits whose logit is at most 0. Per path: the per-bar Sharpe of the returns of each group
/// from the winner of the split the path takes it from.
public struct CPCVSelection: Sendable {
    public let cv: CombinatorialPurgedCV
    /// The first bar of each segment, ascending, the first 0.
    let starts: [Int]
    /// Per split: its train segments and its test segments.
    let trainSegments: [[Int]], testSegments: [[Int]]
    /// Per group: its segments.
    let groupSegments: [[Int]]
    private var sums: [Double] = [], squares: [Double] = []
    /// The combination numbers entered, in order.
    public private(set) var trials: [Int] = []

    public init(_ cv: CombinatorialPurgedCV) {
        self.cv = cv
        var cuts = Set([0, cv.bars])
        for g in cv.groupBars { cuts.insert(g.lowerBound); cuts.insert(g.upperBound + 1) }
        for split in cv.splits { for run in split.train { cuts.insert(run.lowerBound); cuts.insert(run.upperBound + 1) } }
        let starts = cuts.filter { $0 < cv.bars }.sorted()
        self.starts = starts
        func segments(in ranges: [ClosedRange<Int>]) -> [Int] {
            starts.indices.filter { s in ranges.contains { $0.contains(starts[s]) } }
        }
        trainSegments = cv.splits.map { segments(in: $0.train) }
        testSegments = cv.splits.map { segments(in: $0.test.map { cv.groupBars[$0] }) }
        groupSegments = cv.groupBars.map { segments(in: [$0]) }
    }

    /// A trial's per-segment sums and sums of squares of `returns` (one per bar of the series).
    public func segmentStatistics(returns: UnsafeBufferPointer<Double>) -> (sums: [Double], squares: [Double]) {
        precondition(returns.count == cv.bars, "CPCV: \(returns.count) returns for \(cv.bars) bars")
        var sums = [Double](repeating: 0, count: starts.count), squares = sums
        for s in starts.indices {
            let end = s + 1 < starts.count ? starts[s + 1] : cv.bars
            for i in starts[s]..<end { sums[s] += returns[i]; squares[s] += returns[i] * returns[i] }
        }
        return (sums, squares)
    }

    /// Enters trial `combo` by its segment statistics.
    public mutating func add(combo: Int, sums: [Double], squares: [Double]) {
        precondition(sums.count == starts.count && squares.count == starts.count, "CPCV: wrong number of segments")
        trials.append(combo)
        self.sums += sums
        self.squares += squares
    }

    public struct Result: Sendable, Equatable {
        /// Per split, the combination number chosen on its train bars (nil: no trial defined).
        public var chosen: [Int?]
        /// Per split, the logit of the chosen trial's test rank.
        public var logits: [Double]
        public var pbo: Double
        /// Per path, the per-bar Sharpe ratio of its recombined out-of-sample returns.
        public var pathSharpes: [Double]
        /// The share of paths whose Sharpe ratio is above 0.
        public var positiveShare: Double
    }

    /// The selection over the trials entered; nil with fewer than 2.
    public func evaluate() -> Result? {
        let t = trials.count, width = starts.count
        guard t >= 2 else { return nil }
        var counts = [Int](repeating: 0, count: width)
        for s in 0..<width { counts[s] = (s + 1 < width ? starts[s + 1] : cv.bars) - starts[s] }
        func sharpe(_ trial: Int, _ segments: [Int]) -> Double {
            var sum = 0.0, sq = 0.0, n = 0
            for s in segments { sum += sums[trial * width + s]; sq += squares[trial * width + s]; n += counts[s] }
            return CSCV.sharpe(sum: sum, squares: sq, count: n)
        }
        var chosen: [Int?] = [], logits: [Double] = []
        for j in cv.splits.indices {
            var best = -Double.infinity, bestTrial: Int?
            for trial in 0..<t {
                let v = sharpe(trial, trainSegments[j])
                if v > best { best = v; bestTrial = trial }
            }
            chosen.append(bestTrial)
            let oos = (0..<t).map { sharpe($0, testSegments[j]) }
            let target = bestTrial.map { oos[$0] } ?? -.infinity
            let less = oos.filter { $0 < target }.count, equal = oos.filter { $0 == target }.count
            let omega = (Double(less) + Double(equal + 1) / 2) / Double(t + 1)
            logits.append(log(omega / (1 - omega)))
        }
        let pathSharpes = cv.paths.map { path -> Double in
            var sum = 0.0, sq = 0.0, n = 0
            for (g, split) in path.enumerated() {
                guard let trial = chosen[split] else { return .nan }
                for s in groupSegments[g] { sum += sums[trial * width + s]; sq += squares[trial * width + s]; n += counts[s] }
            }
            let v = CSCV.sharpe(sum: sum, squares: sq, count: n)
            return v.isFinite ? v : .nan
        }
        return Result(chosen: chosen.map { $0.map { trials[$0] } }, logits: logits,
                      pbo: Double(logits.filter { $0 <= 0 }.count) / Double(logits.count), pathSharpes: pathSharpes,
                      positiveShare: Double(pathSharpes.filter { $0 > 0 }.count) / Double(pathSharpes.count))
    }
}
