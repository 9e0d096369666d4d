import Foundation

// The keys `@` names: which expressions read other series, their symbols checked before any
// series is read, the refusal of an unknown one, and the series a manifest lists.

extension OtherSeriesReader {
    /// Why `symbol` (read as `wanted`: `SPY@1d`, or the symbol alone when the run's timeframe is
    /// not known yet) cannot be read: no stored series of it, with the closest of `keys`.
    func unknown(_ symbol: String, read wanted: String, keys: [String]) -> Refusal {
        let candidates = wanted == symbol ? keys.map(Self.symbol(of:)) : keys
        let hint = Suggest.closest(to: wanted, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
        // `@2h`, `@1D`: meant as a timeframe, read as a symbol.
        let timeframes = symbol.first?.isNumber == true && symbol.last?.isLetter == true && symbol.dropLast().allSatisfy(\.isNumber)
            ? " ('\(symbol)' is no timeframe: they are \(Timeframe.allCases.map(\.rawValue).joined(separator: " ")))" : ""
        let read = wanted == symbol ? "" : " (read as '\(wanted)')"
        return Refusal(reason: "no candles stored for '\(symbol)'\(read)\(hint)\(timeframes)")
    }

    /// Every series `expressions` read with `@` on the bars of `runs`, loading those no rule has
    /// read yet (a merge of shards runs none), with every other series read so far (`read`):
    /// what a manifest lists. A key that cannot be read on a run is left out.
    public func read(by expressions: [LocatedExpression], on runs: [CandleSeries]) -> [(name: String, candles: CandleSeries)] {
        for run in runs {
            for e in expressions { for (reference, _) in e.expression.root.otherReferences { _ = try? series(reference, for: run) } }
        }
        return read
    }

    /// The symbol of a `SYMBOL@TF` key: what comes before its last `@` (a symbol may hold one).
    private static func symbol(of key: String) -> String {
        key.lastIndex(of: "@").map { String(key[..<$0]) } ?? key
    }

    /// The reader for `expressions`: `shared` when given, else `make`'s, once their symbols are
    /// checked (`checkSymbols`); nil when none reads `@` (`make` is not called then).
    public static func reading(_ expressions: [LocatedExpression], shared: OtherSeriesReader? = nil,
                               make: () throws -> OtherSeriesReader) throws -> OtherSeriesReader? {
        guard expressions.contains(where: \.readsOtherSeries) else { return nil }
        let reader = try shared ?? make()
        try reader.checkSymbols(in: expressions)
        return reader
    }

    /// Refuses a symbol after `@` in `expressions` that the source does not hold, before any
    /// series is read: a screen or a portfolio of many symbols stops at a bad key once (exit 2,
    /// with the caret), instead of giving every symbol the same error. Reads the source's keys
    /// under the reader's lock, as every call of the source is.
    /// - Throws: `InputError` at the expression's origin, with the caret under the keys.
    public func checkSymbols(in expressions: [LocatedExpression]) throws {
        var keys: [String]?
        for e in expressions {
            for (reference, range) in e.expression.root.otherReferences {
                guard let symbol = reference.symbol else { continue }
                let stored = try keys ?? lock.withLock { try source.keys() }
                keys = stored
                guard !stored.contains(where: { Self.symbol(of: $0) == symbol }) else { continue }
                let wanted = reference.timeframe.map { "\(symbol)@\($0.rawValue)" } ?? symbol
                let reason = unknown(symbol, read: wanted, keys: stored).reason
                throw LocatedExpression.inputError(ExpressionError(.otherSeries, reason, at: range, in: e.text), e.origin)
            }
        }
    }
}

extension ExpressionSyntax {
    /// Every `@` in the expression, its reference and keys, leftmost first.
    var otherReferences: [(OtherSeriesReference, Range<Int>)] {
        var found: [(OtherSeriesReference, Range<Int>)] = []
        if case .other(_, let reference, let keyRange) = kind { found.append((reference, keyRange)) }
        return found + children.flatMap(\.otherReferences)
    }
}

extension LocatedExpression {
    /// Whether the expression reads another series with `@` (`close@SPY`, `sma(close, 50)@1d`):
    /// it binds only against a run's bars, with an `OtherSeriesReader`.
    public var readsOtherSeries: Bool {
        ExpressionChecker.firstOther(in: expression.root) != nil
    }

    /// `bind(_:)` for a run on `candles`, `@` reading `other`'s series aligned to its bars.
    /// - Throws: `InputError` with the caret, as `bind(_:)`, and for a key `other` cannot read
    ///   on these candles (an unknown symbol, a lower timeframe, no bar closed within them).
    public func bind(_ values: [String: ExpressionValue], reading other: OtherSeriesReader,
                     on candles: CandleSeries) throws -> ExpressionNode {
        try bind(values, other: .read(other, run: candles))
    }

    /// `bind(_:)` with what `@` reads left out (NaN): every check but those of the other
    /// series, for expressions that are bound again per run.
    package func bindLeavingOtherSeriesOut(_ values: [String: ExpressionValue]) throws -> ExpressionNode {
        try bind(values, other: .leftOut)
    }
}
