import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// A run written out for reading and for pandas: `report.md` with its manifest, tables and
/// charts, `report.html` (the interactive page), SVG charts beside them, and tidy CSV/JSON files.
public struct Report {
    public var strategy: String
    /// Every strategy parameter, defaults included.
    public var parameters: [RunParameter]
    /// The rules of an expression strategy as written (see `RunManifest.rules`).
    public var rules: [RunParameter] = []
    /// Every execution option, defaults included (`ExecutionConfig.parameters`).
    public var execution: [RunParameter]
    /// The timeframe of the candles (stored or resampled to).
    public var timeframe: String?
    /// The command line as typed (`["bt", "run", ...]`).
    public var commandLine: [String]
    public var result: BacktestResult
    public var stats: Stats
    /// The result's drawdowns as the statistics computed them.
    public var drawdowns: DrawdownEpisodes {
        stats.drawdowns ?? DrawdownEpisodes(result)
    }
    /// How the result's trades ended, as the statistics counted them.
    public var exits: ExitSummary {
        stats.exits ?? ExitSummary(result.trades)
    }
    public var costs: CostSensitivity?
    /// The run's Monte Carlo, when one was asked for (`MonteCarlo`).
    public var monteCarlo: MonteCarlo?
    /// Size of the text charts in `report.md`.
    public var chartSize = ChartSize(width: 100, height: 28)
    /// Trades shown at each end of the trade table.
    public var tradesShown = 5
    /// Indicators drawn over the candles in `report.html` and `price.svg` (the strategy's own,
    /// `Strategy.indicators`), computed over the run's candles (over `history` when it has one).
    public var indicators: [IndicatorSpec] = []
    /// Every bar the run read when it ran on a window (`CandleWindow.series`): the result's
    /// candles are its end, the bars before them the indicators' warm-up. nil: none.
    public var history: CandleSeries?
    /// The other series the rules read with `@` (`OtherSeriesReader.read`), listed by the manifest.
    public var otherSeries: [(name: String, candles: CandleSeries)] = []

    /// - Parameter timeframe: nil takes the candles' own.
    public init(strategy: String, parameters: [RunParameter], execution: [RunParameter], timeframe: String? = nil,
                commandLine: [String], result: BacktestResult, stats: Stats, costs: CostSensitivity?) {
        self.strategy = strategy; self.parameters = parameters; self.execution = execution
        self.timeframe = timeframe ?? result.candles.timeframe?.rawValue
        self.commandLine = commandLine; self.result = result; self.stats = stats; self.costs = costs
    }

    /// `notebooks-out/<strategy>-<symbol>-<YYYYMMDDTHHMMSSZ>` with both names sanitised.
    public static func defaultDirectory(strategy: String, symbol: String, at time: Int64) -> String {
        OutputDirectory.timestamped([strategy, symbol], at: time)
    }

    /// The files `write` creates, in order.
    public static let files = ["report.md", "report.html", "equity.svg", "price.svg", "equity.csv", "trades.csv", "fills.csv",
                               "stats.csv", "stats.json"]

    /// Throws unless `directory` can take a report: it does not exist, or it is a directory and
    /// `force` is true. Call it before a long run so a refusal costs nothing.
    /// - Throws: `InputError` naming the directory.
    public static func checkDestination(_ directory: String, force: Bool) throws {
        try OutputDirectory.check(directory, force: force, what: "report directory")
    }

    /// The run's manifest: strategy, data, periods per year, parameters, execution options.
    /// - Complexity: O(n) in the bars (it hashes them); build it once per output.
    public var manifest: RunManifest {
        var data = RunManifest.Data(result.candles, timeframe: timeframe)
        if let history, history.count > result.candles.count {
            (data.warmUpBars, data.warmUpFirst) = (history.count - result.candles.count, history.time[0])
        }
        var m = RunManifest(commandLine: commandLine, strategy: strategy, data: data,
                            periodsPerYear: stats.periodsPerYear, parameters: parameters, execution: execution)
        m.rules = rules
        m.list(otherSeries: otherSeries)
        return m
    }

    /// Writes every file into a staging folder beside `directory` and renames it into place
    /// (replacing an existing report with `force`), so a failure leaves nothing half-written.
    /// - Throws: `InputError` when `directory` exists and `force` is false, is a file, or holds
    ///   files bt did not write; `InternalError` when a file cannot be written.
    /// - Returns: the paths written.
    @discardableResult
    public func write(to directory: String, force: Bool = false) throws -> [String] {
        let staged = try OutputDirectory.stage(directory, force: force, what: "report directory")
        let manifest = self.manifest
        let indicators = chartIndicators
        let paths = try ReportFiles.write([
            .init("report.md") { try markdown(manifest) },
            .init("report.html") { html(manifest, indicators: indicators) },
            .init("equity.svg") { SVGChart.equity(result, drawdowns: drawdowns, title: "Equity and drawdown: \(title)") },
            .init("price.svg") { SVGChart.price(result.candles, trades: result.trades, indicators: indicators, title: title) },
            .init("equity.csv", pieces: { try equityCSV(append: $0) }),
            .init("trades.csv", bytes: tradesCSVBytes),
            .init("fills.csv", bytes: fillsCSVBytes),
            .init("stats.csv", text: statsCSV),
            .init("stats.json") { json(manifest).serialized() + "\n" },
        ], into: staged, directory: directory)
        try staged.commit()
        return paths
    }

    // MARK: - Machine files

    /// The one JSON object of a run, printed by `bt run --json` and written as `stats.json`:
    /// `{"strategy", "symbol", "timeframe", "params", "execution", "bars", "first", "last",
    /// "candles_sha256", "bt_version", "warnings", "stats", "cost_split", "spread_estimate", "costs"}`
    /// (`spread_estimate`: `spreadJSON`). `warnings` is
    /// an array of `{"kind", "message"}` (empty for a run without surprises); when more than half
    /// of the orders were rejected, `"mostly_rejected": {"rejected", "orders", "message"}` follows
    /// it (absent otherwise, so other runs' objects are unchanged). `stats` holds every
    /// `Stats` value by machine name (fractions, ISO-8601 times, null when undefined) plus the
    /// engine's counters `initial_cash` (then, for an inverse contract's run kept in its coin,
    /// `currency`: `"BTC"`; absent otherwise), `fills`, `avg_slippage` (a fraction),
    /// `rejected_by_reason`, `ambiguous_exit_bars` and `exits` (the trades by how they ended:
    /// every `ExitKind` by its name, in `ExitKind` order, 0 for the kinds that did not happen,
    /// so `.stats.exits.stop` is always a count); `cost_split` is
    /// `{"gross_pnl", "net_pnl", "gross_return", "net_return", "fees", "spread", "impact",
    /// "fees_share", "spread_share", "impact_share"}` (cash, fractions; shares of gross PnL, null
    /// when gross PnL is 0), with "borrow" and "borrow_share" after them when the run charged
    /// borrow (`BacktestResult.borrowPaid`); `costs` is the cost-sensitivity table or null when skipped;
    /// `monte_carlo` (`monteCarloJSON`) follows when one was run.
    public var json: JSONValue { json(manifest) }

    func json(_ manifest: RunManifest) -> JSONValue {
        var costsJSON = JSONValue.null
        if let costs {
            let rows = costs.rows.map { r -> JSONValue in
                ["multiplier": .number(r.multiplier), "total_return": .number(r.totalReturn), "sharpe": .number(r.sharpe),
                 "max_drawdown": .number(r.maxDrawdown), "fees_paid": .number(r.feesPaid), "trades": .int(r.trades)]
            }
            costsJSON = ["rows": .array(rows), "break_even_fee_bps": costs.breakEvenFeeBps.map { .number($0) } ?? .null]
        }
        let split = result.costSplit
        var splitJSON: JSONValue = [
            "gross_pnl": .number(split.grossPnL), "net_pnl": .number(split.netPnL),
            "gross_return": .number(split.grossReturn), "net_return": .number(split.netReturn),
            "fees": .number(split.fees), "spread": .number(split.spread), "impact": .number(split.impact),
            "fees_share": .number(split.share(split.fees)), "spread_share": .number(split.share(split.spread)),
            "impact_share": .number(split.share(split.impact)),
        ]
        if result.borrowPaid != nil, case .object(let fields) = splitJSON {
            splitJSON = .object(fields + [(key: "borrow", value: .number(split.borrow)),
                                          (key: "borrow_share", value: .number(split.share(split.borrow)))])
        }
        if result.account != nil, case .object(let fields) = splitJSON {
            splitJSON = .object(fields + [(key: "interest", value: .number(split.interest)),
                                          (key: "interest_share", value: .number(split.share(split.interest))),
                                          (key: "funding", value: .number(split.funding)),
                                          (key: "funding_share", value: .number(split.share(split.funding)))])
        }
        let warnings = JSONValue.array(result.warnings.map(\.json))
        var mostlyRejected: [(key: String, value: JSONValue)] = []
        if let rejectionHeadline {
            mostlyRejected = [(key: "mostly_rejected", value: [
                "rejected": .int(result.rejected.count), "orders": .int(result.orders), "message": .string(rejectionHeadline)])]
        }
        return .object(manifest.jsonMembers + [(key: "warnings", value: warnings)] + mostlyRejected
                       + [(key: "stats", value: Self.statsJSON(stats, of: result)), (key: "cost_split", value: splitJSON),
                          (key: "spread_estimate", value: spreadJSON), (key: "costs", value: costsJSON)]
                       + (monteCarloJSON.map { [(key: "monte_carlo", value: $0)] } ?? []))
    }

    /// The "stats" object of a run's JSON (`json`): every statistic of `stats` by machine name,
    /// then the engine's counters of `result`. Made without the rest of the report (no
    /// manifest, so no hash of the bars), for a caller that reads only the statistics.
    public static func statsJSON(_ stats: Stats, of result: BacktestResult) -> JSONValue {
        let reasons = Dictionary(grouping: result.rejected, by: \.reason).mapValues(\.count)
            .sorted { $0.key.rawValue < $1.key.rawValue }.map { (key: $0.key.rawValue, value: JSONValue.int($0.value)) }
        let exits = stats.exits ?? ExitSummary(result.trades)
        return .object(stats.all.map { (key: $0.stat.name, value: $0.stat.json($0.value)) } + [
            (key: "initial_cash", value: .number(result.initialCash)),
        ] + (result.account?.currency.map { [(key: "currency", value: JSONValue.string($0))] } ?? []) + [
            (key: "fills", value: .int(result.fills.count)),
            (key: "avg_slippage", value: .number(stats[.avgSlippageBps] / 10_000)),
            (key: "rejected_by_reason", value: .object(reasons)),
            (key: "ambiguous_exit_bars", value: .int(result.ambiguousExitBars)),
            (key: "exits", value: .object(exits.rows.map { (key: $0.kind.rawValue, value: .int($0.trades)) })),
        ])
    }

    // MARK: - Human tables

    /// The tool whose defaults and rules the run reproduced (`--conventions`), nil for bt's own.
    public var conventions: String? { execution.conventions }

    /// Two lines for a terminal: the strategy with its parameters, symbol, timeframe, data range
    /// and bar count; then the execution options that differ most between runs.
    public var headline: String {
        let c = result.candles
        var head = strategy
        if !parameters.isEmpty { head += " " + parameters.map { "\($0.name)=\($0.text)" }.joined(separator: " ") }
        head += " on \(c.symbol)"
        if let timeframe { head += " \(timeframe)" }
        if let first = c.time.first, let last = c.time.last {
            let warmUp = (history?.count ?? 0) - c.count
            head += ", \(UTCTime.iso(first)) to \(UTCTime.iso(last)) (\(c.count) bars"
                + (warmUp > 0 ? "; indicators warmed up on the \(warmUp) bars from \(UTCTime.iso(history!.time[0])))" : ")")
        }
        let shown = ["fill", "depth", "cost_model", "profile", "slippage_bps", "size", "fee_bps", "cash", "short", "sl", "tp",
                     "trail", "trail_from", "breakeven", "exit_after", "entry_limit", "entry_stop", "short_entry_limit", "short_entry_stop",
                     "order_bars", "pyramid", "allow_unprotected"]
        let limitOrStop = execution.contains { ["entry_limit", "entry_stop"].contains($0.name) && $0.value != .none }
        // One entry per position says nothing; order bars only matter to limit and stop entries.
        func isDefault(_ p: RunParameter) -> Bool {
            switch p.name {
            case "pyramid": return p.value == .int(1)
            case "order_bars": return !limitOrStop
            default: return false
            }
        }
        let options = execution.filter { shown.contains($0.name) && $0.value != .none && $0.value != .bool(false) && !isDefault($0) }
            .map { $0.name == "allow_unprotected" ? "unprotected entries allowed" : $0.value == .bool(true) ? $0.name : "\($0.name) \($0.text)" }
        // A margin account says so first: instrument, leverage, margin mode, maintenance rate.
        let account = result.account.map { ["account: " + $0.description] } ?? []
        // A preset says so first, so its figures are not taken for bt's own defaults'.
        let conventions = conventions.map { ["conventions: " + $0] } ?? []
        return head + "\n" + (conventions + account + options).joined(separator: ", ") + "\n"
    }

    /// The first line of a run whose orders were mostly rejected (`BacktestResult.mostlyRejected`),
    /// nil otherwise: the statistics after it describe a run that hardly traded.
    public var rejectionHeadline: String? {
        guard result.mostlyRejected else { return nil }
        let reasons = Dictionary(grouping: result.rejected, by: \.reason).mapValues(\.count)
            .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        return "most orders were rejected: \(result.rejected.count) of \(result.orders) (" + reasons.joined(separator: ", ")
            + "), so the results below do not measure the strategy"
    }

    /// The run's warnings, one line each (`warning: ...`), for the top of the text output; the
    /// rejections warning is left to `rejectionHeadline` when that says more.
    public var warningLines: [String] {
        result.warnings.filter { !(result.mostlyRejected && $0.kind == .rejections) }.map { "warning: " + $0.message }
    }

    /// Whether cash figures are in a coin (an inverse contract's account): shown with eight decimals.
    var inCoin: Bool { result.account?.currency != nil }

    /// Gross and net return and what trading cost, for humans (header first): each cost in cash
    /// (in the coin, its name heading the column, for an inverse contract) and as a share of
    /// gross PnL (borrow only for a run that charged it).
    public var costSplitRows: [[String]] {
        let split = result.costSplit
        // Values that print as zero print without a sign (rounding leaves 1e-13 of impact).
        func unsigned(_ text: String) -> String { text.hasPrefix("-") && text.allSatisfy { "-0.%".contains($0) } ? String(text.dropFirst()) : text }
        func cash(_ v: Double) -> String { unsigned(Stat.Unit.cash.formatted(v, coin: inCoin)) }
        func share(_ v: Double) -> String { unsigned(Stat.Unit.fraction.formatted(split.share(v))) }
        func pct(_ v: Double) -> String { unsigned(Stat.Unit.fraction.formatted(v)) }
        return [["pnl", result.account?.currency ?? "cash", "return", "of gross pnl"],
                ["gross (reference prices, no fees)", cash(split.grossPnL), pct(split.grossReturn), ""],
                ["- fees", cash(split.fees), "", share(split.fees)],
                ["- spread", cash(split.spread), "", share(split.spread)],
                ["- impact", cash(split.impact), "", share(split.impact)]]
            + (result.borrowPaid == nil ? [] : [["- borrow", cash(split.borrow), "", share(split.borrow)]])
            + (result.account == nil ? [] : [["- interest", cash(split.interest), "", share(split.interest)],
                                             ["- funding", cash(split.funding), "", share(split.funding)]])
            + [["net", cash(split.netPnL), pct(split.netReturn), ""]]
    }

    /// Engine facts the stats table does not show: rejections by reason, and bars where both the
    /// stop-loss and the take-profit could trigger (counted, the worse one taken).
    public var notes: [String] {
        var out = [String]()
        let reasons = Dictionary(grouping: result.rejected, by: \.reason).mapValues(\.count)
        if !reasons.isEmpty {
            out.append("rejected orders by reason: " + reasons.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
        }
        let stops = execution.filter { ($0.name == "sl" || $0.name == "tp") && $0.value != .none }.count
        if stops == 2 || result.ambiguousExitBars > 0 {
            out.append("SL/TP ambiguous bars: \(result.ambiguousExitBars) (the worse exit was taken)")
        }
        return out
    }

    /// `exits: 12 signal, 3 stop, 1 end`: how the trades ended, for the text summary; nil
    /// without trades.
    public var exitsLine: String? {
        exits.total == 0 ? nil : "exits: " + exits.text
    }

    /// The trades by how they ended, for humans (header first): the kinds that happened, with
    /// their trades, share of all trades and average return (percentages); nil without trades.
    public var exitRows: [[String]]? {
        guard exits.total > 0 else { return nil }
        return [["exit kind", "trades", "share", "avg return"]] + exits.present.map { row in
            [row.kind.rawValue, String(row.trades), Format.percent(row.share), Format.percent(row.averageReturn)]
        }
    }

    /// The statistics table for humans (header first): label with unit, formatted value
    /// (percentages for fractions).
    public var statRows: [[String]] {
        [["statistic", "value"]] + stats.all.map { [$0.stat.label, $0.stat.formatted($0.value, coin: inCoin)] }
    }

    /// The cost-sensitivity table for humans (header first), nil when it was skipped.
    public var costRows: [[String]]? {
        guard let costs else { return nil }
        func pct(_ v: Double) -> String { Stat.Unit.fraction.formatted(v) }
        return [["costs", "total return", "sharpe", "max drawdown", "fees paid", "trades"]] + costs.rows.map { r in
            [CSV.number(r.multiplier) + "x", pct(r.totalReturn), Stat.Unit.ratio.formatted(r.sharpe), pct(r.maxDrawdown),
             Stat.Unit.cash.formatted(r.feesPaid, coin: inCoin), String(r.trades)]
        }
    }

    /// The break-even fee in words.
    public var breakEvenText: String? {
        guard let costs else { return nil }
        return "Break-even fee: " + (costs.breakEvenFeeBps.map { String(format: "%.2f bps per fill", $0) }
                                     ?? "none (the run loses money without fees, or makes money at any fee up to 100%)")
    }

    func statsCSV() -> String {
        var s = CSV.row(["name", "value"])
        for (stat, value) in stats.all {
            s += CSV.row([stat.name, stat.unit == .time ? (value.isFinite ? UTCTime.iso(Int64(value)) : "") : CSV.number(value)])
        }
        return s
    }

    /// `equity.csv`: one row per bar (time, cash, position, equity, drawdown).
    func equityCSVBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        equityCSV { bytes += $0 }
        return bytes
    }

    /// `equityCSVBytes` handed to `append` in pieces of `rowsPerPiece` rows, so the file (86 MB
    /// for a million bars) is written without being whole in memory.
    func equityCSV(rowsPerPiece: Int = 65_536, append: ([UInt8]) throws -> Void) rethrows {
        let dd = drawdowns.curve
        var csv = CSVWriter(header: ["time", "cash", "position", "equity", "drawdown"],
                            reservingRows: min(result.equity.count, rowsPerPiece), bytesPerRow: 64)
        for i in result.equity.indices {
            csv.time(result.candles.time[i])
            csv.number(result.cash[i])
            csv.number(result.position[i])
            csv.number(result.equity[i])
            csv.number(dd[i])
            csv.endRow()
            if (i + 1) % rowsPerPiece == 0 { try append(csv.takeBytes()) }
        }
        try append(csv.takeBytes())
    }

    /// `trades.csv`: one row per trade, open ones included; a run that charged borrow
    /// (`BacktestResult.borrowPaid` not nil) ends each row with the trade's `borrow`, and a
    /// margin account's (`BacktestResult.account` not nil) with its `interest` and `funding`.
    func tradesCSVBytes() -> [UInt8] {
        let borrows = result.borrowPaid != nil, margin = result.account != nil
        var csv = CSVWriter(header: ["side", "entry_time", "exit_time", "entry_index", "exit_index", "bars_held", "quantity",
                                     "entry_price", "exit_price", "slippage_bps", "fees", "pnl", "return", "is_open", "exit_kind"]
                                     + (borrows ? ["borrow"] : []) + (margin ? ["interest", "funding"] : []))
        for t in result.trades {
            csv.text(t.side.rawValue)
            csv.time(t.entryTime)
            csv.time(t.exitTime)
            csv.integer(t.entryIndex)
            csv.integer(t.exitIndex)
            csv.integer(t.barsHeld)
            csv.number(t.quantity)
            csv.number(t.entryPrice)
            csv.number(t.exitPrice)
            csv.number(t.slippageBps)
            csv.number(t.fees)
            csv.number(t.pnl)
            csv.number(t.returnFraction)
            csv.bool(t.isOpen)
            csv.literal(t.exitKind.rawValue)
            if borrows { csv.number(t.borrow) }
            if margin {
                csv.number(t.interest)
                csv.number(t.funding)
            }
            csv.endRow()
        }
        return csv.bytes
    }

    /// `fills.csv`: one row per fill attempt of the engine.
    func fillsCSVBytes() -> [UInt8] {
        var csv = CSVWriter(header: ["time", "index", "side", "reference_price", "vwap", "slippage_bps", "quantity_asked",
                                     "quantity_filled", "fee", "partial"],
                            reservingRows: result.fills.count, bytesPerRow: 140)
        for f in result.fills {
            csv.time(f.time)
            csv.integer(f.index)
            csv.text(f.side.rawValue)
            csv.number(f.referencePrice)
            csv.number(f.vwap)
            csv.number(f.slippageBps)
            csv.number(f.quantityAsked)
            csv.number(f.quantityFilled)
            csv.number(f.fee)
            csv.bool(f.isPartial)
            csv.endRow()
        }
        return csv.bytes
    }

    // MARK: - Markdown

    func markdown() throws -> String { try markdown(manifest) }

    /// `### Exits by kind` and its table (`exitRows`), for the statistics section; empty
    /// without trades.
    var exitsMarkdown: String {
        guard let rows = exitRows else { return "" }
        return "\n### Exits by kind\n\nHow the trades ended (open trades as `end`); the average is of trade returns.\n\n"
            + "| " + rows[0].joined(separator: " | ") + " |\n|---|---:|---:|---:|\n"
            + rows.dropFirst().map { "| " + $0.joined(separator: " | ") + " |\n" }.joined()
    }

    func markdown(_ manifest: RunManifest) throws -> String {
        let c = result.candles
        var md = "# \(Markdown.cell(strategy)) on \(Markdown.cell(c.symbol))\n\n"
            + (conventions.map { "Conventions: \(Markdown.cell($0)) (that tool's defaults and rules, not bt's).\n\n" } ?? "")
            + "## Run\n\n" + manifest.markdown

        if !result.warnings.isEmpty {
            md += "\n## Warnings\n\n" + result.warnings.map { "- " + Markdown.cell($0.message) + "\n" }.joined()
        }

        md += "\n## Gross and net\n\nWhat the same fills would have made at their reference prices without fees, "
            + "and what fees, the half spread and impact (the rest of the slippage) took.\n\n"
        let split = costSplitRows
        md += "| " + split[0].joined(separator: " | ") + " |\n|---|---:|---:|---:|\n"
        for row in split.dropFirst() { md += "| " + row.joined(separator: " | ") + " |\n" }

        md += "\n## Statistics\n\n| statistic | value |\n|---|---:|\n"
        for (stat, value) in stats.all { md += "| \(stat.label) | \(stat.formatted(value, coin: inCoin)) |\n" }
        md += exitsMarkdown
        md += accountMarkdown

        if let rows = costRows, let breakEven = breakEvenText {
            md += "\n## Cost sensitivity\n\nThe same run with fees and depth impact scaled.\n\n"
            md += "| " + rows[0].joined(separator: " | ") + " |\n|---:|---:|---:|---:|---:|---:|\n"
            for row in rows.dropFirst() { md += "| " + row.joined(separator: " | ") + " |\n" }
            md += "\n" + breakEven + "\n"
        }

        md += monteCarloMarkdown
        md += "\n## Trades\n\n"
        let trades = result.trades
        if trades.isEmpty {
            md += "No trades.\n"
        } else {
            md += "| # | side | entry | exit | exit kind | bars | entry price | exit price | pnl | return |\n"
                + "|---:|---|---|---|---|---:|---:|---:|---:|---:|\n"
            let shown: [Int] = trades.count <= 2 * tradesShown ? Array(trades.indices)
                : Array(0..<tradesShown) + Array((trades.count - tradesShown)..<trades.count)
            for (k, i) in shown.enumerated() {
                if k == tradesShown && trades.count > 2 * tradesShown { md += "| ... | | | | | | | | | |\n" }
                let t = trades[i]
                md += "| \(i + 1) | \(t.side.rawValue) | \(UTCTime.iso(t.entryTime)) | \(UTCTime.iso(t.exitTime))\(t.isOpen ? " (open)" : "") | \(t.exitKind.rawValue) | \(t.barsHeld) | "
                    + "\(Format.fixed(t.entryPrice, 4)) | \(Format.fixed(t.exitPrice, 4)) | \(Format.fixed(t.pnl, 2)) | \(Format.percent(t.returnFraction)) |\n"
            }
            md += "\n\(trades.count) trades in all; every one is in `trades.csv`.\n"
        }

        md += "\n## Charts\n\n![Equity and drawdown](equity.svg)\n\n![Price with trades](price.svg)\n\n"
        md += Markdown.fenced(chart: try EquityChart.drawing(time: c.time, equity: result.equity, initial: result.initialCash,
                                                             drawdown: drawdowns.curve, size: chartSize)) + "\n"
        if !c.isEmpty {
            md += Markdown.fenced(chart: try CandleChart.drawing(c, size: chartSize))
        }
        // Bars held flat return exactly 0 and would bury the distribution: only bars that end
        // in a position, or that closed one, are counted.
        let returns = ReturnStats.returns(equity: result.equity, initial: result.initialCash)
        let held = returns.indices.filter { result.position[$0] != 0 || ($0 > 0 && result.position[$0 - 1] != 0) }.map { returns[$0] }
        if held.count > 1 {
            md += "\n" + Markdown.fenced(try HistogramChart.render(held, size: ChartSize(width: chartSize.width, height: 14),
                                                                 title: "Per-bar returns in the market"))
        }
        md += "\nFiles: `equity.csv` (time, cash, position, equity, drawdown), `trades.csv`, `fills.csv`, `stats.csv`, `stats.json`.\n"
        return md
    }

}

extension Array where Element == RunParameter {
    /// The tool whose defaults and rules these execution options reproduce (the `conventions`
    /// parameter), nil for bt's own: what a run's, sweep's or screen's headline says first.
    public var conventions: String? { first { $0.name == "conventions" }?.text }
}
