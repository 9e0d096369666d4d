import BacktestAnalysis
import BacktestCore

/// The cells of a sweep page's heatmap, filled while the sweep streams its rows.
///
/// Two of the grid's axes span the heatmap (one for a one-parameter grid): rows are the first
/// parameter and columns the second, as in the text heatmap; with more parameters, the two with
/// the most values, and each cell holds the combination that ranks best among those sharing its
/// coordinates. A cell keeps its combination's `SweepStats` when the heatmap has at most
/// `allStatsLimit` cells, else only the rank statistic, so memory stays small for huge grids.
public final class SweepHeatmapCells {
    /// Index into `grid.axes` of the column axis.
    public let xAxis: Int
    /// Index into `grid.axes` of the row axis; nil for a one-parameter grid.
    public let yAxis: Int?
    public let rankStat: Stat
    /// Whether every `SweepStats` value is kept per cell (else only the rank statistic).
    public let keepsAllStats: Bool
    /// Largest heatmap whose cells keep every statistic.
    public static let allStatsLimit = 20_000

    let grid: ParameterGrid
    let combos: [Int]
    /// By cell (row-major): the combination shown (index into `combos`), -1 when none ran.
    private(set) var combo: [Int]
    private(set) var rankValue: [Double]
    /// By cell, `SweepStats.values` of its combination (empty when not kept or none ran).
    private(set) var stats: [[Double]]

    /// - Parameters:
    ///   - combos: grid indexes of the evaluated combinations, by combination number.
    public init(grid: ParameterGrid, combos: [Int], rankStat: Stat) {
        precondition(!grid.axes.isEmpty, "a sweep has at least one axis")
        self.grid = grid
        self.combos = combos
        self.rankStat = rankStat
        switch grid.axes.count {
        case 1: xAxis = 0; yAxis = nil
        case 2: yAxis = 0; xAxis = 1
        default:
            let largest = grid.axes.indices.sorted { grid.axes[$0].values.count > grid.axes[$1].values.count || (grid.axes[$0].values.count == grid.axes[$1].values.count && $0 < $1) }
            yAxis = min(largest[0], largest[1]); xAxis = max(largest[0], largest[1])
        }
        let cells = grid.axes[xAxis].values.count * (yAxis.map { grid.axes[$0].values.count } ?? 1)
        keepsAllStats = cells <= Self.allStatsLimit
        combo = [Int](repeating: -1, count: cells)
        rankValue = [Double](repeating: .nan, count: cells)
        stats = [[Double]](repeating: [], count: keepsAllStats ? cells : 0)
    }

    public var columns: Int { grid.axes[xAxis].values.count }
    public var rows: Int { yAxis.map { grid.axes[$0].values.count } ?? 1 }

    /// The cell of combination number `k`.
    func cell(of k: Int) -> Int {
        let c = grid.coordinates(at: combos[k])
        return (yAxis.map { c[$0] } ?? 0) * columns + c[xAxis]
    }

    /// Takes a chunk of the sweep's rows (`Sweep.run`'s `consume`).
    public func add(_ chunk: [Sweep.Row]) {
        for row in chunk {
            guard let m = row.stats else { continue }
            let cell = cell(of: row.combo)
            let v = m[rankStat]
            let current = combo[cell]
            // The first combination to run fills the cell; a later one replaces it when it ranks
            // before it (a defined value always ranks before an undefined one).
            let better = current < 0 || (v.isFinite && (!rankValue[cell].isFinite || rankStat.ranks(v, before: rankValue[cell])))
            guard better else { continue }
            combo[cell] = row.combo
            rankValue[cell] = v
            if keepsAllStats { stats[cell] = m.values }
        }
    }

    /// The value of `stat` in `cell`, NaN when none ran or the statistic is not kept.
    func value(_ stat: Stat, cell: Int) -> Double {
        if stat == rankStat { return rankValue[cell] }
        guard keepsAllStats, let column = stat.sweepColumn, !stats[cell].isEmpty else { return .nan }
        return stats[cell][column]
    }

    /// The statistics the page offers: the rank statistic first, then (when kept) the others.
    var shownStats: [Stat] {
        guard keepsAllStats else { return [rankStat] }
        let preferred: [Stat] = [.sharpe, .totalReturn, .maxDrawdown, .trades, .winRate, .sortino, .cagr, .calmar,
                                   .profitFactor, .volatilityAnn, .exposure, .omega, .feesPaid, .finalEquity]
        let rest = preferred.filter { $0 != rankStat && $0.sweepColumn != nil }
            + SweepStats.columns.filter { !preferred.contains($0) && $0 != rankStat }
        return [rankStat] + rest
    }

    /// Combinations of the filled cells, best first by the rank statistic (undefined last).
    var rankedCombos: [Int] {
        let filled = combo.indices.filter { combo[$0] >= 0 }
        return filled.sorted { a, b in
            let x = rankValue[a], y = rankValue[b]
            if x.isFinite != y.isFinite { return x.isFinite }
            if x.isFinite && x != y { return rankStat.ranks(x, before: y) }
            return combo[a] < combo[b]
        }.map { combo[$0] }
    }
}
