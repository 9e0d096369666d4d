import BacktestCore

/// File names made from user text (symbols, strategy names).
public enum FileName {
    /// The longest name `sanitized` returns: room for a symbol of `Symbol.maximumLength`
    /// characters with every one of them escaped.
    public static let maximumLength = 3 * Symbol.maximumLength

    /// A one-component file name for `text`, different for different texts, so look-alike
    /// symbols (`EUR/USD`, `EUR_USD`, `EUR:USD`; `^GSPC`, `GSPC`) never share a report folder.
    ///
    /// ASCII letters, digits, `-`, `_` and `.` are kept, so safe names (`AAPL`, `EUR_USD`,
    /// `BRK.B`, `ma-cross`) stay as they are; every other byte of the UTF-8 text, and a leading
    /// `.` (no hidden files, never `.` or `..`), becomes `%XX` (upper-case hex): `EUR/USD` is
    /// `EUR%2FUSD`, `^GSPC` is `%5EGSPC`, `../x` is `%2E.%2Fx`. `%` is never kept, so two texts
    /// cannot meet in one name. A text whose name would be longer than `maximumLength` (never a
    /// symbol) keeps its first characters and ends in `%%` and 16 hex digits of its SHA-256;
    /// the empty text is `unnamed`.
    /// - Complexity: O(n) in the text's bytes.
    public static func sanitized(_ text: String) -> String {
        guard !text.isEmpty else { return "unnamed" }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            let safe = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2D || b == 0x5F || (b == 0x2E && !out.isEmpty)
            if safe { out.append(b) } else { out += [0x25, hex[Int(b >> 4)], hex[Int(b & 0xF)]] }
            if out.count > maximumLength { break }
        }
        guard out.count > maximumLength else { return String(decoding: out, as: UTF8.self) }
        let suffix = Array(("%%" + SHA256.hex(text.utf8).prefix(16)).utf8)
        var kept = out.prefix(maximumLength - suffix.count)
        // Never cut an escape in two (a `%` or `%X` left at the end).
        if let percent = kept.suffix(2).lastIndex(of: 0x25) { kept = kept[..<percent] }
        return String(decoding: kept + suffix, as: UTF8.self)
    }

    /// `sanitized(text)` as a relative link in markdown or HTML (its `%` written `%25`, so the
    /// link opens the folder rather than the name it escapes).
    public static func link(_ text: String) -> String {
        sanitized(text).replacingOccurrences(of: "%", with: "%25")
    }

    /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it: "" for a
    /// bare name, "/" for a name at the root, trailing slashes ignored. (Foundation's own traps
    /// on one-character paths such as `--out x` on Linux.)
    public static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var head = p[..<slash]
        while head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }
}
