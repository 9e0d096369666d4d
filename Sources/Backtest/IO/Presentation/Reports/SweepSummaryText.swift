import BacktestAnalysis
import BacktestCore
import Foundation

/// The terminal summary of a sweep: best combination, honesty figures, heatmap, files written.
/// It holds a chart with colour codes, so it is written with `Output.write(chart:)`: every other
/// piece of text in it is escaped here. A heatmap wider than `columns` (the terminal's) is left
/// out with a note.
public enum SweepSummaryText {
    public static func render(report: SweepReport, directory: String, style: ChartStyle, columns limit: Int) -> String {
        let directory = TerminalText.escaped(directory)
        let s = report.summary
        let grid = report.grid
        var out = "Sweep \(TerminalText.escaped(report.strategy)) on \(TerminalText.escaped(report.candles.symbol))"
            + (report.execution.conventions.map { " (conventions: \($0))" } ?? "") + ": \(report.combos.count) combinations"
            + (report.search == nil ? ", " : " \(report.searchedBy), ")
            + "\(s.evaluated - s.failed) ran, \(s.failed) failed; ranked by \(report.rankStat)\n"
        if let best = s.best, let m = s.bestStats {
            let values = grid.combination(at: report.combos[best])
            out += "Best: " + grid.axes.map { "\($0.name)=\(NumberText.shortest(values[$0.name]!))" }.joined(separator: " ")
            out += "  sharpe " + Format.fixed(m[.sharpe], 3) + "  total_return " + Format.percent(m[.totalReturn])
                + "  max_drawdown " + Format.percent(m[.maxDrawdown]) + "  trades " + Format.fixed(m[.trades], 0) + "\n"
        } else {
            out += "No combination produced a defined \(report.rankStat).\n"
        }
        if let d = report.deflation {
            out += "Deflated Sharpe ratio: " + Format.percent(d.value) + " over \(d.trials) trials "
                + "(best per-bar Sharpe " + Format.fixed(d.periodSharpe, 4) + ", luck alone expects "
                + Format.fixed(d.expectedMaximum, 4) + ")\n"
        }
        if let o = s.overfitting {
            out += "Probability of backtest overfitting: " + Format.percent(o.pbo) + " (CSCV, \(o.splits) splits)\n"
        } else if let note = s.overfittingNote {
            out += note + "\n"
        }
        if let wf = report.walkForward, let inS = wf.inSample, let outS = wf.outOfSample {
            let a = SweepStats(inS, periodsPerYear: report.periodsPerYear)
            let b = SweepStats(outS, periodsPerYear: report.periodsPerYear)
            out += "Walk-forward (\(wf.steps.count) steps): in-sample total_return " + Format.percent(a[.totalReturn])
                + " sharpe " + Format.fixed(a[.sharpe], 3) + "; out-of-sample total_return " + Format.percent(b[.totalReturn])
                + " sharpe " + Format.fixed(b[.sharpe], 3) + "\n"
        }
        if report.grid.axes.count == 2, (try? report.heatmapText(style: style)) == nil {
            out += "(grid too large for a text heatmap: see sweep.md and sweep.csv)\n"
        }
        if let text = try? report.heatmapText(style: style) {
            let width = text.components(separatedBy: "\n").map(\.count).max() ?? 0
            out += width <= limit ? "\n" + text : "(heatmap wider than \(limit) columns: see heatmap.svg and sweep.md)\n"
        }
        out += "\nWrote \(directory)/sweep.csv, sweep.md and report.html\n"
        return out
    }
}
