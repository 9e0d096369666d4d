import BacktestAnalysis
import BacktestCore

extension LiveSummary {
    /// The session's statistics (`Stats`), nil before it traded a bar.
    package var stats: Stats? { result.map { Stats($0) } }

    /// `bt live --json`: `{"symbol", "interval", "start", "journal", "bars", "bars_from_klines",
    /// "bars_dropped", "fills": [{"time", "side", "reference_price", "vwap", "quantity_asked",
    /// "quantity_filled", "fee"}], "funding": [{"time", "rate", "mark_price"}] (a perpetual's
    /// settlements recorded), "other_symbols": [{"symbol", "bars", "bars_from_klines"}] (those
    /// the rules read with `@`), "trades", "final_equity", "stats": {snake_case: fraction},
    /// "stream": {"messages", "trades", "depth_updates", "mark_updates", "reconnects", "syncs", "gaps",
    /// "snapshots_refused", "late_trades", "skipped": {kind: count}}, "divergences", "warnings",
    /// "seconds", "replay"}`; fractions, ISO-8601 UTC times, null for undefined numbers.
    package func json(replay: String) -> JSONValue {
        let fills = self.fills.map { f -> JSONValue in
            .object([
                (key: "time", value: .string(UTCTime.iso(f.time))), (key: "side", value: .string(f.side.rawValue)),
                (key: "reference_price", value: .number(f.referencePrice)), (key: "vwap", value: .number(f.vwap)),
                (key: "quantity_asked", value: .number(f.quantityAsked)), (key: "quantity_filled", value: .number(f.quantityFilled)),
                (key: "fee", value: .number(f.fee)),
            ])
        }
        let funding = self.funding.map { r -> JSONValue in
            .object([(key: "time", value: .string(UTCTime.isoMs(r.timeMs))), (key: "rate", value: .number(r.rate)),
                     (key: "mark_price", value: r.markPrice.map { .number($0) } ?? .null)])
        }
        let statsJSON = stats.map { $0.all.map { (key: $0.stat.name, value: $0.stat.json($0.value)) } } ?? []
        let stream: JSONValue = .object([
            (key: "messages", value: .int(messages)), (key: "trades", value: .int(trades)),
            (key: "depth_updates", value: .int(depthUpdates)), (key: "mark_updates", value: .int(markUpdates)),
            (key: "reconnects", value: .int(reconnects)),
            (key: "syncs", value: .int(syncs)), (key: "gaps", value: .int(gaps)),
            (key: "snapshots_refused", value: .int(snapshotsRefused)), (key: "late_trades", value: .int(lateTrades)),
            (key: "skipped", value: .object(skipped.sorted { $0.key < $1.key }.map { (key: $0.key, value: .int($0.value)) })),
        ])
        return .object([
            (key: "symbol", value: .string(symbol)), (key: "interval", value: .string(interval.rawValue)),
            (key: "start", value: .string(UTCTime.iso(startTime))), (key: "journal", value: journal.map { .string($0) } ?? .null),
            (key: "bars", value: .int(bars)), (key: "bars_from_klines", value: .int(barsFromKlines)),
            (key: "bars_dropped", value: .int(barsDropped)), (key: "fills", value: .array(fills)),
            (key: "funding", value: .array(funding)),
            (key: "other_symbols", value: .array(others.map {
                .object([(key: "symbol", value: .string($0.symbol)), (key: "bars", value: .int($0.bars)),
                         (key: "bars_from_klines", value: .int($0.fromKlines))])
            })),
            (key: "trades", value: .int(result?.trades.count ?? 0)),
            (key: "final_equity", value: result.map { .number($0.finalEquity) } ?? .null),
            (key: "stats", value: .object(statsJSON)), (key: "stream", value: stream),
            (key: "divergences", value: .int(divergences)), (key: "warnings", value: .array(warnings.map { .string($0) })),
            (key: "seconds", value: .number(seconds)), (key: "replay", value: .string(replay)),
        ])
    }
}
