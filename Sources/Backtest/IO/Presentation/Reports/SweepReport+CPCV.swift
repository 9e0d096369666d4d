import BacktestAnalysis
import BacktestCore
import Foundation

/// A sweep's combinatorial purged cross-validation (`SweepReport.cv`, `Sweep.Summary.cpcv`) as
/// `cv_splits.csv` and `sweep.md` show it.
extension SweepReport {
    /// `split,set,first_bar,last_bar,first_time,last_time`: each split's train runs (`train`)
    /// and test groups (`test`), bar indexes into the swept window, ISO-8601 times; nil without CPCV.
    public func cvSplitsCSV() -> String? {
        guard let cv else { return nil }
        var out = "split,set,first_bar,last_bar,first_time,last_time\n"
        let time = candles.time
        for (j, split) in cv.splits.enumerated() {
            let rows = split.train.map { ("train", $0) } + split.test.map { ("test", cv.groupBars[$0]) }
            for (set, range) in rows.sorted(by: { $0.1.lowerBound < $1.1.lowerBound }) {
                out += "\(j),\(set),\(range.lowerBound),\(range.upperBound),\(UTCTime.iso(time[range.lowerBound])),"
                    + "\(UTCTime.iso(time[range.upperBound]))\n"
            }
        }
        return out
    }

    /// The `sweep.md` section; empty without CPCV.
    var cpcvMarkdown: String {
        guard let cv else { return "" }
        var md = "\n## Combinatorial purged cross-validation\n\n"
        md += "cpcv:\(cv.groups),\(cv.testGroups) with a purge of \(cv.purge) and an embargo of \(cv.embargo) bars: "
            + "\(cv.splits.count) splits, \(cv.paths.count) recombined paths (every split in `cv_splits.csv`). "
        guard let r = summary.cpcv else { return md + "Not computed: fewer than 2 combinations ran.\n" }
        let annual = periodsPerYear.squareRoot()
        let sharpes = GSL.sorted(r.pathSharpes.filter(\.isFinite).map { $0 * annual })
        md += "Each split chose the combination with the best per-bar Sharpe ratio on its train bars (from each "
            + "combination's run over the whole window, as PBO's blocks are); each path strings together the "
            + "chosen combinations' returns on the groups it takes from the splits that tested them.\n\n"
        md += "| | |\n|---|---:|\n"
        if !sharpes.isEmpty {
            md += "| out-of-sample Sharpe per path (annualised): min, median, max | \(Format.fixed(sharpes.first!, 3)), "
                + "\(Format.fixed(GSL.quantile(sorted: sharpes, 0.5), 3)), \(Format.fixed(sharpes.last!, 3)) |\n"
        }
        md += "| paths with a positive Sharpe | \(Format.percent(r.positiveShare)) |\n"
        md += "| PBO across the splits | \(Format.percent(r.pbo)) |\n"
        md += "| distinct combinations chosen | \(Set(r.chosen.compactMap { $0 }).count) of \(r.chosen.count) splits |\n"
        return md
    }
}
