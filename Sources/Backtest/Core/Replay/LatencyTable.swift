/// Recorded order latencies, interpolated as hftbacktest 2.4.4's `IntpOrderLatency`: each row
/// is one recorded request, with when it was sent, when the exchange processed it and when its
/// answer came back (UTC nanoseconds).
///
/// The entry latency at a send time t is interpolated linearly between the rows whose request
/// times bracket t (row i with req_i <= t < req_i+1), from their entry latencies exch - req;
/// the response latency at an exchange time t likewise between the rows whose exchange times
/// bracket it, from resp - exch. Before the first row the first row's latency is used, after
/// the last row the last row's. The interpolation truncates toward zero as hftbacktest's does:
/// `Int64((y2 - y1) / (x2 - x1) * (x - x1)) + y1` in doubles.
///
/// hftbacktest's rejection rows (an exchange time of 0: the request was refused) are not
/// supported: every row's latencies are at least 0.
package struct LatencyTable: Equatable, Sendable {
    package struct Row: Equatable, Sendable {
        package var requestNs: Int64
        package var exchangeNs: Int64
        package var responseNs: Int64

        package init(requestNs: Int64, exchangeNs: Int64, responseNs: Int64) {
            self.requestNs = requestNs
            self.exchangeNs = exchangeNs
            self.responseNs = responseNs
        }

        var entryNs: Int64 { exchangeNs - requestNs }
        var answerNs: Int64 { responseNs - exchangeNs }
    }

    package let rows: [Row]

    /// The reason `rows` cannot be a table, with the 0-based index of the row at fault (nil:
    /// the rows as a whole), or nil when they can: at least one row; times from 1970 on; request
    /// and exchange times that never go back; no negative latency.
    package static func problem(_ rows: [Row]) -> (index: Int?, reason: String)? {
        guard !rows.isEmpty else { return (nil, "no latency rows") }
        for (i, row) in rows.enumerated() {
            // With every time at or after 1970 no difference of two times overflows.
            if row.requestNs < 0 { return (i, "req_ts is before 1970") }
            if row.entryNs < 0 { return (i, "negative entry latency: exch_ts is before req_ts") }
            if row.answerNs < 0 { return (i, "negative response latency: resp_ts is before exch_ts") }
            guard i > 0 else { continue }
            if row.requestNs < rows[i - 1].requestNs { return (i, "out of time order: req_ts is before the previous row's") }
            if row.exchangeNs < rows[i - 1].exchangeNs { return (i, "out of time order: exch_ts is before the previous row's") }
        }
        return nil
    }

    /// - Precondition: `problem(rows)` is nil (the file readers check it and name the line).
    package init(rows: [Row]) {
        precondition(Self.problem(rows) == nil, "latency rows are checked before a table is made")
        self.rows = rows
    }

    /// The entry latency of a request sent at `ns`.
    package func entry(atNs ns: Int64) -> Int64 {
        interpolate(ns, time: \.requestNs, latency: \.entryNs)
    }

    /// The response latency of an answer the exchange makes at `ns`.
    package func response(atNs ns: Int64) -> Int64 {
        interpolate(ns, time: \.exchangeNs, latency: \.answerNs)
    }

    private func interpolate(_ x: Int64, time: KeyPath<Row, Int64>, latency: KeyPath<Row, Int64>) -> Int64 {
        guard x >= rows[0][keyPath: time] else { return rows[0][keyPath: latency] }
        // The first row whose time is after x; the row before it brackets x from below.
        var lo = 0, hi = rows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows[mid][keyPath: time] <= x { lo = mid + 1 } else { hi = mid }
        }
        guard lo < rows.count else { return rows[rows.count - 1][keyPath: latency] }
        let a = rows[lo - 1], b = rows[lo]
        let x1 = a[keyPath: time], x2 = b[keyPath: time], y1 = a[keyPath: latency], y2 = b[keyPath: latency]
        // |step| <= |y2 - y1| since x1 <= x < x2: no overflow converting back.
        let step = Double(y2 - y1) / Double(x2 - x1) * Double(x - x1)
        return Int64(step.rounded(.towardZero)) + y1
    }
}
