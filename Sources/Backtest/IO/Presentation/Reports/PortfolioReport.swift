import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// A portfolio run written out like `bt run`'s report: the account's statistics, cost split,
/// cost table and warnings (`run`, a `Report` of `PortfolioResult.account`), plus what only a
/// portfolio has: its symbols, its rules, how full and invested it was, its turnover and each
/// symbol's part of the return and of the costs.
public struct PortfolioReport {
    /// The account as one run: strategy, parameters, rules, execution, statistics, costs.
    public var run: Report
    public var portfolio: PortfolioResult
    public var portfolioStats: PortfolioStats
    /// The portfolio's rules as the manifest records them (`PortfolioRules.parameters`).
    public var rules: [RunParameter]
    /// Symbols shown in the text and markdown tables (largest contribution first, then the
    /// smallest); every symbol is in `symbols.csv` and the JSON.
    /// The clock's rows read before the window as warm-up and the first of them
    /// (`PortfolioUniverse.warmUp`); nil: none.
    public var warmUp: (bars: Int, first: Int64)?
    public var symbolsShown = 10

    public init(run: Report, portfolio: PortfolioResult, portfolioStats: PortfolioStats, rules: [RunParameter]) {
        self.run = run; self.portfolio = portfolio; self.portfolioStats = portfolioStats; self.rules = rules
    }

    /// The files `write` creates, in order.
    public static let files = ["report.md", "report.html", "equity.svg", "exposure.svg", "equity.csv", "positions.csv",
                               "fills.csv", "trades.csv", "symbols.csv", "stats.csv", "stats.json"]

    /// The run's manifest: the symbols (their candles hashed together), the clock's range and
    /// rows, the portfolio's rules, the strategy's parameters and the execution options.
    /// - Complexity: O(bars of all symbols) (it hashes them); build it once per output.
    public var manifest: RunManifest {
        var data = RunManifest.Data(portfolio: portfolio.candles, clock: portfolio.time, timeframe: run.timeframe)
        if let warmUp { (data.warmUpBars, data.warmUpFirst) = (warmUp.bars, warmUp.first) }
        var m = RunManifest(commandLine: run.commandLine, strategy: run.strategy, data: data,
                            periodsPerYear: run.stats.periodsPerYear, parameters: run.parameters, execution: run.execution)
        m.rules = run.rules
        m.list(otherSeries: run.otherSeries)
        m.universe = portfolio.symbols
        m.portfolio = rules
        return m
    }

    /// Writes every file into a staging folder beside `directory` and renames it into place
    /// (replacing an existing report with `force`), as `Report.write` does.
    /// - Throws: `InputError` when `directory` exists and `force` is false, is a file, or holds
    ///   files bt did not write; `InternalError` when a file cannot be written.
    /// - Returns: the paths written.
    @discardableResult
    public func write(to directory: String, force: Bool = false) throws -> [String] {
        let staged = try OutputDirectory.stage(directory, force: force, what: "report directory")
        let manifest = self.manifest
        let paths = try ReportFiles.write([
            .init("report.md") { try markdown(manifest) },
            .init("report.html") { html(manifest) },
            .init("equity.svg") { SVGChart.equity(portfolio.account, drawdowns: run.drawdowns, title: "Equity and drawdown: \(title)") },
            .init("exposure.svg") { SVGChart.exposure(portfolio, title: "Exposure and positions: \(title)", slots: portfolioStats.maxPositions) },
            .init("equity.csv", bytes: equityCSVBytes),
            .init("positions.csv", bytes: positionsCSVBytes),
            .init("fills.csv", text: fillsCSV),
            .init("trades.csv", text: tradesCSV),
            .init("symbols.csv", text: symbolsCSV),
            .init("stats.csv", text: run.statsCSV),
            .init("stats.json") { json(manifest).serialized() + "\n" },
        ], into: staged, directory: directory)
        try staged.commit()
        return paths
    }

    /// `ma-cross portfolio of 3 symbols`.
    var title: String { "\(run.strategy) portfolio of \(portfolio.symbols.count) symbol\(portfolio.symbols.count == 1 ? "" : "s")" }

    // MARK: - JSON

    /// The one JSON object of a portfolio, printed by `bt portfolio --json` and written as
    /// `stats.json`: `bt run`'s object (`Report.json`) with `symbols` (the names) and
    /// `portfolio` (the rules) in the manifest part, then `"figures"` (`PortfolioStats.json`)
    /// and `"contributions"` (`PortfolioStats.symbolsJSON`, one object per symbol).
    public var json: JSONValue { json(manifest) }

    func json(_ manifest: RunManifest) -> JSONValue {
        guard case .object(let members) = run.json(manifest) else { preconditionFailure("a run's JSON is an object") }
        return .object(members + [(key: "figures", value: portfolioStats.json), (key: "contributions", value: portfolioStats.symbolsJSON)])
    }

    // MARK: - Human tables

    /// Two lines for a terminal: strategy, parameters, symbols, clock range and rows; then the
    /// portfolio's rules and the execution options that differ most between runs.
    public var headline: String {
        var head = run.strategy
        if !run.parameters.isEmpty { head += " " + run.parameters.map { "\($0.name)=\($0.text)" }.joined(separator: " ") }
        let names = portfolio.symbols
        head += " portfolio of " + (names.count <= 8 ? names.joined(separator: ",") : "\(names.count) symbols")
        if let timeframe = run.timeframe { head += " \(timeframe)" }
        if let first = portfolio.time.first, let last = portfolio.time.last {
            head += ", \(UTCTime.iso(first)) to \(UTCTime.iso(last)) (\(portfolio.time.count) bars"
                + (warmUp.map { "; indicators warmed up on the \($0.bars) bars from \(UTCTime.iso($0.first)))" } ?? ")")
        }
        let ruleText = rules.filter { $0.value != .none && $0.value != .bool(false) }
            .map { $0.value == .bool(true) ? $0.name : "\($0.name) \($0.text)" }
        let second = run.headline.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
        return head + "\n" + (ruleText + (second.isEmpty ? [] : [second])).joined(separator: ", ") + "\n"
    }

    /// The portfolio's own statistics for humans (header first).
    public var figureRows: [[String]] {
        func pct(_ v: Double) -> String { Stat.Unit.fraction.formatted(v) }
        func num(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "-" }
        return [["portfolio", "value"],
                ["Symbols", String(portfolioStats.symbols)],
                ["Max positions (K)", String(portfolioStats.maxPositions)],
                ["Avg positions held", num(portfolioStats.averagePositions)],
                ["Peak positions held", String(portfolioStats.peakPositions)],
                ["Avg invested [% of equity]", pct(portfolioStats.averagePositionShare)],
                ["Peak invested [% of equity]", pct(portfolioStats.peakPositionShare)],
                ["Turnover (x mean equity)", num(portfolioStats.turnover)],
                ["Turnover per year", num(portfolioStats.annualTurnover)],
                ["Entry signals without a slot", String(portfolioStats.skippedEntries)]]
    }

    /// The symbols shown: the `symbolsShown` largest contributions, then as many of the
    /// smallest; all of them when there are at most twice as many.
    var shownContributions: (best: [PortfolioContribution], worst: [PortfolioContribution]) {
        let sorted = portfolioStats.contributions.sorted { ($0.pnl, $1.symbol) > ($1.pnl, $0.symbol) }
        guard sorted.count > 2 * symbolsShown else { return (sorted, []) }
        return (Array(sorted.prefix(symbolsShown)), Array(sorted.suffix(symbolsShown)))
    }

    /// Per-symbol contribution to return and costs for humans (header first), largest
    /// contribution first; `...` separates the best from the worst when not all are shown.
    /// Symbol names are shown as stored; callers escape them for their medium.
    public var symbolRows: [[String]] {
        func pct(_ v: Double) -> String { Stat.Unit.fraction.formatted(v) }
        func cash(_ v: Double) -> String { Stat.Unit.cash.formatted(v, coin: run.inCoin) }
        func row(_ c: PortfolioContribution) -> [String] {
            [c.symbol, String(c.trades), cash(c.pnl), pct(portfolioStats.contribution(c)), cash(portfolioStats.costs(c)),
             pct(portfolioStats.costShare(c)), pct(portfolioStats.exposure(c))]
        }
        let shown = shownContributions
        var rows = [["symbol", "trades", "pnl", "contribution", "costs", "of costs", "held"]] + shown.best.map(row)
        if !shown.worst.isEmpty { rows += [["...", "", "", "", "", "", ""]] + shown.worst.map(row) }
        return rows
    }
}
