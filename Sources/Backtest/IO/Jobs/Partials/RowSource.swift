import BacktestAnalysis
import BacktestCore

/// Where a screen or sweep gets its rows: computed here (all of them, or one shard's, written
/// as a partial result), or read back from every shard's partial result (a merge).
public enum RowSource {
    case compute
    case shard(Shard)
    /// Every shard's partial result; `force` lets the merged report replace an existing folder.
    case merge(PartialSet, force: Bool)

    public var isMerge: Bool { if case .merge = self { true } else { false } }

    /// The shard computed here, if this is one.
    public var shard: Shard? { if case .shard(let shard) = self { shard } else { nil } }

    /// The partial results merged, if this is a merge.
    public var merged: PartialSet? { if case .merge(let set, _) = self { set } else { nil } }

    /// Whether the output may replace an existing folder: a merge's own `force`, else `given`.
    public func force(_ given: Bool) -> Bool { if case .merge(_, let force) = self { force } else { given } }
}
