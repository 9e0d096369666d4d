extension UTCTime {
    /// Parses ISO-8601 from UTF-8 bytes: `2024-01-02`,
    /// `2024-01-02 03:04`, `2024-01-02T03:04:05.123Z`, `...+01:00`; fractions of a second dropped.
    package static func parseISO(bytes b: UnsafeBufferPointer<UInt8>) -> Int64? {
        parseISOMilliseconds(bytes: b).map { floorDiv($0, 1000) }
    }

    /// Parses ISO-8601 from UTF-8 bytes into milliseconds since the epoch: as `parseISO`, with
    /// the first three digits of a fraction kept (`.1234` is 123 ms). An offset is
    /// `+hh:mm`, `+hhmm` or `-...` with hours 00-23 and minutes 00-59 (RFC 3339); anything else
    /// makes the text not a time.
    package static func parseISOMilliseconds(bytes b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        @inline(__always) func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for k in i..<i + count {
                let d = b[k] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += count
            return v
        }
        @inline(__always) func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = digits(4), expect(45), let mo = digits(2), expect(45), let d = digits(2),
              (1...12).contains(mo), d >= 1, d <= daysInMonth(year: y, month: mo) else { return nil }
        var h = 0, mi = 0, s = 0, ms = 0
        if i < b.count, b[i] == 84 || b[i] == 32 {
            i += 1
            guard let hh = digits(2), expect(58), let mm = digits(2) else { return nil }
            h = hh; mi = mm
            if expect(58) {
                guard let ss = digits(2) else { return nil }
                s = ss
                if expect(46) {
                    let start = i
                    while i < b.count, b[i] &- 48 < 10 {
                        if i - start < 3 { ms = ms * 10 + Int(b[i] &- 48) }
                        i += 1
                    }
                    guard i > start else { return nil }
                    for _ in min(3, i - start)..<3 { ms *= 10 }
                }
            }
            guard h < 24, mi < 60, s < 61 else { return nil }
        }
        var offset = 0
        if i < b.count {
            if b[i] == 90 { i += 1 } else if b[i] == 43 || b[i] == 45 {
                let sign = b[i] == 43 ? 1 : -1
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(58)
                guard let om = digits(2), oh < 24, om < 60 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard i == b.count else { return nil }
        return (epoch(year: y, month: mo, day: d, hour: h, minute: mi, second: s) - Int64(offset)) * 1000 + Int64(ms)
    }
}
