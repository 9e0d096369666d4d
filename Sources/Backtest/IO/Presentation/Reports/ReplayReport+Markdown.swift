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
        for (name, value) in settingRows(result, setup: setup, settings: settings) { md += "| \(name) | \(value) |\n" }

        md += "\n## Statistics\n\nAs in `stats.json`; PnL is cash plus the position marked at the final mid.\n\n"
        md += "| statistic | value |\n|---|---:|\n"
        // `json`'s statistics run from `pnl` to `events`; the settings that follow have their table.
        if case .object(let fields) = json(result, symbol: setup.symbol, settings: settings),
           let first = fields.firstIndex(where: { $0.key == "pnl" }), let last = fields.firstIndex(where: { $0.key == "events" }) {
            for (key, value) in fields[first...last] {
                let fraction = fractionKeys.contains(key)
                md += "| \(key)\(fraction ? " [%]" : "") | \(statisticText(value, fraction: fraction)) |\n"
            }
        }

        md += "\n## Fills\n\n"
        if result.fills.isEmpty {
            md += "No fills.\n"
        } else {
            md += "| side | fills | maker fills | quantity | notional | fees |\n|---|---:|---:|---:|---:|---:|\n"
            let sides: [(String, [ReplayFill])] = [("buy", result.fills.filter { $0.side == .buy }),
                                                   ("sell", result.fills.filter { $0.side == .sell }), ("all", result.fills)]
            for (name, fills) in sides {
                let quantity = fills.reduce(0) { $0 + $1.quantity }, notional = fills.reduce(0) { $0 + $1.price * $1.quantity }
                md += "| \(name) | \(fills.count) | \(fills.filter(\.maker).count) | \(NumberText.shortest(quantity)) | "
                    + "\(NumberText.shortest(notional)) | \(NumberText.shortest(fills.reduce(0) { $0 + $1.fee })) |\n"
            }
            md += "\nMaker share \(Format.percent(result.makerShare)) (quotes are post-only: every fill rests first).\n"
        }
        md += "\nEvery fill, each partial piece its own row, is in [fills.csv](fills.csv) (local and exchange times, "
            + "side, price, quantity, liquidity, queue ahead, latencies, fee, order); the statistics in `stats.json`.\n"
        return md
    }

    /// The settings table's rows, escaped: names are bt's, values the user's (through
    /// `Markdown.cell`, expressions through `Markdown.code`).
    private static func settingRows(_ result: ReplayResult, setup: Setup, settings: ReplaySettings) -> [(String, String)] {
        func ms(_ ns: Int64) -> String { NumberText.shortest(Double(ns) / 1e6) + " ms" }
        let latency: String = switch settings.latency.model {
        case .constant(let entry, let response): "constant: entry \(ms(entry)), response \(ms(response))"
        case .interpolated: "interpolated from " + Markdown.code(setup.latencyFile ?? "a latency file") + " (each fill's in fills.csv)"
        case .feed(let feed, let table):
            "from the recorded feed latency: \(NumberText.shortest(feed.multiplier)) x feed + \(ms(feed.offsetNs)), "
                + "\(table.rows.count) rows (each fill's in fills.csv)"
        }
        let range = UTCTime.isoMs(result.firstMs) + " to " + UTCTime.isoMs(result.lastMs)
        return [
            ("symbol", Markdown.cell(setup.symbol)),
            ("events", Markdown.cell(range) + " (\(result.events) read, book-building ones before the start included)"),
            ("every", ms(settings.everyNs)),
            ("bid quote", setup.quoteBid.map(Markdown.code) ?? "none"),
            ("ask quote", setup.quoteAsk.map(Markdown.code) ?? "none"),
            ("quote size", NumberText.shortest(settings.quoteSize)),
            ("max position", NumberText.shortest(settings.maxPosition)),
            ("latency", latency),
            ("queue", settings.queue.name),
            ("fills model", settings.fills.name),
            ("maker fee", NumberText.shortest(settings.makerBps) + " bps"),
            ("lot", NumberText.shortest(settings.lot)),
        ]
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
