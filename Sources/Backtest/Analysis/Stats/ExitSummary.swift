import BacktestCore

/// How a run's trades ended: for every `ExitKind`, how many trades ended so, their share of all
/// trades and their average return. What `stats.json`'s `exits`, the text summary's `exits:`
/// line, report.md's "Exits by kind" table and the page's exits table show.
///
/// Open trades count as `end` (marked to the last close), as every trade statistic counts them.
public struct ExitSummary: Sendable, Equatable {
    /// The trades of one kind.
    public struct Row: Sendable, Equatable {
        public var kind: ExitKind
        public var trades: Int
        /// `trades` over all trades, as a fraction; NaN without trades.
        public var share: Double
        /// The arithmetic mean of those trades' `returnFraction` (as `avg_trade`); NaN when none.
        public var averageReturn: Double
    }

    /// One row per `ExitKind`, in `ExitKind.allCases` order, kinds without a trade included.
    public let rows: [Row]
    /// Every trade.
    public let total: Int

    /// - Complexity: O(trades).
    public init(_ trades: [Trade]) {
        var returns = [ExitKind: [Double]]()
        for t in trades { returns[t.exitKind, default: []].append(t.returnFraction) }
        total = trades.count
        let all = Double(trades.count)
        rows = ExitKind.allCases.map { kind in
            let r = returns[kind] ?? []
            // GSL's mean, as avg_trade: a run whose trades all end one way has that average.
            return Row(kind: kind, trades: r.count, share: trades.isEmpty ? .nan : Double(r.count) / all,
                       averageReturn: GSL.mean(r))
        }
    }

    /// The row of `kind`.
    public subscript(kind: ExitKind) -> Row {
        rows.first { $0.kind == kind }!
    }

    /// The kinds that ended at least one trade, in `ExitKind.allCases` order.
    public var present: [Row] { rows.filter { $0.trades > 0 } }

    /// `12 signal, 3 stop, 1 end`: the kinds that happened with their counts; `none` without trades.
    public var text: String {
        let parts = present.map { "\($0.trades) \($0.kind.rawValue)" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
