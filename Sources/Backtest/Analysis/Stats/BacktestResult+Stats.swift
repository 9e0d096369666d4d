import BacktestCore

extension BacktestResult {
    /// Final equity over the initial cash, minus 1 (a fraction): the `total_return` statistic,
    /// and what the cost table and its break-even search compare.
    public var totalReturn: Double { finalEquity / initialCash - 1 }

    /// The share of bars that end in a position (NaN without bars): the `exposure` statistic.
    /// - Complexity: O(bars), a branch-free count.
    public var exposure: Double {
        equity.isEmpty ? .nan : Double(Self.barsInPosition(position)) / Double(equity.count)
    }

    /// Bars with a nonzero position.
    private static func barsInPosition(_ position: [Double]) -> Int {
        position.withUnsafeBufferPointer { p in
            var count = 0
            for i in 0..<p.count { count &+= p[i] != 0 ? 1 : 0 }
            return count
        }
    }
}
