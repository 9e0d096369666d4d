/// A stored series named on the command line: a symbol, optionally with its timeframe after
/// `@` (`AAPL@1d`). `@` may also appear inside symbols (`BTC@BINANCE`), so a name is split only
/// when the part after the last `@` is a timeframe and the whole name is not a stored symbol.
public enum SeriesName {
    /// `AAPL@1d` as ("AAPL", .day1); nil when `text` has no `@` followed by a timeframe.
    public static func split(_ text: String) -> (String, Timeframe)? {
        guard let at = text.lastIndex(of: "@"), at > text.startIndex,
              let tf = Timeframe(rawValue: String(text[text.index(after: at)...])) else { return nil }
        return (String(text[..<at]), tf)
    }

    /// `text` checked and upper-cased as the store keeps symbols, its `@TF` kept as written
    /// (`aapl@1m` is `AAPL@1m`: upper-casing would make the minute a month).
    /// - Throws: `InputError` (setting `.symbol`) for an invalid symbol.
    public static func normalized(_ text: String) throws -> String {
        if let (symbol, tf) = split(text), Symbol.isValid(symbol) { return try Symbol.validated(symbol) + "@" + tf.rawValue }
        return try Symbol.validated(text)
    }
}
