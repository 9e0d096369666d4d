import BacktestAnalysis
import BacktestCore
import Foundation

/// What one imported file did to the store.
public struct ImportReport: Equatable, Sendable {
    public var file: String
    public var symbol: String
    /// The timeframe key written (`"book"` for book events).
    public var timeframe: String
    /// Bars (or book events) new to the store.
    public var added: Int
    /// Stored bars whose values this file changed (overlap update).
    public var updated: Int
    /// Bars already stored with the same values.
    public var unchanged: Int
    /// Trade prints stored with the candles of a `trades` file (0 otherwise).
    public var prints: Int = 0
    /// Of the updated bars: the largest relative change of a value, and where.
    public var largestChange: BarChange?
    /// Rows of the file left out as bad (`ImportOptions.skipBadRows`).
    public var skipped = SkippedRows()
    /// For a book file: how its stream replays (crossed or locked updates, stale levels).
    public var bookCheck: BookStreamCheck?
    /// What the import saw in the file's times (`ImportedFile.notices`).
    public var notices: [ImportNotice] = []
    /// Long gaps beside the bars this file added (`ImportGap`).
    public var gaps: [ImportGap] = []
}

/// The largest change an import makes to a stored bar: |new - old| / |old| of one value.
public struct BarChange: Equatable, Sendable {
    public var time: Int64
    /// `open`, `high`, `low`, `close` or `volume`.
    public var field: String
    public var old: Double
    public var new: Double
    public var relative: Double
}

/// What a merged import writes, one entry per changed series, book or set of prints. A typed key:
/// no symbol text can be mistaken for another kind of entry.
private enum StoreEntry: Hashable {
    case series(symbol: String, timeframe: String)
    case book(symbol: String)
    case trades(symbol: String)
    case funding(symbol: String)
}

extension CandleStore {
    /// Merges already validated files into the store in one transaction: all land or none.
    ///
    /// Candles (and funding rates, `merge(_:_:)` of `FundingRate`) merge by time into the stored
    /// series of the same symbol and timeframe: a time
    /// already stored takes the file's values (counted as updated when they differ), new times
    /// are added, stored times absent from the file are kept. Files later in `files` win over
    /// earlier ones. A series whose merge changes nothing is not rewritten, so re-importing a
    /// file leaves the store file byte-for-byte unchanged. Book events replace the stored events
    /// of the same symbol in the file's time span.
    /// - Throws: `InputError` when a one-bar file's timeframe cannot be known (a new symbol, or
    ///   one stored at several timeframes); the store is then untouched.
    ///
    /// With `updates` false, a file that changes bars (or funding rates) already stored is refused (kind
    /// `.needsSetting`, setting `.update`) saying how many bars and the largest relative change,
    /// and nothing is written: a file from another source must not silently rewrite history.
    @discardableResult
    public func write(_ files: [ImportedFile], updates: Bool = true) throws -> [ImportReport] {
        for file in files { _ = try Symbol.validated(file.symbol) }
        // Everything that decides what to write is read inside the write transaction, so a
        // concurrent import cannot slip in between the read and the write and be overwritten.
        return try transaction {
            let reports = try merge(files)
            if !updates, let r = reports.first(where: { $0.updated > 0 }), let change = r.largestChange {
                let unit = r.timeframe == "funding" ? "rate" : "bar"
                var e = InputError(
                    .needsSetting,
                    "\(r.symbol) \(r.timeframe): the file changes \(r.updated) stored \(unit)\(r.updated == 1 ? "" : "s"); the largest "
                        + "change is \(change.field) at \(UTCTime.iso(change.time)) from \(change.old) to \(change.new) ("
                        + Self.percent(change.relative) + "); nothing was written",
                    setting: .update, file: r.file)
                e.fixes = [InputError.Fix(.update, purpose: "to replace the stored \(unit)s with the file's")]
                // Another source of the same ticker: kept beside the first under another symbol.
                let suffix = "_2"
                if Symbol.isValid(r.symbol + suffix) {
                    e.fixes.append(InputError.Fix(.symbolSuffix, suffix, purpose: "to keep both, the file's as \(r.symbol)\(suffix)"))
                }
                throw e
            }
            return reports
        }
    }

    public static func percent(_ x: Double) -> String {
        x.isFinite ? String(format: "%.4g%%", x * 100) : "from 0"
    }

    /// Reads the stored series and books `files` touch, merges, and writes what changed.
    /// Call inside `transaction`.
    func merge(_ files: [ImportedFile]) throws -> [ImportReport] {
        var stored = try list()
        var series: [StoreEntry: CandleSeries] = [:]
        var books: [String: [BookEvent]] = [:]
        var prints: [String: [TradePrint]] = [:]
        var funding: [String: [FundingRate]] = [:]
        var changed: [StoreEntry] = []
        var reports: [ImportReport] = []
        for file in files {
            switch file.content {
            case .candles(var incoming):
                let key: String
                if let tf = incoming.timeframe {
                    key = tf.rawValue
                } else if let only = stored.first(where: { $0.symbol == file.symbol }) {
                    let all = stored.filter { $0.symbol == file.symbol }.map(\.timeframe)
                    if all.count > 1 {
                        throw InputError(.needsSetting, "a single bar cannot tell which series of '\(file.symbol)' it belongs to ("
                                             + all.joined(separator: ", ") + ")", setting: .timeframe, file: file.file)
                    }
                    key = only.timeframe
                    incoming.timeframe = Timeframe(rawValue: key)
                } else {
                    throw InputError(.needsSetting, "cannot infer the timeframe of a single bar for a new symbol '\(file.symbol)'",
                                     setting: .timeframe, file: file.file)
                }
                let id = StoreEntry.series(symbol: file.symbol, timeframe: key)
                let base = try series[id] ?? loadStored(symbol: file.symbol, timeframeKey: key)
                let (merged, counts) = Self.merge(base, incoming)
                if let session = file.session { try setSession(session, symbol: file.symbol, timeframeKey: key) }
                if file.adjusted { try markAdjusted(symbol: file.symbol, timeframeKey: key) }
                if let tf = Timeframe(rawValue: key), let (a, b) = Importer.firstSharedBucket(merged.time, tf) {
                    throw InputError("the bars at \(UTCTime.iso(a)) and \(UTCTime.iso(b)) would share one \(key) bar of the "
                                         + "stored \(file.symbol) \(key) series (the file's bars are not aligned with the stored ones)",
                                     at: file.file)
                }
                series[id] = merged
                if counts.added + counts.updated > 0 && !changed.contains(id) { changed.append(id) }
                reports.append(ImportReport(
                    file: file.file, symbol: file.symbol, timeframe: key,
                    added: counts.added, updated: counts.updated, unchanged: counts.unchanged,
                    prints: file.prints.count, largestChange: counts.largest, skipped: file.skipped, notices: file.notices,
                    gaps: counts.added == 0 ? [] : ImportGap.find(merged: merged.time, base: base.time, incoming: incoming.time,
                                                                  timeframe: Timeframe(rawValue: key) ?? .day1)))
                if !file.prints.isEmpty {
                    let stored = try prints[file.symbol] ?? trades(symbol: file.symbol)
                    let merged = Self.merge(stored, file.prints)
                    prints[file.symbol] = merged
                    let tid = StoreEntry.trades(symbol: file.symbol)
                    if merged != stored && !changed.contains(tid) { changed.append(tid) }
                }
                if !stored.contains(where: { $0.symbol == file.symbol && $0.timeframe == key }) {
                    stored.append(SeriesInfo(symbol: file.symbol, timeframe: key, first: 0, last: 0, bars: 0))
                }
            case .book(let incoming):
                let base = try books[file.symbol] ?? storedBookEvents(symbol: file.symbol)
                let merged = Self.merge(base, incoming)
                books[file.symbol] = merged.events
                let id = StoreEntry.book(symbol: file.symbol)
                if merged.events != base && !changed.contains(id) { changed.append(id) }
                reports.append(ImportReport(
                    file: file.file, symbol: file.symbol, timeframe: "book",
                    added: merged.added, updated: merged.replaced, unchanged: merged.unchanged,
                    bookCheck: BookStreamCheck(incoming)))
            case .funding(let incoming):
                let base = try funding[file.symbol] ?? self.funding(symbol: file.symbol)
                let merged = Self.merge(base, incoming)
                funding[file.symbol] = merged.rows
                let id = StoreEntry.funding(symbol: file.symbol)
                if merged.added + merged.updated > 0 && !changed.contains(id) { changed.append(id) }
                reports.append(ImportReport(
                    file: file.file, symbol: file.symbol, timeframe: "funding",
                    added: merged.added, updated: merged.updated, unchanged: merged.unchanged, largestChange: merged.largest))
            }
        }
        for id in changed {
            switch id {
            case .book(let symbol): try replaceBook(symbol: symbol, events: books[symbol]!)
            case .trades(let symbol): try replaceTrades(symbol: symbol, prints: prints[symbol]!)
            case .funding(let symbol): try replaceFunding(symbol: symbol, rows: funding[symbol]!)
            case .series(_, let key): try replace(series[id]!, timeframeKey: key)
            }
        }
        return reports
    }

    /// Merges sorted, unique-time `incoming` into sorted, unique-time `base`; incoming values win.
    /// - Complexity: O(n + m).
    static func merge(_ base: CandleSeries, _ incoming: CandleSeries)
        -> (CandleSeries, (added: Int, updated: Int, unchanged: Int, largest: BarChange?)) {
        var out = CandleSeries(symbol: incoming.symbol, timeframe: incoming.timeframe)
        out.reserveCapacity(base.count + incoming.count)
        var i = 0, j = 0, added = 0, updated = 0, unchanged = 0
        var largest: BarChange?
        while i < base.count || j < incoming.count {
            if j == incoming.count || (i < base.count && base.time[i] < incoming.time[j]) {
                out.append(time: base.time[i], open: base.open[i], high: base.high[i], low: base.low[i], close: base.close[i], volume: base.volume[i])
                i += 1
                continue
            }
            if i < base.count && base.time[i] == incoming.time[j] {
                let pairs = [("open", base.open[i], incoming.open[j]), ("high", base.high[i], incoming.high[j]),
                             ("low", base.low[i], incoming.low[j]), ("close", base.close[i], incoming.close[j]),
                             ("volume", base.volume[i], incoming.volume[j])]
                let same = pairs.allSatisfy { $0.1 == $0.2 || ($0.1.isNaN && $0.2.isNaN) }
                if same { unchanged += 1 } else { updated += 1 }
                for (field, old, new) in pairs where old != new && !(old.isNaN && new.isNaN) {
                    let relative = old.isNaN || new.isNaN ? Double.infinity : Swift.abs(new - old) / Swift.abs(old)
                    if largest == nil || relative > largest!.relative {
                        largest = BarChange(time: incoming.time[j], field: field, old: old, new: new, relative: relative)
                    }
                }
                i += 1
            } else {
                added += 1
            }
            out.append(time: incoming.time[j], open: incoming.open[j], high: incoming.high[j], low: incoming.low[j], close: incoming.close[j], volume: incoming.volume[j])
            j += 1
        }
        return (out, (added, updated, unchanged, largest))
    }

    /// Book events: `incoming` replaces the stored events within its own time span.
    static func merge(_ base: [BookEvent], _ incoming: [BookEvent]) -> (events: [BookEvent], added: Int, replaced: Int, unchanged: Int) {
        guard let first = incoming.first?.timeMs, let last = incoming.last?.timeMs else { return (base, 0, 0, 0) }
        let before = base.filter { $0.timeMs < first }
        let inside = base.filter { $0.timeMs >= first && $0.timeMs <= last }
        let after = base.filter { $0.timeMs > last }
        if inside == incoming { return (base, 0, 0, incoming.count) }
        return (before + incoming + after, incoming.count, inside.count, 0)
    }
}
