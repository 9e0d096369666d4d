import BacktestAnalysis
import BacktestCore

extension SeriesName {
    /// `text` as (symbol, timeframe): the timeframe from `@TF` or else `timeframe`.
    /// - Throws: `InputError` when `@TF` and `timeframe` disagree.
    public static func resolve(_ text: String, timeframe: Timeframe?, stored: [CandleStore.SeriesInfo]) throws
        -> (symbol: String, timeframe: Timeframe?) {
        guard let (symbol, named) = split(text), !stored.contains(where: { $0.symbol == text }) else {
            return (text, timeframe)
        }
        if let timeframe, timeframe != named {
            throw InputError("'\(text)' names the \(named.rawValue) series but the timeframe asked for is \(timeframe.rawValue)",
                             setting: .timeframe, value: timeframe.rawValue)
        }
        return (symbol, named)
    }

    /// The error for a symbol stored at several timeframes and used without choosing one.
    static func ambiguous(_ symbol: String, _ timeframes: [String]) -> InputError {
        InputError(.needsSetting,
                   "'\(symbol)' is stored at several timeframes (\(timeframes.joined(separator: ", "))); choose one as "
                       + timeframes.map { "\(symbol)@\($0)" }.joined(separator: " or "),
                   setting: .timeframe, value: symbol)
    }
}
