import BacktestAnalysis
import BacktestCore
import Foundation

extension Report {
    /// The strategy's indicators computed over the run's candles; a spec the candles are too
    /// short for is left out (the run itself could not have read it either).
    var chartIndicators: [ChartIndicator] {
        let bars = result.candles.count
        return indicators.compactMap { spec in
            guard let history, history.count > bars else { return try? ChartIndicator(spec, on: result.candles) }
            return (try? ChartIndicator(spec, on: history))?.suffix(bars)
        }
    }

    /// `report.html`: the interactive page of the run (candles, volume, indicators, trades and
    /// fills; equity with buy and hold, drawdown, per-trade P/L; statistics and cost tables).
    public func html() -> String { html(manifest, indicators: chartIndicators) }

    func html(_ manifest: RunManifest, indicators: [ChartIndicator]) -> String {
        PageData.render(pageData(manifest, indicators: indicators), title: title, kind: .run)
    }

    /// `ma-cross on GOOG`.
    var title: String { "\(strategy) on \(result.candles.symbol)" }

    /// The page's data object (docs/reference/report-html-schema.md, kind `run`).
    /// - Parameter chart: the chart object; nil draws the result's candles, indicators, equity,
    ///   trades and fills (`PageData.chart`).
    func pageData(_ manifest: RunManifest, indicators: [ChartIndicator], chart: JSONValue? = nil) -> JSONValue {
        var subtitle = PageData.subtitle(result.candles, timeframe: timeframe)
        if !parameters.isEmpty { subtitle.append(parameters.map { "\($0.name)=\($0.text)" }.joined(separator: " ")) }
        if let conventions { subtitle.append("conventions: \(conventions)") }
        var tables: [JSONValue] = []
        if !rules.isEmpty {
            // An expression strategy is its rules: they come first.
            tables.append(PageData.table(id: "rules", title: "Rules", columns: ["rule", "expression"],
                                         rows: rules.map { [$0.name, $0.text] }, align: ["left", "left"]))
        }
        tables.append(PageData.table(id: "stats", title: "Statistics", columns: ["statistic", "value"],
                                     rows: stats.all.map { PageData.statRow($0.stat, $0.value, coin: inCoin) }, align: ["left", "right"], notes: notes))
        tables += accountTables
        if let rows = exitRows {
            tables.append(PageData.table(id: "exits", title: "Exits by kind", columns: rows[0], rows: Array(rows.dropFirst()),
                                         align: ["left", "right", "right", "right"],
                                         notes: ["How the trades ended (open trades as end); the average is of trade returns."]))
        }
        if let costs {
            // Short headings: the table sits in the narrow column beside the chart.
            let rows = costs.rows.map { r in
                [NumberText.shortest(r.multiplier) + "x", Stat.totalReturn.formatted(r.totalReturn), Stat.sharpe.formatted(r.sharpe),
                 Stat.maxDrawdown.formatted(r.maxDrawdown), PageData.formatted(.feesPaid, r.feesPaid, coin: inCoin), String(r.trades)]
            }
            tables.append(PageData.table(id: "costs", title: "Cost sensitivity", columns: ["costs", "return", "Sharpe", "max DD", "fees", "trades"],
                                         rows: rows, align: ["left", "right", "right", "right", "right", "right"],
                                         notes: ["The same run with fees and depth impact scaled."] + (breakEvenText.map { [$0] } ?? [])))
        }
        let sample = chart == nil ? DisplaySample(equity: result.equity) : nil
        if let sample { subtitle.append(sample.note) }
        if let note = monteCarloBandsNote { subtitle.append(note) }
        let chart = addingMonteCarloBands(to: chart ?? PageData.chart(result.candles, timeframe: timeframe, indicators: indicators,
                                                                      run: (result, drawdowns), sample: sample))
        return PageData.page(.run, title: title, subtitle: subtitle, manifest: manifest.plainRows, tables: tables,
                             members: [(key: "chart", value: chart)])
    }
}
