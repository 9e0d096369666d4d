import BacktestCore
import BacktestData
import Foundation

/// The lines `bt data import` prints for one imported file.
package enum ImportSummaryText {
    /// `SYMBOL TF: N bars (events, rates) added, N updated[; largest change ...], N unchanged[; N trade prints ...] (file)`.
    package static func line(_ r: ImportReport) -> String {
        let unit = r.timeframe == "book" ? "events" : r.timeframe == "funding" ? "rates" : "bars"
        let prints = r.prints > 0 ? "; \(r.prints) trade prints kept for 'bt calibrate'" : ""
        let change = r.largestChange.map { "; largest change \($0.field) at \(UTCTime.iso($0.time)) \(CandleStore.percent($0.relative))" } ?? ""
        return "\(r.symbol) \(r.timeframe): \(r.added) \(unit) added, \(r.updated) updated\(change), \(r.unchanged) unchanged"
            + "\(prints) (\(r.file))"
    }

    /// The warning about a book file whose updates leave the book crossed or locked, if any.
    package static func bookWarning(_ r: ImportReport) -> String? {
        guard let check = r.bookCheck, check.crossedUpdates > 0 || check.staleLevels > 0 else { return nil }
        return "warning: \(r.file): \(check.crossedUpdates) of \(check.updates) book updates leave the book "
            + "crossed or locked (best bid >= best ask); replay drops \(check.staleLevels) stale "
            + "level\(check.staleLevels == 1 ? "" : "s") (at a crossed touch, the side set by the older event)"
    }

    /// The warnings of an import's notices and gaps, each setting called `name(setting)`: times
    /// without an offset read as UTC once per import (one line per likely session), then per
    /// file its end stamps, and per series the bars outside its session and its long gaps (the
    /// first three, then how many more).
    package static func warnings(_ reports: [ImportReport], naming name: (Setting) -> String) -> [String] {
        var lines: [String] = []
        var naive: [(likely: ExchangeSession?, files: [String])] = []
        var seen = Set<String>()
        for r in reports {
            for notice in r.notices {
                switch notice {
                case .naiveTimes(let likely):
                    if let k = naive.firstIndex(where: { $0.likely == likely }) {
                        if !naive[k].files.contains(r.file) { naive[k].files.append(r.file) }
                    } else {
                        naive.append((likely, [r.file]))
                    }
                case .endStamped(let first, let last):
                    guard seen.insert(r.file).inserted else { continue }
                    lines.append("warning: \(r.file): the bars of each day run from \(clock(first)) to \(clock(last)): the times look "
                                 + "like the ends of the bars, and bt stores each bar at its start; if they are ends, import with "
                                 + "\(name(.stamp)) end (\(name(.session)) would otherwise leave out each day's \(clock(last)) bar)")
                case .outsideSession(let bars, let of, let session, let aggregated):
                    let fate = aggregated
                        ? "left out of the \(r.timeframe) bars"
                        : "stored, but bars resampled from this series leave them out"
                    lines.append("warning: \(r.symbol) \(r.timeframe): \(bars) of the file's \(of) bars lie outside the session "
                                 + "\(session.hours) (\(session.zone)): \(fate) (\(r.file))")
                case .likelySplits(let splits):
                    if let text = LikelySplit.warning(symbol: r.symbol, splits) { lines.append("warning: \(text) (\(r.file))") }
                }
            }
            for gap in r.gaps.prefix(3) {
                let days = Double(gap.before - gap.after) / 86_400
                lines.append("warning: \(r.symbol) \(r.timeframe): no bars for \(days >= 10 ? String(Int(days)) : String(format: "%.1f", days)) days, "
                             + "from \(UTCTime.iso(gap.after)) to \(UTCTime.iso(gap.before)) (\(r.file))")
            }
            if r.gaps.count > 3 {
                lines.append("warning: \(r.symbol) \(r.timeframe): \(r.gaps.count - 3) more gaps longer than "
                             + "\(ImportGap.threshold(Timeframe(rawValue: r.timeframe) ?? .day1) / 86_400) days (\(r.file))")
            }
        }
        let zone = name(.timeZone)
        let naiveLines = naive.map { group -> String in
            let files = group.files.prefix(3).joined(separator: ", ") + (group.files.count > 3 ? " and \(group.files.count - 3) more" : "")
            let head = "warning: times of day without an offset were read as UTC (\(files))"
            guard let s = group.likely else { return head + "; if they are local times, import with \(zone) ZONE" }
            return head + "; they look like the \(s.exchange) session (\(s.hours)) in local time: if so, import with \(zone) \(s.zone) "
                + "(and \(name(.session)) \(s.hours) to keep its hours)"
        }
        return naiveLines + lines
    }

    /// `09:31` for 571 minutes after midnight.
    static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
