import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation

/// The rows of a screen (strategy or condition) as one shard writes them into its partial
/// result and a merge reads them back.
public protocol ScreenRowsFormat {
    associatedtype Row: SymbolRow
    /// The payload file in a partial result.
    static var fileName: String { get }
    static func write(_ rows: [(position: Int, row: Row)], name: String, in partial: PartialWriter) throws
    static func read(_ path: String) throws -> [(position: Int, row: Row)]
}

extension ScreenRowsFile: ScreenRowsFormat {
    public static let fileName = "screen.rows"
}

extension ConditionRowsFile: ScreenRowsFormat {
    public static let fileName = "condition.rows"
}

/// A screen split over shards by symbol, for strategy and condition screens alike: which
/// symbols a shard runs, the partial result it writes (with the fingerprints of the symbol
/// list and the store), and the checks and the read-back of a merge.
public struct ScreenSplit {
    /// The screen's symbols, in order.
    public let symbols: [String]
    /// The store the symbols are read from (its series and depth profiles are fingerprinted).
    public let store: CandleStore

    public init(symbols: [String], store: CandleStore) {
        self.symbols = symbols
        self.store = store
    }

    /// What `rows` gives: every symbol's rows in symbol order, or the partial result a shard wrote.
    public enum Outcome<Row> {
        case rows([Row])
        /// `assigned` of the screen's symbols went into the partial-result folder `target`.
        case shard(Shard, assigned: Int, target: String)
    }

    /// Positions in `symbols` of the symbols that belong to `shard`.
    public func positions(in shard: Shard) -> [Int] {
        symbols.indices.filter { Shard.index(ofSymbol: symbols[$0], count: shard.count) == shard.index }
    }

    /// Checks that the shards' partial results are of these symbols and of the store as it is now.
    public func check(_ set: PartialSet) throws {
        let m = set.manifest
        guard m.items == symbols.count, m.itemsSHA256 == Fingerprint.of(symbols) else {
            throw InputError("the partial results are of \(m.items) symbols, this command line gives \(symbols.count) "
                             + "(did the store's symbols change since the shards ran?)")
        }
        guard m.dataSHA256 == (try Fingerprint.store(store, symbols: symbols)) else {
            throw InputError("the store changed since the shards ran (a series of these symbols was imported, removed or "
                             + "extended): rerun the shards")
        }
    }

    /// The rows `source` gives: `compute` of every symbol; a shard's, computed for its symbols
    /// and written as its partial result (`shard-K-of-N` in `parent`, the manifest recording
    /// `arguments`, the command line after `bt`); or every shard's, read back in symbol order
    /// (`check` them first).
    /// - Parameter compute: the rows of the symbols given, in their order.
    public func rows<Format: ScreenRowsFormat>(_ format: Format.Type, source: RowSource, parent: String?,
                                               arguments: [String],
                                               compute: ([String]) -> [Format.Row]) throws -> Outcome<Format.Row> {
        switch source {
        case .compute:
            return .rows(compute(symbols))
        case .shard(let shard):
            let positions = positions(in: shard)
            let mine = compute(positions.map { symbols[$0] })
            guard let parent else { preconditionFailure("a shard writes into a parent folder") }
            let manifest = PartialManifest(command: "screen", arguments: arguments, shard: shard, items: symbols.count,
                                           itemsSHA256: Fingerprint.of(symbols), assigned: positions.count,
                                           dataSHA256: try Fingerprint.store(store, symbols: symbols))
            let writer = try PartialWriter(parent: parent, manifest: manifest)
            try Format.write(Array(zip(positions, mine)), name: Format.fileName, in: writer)
            try writer.commit()
            return .shard(shard, assigned: positions.count, target: writer.target)
        case .merge(let set, _):
            return .rows(try set.rows(Format.self, symbols: symbols))
        }
    }
}

extension PartialSet {
    /// The screen rows of every shard, in the order of the screen's symbol list.
    /// With `symbols`, each row must be of the symbol at its position in it.
    public func rows<Format: ScreenRowsFormat>(_ format: Format.Type, symbols: [String]? = nil) throws -> [Format.Row] {
        let count = manifest.shard.count
        return try ordered(parts.map { part in (part, try Format.read(part.file(Format.fileName))) }, symbols: symbols) {
            Shard.index(ofSymbol: $0, count: count)
        }
    }
}
