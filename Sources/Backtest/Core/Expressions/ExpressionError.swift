/// A mistake in a signal expression: what is wrong and which characters, so it can be shown
/// with a caret under them.
///
/// Positions count `Character`s (grapheme clusters) of the source, which is what a terminal
/// lines up column by column for the expressions people type.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A character, number or token that does not fit the grammar (including an empty
        /// expression, a missing parenthesis and chained comparisons).
        case syntax
        /// A name followed by `(` that is not a function.
        case unknownFunction
        /// A bare name that is not a series.
        case unknownSeries
        /// A `$name` that is not declared.
        case unknownParameter
        /// `.name` that the indicator does not have, or a multi-output indicator used without one.
        case unknownOutput
        /// Too many or too few arguments.
        case arguments
        /// `x[n]` with n negative or not a whole number.
        case offset
        /// A number where a condition is needed, or the reverse.
        case type
        /// A series where a fixed number (a period, an offset) is needed.
        case notConstant
        /// A parameter value a function cannot take (a period of 0 or 2.5, fast >= slow for macd).
        case value
        /// More nesting than the parser accepts.
        case tooDeep
        /// More operations than a plan accepts once the helpers that repeat their argument
        /// (`change`, `rising`, `falling`, `zscore`) are written out.
        case tooLarge
        /// A position series (`trade_return`, ...) where its past is needed (the input of an
        /// indicator, a window, an offset, a crossing, `bars_since`) or where there is no run
        /// (a screen, a rank, a price).
        case positionSeries
        /// `@` naming a series that cannot be read: an unknown symbol or timeframe, a timeframe
        /// below the run's, `@` inside `@`, or a command that reads no other series.
        case otherSeries
    }

    public var kind: Kind
    /// What is wrong, in words a user can act on (`unknown function 'smaa'; did you mean 'sma'?`).
    public var reason: String
    /// The offending characters: offsets into `source` counted in `Character`s.
    public var range: Range<Int>
    /// The whole expression text.
    public var source: String

    public init(_ kind: Kind, _ reason: String, at range: Range<Int>, in source: String) {
        self.kind = kind
        self.reason = reason
        self.range = range
        self.source = source
    }

    /// 0-based line of the source the error starts on (expressions in strategy files may span lines).
    public var line: Int {
        source.prefix(range.lowerBound).reduce(0) { $0 + ($1.isNewline ? 1 : 0) }
    }

    /// 0-based column of the error's first character within its line.
    public var column: Int {
        let before = source.prefix(range.lowerBound)
        guard let lastNewline = before.lastIndex(where: \.isNewline) else { return before.count }
        return before.distance(from: before.index(after: lastNewline), to: before.endIndex)
    }

    /// Characters of the source line `caret` shows at most; a longer line is cut to the part
    /// around the error, with `...` where it was cut.
    public static let shownWidth = 80

    /// Two lines: the source line the error is on (at most `shownWidth` characters of it),
    /// indented by two spaces, and carets under the offending characters (at least one, at the
    /// end of the line for "expected more").
    public var caret: String {
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let index = min(line, max(0, lines.count - 1))
        var text = lines.isEmpty ? Substring("") : lines[index]
        var start = column
        var width = max(1, min(range.count, text.count - start))
        var head = "", tail = ""
        if text.count > Self.shownWidth {
            // Up to 20 characters before the error, then as much of it as fits.
            let from = max(0, min(start - 20, text.count - Self.shownWidth))
            let cut = text.dropFirst(from)
            text = cut.prefix(Self.shownWidth)
            if from > 0 { head = "..." }
            if cut.count > Self.shownWidth { tail = "..." }
            start = start - from + head.count
            width = max(1, min(width, text.count + head.count - start))
        }
        // Tabs stay tabs under tabs, so the caret lines up whatever the tab width.
        let pad = String((head + text).prefix(start).map { $0 == "\t" ? "\t" : " " })
        return "  " + head + text + tail + "\n  " + pad + String(repeating: "^", count: width)
    }

    /// The reason, then the caret lines.
    public var description: String { reason + "\n" + caret }
}
