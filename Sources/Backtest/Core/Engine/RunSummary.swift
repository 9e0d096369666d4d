/// The headline numbers of a run, as `bt run` prints them (fractions, not percents).
public struct RunSummary: Sendable, Equatable {
    public var initialCash: Double
    public var finalEquity: Double
    /// finalEquity / initialCash − 1.
    public var totalReturn: Double
    /// Round trips, including a still-open one marked to the last close.
    public var trades: Int
    public var feesPaid: Double
    /// Largest peak-to-trough fall of the per-bar equity, as a positive fraction of the peak.
    public var maxDrawdown: Double
    /// Mean slippage over fills, in basis points (0 without fills).
    public var averageSlippageBps: Double
    public var fills: Int
    public var partialFills: Int
    public var rejectedOrders: Int
    /// Rejections per reason, reasons with none left out.
    public var rejectedByReason: [RejectionReason: Int]
    public var ambiguousExitBars: Int

    /// - Complexity: O(bars + fills).
    public init(_ r: BacktestResult) {
        initialCash = r.initialCash
        finalEquity = r.finalEquity
        totalReturn = r.finalEquity / r.initialCash - 1
        trades = r.trades.count
        feesPaid = r.feesPaid
        var peak = r.initialCash, worst = 0.0
        for e in r.equity {
            if e > peak { peak = e }
            if peak > 0 { worst = max(worst, 1 - e / peak) }
        }
        maxDrawdown = worst
        averageSlippageBps = r.fills.isEmpty ? 0 : r.fills.reduce(0) { $0 + $1.slippageBps } / Double(r.fills.count)
        fills = r.fills.count
        partialFills = r.partialFills
        rejectedOrders = r.rejected.count
        rejectedByReason = Dictionary(grouping: r.rejected, by: \.reason).mapValues(\.count)
        ambiguousExitBars = r.ambiguousExitBars
    }
}
