import BacktestAnalysis
import BacktestCore

/// Reads recorded L2 depth as JSON lines:
/// `{"time": ..., "type": "snapshot"|"update", "bids": [[price, qty], ...], "asks": [[price, qty], ...]}`
/// (numbers or numeric strings; qty 0 in an update removes the level).
///
/// Times keep milliseconds (ISO-8601 fractions, epoch milliseconds or microseconds).
///
/// Validation: every line has a time and a known type; bids and asks are arrays of
/// `[price, qty]` pairs with finite, non-negative values; the first event is a snapshot; times
/// never go backwards; a snapshot is not crossed (best bid below best ask). Updates that leave
/// the book crossed or locked are accepted and counted by `BookStreamCheck` (the importer's
/// caller warns; replay drops the stale side, see `BookReplay`).
enum BookImporter {
    static func read(_ text: InputText) throws -> [BookEvent] {
        var events: [BookEvent] = []
        try JSONLines.forEachObject(text) { object, line in
            let file = text.file
            guard let rawTime = object["time", "T", "timestamp", "ts"] else { throw InputError("missing \"time\"", file: file, line: line) }
            guard let t = JSONLines.timeMs(rawTime) else {
                throw InputError("time is not an epoch number or ISO-8601 date-time", file: file, line: line)
            }
            guard let rawKind = object["type"] else { throw InputError("missing \"type\" (snapshot or update)", file: file, line: line) }
            guard case .string(let kindName) = rawKind, let kind = BookEvent.Kind(rawValue: kindName) else {
                throw InputError("type must be \"snapshot\" or \"update\"", file: file, line: line)
            }
            func levels(_ side: String) throws -> [BookLevel] {
                guard let raw = object[side] else {
                    if kind == .update { return [] }
                    throw InputError("missing \"\(side)\"", file: file, line: line)
                }
                guard case .array(let pairs) = raw else {
                    throw InputError("\(side) must be an array of [price, qty] pairs, found \(raw.kindName)", file: file, line: line)
                }
                return try pairs.enumerated().map { k, pair in
                    guard case .array(let pq) = pair, pq.count == 2 else {
                        throw InputError("\(side)[\(k)] must be a [price, qty] pair", file: file, line: line)
                    }
                    return BookLevel(
                        price: try JSONLines.amount(pq[0], "\(side)[\(k)] price", file: file, line: line),
                        quantity: try JSONLines.amount(pq[1], "\(side)[\(k)] qty", file: file, line: line))
                }
            }
            let event = BookEvent(timeMs: t, kind: kind, bids: try levels("bids"), asks: try levels("asks"))
            if events.isEmpty && kind != .snapshot {
                throw InputError("the first book event must be a snapshot", file: file, line: line)
            }
            if let last = events.last, t < last.timeMs {
                throw InputError("time \(UTCTime.isoMs(t)) is earlier than the previous event's \(UTCTime.isoMs(last.timeMs))",
                                 file: file, line: line)
            }
            if kind == .snapshot,
               let bid = event.bids.filter({ $0.quantity > 0 }).map(\.price).max(),
               let ask = event.asks.filter({ $0.quantity > 0 }).map(\.price).min(), bid >= ask {
                throw InputError("crossed snapshot: best bid \(bid) is not below best ask \(ask)", file: file, line: line)
            }
            events.append(event)
        }
        guard !events.isEmpty else { throw InputError("file is empty", at: text.file) }
        return events
    }
}
