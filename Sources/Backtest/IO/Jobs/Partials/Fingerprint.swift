import BacktestCore
import BacktestData

/// SHA-256 of text lines, for the fingerprints of partial results.
public enum Fingerprint {
    public static func of(_ lines: [String]) -> String {
        var h = SHA256()
        for line in lines {
            h.update(line.utf8)
            h.update(CollectionOfOne(10))
        }
        return h.hexDigest()
    }

    /// The stored series of `symbols` as `bt data list` shows them, and their calibrated depth
    /// profiles: what a screen's shards and its merge must all have seen the same.
    public static func store(_ store: CandleStore, symbols: [String]) throws -> String {
        let wanted = Set(symbols.map { SeriesName.split($0)?.0 ?? $0 })  // `SYMBOL@TF` names its symbol's series
        let series = try store.list().filter { wanted.contains($0.symbol) }.map {
            "\($0.symbol)\t\($0.timeframe)\t\($0.first)\t\($0.last)\t\($0.bars)"
        }
        let profiles = try store.depthProfileSymbols().filter(wanted.contains).map {
            "profile\t\($0)\t" + ((try store.depthProfile(symbol: $0))?.json() ?? "")
        }
        return of(series + profiles)
    }

    /// A sweep's execution settings for one symbol (options, and what a stored depth profile or
    /// the candles' inferred tick set), as its report's manifest lists them.
    public static func execution(_ config: ExecutionConfig) -> String {
        of(config.parameters.map { "\($0.name)\t\($0.text)" })
    }
}
