/// UTF-8 text built in one growing byte array: what the large machine files (a million-row
/// `equity.csv`, a report page's JSON) are written through, without a `String` per cell or a
/// `String` append per piece (each checks and may copy the whole string's storage).
///
/// The number and time forms are exactly `NumberText.shortest` and `UTCTime.iso`, so text
/// written here is the text those functions give, byte for byte.
package struct TextBytes {
    package private(set) var bytes: [UInt8]

    package init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far as a `String` (one copy; the bytes are valid UTF-8 by construction).
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    @inline(__always)
    package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `String(v)` for an integer, without the `String`.
    package mutating func append(integer v: Int64) {
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            // -Int64.min does not fit: its magnitude as UInt64.
            appendDigits(UInt64(bitPattern: 0 &- v))
        } else {
            appendDigits(UInt64(v))
        }
    }

    private mutating func appendDigits(_ v: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: room for 20 digits
        var n = v, count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[23 &- count] = UInt8(truncatingIfNeeded: n % 10) &+ UInt8(ascii: "0")
                n /= 10
                count &+= 1
            } while n != 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[(24 - count)...]))
        }
    }

    /// `NumberText.shortest(v)`: whole numbers below 1e15 as integers, any other value in Swift's
    /// shortest round-trip form (`nan` and `inf` as Swift spells them).
    package mutating func append(shortest v: Double) {
        if v == v.rounded() && abs(v) < 1e15 {
            append(integer: Int64(v))
        } else {
            append(v.description)
        }
    }

    /// `UTCTime.iso(t)`: `2024-01-02T03:04:05Z`.
    package mutating func append(iso t: Int64) {
        let c = UTCTime.civil(t)
        guard (0...9999).contains(c.year) else { append(UTCTime.iso(t)); return }
        @inline(__always) func two(_ v: Int) -> (UInt8, UInt8) {
            (UInt8(truncatingIfNeeded: v / 10) &+ 48, UInt8(truncatingIfNeeded: v % 10) &+ 48)
        }
        let y = c.year, (mo0, mo1) = two(c.month), (d0, d1) = two(c.day)
        let (h0, h1) = two(c.hour), (mi0, mi1) = two(c.minute), (s0, s1) = two(c.second)
        var t20: (UInt64, UInt64, UInt32) = (0, 0, 0)   // 20 bytes
        withUnsafeMutableBytes(of: &t20) { b in
            b[0] = UInt8(truncatingIfNeeded: y / 1000) &+ 48
            b[1] = UInt8(truncatingIfNeeded: y / 100 % 10) &+ 48
            b[2] = UInt8(truncatingIfNeeded: y / 10 % 10) &+ 48
            b[3] = UInt8(truncatingIfNeeded: y % 10) &+ 48
            b[4] = 45; b[5] = mo0; b[6] = mo1; b[7] = 45; b[8] = d0; b[9] = d1
            b[10] = 84; b[11] = h0; b[12] = h1; b[13] = 58; b[14] = mi0; b[15] = mi1
            b[16] = 58; b[17] = s0; b[18] = s1; b[19] = 90
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[0..<20]))
        }
    }
}
