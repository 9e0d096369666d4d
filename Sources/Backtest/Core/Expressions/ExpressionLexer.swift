/// One token of a signal expression and the characters it came from.
struct ExpressionToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case number(Double)
        /// A name: a series, a function, or one of the words `and`, `or`, `not`.
        case identifier(String)
        /// `$name`.
        case parameter(String)
        /// `@KEY`: a symbol or a timeframe after `@` (`@SPY`, `@1d`), without the `@`.
        case at(String)
        /// One of `( ) [ ] , . + - * / < <= > >= == !=`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var range: Range<Int>

    /// How the token reads in a message: `'('`, `number 12`, `end of expression`.
    var quoted: String {
        switch kind {
        case .number: return "number"
        case .identifier(let s): return "'\(s)'"
        case .parameter(let s): return "'$\(s)'"
        case .at(let s): return "'@\(s)'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "end of expression"
        }
    }
}

/// Splits an expression into tokens. Whitespace (newlines included) separates tokens; anything
/// that is not a number, a name, `$name` or an operator is an error at its column.
enum ExpressionLexer {
    /// What a key after `@` may hold besides letters, digits and `_`: the symbols' punctuation
    /// `. - ^ / :` (`@BRK.B`, `@BTC-USD`), so `close@SPY-1` reads the symbol `SPY-1`: put spaces
    /// around an operator after a key. `@` ends a key (`@SPY@1d` is two keys).
    static let keyPunctuation: Set<UInt8> = [46, 45, 94, 47, 58]

    /// The tokens of `source` (characters), ending with `.end`.
    /// - Throws: `ExpressionError` (`.syntax`) at the first character that starts no token.
    static func tokens(_ chars: [Character], source: String) throws -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        var i = 0
        let n = chars.count
        func ascii(_ k: Int) -> UInt8? { k < n ? chars[k].asciiValue : nil }
        func isDigit(_ k: Int) -> Bool { ascii(k).map { $0 >= 48 && $0 <= 57 } ?? false }
        func isNameStart(_ k: Int) -> Bool {
            guard let c = ascii(k) else { return false }
            return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95
        }
        func isNamePart(_ k: Int) -> Bool { isNameStart(k) || isDigit(k) }
        func fail(_ reason: String, _ range: Range<Int>) -> ExpressionError {
            ExpressionError(.syntax, reason, at: range, in: source)
        }

        while i < n {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            let start = i
            if isDigit(i) {
                while isDigit(i) { i += 1 }
                if ascii(i) == 46, isDigit(i + 1) {  // '.' then digits
                    i += 1
                    while isDigit(i) { i += 1 }
                }
                if ascii(i) == 101 || ascii(i) == 69 {  // e / E
                    var j = i + 1
                    if ascii(j) == 43 || ascii(j) == 45 { j += 1 }
                    if isDigit(j) {
                        i = j
                        while isDigit(i) { i += 1 }
                    }
                }
                if isNamePart(i) || (ascii(i) == 46 && isDigit(i + 1)) {
                    while isNamePart(i) || ascii(i) == 46 { i += 1 }
                    throw fail("'\(String(chars[start..<i]))' is not a number", start..<i)
                }
                let text = String(chars[start..<i])
                guard let v = Double(text), v.isFinite else { throw fail("number '\(text)' is out of range", start..<i) }
                tokens.append(ExpressionToken(kind: .number(v), range: start..<i))
                continue
            }
            if isNameStart(i) {
                while isNamePart(i) { i += 1 }
                tokens.append(ExpressionToken(kind: .identifier(String(chars[start..<i])), range: start..<i))
                continue
            }
            if c == "$" {
                i += 1
                guard isNameStart(i) else {
                    throw fail("'$' must be followed by a parameter name, as in $fast", start..<(start + 1))
                }
                while isNamePart(i) { i += 1 }
                tokens.append(ExpressionToken(kind: .parameter(String(chars[(start + 1)..<i])), range: start..<i))
                continue
            }
            if c == "@" {
                i += 1
                while let a = ascii(i), isNamePart(i) || Self.keyPunctuation.contains(a) { i += 1 }
                guard i > start + 1 else {
                    throw fail("'@' must be followed by a symbol or a timeframe, as in close@SPY or sma(close, 50)@1d", start..<(start + 1))
                }
                tokens.append(ExpressionToken(kind: .at(String(chars[(start + 1)..<i])), range: start..<i))
                continue
            }
            let next: Character? = i + 1 < n ? chars[i + 1] : nil
            switch c {
            case "(", ")", "[", "]", ",", "+", "-", "*", "/":
                i += 1
            case ".":
                if isDigit(i + 1) {
                    throw fail("a number needs a digit before its point (0\(String(chars[i..<min(n, i + 4)]))...)", start..<(start + 1))
                }
                i += 1
            case "<", ">":
                i += next == "=" ? 2 : 1
            case "=":
                guard next == "=" else { throw fail("'=' alone is not an operator; compare with '=='", start..<(start + 1)) }
                i += 2
            case "!":
                guard next == "=" else { throw fail("'!' is not an operator; write 'not'", start..<(start + 1)) }
                i += 2
            case "&":
                throw fail("'&' is not an operator; write 'and'", start..<(next == "&" ? start + 2 : start + 1))
            case "|":
                throw fail("'|' is not an operator; write 'or'", start..<(next == "|" ? start + 2 : start + 1))
            default:
                throw fail("unexpected character '\(c)'", start..<(start + 1))
            }
            tokens.append(ExpressionToken(kind: .symbol(String(chars[start..<i])), range: start..<i))
        }
        tokens.append(ExpressionToken(kind: .end, range: n..<(n + 1)))
        return tokens
    }
}
