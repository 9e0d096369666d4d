import BacktestAnalysis
import BacktestCore
import BacktestPresentation

extension SweepPlan {
    /// The curves the sweep page stores (`SweepReport.curveCombos`), run again with `evaluator`
    /// in parallel: the sweep itself keeps only each combination's statistics, so its memory
    /// stays flat in the number of combinations. A combination that fails now (it ran during
    /// the sweep) is left out.
    public static func storedCurves(of report: SweepReport, cells: SweepHeatmapCells, evaluator: SweepEvaluator,
                                    top: Int = 20) -> [SweepReport.StoredCurve] {
        let chosen = report.curveCombos(cells: cells, top: top)
        let cache = IndicatorCache()
        let candles = report.candles
        let results = Parallel.map(count: chosen.count) { k in
            ChartedRun(try evaluator.run(chosen[k], on: candles, cache: cache))
        }
        return zip(chosen, results).compactMap { combo, r in (try? r.get()).map { SweepReport.StoredCurve(combo: combo, run: $0) } }
    }
}
