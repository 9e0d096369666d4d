import BacktestCore

/// What `bt replay` shows of an event-level replay (`EventReplay`): its statistics as text and
/// JSON, its fills as CSV, `report.md` (`ReplayReport+Markdown`) and `report.html`
/// (`ReplayReport+HTML`).
package enum ReplayReport {
    /// The files a replay writes into its output directory.
    package static let files = ["fills.csv", "stats.json", "report.md", "report.html"]

    /// One fill a row: local and exchange times (ISO-8601 UTC), side, price, quantity, maker or
    /// taker, the queue ahead at placement, the entry and response latencies in milliseconds,
    /// the fee and the order's number.
    package static func fillsCSV(_ result: ReplayResult) -> String {
        var out = CSV.row(["local_time", "exchange_time", "side", "price", "quantity", "liquidity", "queue_ahead",
                           "entry_latency_ms", "response_latency_ms", "fee", "order_id"])
        for f in result.fills {
            out += CSV.row([isoNs(f.localNs), isoNs(f.exchangeNs), f.side.rawValue, CSV.number(f.price), CSV.number(f.quantity),
                            f.maker ? "maker" : "taker", CSV.number(f.queueAhead), CSV.number(Double(f.entryLatencyNs) / 1e6),
                            CSV.number(Double(f.responseLatencyNs) / 1e6), CSV.number(f.fee), String(f.orderID)])
        }
        return out
    }

    /// `2024-01-02T03:04:05.123Z`: milliseconds always, nanoseconds when the time has them.
    static func isoNs(_ ns: Int64) -> String {
        let ms = ns >= 0 ? ns / 1_000_000 : -((-ns + 999_999) / 1_000_000)
        let rest = ns - ms * 1_000_000
        let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
        let millis = ms - seconds * 1000
        let base = String(UTCTime.iso(seconds).dropLast())
        func digits(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: Swift.max(0, width - s.count)) + s
        }
        return base + "." + digits(millis, 3) + (rest == 0 ? "" : digits(rest, 6)) + "Z"
    }

    /// The statistics, snake_case keys, NaN as null: the range, `pnl` to `events` (report.md's
    /// statistics table), then the settings.
    package static func json(_ result: ReplayResult, symbol: String, settings: ReplaySettings) -> JSONValue {
        .object([
            ("symbol", .string(symbol)),
            ("first", .string(UTCTime.isoMs(result.firstMs))),
            ("last", .string(UTCTime.isoMs(result.lastMs))),
            ("pnl", .number(result.pnl)),
            ("final_position", .number(result.finalPosition)),
            ("final_mid", .number(result.finalMid)),
            ("cash", .number(result.cash)),
            ("fills", .int(result.fills.count)),
            ("maker_fills", .int(result.makerFills)),
            ("maker_share", .number(result.makerShare)),
            ("volume", .number(result.volume)),
            ("turnover", .number(result.turnover)),
            ("fees", .number(result.fees)),
            ("orders_sent", .int(result.ordersSent)),
            ("cancels_sent", .int(result.cancelsSent)),
            ("rejected_post_only", .int(result.rejectedPostOnly)),
            ("not_placed_crossing", .int(result.notPlacedCrossing)),
            ("steps", .int(result.steps)),
            ("quoted_share_bid", .number(share(result.stepsQuotedBid, result.steps))),
            ("quoted_share_ask", .number(share(result.stepsQuotedAsk, result.steps))),
            ("events", .int(result.events)),
            ("every_ms", .number(Double(settings.everyNs) / 1e6)),
            ("latency_model", .string(settings.latency.name)),
            ("entry_latency_ms", .number(settings.latency.entryNs.map { Double($0) / 1e6 } ?? .nan)),
            ("response_latency_ms", .number(settings.latency.responseNs.map { Double($0) / 1e6 } ?? .nan)),
            ("queue", .string(settings.queue.name)),
            ("fills_model", .string(settings.fills.name)),
            ("lot", .number(settings.lot)),
        ])
    }

    private static func share(_ part: Int, _ whole: Int) -> Double { whole == 0 ? .nan : Double(part) / Double(whole) }

    /// The statistics (`json`'s object) as aligned lines, NaN as n/a.
    package static func text(_ statistics: JSONValue) -> String {
        guard case .object(let fields) = statistics else { return statistics.serialized() + "\n" }
        let width = fields.map(\.key.count).max() ?? 0
        return fields.map { field in
            let value: String = switch field.value {
            case .string(let s): s
            case .int(let i): String(i)
            case .number(let v): v.isFinite ? NumberText.shortest(v) : "n/a"
            default: field.value.serialized()
            }
            return field.key + String(repeating: " ", count: width - field.key.count + 2) + value
        }.joined(separator: "\n") + "\n"
    }
}
