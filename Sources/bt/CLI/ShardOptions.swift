import Backtest
import Foundation

/// `--shard` and `--shards`, for `bt screen` and `bt sweep`.
enum ShardOptions {
    static let all: [Option] = [.shard, .shards]
}

/// Where a screen or sweep gets its rows: computed here (all of them, or one shard's, written
/// as a partial result), or read back from every shard's partial result by `bt merge`.
enum RowSource {
    case compute
    case shard(Shard)
    case merge(PartialSet, force: Bool)
}

extension ParsedArguments {
    /// `.shard(...)` for `--shard K/N` or `--shard auto`, else `.compute`.
    func rowSource(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RowSource {
        let count = try int(.shards)
        guard let text = value(.shard) else {
            if count != nil { throw UsageError("\(Option.shards) goes with \(Option.shard) auto", command: command.name) }
            return .compute
        }
        guard value(.out) != nil else {
            throw UsageError("\(Option.shard) writes its part into \(Option.out) DIR (as DIR/shard-K-of-N): give the "
                             + "same \(Option.out) to every shard, then 'bt merge DIR \(Option.out) RESULT'", command: command.name)
        }
        if text == "auto" { return .shard(try Shard.automatic(environment: environment, count: count)) }
        if count != nil {
            throw UsageError("\(Option.shards) goes with \(Option.shard) auto (\(Option.shard) K/N gives the count)", command: command.name)
        }
        return .shard(try Shard(parsing: text))
    }

    /// The command line after `bt`, as a shard's manifest records it.
    var arguments: [String] { Array(commandLine.dropFirst()) }
}

extension RowSource {
    var isMerge: Bool { if case .merge = self { true } else { false } }
}

/// SHA-256 of text lines, for the fingerprints of partial results.
enum Fingerprint {
    static func of(_ lines: [String]) -> String {
        var h = SHA256()
        for line in lines {
            h.update(line.utf8)
            h.update(CollectionOfOne(10))
        }
        return h.hexDigest()
    }

    /// The stored series of `symbols` as `bt data list` shows them, and their calibrated depth
    /// profiles: what a screen's shards and its merge must all have seen the same.
    static func store(_ store: CandleStore, symbols: [String]) throws -> String {
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
    static func execution(_ config: ExecutionConfig) -> String {
        of(config.parameters.map { "\($0.name)\t\($0.text)" })
    }
}
