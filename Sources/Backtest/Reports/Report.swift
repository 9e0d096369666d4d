import Foundation

/// A run written out for reading and for pandas: `report.md` with its manifest, tables and
/// charts, SVG charts beside it, and tidy CSV/JSON files.
public struct Report {
    public var strategy: String
    /// Every strategy and engine parameter, defaults included, as shown to the user.
    public var parameters: [(name: String, value: String)]
    /// The command line as typed (`["bt", "run", ...]`).
    public var commandLine: [String]
    public var result: BacktestResult
    public var stats: Stats
    public var costs: CostSensitivity?
    /// Size of the text charts in `report.md`.
    public var chartSize = ChartSize(width: 100, height: 28)
    /// Trades shown at each end of the trade table.
    public var tradesShown = 5

    public init(strategy: String, parameters: [(name: String, value: String)], commandLine: [String],
                result: BacktestResult, stats: Stats, costs: CostSensitivity?) {
        self.strategy = strategy; self.parameters = parameters; self.commandLine = commandLine
        self.result = result; self.stats = stats; self.costs = costs
    }

    /// `notebooks-out/<strategy>-<symbol>-<YYYYMMDDTHHMMSSZ>` with both names sanitised.
    public static func defaultDirectory(strategy: String, symbol: String, at time: Int64) -> String {
        let stamp = UTCTime.iso(time).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return "notebooks-out/\(FileName.sanitized(strategy))-\(FileName.sanitized(symbol))-\(stamp)"
    }

    /// The files `write` creates, in order.
    public static let files = ["report.md", "equity.svg", "price.svg", "equity.csv", "trades.csv", "fills.csv",
                               "stats.csv", "stats.json"]

    /// Writes every file into `directory`, creating it (and its parents).
    /// - Throws: `InputError` when `directory` exists and `force` is false, or is a file;
    ///   `InternalError` when a file cannot be written.
    /// - Returns: the paths written.
    @discardableResult
    public func write(to directory: String, force: Bool = false) throws -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw InputError("exists and is not a directory", at: directory) }
            guard force else { throw InputError("report directory already exists; choose another --out or pass --force", at: directory) }
        }
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot create the report directory (\(error.localizedDescription))", at: directory)
        }
        let contents: [(String, String)] = [
            ("report.md", try markdown()),
            ("equity.svg", SVGChart.equity(time: result.candles.time, equity: result.equity, initial: result.initialCash)),
            ("price.svg", SVGChart.price(result.candles, trades: result.trades)),
            ("equity.csv", equityCSV()),
            ("trades.csv", tradesCSV()),
            ("fills.csv", fillsCSV()),
            ("stats.csv", statsCSV()),
            ("stats.json", statsJSON() + "\n"),
        ]
        var written = [String]()
        for (name, text) in contents {
            let path = (directory as NSString).appendingPathComponent(name)
            do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw InternalError("\(path): cannot write (\(error.localizedDescription))")
            }
            written.append(path)
        }
        return written
    }

    // MARK: - Machine files

    /// The `bt run --json` object: strategy, symbol and every stat.
    public func statsJSON() -> String {
        stats.json(extra: [("strategy", jsonString(strategy)), ("symbol", jsonString(result.candles.symbol))])
    }

    func statsCSV() -> String {
        var s = CSV.row(["name", "value"])
        for stat in stats.all {
            s += CSV.row([stat.name, stat.unit == .time ? (stat.value.isFinite ? UTCTime.iso(Int64(stat.value)) : "") : CSV.number(stat.value)])
        }
        return s
    }

    func equityCSV() -> String {
        let dd = Performance.drawdowns(equity: result.equity, initial: result.initialCash)
        var s = CSV.row(["time", "cash", "position", "equity", "drawdown"])
        for i in result.equity.indices {
            s += CSV.row([UTCTime.iso(result.candles.time[i]), CSV.number(result.cash[i]), CSV.number(result.position[i]),
                          CSV.number(result.equity[i]), CSV.number(dd[i])])
        }
        return s
    }

    func tradesCSV() -> String {
        var s = CSV.row(["side", "entry_time", "exit_time", "entry_index", "exit_index", "bars_held", "quantity",
                         "entry_price", "exit_price", "slippage_bps", "fees", "pnl", "return", "is_open"])
        for t in result.trades {
            s += CSV.row([CSV.text(t.side.rawValue), UTCTime.iso(t.entryTime), UTCTime.iso(t.exitTime), String(t.entryIndex),
                          String(t.exitIndex), String(t.barsHeld), CSV.number(t.quantity), CSV.number(t.entryPrice),
                          CSV.number(t.exitPrice), CSV.number(t.slippageBps), CSV.number(t.fees), CSV.number(t.pnl),
                          CSV.number(t.returnFraction), t.isOpen ? "true" : "false"])
        }
        return s
    }

    func fillsCSV() -> String {
        var s = CSV.row(["time", "index", "side", "reference_price", "vwap", "slippage_bps", "quantity_asked",
                         "quantity_filled", "fee", "partial"])
        for f in result.fills {
            s += CSV.row([UTCTime.iso(f.time), String(f.index), CSV.text(f.side.rawValue), CSV.number(f.referencePrice),
                          CSV.number(f.vwap), CSV.number(f.slippageBps), CSV.number(f.quantityAsked),
                          CSV.number(f.quantityFilled), CSV.number(f.fee), f.isPartial ? "true" : "false"])
        }
        return s
    }

    // MARK: - Markdown

    func markdown() throws -> String {
        let c = result.candles
        var md = "# \(markdownText(strategy)) on \(markdownText(c.symbol))\n\n## Run\n\n| | |\n|---|---|\n"
        let range = c.isEmpty ? "no bars" : "\(UTCTime.iso(c.time[0])) .. \(UTCTime.iso(c.time[c.count - 1]))"
        var manifest: [(String, String)] = [
            ("command", "`" + commandLine.map(shellQuoted).joined(separator: " ").replacingOccurrences(of: "`", with: "'") + "`"),
            ("bt version", btVersion),
            ("symbol", markdownText(c.symbol)),
            ("timeframe", c.timeframe?.rawValue ?? "unknown"),
            ("data range", range),
            ("bars", String(c.count)),
            ("candles sha256", "`\(c.sha256)`"),
            ("periods per year", Stat("periods_per_year", stats.periodsPerYear, .perYear).formatted),
            ("initial cash", String(format: "%.2f", result.initialCash)),
        ]
        manifest += parameters.map { ("parameter " + markdownText($0.name), markdownText($0.value)) }
        for (k, v) in manifest { md += "| \(k) | \(v) |\n" }

        md += "\n## Statistics\n\n| statistic | value |\n|---|---:|\n"
        for s in stats.all { md += "| \(s.label) | \(s.formatted) |\n" }

        if let costs {
            md += "\n## Cost sensitivity\n\nThe same run with fees and depth impact scaled.\n\n"
            md += "| costs | total return | sharpe | max drawdown | fees paid | trades |\n|---:|---:|---:|---:|---:|---:|\n"
            for r in costs.rows {
                md += "| \(CSV.number(r.multiplier))x | " + String(format: "%.2f%% | %.3f | %.2f%% | %.2f | %d |\n",
                                                                   r.totalReturn * 100, r.sharpe, r.maxDrawdown * 100, r.feesPaid, r.trades)
            }
            md += "\nBreak-even fee: " + (costs.breakEvenFeeBps.map { String(format: "%.2f bps per fill", $0) }
                                            ?? "none (the run loses money without fees, or makes money at any fee up to 100%)") + "\n"
        }

        md += "\n## Trades\n\n"
        let trades = result.trades
        if trades.isEmpty {
            md += "No trades.\n"
        } else {
            md += "| # | side | entry | exit | bars | entry price | exit price | pnl | return |\n|---:|---|---|---|---:|---:|---:|---:|---:|\n"
            let shown: [Int] = trades.count <= 2 * tradesShown ? Array(trades.indices)
                : Array(0..<tradesShown) + Array((trades.count - tradesShown)..<trades.count)
            for (k, i) in shown.enumerated() {
                if k == tradesShown && trades.count > 2 * tradesShown { md += "| ... | | | | | | | | |\n" }
                let t = trades[i]
                md += "| \(i + 1) | \(t.side.rawValue) | \(UTCTime.iso(t.entryTime)) | \(UTCTime.iso(t.exitTime))\(t.isOpen ? " (open)" : "") | \(t.barsHeld) | "
                    + String(format: "%.4f | %.4f | %.2f | %.2f%% |\n", t.entryPrice, t.exitPrice, t.pnl, t.returnFraction * 100)
            }
            md += "\n\(trades.count) trades in all; every one is in `trades.csv`.\n"
        }

        md += "\n## Charts\n\n![Equity and drawdown](equity.svg)\n\n![Price with trades](price.svg)\n\n"
        md += "```text\n" + (try EquityChart.render(time: c.time, equity: result.equity, initial: result.initialCash, size: chartSize)) + "```\n\n"
        if !c.isEmpty {
            md += "```text\n" + (try CandleChart.render(c, size: chartSize)) + "```\n"
        }
        md += "\nFiles: `equity.csv` (time, cash, position, equity, drawdown), `trades.csv`, `fills.csv`, `stats.csv`, `stats.json`.\n"
        return md
    }

    private func markdownText(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private func shellQuoted(_ s: String) -> String {
        if !s.isEmpty && s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=,@%+".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
