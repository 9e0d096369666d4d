import Backtest
import Foundation

/// `--shard` and `--shards`, for `bt screen` and `bt sweep`.
enum ShardOptions {
    static let all: [Option] = [.shard, .shards]
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
