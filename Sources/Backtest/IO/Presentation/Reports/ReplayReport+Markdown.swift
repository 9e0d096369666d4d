import BacktestCore

extension ReplayReport {
    /// What a replay was asked, as typed: the user's text goes into `report.md` escaped.
    package struct Setup {
        package var symbol: String
        package var quoteBid: String?
        package var quoteAsk: String?
        /// The `--latency-file` path, nil for a constant latency.
        package var latencyFile: String?

        package init(symbol: String, quoteBid: String?, quoteAsk: String?, latencyFile: String? = nil) {
            (self.symbol, self.quoteBid, self.quoteAsk, self.latencyFile) = (symbol, quoteBid, quoteAsk, latencyFile)
        }
    }

    /// The statistics of `json` that are shares of a whole: shown as percentages.
    static let fractionKeys: Set<String> = ["maker_share", "quoted_share_bid", "quoted_share_ask"]

    /// `report.md`: the settings (quote expressions as inline code, every user string escaped),
    /// the statistics of `stats.json` (the same numbers: shortest round-trip form, shares as
    /// percentages with two decimals, NaN as n/a), the fills by side and a link to `fills.csv`.
    package static func markdown(_ result: ReplayResult, setup: Setup, settings: ReplaySettings) -> String {
        var md = "# Replay of \(Markdown.cell(setup.symbol))\n\n## Settings\n\n| | |\n|---|---|\n"
        for (name, value) in settingRows(result, setup: setup, settings: settings, text: Markdown.cell, code: Markdown.code) {
            md += "| \(name) | \(value) |\n"
        }

        md += "\n## Statistics\n\nAs in `stats.json`; PnL is cash plus the position marked at the final mid.\n\n"
        md += "| statistic | value |\n|---|---:|\n"
        for (name, value) in statisticRows(result, symbol: setup.symbol, settings: settings) { md += "| \(name) | \(value) |\n" }

        md += "\n## Fills\n\n"
        if result.fills.isEmpty {
            md += "No fills.\n"
        } else {
            md += "| " + fillColumns.joined(separator: " | ") + " |\n|---|---:|---:|---:|---:|---:|\n"
            for row in fillRows(result) { md += "| " + row.joined(separator: " | ") + " |\n" }
            md += "\n\(makerShareNote(result))\n"
        }
        md += "\nEvery fill, each partial piece its own row, is in [fills.csv](fills.csv) (local and exchange times, "
            + "side, price, quantity, liquidity, queue ahead, latencies, fee, order); the statistics in `stats.json`.\n"
        return md
    }

    /// The settings table's rows: names are bt's, values the user's, written through `text`
    /// and expressions (and a file path) through `code` (`Markdown.cell` and `Markdown.code` for
    /// report.md; as they are for report.html, which shows text as text).
    static func settingRows(_ result: ReplayResult, setup: Setup, settings: ReplaySettings,
                            text: (String) -> String, code: (String) -> String) -> [(String, String)] {
        func ms(_ ns: Int64) -> String { NumberText.shortest(Double(ns) / 1e6) + " ms" }
        let latency: String = switch settings.latency.model {
        case .constant(let entry, let response): "constant: entry \(ms(entry)), response \(ms(response))"
        case .interpolated: "interpolated from " + code(setup.latencyFile ?? "a latency file") + " (each fill's in fills.csv)"
        case .feed(let feed, let table):
            "from the recorded feed latency: \(NumberText.shortest(feed.multiplier)) x feed + \(ms(feed.offsetNs)), "
                + "\(table.rows.count) rows (each fill's in fills.csv)"
        }
        let range = UTCTime.isoMs(result.firstMs) + " to " + UTCTime.isoMs(result.lastMs)
        return [
            ("symbol", text(setup.symbol)),
            ("events", text(range) + " (\(result.events) read, book-building ones before the start included)"),
            ("every", ms(settings.everyNs)),
            ("bid quote", setup.quoteBid.map(code) ?? "none"),
            ("ask quote", setup.quoteAsk.map(code) ?? "none"),
            ("quote size", NumberText.shortest(settings.quoteSize)),
            ("max position", NumberText.shortest(settings.maxPosition)),
            ("latency", latency),
            ("queue", settings.queue.name),
            ("fills model", settings.fills.name),
            ("maker fee", NumberText.shortest(settings.makerBps) + " bps"),
            ("lot", NumberText.shortest(settings.lot)),
        ]
    }

    /// The statistics of `json` (`pnl` to `events`; the settings that follow have their table),
    /// each as its key (shares marked ` [%]`) and `statisticText`.
    static func statisticRows(_ result: ReplayResult, symbol: String, settings: ReplaySettings) -> [(String, String)] {
        guard case .object(let fields) = json(result, symbol: symbol, settings: settings),
              let first = fields.firstIndex(where: { $0.key == "pnl" }), let last = fields.firstIndex(where: { $0.key == "events" }) else { return [] }
        return fields[first...last].map { key, value in
            let fraction = fractionKeys.contains(key)
            return (key + (fraction ? " [%]" : ""), statisticText(value, fraction: fraction))
        }
    }

    /// The fills table's headings.
    static let fillColumns = ["side", "fills", "maker fills", "quantity", "notional", "fees"]

    /// The fills by side (buy, sell, all): count, maker fills, quantity, notional and fees.
    static func fillRows(_ result: ReplayResult) -> [[String]] {
        let sides: [(String, [ReplayFill])] = [("buy", result.fills.filter { $0.side == .buy }),
                                               ("sell", result.fills.filter { $0.side == .sell }), ("all", result.fills)]
        return sides.map { name, fills in
            let quantity = fills.reduce(0) { $0 + $1.quantity }, notional = fills.reduce(0) { $0 + $1.price * $1.quantity }
            return [name, String(fills.count), String(fills.filter(\.maker).count), NumberText.shortest(quantity),
                    NumberText.shortest(notional), NumberText.shortest(fills.reduce(0) { $0 + $1.fee })]
        }
    }

    /// `Maker share 100.00% (...)`.
    static func makerShareNote(_ result: ReplayResult) -> String {
        "Maker share \(Format.percent(result.makerShare)) (quotes are post-only: every fill rests first)."
    }

    /// A statistic for the human table: counts whole, shares as percentages, other numbers in
    /// shortest round-trip form (so they read back as `stats.json`'s), NaN as n/a.
    private static func statisticText(_ value: JSONValue, fraction: Bool) -> String {
        switch value {
        case .int(let i): String(i)
        case .number(let v) where !v.isFinite: "n/a"
        case .number(let v): fraction ? Format.percent(v) : NumberText.shortest(v)
        default: Markdown.cell(value.serialized())
        }
    }
}
