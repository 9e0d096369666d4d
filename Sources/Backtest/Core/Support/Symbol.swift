/// What a symbol may be. Symbols key the store, name report folders and appear in tables,
/// reports and terminals, so they are kept to a small, inert alphabet.
///
/// A symbol is 1 to 32 characters: ASCII letters (stored upper case), digits and
/// `. - _ ^ = / : @ !`, starting with a letter, a digit or `^`. That covers tickers (`GOOG`,
/// `BRK.B`, `BRK-B`), indices (`^GSPC`), futures (`ES=F`, `ES1!`), pairs (`EUR/USD`, `BTCUSDT`)
/// and exchange prefixes (`BINANCE:BTCUSDT`). Spaces, quotes, commas, `|`, `<`, `>`, control
/// and non-ASCII characters are refused.
package enum Symbol {
    package static let maximumLength = 32
    /// The punctuation allowed after the first character.
    package static let punctuation: Set<Character> = [".", "-", "_", "^", "=", "/", ":", "@", "!"]

    /// `text` upper-cased when it is a valid symbol.
    /// - Throws: `InputError` (setting `.symbol`) saying which character or length is wrong.
    package static func validated(_ text: String) throws -> String {
        if let reason = problem(text) {
            throw InputError(reason + "; " + rule, setting: .symbol, value: text)
        }
        return text.uppercased()
    }

    /// True when `text` is a valid symbol.
    package static func isValid(_ text: String) -> Bool { problem(text) == nil }

    /// The rule, in words, for messages.
    package static let rule =
        "a symbol is 1 to 32 characters: letters, digits and . - _ ^ = / : @ !, starting with a letter, digit or ^"

    /// What is wrong with `text` as a symbol, or nil.
    package static func problem(_ text: String) -> String? {
        if text.isEmpty { return "the symbol is empty" }
        let scalars = Array(text.unicodeScalars)
        if scalars.count > maximumLength { return "the symbol is \(scalars.count) characters long" }
        for (k, s) in scalars.enumerated() {
            let c = Character(s)
            let letterOrDigit = s.isASCII && (c.isLetter || c.isNumber)
            let ok = k == 0 ? letterOrDigit || c == "^" : letterOrDigit || punctuation.contains(c)
            if !ok {
                let shown = TerminalText.needsEscape(s) || s == " " || !s.isASCII ? codePoint(s) : "'\(c)'"
                return k == 0 ? "the symbol starts with \(shown)" : "the symbol holds \(shown) at position \(k + 1)"
            }
        }
        return nil
    }

    /// `U+0001`.
    static func codePoint(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

