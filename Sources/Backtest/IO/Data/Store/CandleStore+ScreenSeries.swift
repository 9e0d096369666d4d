import BacktestCore

/// A stored symbol a screen left out, or a series it read by resampling a finer one, and why:
/// what `bt screen` lists under its table, in `screen.md` and in its JSON.
public struct SeriesNote: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Left out: the symbol cannot be read at the screen's timeframe.
        case skipped
        /// Read at the screen's timeframe by resampling a finer stored series.
        case resampled
    }

    /// The symbol, or the series as the screen names it (`EURUSD@1d`).
    public var series: String
    public var kind: Kind
    public var reason: String

    public init(series: String, kind: Kind, reason: String) {
        self.series = series; self.kind = kind; self.reason = reason
    }
}

extension CandleStore {
    /// What a screen of the series `names` at `timeframe` says about them (nil: every series as
    /// stored, nothing to say): each name read by resampling a finer stored series (from which
    /// timeframe; along the series' session, or in UTC periods), and, when the screen took
    /// every stored symbol (`all`, `allSeries(timeframe:)`), each symbol it left out because it
    /// is stored only coarser than `timeframe`. A name the store cannot read is left to the
    /// screen's own error row.
    public func seriesNotes(screening names: [String], timeframe: Timeframe?, all: Bool) throws -> [SeriesNote] {
        guard let timeframe else { return [] }
        let stored = try list()
        var notes: [SeriesNote] = []
        if all {
            var bySymbol: [String: [String]] = [:]
            for info in stored { bySymbol[info.symbol, default: []].append(info.timeframe) }
            for symbol in bySymbol.keys.sorted() {
                let timeframes = bySymbol[symbol]!
                guard !timeframes.contains(where: { Timeframe(rawValue: $0).map { $0 <= timeframe } ?? false }) else { continue }
                notes.append(SeriesNote(series: symbol, kind: .skipped,
                                        reason: "stored only at \(timeframes.joined(separator: ", ")), coarser than \(timeframe.rawValue); "
                                            + "bars cannot be split"))
            }
        }
        for name in names {
            guard let (symbol, named) = try? SeriesName.resolve(name, timeframe: timeframe, stored: stored), let named else { continue }
            let series = stored.filter { $0.symbol == symbol }
            // As `load` reads it: the series stored at the timeframe, else the first stored one resampled.
            guard !series.contains(where: { $0.timeframe == named.rawValue }), let finest = series.first,
                  let base = Timeframe(rawValue: finest.timeframe), base < named else { continue }
            let how = try session(symbol: symbol, timeframeKey: finest.timeframe)
                .map { "along its session \($0.hours) \($0.zone)" } ?? (named == .day1 ? "in UTC days" : "in UTC periods")
            notes.append(SeriesNote(series: name, kind: .resampled,
                                    reason: "\(named.rawValue) bars made from its \(finest.timeframe) bars, \(how)"))
        }
        return notes
    }
}
