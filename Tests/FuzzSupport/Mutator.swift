/// Deterministic byte mutations for the fuzz pass inside the test suite (libFuzzer mutates with
/// coverage feedback; this replays the same kinds of edits from a fixed seed, so every test run
/// tries the same inputs): flip, insert, delete, duplicate or overwrite bytes, splice in tokens
/// the formats care about (delimiters, quotes, brackets, signs, exponents, huge numbers, control
/// and multi-byte characters).
public struct Mutator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    static let tokens: [[UInt8]] = [
        ",", ";", "\t", "\n", "\r\n", "\"", "\"\"", "'", "{", "}", "[", "]", ":", "-", "+", ".", "e", "E", "e308", "e-308",
        "1e300", "-1", "0", "NaN", "inf", "9999999999999999999", "1700000000000", "1700000000", "17000000000000000",
        "2024-01-02", "2024-01-02T00:00:00.123Z", "+99:99", "-00:30", "19691231", "9999-12-31T23:59:59-05:00",
        "\u{1B}[2J", "\u{1B}]0;x\u{7}", "\u{9B}", "\u{202E}", "\u{0}", "\u{1}", "é", "|", "<img>", "\\", "\\u0000",
        "null", "true", "\"type\": \"update\"", "\"bids\": [[1, 1]]", "\"price\": ", "\"Note\": \"x\"", "Time Series",
        "volume", "close", "open,high,low,close", "adj close", "date",
    ].map { Array($0.utf8) }

    /// One to four random edits of `input`, the result at most `maximumLength` bytes.
    public mutating func mutate(_ input: [UInt8], maximumLength: Int = 4096) -> [UInt8] {
        var b = input
        for _ in 0...below(4) {
            switch below(7) {
            case 0 where !b.isEmpty:
                b[below(b.count)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
            case 1:
                b.insert(UInt8(truncatingIfNeeded: next()), at: below(b.count + 1))
            case 2 where !b.isEmpty:
                let start = below(b.count)
                b.removeSubrange(start..<min(b.count, start + 1 + below(16)))
            case 3 where !b.isEmpty:
                let start = below(b.count), end = min(b.count, start + 1 + below(64))
                b.insert(contentsOf: b[start..<end], at: below(b.count + 1))
            case 4 where !b.isEmpty:
                b[below(b.count)] = UInt8(truncatingIfNeeded: next())
            default:
                let token = Self.tokens[below(Self.tokens.count)]
                if !b.isEmpty && below(2) == 0 {
                    let start = below(b.count)
                    b.replaceSubrange(start..<min(b.count, start + token.count), with: token)
                } else {
                    b.insert(contentsOf: token, at: below(b.count + 1))
                }
            }
        }
        return Array(b.prefix(maximumLength))
    }
}
