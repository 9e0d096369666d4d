import BacktestCore

/// The lines `bt data import` prints for one imported file.
package enum ImportSummaryText {
    /// `SYMBOL TF: N bars added, N updated[; largest change ...], N unchanged[; N trade prints ...] (file)`.
    package static func line(_ r: ImportReport) -> String {
        let unit = r.timeframe == "book" ? "events" : "bars"
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
}
