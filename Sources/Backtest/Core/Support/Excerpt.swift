/// Input echoed in an error message: quoted, short and inert.
///
/// A rejected field can be anything the file held, up to hundreds of megabytes on one line.
/// Messages show at most `limit` characters of it (the rest counted), with control characters
/// made visible (`TerminalText`), so an error is one readable line whatever the input was.
package enum Excerpt {
    /// Characters shown before the text is cut.
    package static let limit = 80

    /// `'abc'`, or `'abcd…' (123456 characters)` when longer than `limit`.
    package static func quoted(_ text: String, limit: Int = Excerpt.limit) -> String {
        "'" + shortened(text, limit: limit) + "'" + suffix(text, limit: limit)
    }

    /// The first `limit` characters with controls escaped, and `…` when cut.
    package static func shortened(_ text: String, limit: Int = Excerpt.limit) -> String {
        var head = String.UnicodeScalarView()
        var count = 0
        for s in text.unicodeScalars {
            if count == limit { head.append("…"); break }
            head.append(s)
            count += 1
        }
        return TerminalText.escaped(String(head))
    }

    private static func suffix(_ text: String, limit: Int) -> String {
        let n = text.unicodeScalars.count
        return n > limit ? " (\(n) characters)" : ""
    }
}
