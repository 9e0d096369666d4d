/// The latency between the strategy and the exchange: an order (or cancel) sent at t reaches
/// the book `entry(sentNs: t)` later; an answer the exchange makes at t (acknowledgement, fill,
/// cancel, refusal) is seen `response(exchangeNs: t)` later. Constant (hftbacktest's
/// `ConstantLatency`), interpolated from recorded requests (`IntpOrderLatency`,
/// `LatencyTable`), or interpolated from rows made from a recording's feed latency
/// (`FeedLatency`).
package struct ReplayLatency: Equatable, Sendable {
    package enum Model: Equatable, Sendable {
        case constant(entryNs: Int64, responseNs: Int64)
        case interpolated(LatencyTable)
        /// The rows `feed` made from the replayed events.
        case feed(FeedLatency, LatencyTable)
    }

    package let model: Model

    /// A constant latency.
    /// - Throws: `InputError` (setting `.latency`) for a negative latency.
    package init(entryNs: Int64, responseNs: Int64) throws {
        guard entryNs >= 0, responseNs >= 0 else {
            throw InputError("a latency cannot be negative", setting: .latency)
        }
        model = .constant(entryNs: entryNs, responseNs: responseNs)
    }

    /// Latencies interpolated from recorded requests.
    package init(table: LatencyTable) { model = .interpolated(table) }

    /// Latencies made from a recording's feed latency: `feed.table(of:)` of the replayed events.
    package init(feed: FeedLatency, table: LatencyTable) { model = .feed(feed, table) }

    /// Parses `ENTRY[,RESPONSE]`: durations with a unit (`5ms`, `250us`, `1s`, `800ns`; a bare
    /// `0` is zero); the response latency defaults to the entry latency.
    /// - Throws: `InputError` (setting `.latency`) naming the text.
    package init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2 else {
            throw InputError("expected ENTRY[,RESPONSE], e.g. 5ms,5ms", setting: .latency, value: text)
        }
        let values = try parts.map { try ReplayDuration.nanoseconds(parsing: $0, setting: .latency) }
        try self.init(entryNs: values[0], responseNs: values.count > 1 ? values[1] : values[0])
    }

    /// The constant entry latency; nil when it varies.
    package var entryNs: Int64? {
        if case .constant(let entry, _) = model { entry } else { nil }
    }

    /// The constant response latency; nil when it varies.
    package var responseNs: Int64? {
        if case .constant(_, let response) = model { response } else { nil }
    }

    /// `constant`, `file` or `feed`, for the statistics.
    package var name: String {
        switch model {
        case .constant: "constant"
        case .interpolated: "file"
        case .feed: "feed"
        }
    }

    /// The entry latency of a request sent at `sentNs`.
    package func entry(sentNs: Int64) -> Int64 {
        switch model {
        case .constant(let entry, _): entry
        case .interpolated(let table), .feed(_, let table): table.entry(atNs: sentNs)
        }
    }

    /// The response latency of an answer the exchange makes at `exchangeNs`.
    package func response(exchangeNs: Int64) -> Int64 {
        switch model {
        case .constant(_, let response): response
        case .interpolated(let table), .feed(_, let table): table.response(atNs: exchangeNs)
        }
    }
}

/// Durations of the replay's settings (`--every`, `--latency`), in nanoseconds.
package enum ReplayDuration {
    private static let units: [(suffix: String, ns: Double)] = [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9)]

    /// `text` as nanoseconds: a number with a unit (`100ms`, `1.5s`, `250us`, `800ns`, `1m`),
    /// or a bare `0`; a whole number of nanoseconds.
    /// - Throws: `InputError` at `setting` for anything else (a negative value included).
    package static func nanoseconds(parsing text: String, setting: Setting) throws -> Int64 {
        let t = text.trimmingWhitespace()
        if t == "0" { return 0 }
        // Longest suffix first, so "ms" is not read as "s".
        for unit in units.sorted(by: { $0.suffix.count > $1.suffix.count }) where t.hasSuffix(unit.suffix) {
            let number = String(t.dropLast(unit.suffix.count))
            guard let v = Double(number), v.isFinite, number.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true else { break }
            guard v >= 0 else { throw InputError("a duration cannot be negative", setting: setting, value: text) }
            let ns = v * unit.ns
            guard ns < 9e18, ns == ns.rounded() else {
                throw InputError("a duration is a whole number of nanoseconds below 292 years", setting: setting, value: text)
            }
            return Int64(ns)
        }
        throw InputError("expected a duration with a unit (ns, us, ms, s, m), e.g. 100ms", setting: setting, value: text)
    }
}
