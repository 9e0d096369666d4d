import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// One line per symbol of a multi-symbol sweep: its best combination, the rank statistic, the
/// deflated Sharpe ratio and PBO, or why the symbol could not be swept.
public struct SweepSymbolsSummary {
    public var rank: Stat
    public var outcomes: [(symbol: String, outcome: Result<SweepReport, Error>)]
    /// The timeframe each symbol was swept at, by the name in `outcomes`.
    public var timeframes: [String: String] = [:]

    public init(rank: Stat, outcomes: [(symbol: String, outcome: Result<SweepReport, Error>)]) {
        self.rank = rank
        self.outcomes = outcomes
    }

    struct Line {
        var symbol: String, status: String, best: String, value: Double, dsr: Double, pbo: Double, error: String
    }

    var lines: [Line] {
        outcomes.map { symbol, outcome in
            switch outcome {
            case .failure(let error):
                return Line(symbol: symbol, status: "error", best: "", value: .nan, dsr: .nan, pbo: .nan, error: "\(error)")
            case .success(let r):
                let best = r.summary.best.map { b -> String in
                    let v = r.grid.combination(at: r.combos[b])
                    return r.grid.axes.map { "\($0.name)=\(SweepReport.label(v[$0.name]!))" }.joined(separator: " ")
                } ?? ""
                return Line(symbol: symbol, status: "ok", best: best, value: r.summary.bestStats?[rank] ?? .nan,
                            dsr: r.deflation?.value ?? .nan, pbo: r.summary.overfitting?.pbo ?? .nan, error: "")
            }
        }
    }

    /// `summary.csv`: symbol, timeframe, status, best, the rank statistic, dsr, pbo, error (fractions).
    public func csv() -> String {
        var out = CSV.row(["symbol", "timeframe", "status", "best", rank.name, "deflated_sharpe", "pbo", "error"])
        for l in lines {
            out += CSV.row([CSV.text(l.symbol), timeframes[l.symbol] ?? "", l.status, CSV.text(l.best), CSV.number(l.value), CSV.number(l.dsr),
                            CSV.number(l.pbo), CSV.text(l.error)])
        }
        return out
    }

    public func markdown() -> String {
        var md = "# Sweep summary\n\nEach symbol's full report is in its sub-folder.\n\n"
        md += "| symbol | tf | best | \(rank) | deflated Sharpe | PBO | |\n|---|---|---|---:|---:|---:|---|\n"
        for l in lines {
            md += "| \(Markdown.cell(l.symbol)) | \(timeframes[l.symbol] ?? "") | \(Markdown.cell(l.best)) | \(rank.formatted(l.value)) | "
                + "\(Format.percent(l.dsr)) | "
                + "\(Format.percent(l.pbo, digits: 1)) | "
                + (l.status == "ok" ? "[report](\(FileName.link(l.symbol))/sweep.md)" : "failed: " + Markdown.cell(l.error))
                + " |\n"
        }
        return md
    }

    /// The terminal table.
    public func text() -> String {
        var out = "Sweep summary by \(rank):\n"
        for l in lines {
            if l.status == "ok" {
                out += "  \(l.symbol)\(timeframes[l.symbol].map { " \($0)" } ?? ""): best \(l.best), \(rank) \(rank.formatted(l.value)), deflated Sharpe "
                    + Format.percent(l.dsr) + ", PBO "
                    + Format.percent(l.pbo, digits: 1) + "\n"
            } else {
                out += "  \(l.symbol): failed: \(l.error)\n"
            }
        }
        return out
    }
}
