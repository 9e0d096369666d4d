import BacktestAnalysis

/// What only the command line knows about the command line a shard's manifest stores
/// (`PartialManifest.arguments`): which of its words tell one run from another, and how one
/// shard is run again. bt supplies it; the library never reads option words.
public struct ShardCommandLine: Sendable {
    /// The stored arguments without the words that differ between the shards of one run and do
    /// not change what it computes (the shard and output options).
    public var identifying: @Sendable (_ arguments: [String]) -> [String]
    /// The command line (after `bt`) that runs `shard` of the run whose shards stored `arguments`.
    public var rerun: @Sendable (_ arguments: [String], _ shard: Shard) -> [String]

    public init(identifying: @escaping @Sendable ([String]) -> [String],
                rerun: @escaping @Sendable ([String], Shard) -> [String]) {
        self.identifying = identifying
        self.rerun = rerun
    }
}
