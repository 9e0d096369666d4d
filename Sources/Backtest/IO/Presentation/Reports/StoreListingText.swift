import BacktestCore
import BacktestData

/// What a store holds, as `bt data list` shows it.
package struct StoreListing {
    package var series: [CandleStore.SeriesInfo]
    package var books: [CandleStore.BookInfo]
    package var funding: [FundingInfo]
    package var instruments: [(symbol: String, settings: [Setting: ExecutionValue])]

    package init(_ store: CandleStore) throws {
        (series, books, funding) = (try store.list(), try store.bookList(), try store.fundingList())
        instruments = try store.instrumentList()
    }

    package var isEmpty: Bool { series.isEmpty && books.isEmpty && funding.isEmpty && instruments.isEmpty }
}

/// What `bt data list` and `bt data summary` print: the stored series and books, and the
/// summaries of series, as text tables or JSON (ISO-8601 UTC times, fractions).
package enum StoreListingText {
    /// `{"series": [{"symbol", "timeframe", "first", "last", "bars"}], "books": [{"symbol",
    /// "first", "last", "events"}], "funding": [{"symbol", "first", "last", "rates"}],
    /// "instruments": [{"symbol", and the stored settings as `InstrumentSettingsText.json`}]}`,
    /// "instruments" only when a symbol has some (a store without any lists as before).
    package static func json(_ listing: StoreListing) throws -> JSONValue {
        let s = listing.series.map { s -> JSONValue in
            ["symbol": .string(s.symbol), "timeframe": .string(s.timeframe), "first": .string(UTCTime.iso(s.first)),
             "last": .string(UTCTime.iso(s.last)), "bars": .int(s.bars)]
        }
        let b = listing.books.map { b -> JSONValue in
            ["symbol": .string(b.symbol), "first": .string(UTCTime.isoMs(b.firstMs)), "last": .string(UTCTime.isoMs(b.lastMs)),
             "events": .int(b.events)]
        }
        let f = listing.funding.map { f -> JSONValue in
            ["symbol": .string(f.symbol), "first": .string(UTCTime.isoMs(f.firstMs)), "last": .string(UTCTime.isoMs(f.lastMs)),
             "rates": .int(f.count)]
        }
        let i = try listing.instruments.map { try InstrumentSettingsText.json(symbol: $0.symbol, $0.settings) }
        let listed: JSONValue = ["series": .array(s), "books": .array(b), "funding": .array(f)]
        guard !i.isEmpty, case .object(let members) = listed else { return listed }
        return .object(members + [(key: "instruments", value: .array(i))])
    }

    /// One row per series, then one per book (`book` as its timeframe, its events as its bars),
    /// then one per symbol with funding rates (`funding`, its rates as its bars), then one per
    /// symbol with instrument settings (`instrument`, its kind, else how many settings, as its bars).
    package static func table(_ listing: StoreListing) -> String {
        var rows = [["SYMBOL", "TIMEFRAME", "FIRST", "LAST", "BARS"]]
        for s in listing.series {
            rows.append([s.symbol, s.timeframe, UTCTime.iso(s.first), UTCTime.iso(s.last), String(s.bars)])
        }
        for b in listing.books {
            rows.append([b.symbol, "book", UTCTime.isoMs(b.firstMs), UTCTime.isoMs(b.lastMs), "\(b.events) events"])
        }
        for f in listing.funding {
            rows.append([f.symbol, "funding", UTCTime.isoMs(f.firstMs), UTCTime.isoMs(f.lastMs), "\(f.count) rates"])
        }
        for i in listing.instruments {
            let kind = if case .text(let k)? = i.settings[.instrument] { k } else { "\(i.settings.count) settings" }
            rows.append([i.symbol, "instrument", "-", "-", kind])
        }
        return TextTable.render(rows, rightAligned: [4])
    }

    /// An array of objects, returns as fractions.
    package static func json(_ summaries: [SeriesSummary]) -> JSONValue {
        .array(summaries.map { s -> JSONValue in
            ["symbol": .string(s.symbol), "timeframe": s.timeframe.map { .string($0.rawValue) } ?? .null,
             "bars": .int(s.bars), "first": .string(UTCTime.iso(s.first)), "last": .string(UTCTime.iso(s.last)),
             "first_close": .number(s.firstClose), "last_close": .number(s.lastClose),
             "min_low": .number(s.minLow), "max_high": .number(s.maxHigh),
             "total_return": .number(s.totalReturn), "mean_return": .number(s.meanReturn),
             "return_sd": .number(s.returnStandardDeviation)]
        })
    }

    /// One row per summary, returns in percent.
    package static func table(_ summaries: [SeriesSummary]) -> String {
        var rows = [["SYMBOL", "TF", "BARS", "FIRST", "LAST", "FIRST CLOSE", "LAST CLOSE", "MIN LOW", "MAX HIGH", "TOTAL", "MEAN/BAR",
                     "SD/BAR"]]
        for s in summaries {
            rows.append([
                s.symbol, s.timeframe?.rawValue ?? "?", String(s.bars), UTCTime.isoDate(s.first), UTCTime.isoDate(s.last),
                Format.price(s.firstClose), Format.price(s.lastClose), Format.price(s.minLow), Format.price(s.maxHigh),
                Format.percent(s.totalReturn, digits: 1), Format.percent(s.meanReturn, digits: 3),
                Format.percent(s.returnStandardDeviation, digits: 3),
            ])
        }
        return TextTable.render(rows, rightAligned: Set(2...11).subtracting([3, 4]))
    }
}
