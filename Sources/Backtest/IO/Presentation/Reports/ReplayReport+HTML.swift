import BacktestCore

extension ReplayReport {
    /// `report.html`: the page (kind `replay`) of a replay whose steps were traced
    /// (`EventReplay.tracesSteps`): the book's mid, the bid and ask quotes in force and every
    /// fill (side, maker or taker) on one time axis, the position below; beside it the settings,
    /// the statistics and the fills by side as in `report.md`. Nil without a trace.
    package static func html(_ result: ReplayResult, setup: Setup, settings: ReplaySettings) -> String? {
        guard let data = pageData(result, setup: setup, settings: settings) else { return nil }
        return PageData.render(data, title: "Replay of " + setup.symbol, kind: .replay)
    }

    /// The page's data (docs/reference/report-html-schema.md, kind `replay`); nil without a trace.
    static func pageData(_ result: ReplayResult, setup: Setup, settings: ReplaySettings) -> JSONValue? {
        guard let trace = result.trace else { return nil }
        let display = ReplayDisplay(trace: trace, fills: result.fills)
        let range = UTCTime.isoMs(result.firstMs) + " .. " + UTCTime.isoMs(result.lastMs)
        let subtitle = [setup.symbol, range, PageData.grouped(result.events) + " events",
                        PageData.grouped(result.fills.count) + (result.fills.count == 1 ? " fill" : " fills"),
                        display.note(everyNs: settings.everyNs)]
        let plain = { (s: String) in s }
        var tables = [
            PageData.table(id: "settings", title: "Settings", columns: ["setting", "value"],
                           rows: settingRows(result, setup: setup, settings: settings, text: plain, code: plain).map { [$0.0, $0.1] },
                           align: ["left", "left"]),
            PageData.table(id: "stats", title: "Statistics", columns: ["statistic", "value"],
                           rows: statisticRows(result, symbol: setup.symbol, settings: settings).map { [$0.0, $0.1] },
                           align: ["left", "right"], notes: ["As in stats.json; PnL is cash plus the position marked at the final mid."]),
        ]
        if !result.fills.isEmpty {
            tables.append(PageData.table(id: "fills", title: "Fills", columns: fillColumns, rows: fillRows(result),
                                         align: ["left", "right", "right", "right", "right", "right"],
                                         notes: [makerShareNote(result), "Every fill, each partial piece its own row, is in fills.csv."]))
        }
        let fills = result.fills
        let replay: JSONValue = [
            "symbol": .string(setup.symbol),
            "every_ms": .number(Double(settings.everyNs) / 1e6),
            "time": PageData.f64(display.time),
            "mid": PageData.f64(display.values[ReplayTrace.Series.mid.rawValue]),
            "bid_quote": PageData.f64(display.values[ReplayTrace.Series.bidQuote.rawValue]),
            "ask_quote": PageData.f64(display.values[ReplayTrace.Series.askQuote.rawValue]),
            "position": PageData.f64(display.values[ReplayTrace.Series.position.rawValue]),
            "thinned": display.thinned ? ["steps": .int(display.steps), "points": .int(display.time.count)] : .null,
            "fills": [
                "index": .array(display.fillIndex.map { .int($0) }),
                "exchange_time": PageData.f64(fills.map { Double($0.exchangeNs) / 1e9 }),
                "side": .array(fills.map { .string($0.side.rawValue) }),
                "price": PageData.numbers(fills.map(\.price)),
                "quantity": PageData.numbers(fills.map(\.quantity)),
                "liquidity": .array(fills.map { .string($0.maker ? "maker" : "taker") }),
            ],
        ]
        return PageData.page(.replay, title: "Replay of " + setup.symbol, subtitle: subtitle, manifest: [], tables: tables,
                             members: [(key: "replay", value: replay)])
    }
}
