import BacktestCore

/// Walk-forward folds over a bar range: the range is cut into `k` contiguous folds of equal size
/// (boundaries at `i * n / k`); each step optimises on one fold and tests on the next, so an
/// out-of-sample fold's parameters depend only on earlier data.
public struct WalkForward: Sendable, Equatable {
    /// One optimise-then-test step.
    public struct Step: Sendable, Equatable {
        public var inSample: Range<Int>
        public var outOfSample: Range<Int>
    }

    public let steps: [Step]

    /// Folds over `bars` bars.
    /// - Throws: `InputError` when `folds` is below 2 or folds would hold fewer than
    ///   `minimumFoldBars` bars.
    public init(bars: Int, folds: Int, minimumFoldBars: Int = 20) throws {
        guard folds >= 2 else { throw InputError("needs at least 2 folds", setting: .walkForward, value: String(folds)) }
        guard bars / folds >= minimumFoldBars else {
            throw InputError("\(bars) bars give folds of \(bars / folds) bars; need at least \(minimumFoldBars)",
                             setting: .walkForward, value: String(folds))
        }
        let bounds = (0...folds).map { $0 * bars / folds }
        steps = (1..<folds).map { Step(inSample: bounds[$0 - 1]..<bounds[$0], outOfSample: bounds[$0]..<bounds[$0 + 1]) }
    }
}
