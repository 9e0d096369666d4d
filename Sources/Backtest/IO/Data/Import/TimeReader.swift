import BacktestAnalysis
import BacktestCore
import Foundation

/// Reads an import file's time column: ISO-8601, `yyyymmdd` and epoch numbers (`DecimalParsing`),
/// a day-month-year layout decided from the whole column (`DateLayout`), or the user's
/// `--date-format`; times of day without an offset are read in `zone` (UTC when nil) and
/// converted to UTC. Dates without a time of day and epoch numbers are never shifted.
struct TimeReader {
    enum Kind: Equatable {
        case standard
        case layout(DateLayout)
        case format(DateFormat)
    }
    var kind: Kind
    var zone: TimeZone?
    private var offsets: [Int64: Int] = [:]

    init(kind: Kind, zone: TimeZone?) {
        self.kind = kind
        self.zone = zone
    }

    /// One field read: UTC milliseconds, and the epoch unit when it was an epoch number.
    enum Outcome {
        case time(milliseconds: Int64, unit: DecimalParsing.EpochUnit?)
        case unreadable
        case nonexistentLocalTime(Int64)
    }

    mutating func read(_ field: UnsafeBufferPointer<UInt8>) -> Outcome {
        let local: Int64
        let shift: Bool
        switch kind {
        case .standard:
            guard let t = DecimalParsing.parsedTime(field) else { return .unreadable }
            if t.unit != nil { return .time(milliseconds: t.milliseconds, unit: t.unit) }
            local = t.milliseconds
            shift = zone != nil && Self.isLocalDateTime(field)
        case .layout(let layout):
            guard let t = layout.parse(field) else { return .unreadable }
            local = t.milliseconds
            shift = t.hasTime
        case .format(let format):
            guard let t = format.parse(field) else { return .unreadable }
            local = t.milliseconds
            shift = format.hasTime && !t.hasOffset
        }
        guard shift, let zone else { return .time(milliseconds: local, unit: nil) }
        guard let utc = utc(local, zone) else { return .nonexistentLocalTime(local) }
        return .time(milliseconds: utc, unit: nil)
    }

    /// Local milliseconds in `zone` as UTC; nil when the local time does not exist (skipped by
    /// a daylight-saving change). A local time that occurs twice (the hour repeated when clocks
    /// go back) is read as its first occurrence.
    private mutating func utc(_ local: Int64, _ zone: TimeZone) -> Int64? {
        let seconds = floorDiv(local, 1000)
        func offset(_ t: Int64) -> Int {
            let hour = floorDiv(t, 3600)
            if let o = offsets[hour] { return o }
            let o = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
            if offsets.count > 100_000 { offsets.removeAll() }
            offsets[hour] = o
            return o
        }
        // Try each offset in force around that time; the earliest instant that reads back as
        // this local time wins.
        let candidates = Set([offset(seconds - 86_400), offset(seconds), offset(seconds + 86_400)])
        let fits = candidates.map { seconds - Int64($0) }.filter { Int64(offset($0)) == seconds - $0 }
        guard let first = fits.min() else { return nil }
        return local + (first - seconds) * 1000
    }

    /// Whether `field` is a time of day written without an offset: a local time in `zone`, or
    /// UTC without one. Dates alone, epochs and values with an offset (`Z`, `-05:00`) are not.
    func isWallClock(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .standard: DecimalParsing.parsedTime(field).map { $0.unit == nil } == true && Self.isLocalDateTime(field)
        case .layout(let layout): layout.parse(field)?.hasTime == true
        case .format(let format): format.hasTime && format.parse(field)?.hasOffset == false
        }
    }

    /// An ISO value with a time of day and no offset (`2024-03-10 09:30`, not `...Z` or a date).
    static func isLocalDateTime(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, n = field.count
        while i < n, field[i] == 32 || field[i] == 9 { i += 1 }
        while n > i, field[n - 1] == 32 || field[n - 1] == 9 { n -= 1 }
        guard n - i > 10 else { return false }
        for k in (i + 10)..<n where field[k] == 90 || field[k] == 122 || field[k] == 43 || field[k] == 45 { return false }
        return true
    }

    /// The reader for a time column: `format` when given; else the standard parser when the
    /// first value is ISO, `yyyymmdd` or an epoch; else the `DateLayout` the whole column fits.
    /// - Parameter values: the column's fields with their line numbers, read only when needed.
    /// - Throws: `InputError` (setting `.dateFormat`) when the column fits no layout or two.
    static func decide(first: UnsafeBufferPointer<UInt8>, format: DateFormat?, zone: TimeZone?, file: String,
                       values: () throws -> [(UnsafeBufferPointer<UInt8>, Int)]) throws -> TimeReader {
        if let format { return TimeReader(kind: .format(format), zone: zone) }
        if DecimalParsing.parsedTime(first) != nil || DateLayout.parts(first) == nil {
            return TimeReader(kind: .standard, zone: zone)
        }
        var evidence = DateLayout.Evidence()
        for (field, line) in try values() {
            guard let p = DateLayout.parts(field) else { continue }  // reported when the row is read
            evidence.add(p, line: line)
        }
        switch evidence.decide() {
        case .success(let layout): return TimeReader(kind: .layout(layout), zone: zone)
        case .failure(let why):
            throw InputError(.needsSetting, "cannot tell how the dates are written: \(why); name the layout, e.g. %m/%d/%Y",
                             setting: .dateFormat, file: file)
        }
    }
}

extension TimeReader {
    /// The time of the field `span` of a data row in UTC milliseconds, or the row's refusal at
    /// `file:lineNumber`: an unreadable or missing time, a local time that does not exist in
    /// `zoneName`, or an epoch in another unit than the first one of the file (`unit`, set by the
    /// first epoch read).
    mutating func milliseconds(_ line: UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
                               unit: inout (unit: DecimalParsing.EpochUnit, line: Int)?, zoneName: String?,
                               file: String, line lineNumber: Int) throws -> Int64 {
        switch read(UnsafeBufferPointer(rebasing: line[span])) {
        case .unreadable:
            let shown = CSVLine.text(line, span)
            let expected = switch kind {
            case .standard: "a date, date-time or epoch number"
            case .layout(let d): "a \(d.name) date like the rest of the column"
            case .format(let f): "a date in the format \(Excerpt.quoted(f.pattern))"
            }
            throw InputError(shown.trimmingSpaces.isEmpty ? "missing time" : "time \(Excerpt.quoted(shown)) is not \(expected)",
                             file: file, line: lineNumber)
        case .nonexistentLocalTime:
            throw InputError("time \(Excerpt.quoted(CSVLine.text(line, span).trimmingSpaces)) does not exist in "
                                 + "\(zoneName ?? "UTC") (clocks skip it when daylight saving starts)",
                             file: file, line: lineNumber)
        case .time(let ms, let u):
            if let u {
                if let first = unit, first.unit != u {
                    throw InputError(
                        "time \(Excerpt.quoted(CSVLine.text(line, span).trimmingSpaces)) is an epoch in \(u.rawValue) "
                            + "but line \(first.line) has one in \(first.unit.rawValue); a file must use one unit",
                        file: file, line: lineNumber)
                }
                if unit == nil { unit = (u, lineNumber) }
            }
            return ms
        }
    }
}
