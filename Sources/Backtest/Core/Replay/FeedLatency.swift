/// `--latency feed:M,C`: order latency made from a recording's feed latency, as hftbacktest
/// 2.4.4's `generate_order_latency` makes it, then interpolated as its `IntpOrderLatency`
/// (`LatencyTable`).
///
/// The feed latency of an event is its local receive time minus its exchange time
/// (`MarketEvent.seenNs`: never negative). The events with a receive time are grouped by the
/// whole second of their local time (UTC); the last of each second (the latest local time, ties:
/// the last read) gives one row: `req_ts` = its local time, `exch_ts` = req_ts + M x feed + C,
/// `resp_ts` = exch_ts + M x feed + C (the response latency is the entry latency's formula).
/// An order sent at t then gets the entry latency interpolated between the rows bracketing t,
/// an answer the exchange makes at t the response latency between the rows bracketing t by
/// exchange time, as a latency file's rows. Like a latency file, the rows are made from the
/// whole range before the replay: an order's latency may lean on the next second's figure (a
/// model of the wire, never something the strategy reads).
///
/// M x feed + C is computed in doubles and truncated toward zero to whole nanoseconds; the
/// times are then added in integers. (hftbacktest adds the latency to the epoch nanoseconds in
/// doubles, which keeps 256 ns steps at today's times: its rows differ by less than 512 ns.)
package struct FeedLatency: Equatable, Sendable {
    /// M, at least 0.
    package var multiplier: Double
    /// C, nanoseconds, at least 0.
    package var offsetNs: Int64

    /// - Throws: `InputError` (setting `.latency`) for a negative or non-finite multiplier or a
    ///   negative offset.
    package init(multiplier: Double, offsetNs: Int64) throws {
        guard multiplier.isFinite, multiplier >= 0 else {
            throw InputError("the feed latency's multiplier M must be a number at least 0", setting: .latency, value: "\(multiplier)")
        }
        guard offsetNs >= 0 else { throw InputError("a latency cannot be negative", setting: .latency, value: "\(offsetNs)ns") }
        self.multiplier = multiplier
        self.offsetNs = offsetNs
    }

    /// Whether `text` asks for a feed latency (`feed:...`).
    package static func isFeed(_ text: String) -> Bool { text.trimmingWhitespace().hasPrefix("feed:") }

    /// Parses `feed:M,C`: M a number at least 0 (`1`, `0.5`), C a duration (`2ms`, `0`).
    /// - Throws: `InputError` (setting `.latency`) naming the text.
    package init(parsing text: String) throws {
        let t = text.trimmingWhitespace()
        let parts = t.dropFirst("feed:".count).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard t.hasPrefix("feed:"), parts.count == 2 else {
            throw InputError("expected feed:M,C (M a multiplier, C a duration), e.g. feed:1,2ms", setting: .latency, value: text)
        }
        let m = parts[0].trimmingWhitespace()
        guard let multiplier = Double(m), m.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true else {
            throw InputError("the feed latency's multiplier M must be a number, e.g. feed:1,2ms", setting: .latency, value: text)
        }
        guard multiplier.isFinite, multiplier >= 0 else {
            throw InputError("the feed latency's multiplier M must be a number at least 0", setting: .latency, value: text)
        }
        try self.init(multiplier: multiplier, offsetNs: try ReplayDuration.nanoseconds(parsing: parts[1], setting: .latency))
    }

    /// The longest latency made, nanoseconds (a day): M x feed + C beyond it is refused.
    static let longestNs: Int64 = 86_400_000_000_000

    /// M x `feedNs` + C, truncated toward zero; nil beyond `longestNs`.
    package func latency(feedNs: Int64) -> Int64? {
        let ns = (multiplier * Double(feedNs) + Double(offsetNs)).rounded(.towardZero)
        return ns <= Double(Self.longestNs) ? Int64(ns) : nil
    }

    /// The rows made from `events` (read to their end), in time order; empty when no event has
    /// a receive time.
    /// - Throws: `InputError` (setting `.latency`) for a latency beyond a day; what reading
    ///   `events` throws.
    /// - Complexity: O(events); memory one entry per second of local time.
    package func rows(of events: inout some MarketEventSource) throws -> [LatencyTable.Row] {
        var lastOfSecond: [Int64: (localNs: Int64, feedNs: Int64)] = [:]
        while let e = try events.next() {
            guard e.localNs != nil else { continue }
            let local = e.seenNs
            let second = local >= 0 ? local / 1_000_000_000 : (local + 1) / 1_000_000_000 - 1
            if let kept = lastOfSecond[second], kept.localNs > local { continue }
            lastOfSecond[second] = (local, local - e.timeMs * 1_000_000)
        }
        return try lastOfSecond.keys.sorted().map { second in
            let (local, feed) = lastOfSecond[second]!
            guard let latency = self.latency(feedNs: feed) else {
                throw InputError("M x the feed latency (\(feed) ns) + C is more than a day", setting: .latency,
                                 value: "feed:\(multiplier),\(offsetNs)ns")
            }
            return LatencyTable.Row(requestNs: local, exchangeNs: local + latency, responseNs: local + 2 * latency)
        }
    }

    /// The latency table of `rows(of: events)`.
    /// - Throws: `InputError` (setting `.latency`) when no event has a receive time (imported
    ///   books and trades: only a `bt live` recording keeps one), or when the rows cannot be a
    ///   table (the latency falls faster than time passes between two seconds, so exchange times
    ///   would go back); what reading `events` throws.
    package func table(of events: inout some MarketEventSource) throws -> LatencyTable {
        let rows = try rows(of: &events)
        guard !rows.isEmpty else {
            throw InputError("feed:M,C needs the local receive times a `bt live` recording keeps; these events carry only "
                                 + "the exchange's time (imported books and trades: their feed latency is 0); "
                                 + "give a constant latency (--latency C) instead", setting: .latency)
        }
        if let (index, reason) = LatencyTable.problem(rows) {
            let at = index.map { " at the row of \(rows[$0].requestNs) ns (local time)" } ?? ""
            throw InputError("the latency made from the feed cannot be interpolated\(at): \(reason)", setting: .latency)
        }
        return LatencyTable(rows: rows)
    }
}
