import BacktestAnalysis
import BacktestCore

/// A backtest a page or chart draws: the result and the drawdowns computed with its statistics
/// (`Stats.drawdowns`), so the drawing does not find them again.
public struct ChartedRun: Sendable {
    public var result: BacktestResult
    public var drawdowns: DrawdownEpisodes

    public init(_ result: BacktestResult, drawdowns: DrawdownEpisodes) {
        self.result = result
        self.drawdowns = drawdowns
    }

    /// A run whose statistics were not computed (a sweep's stored curve, a screen's run
    /// repeated for its chart): its drawdowns, once.
    public init(_ result: BacktestResult) {
        self.init(result, drawdowns: DrawdownEpisodes(result))
    }
}
