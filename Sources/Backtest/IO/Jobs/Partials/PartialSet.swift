import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation
import Foundation

/// The partial results of one split run, checked to be complete: every shard `0..<N` exactly
/// once, all from the same command line (as `ShardCommandLine.identifying` reads it), the same bt
/// version, the same items and the same data.
public struct PartialSet: Sendable {
    /// One folder per shard, by shard index.
    public let parts: [PartialFolder]

    /// The manifest every shard agrees with (shard 0's).
    public var manifest: PartialManifest { parts[0].manifest }

    /// - Throws: `InputError` listing every problem: a folder written by another bt version,
    ///   shards of different runs (naming what differs), a shard found twice, missing shards
    ///   (with the command that reruns one, from `commandLine.rerun`).
    public init(_ folders: [PartialFolder], commandLine: ShardCommandLine) throws {
        guard !folders.isEmpty else { throw InputError("no partial results to merge") }
        var problems: [String] = []
        for f in folders where f.manifest.version != btVersion {
            problems.append("\(f.path) was written by bt \(f.manifest.version); this is bt \(btVersion): merge with the bt "
                            + "that ran the shards, or rerun them")
        }
        let reference = folders.min { ($0.manifest.shard.index, $0.path) < ($1.manifest.shard.index, $1.path) }!
        let r = reference.manifest
        for f in folders where f.path != reference.path {
            let m = f.manifest
            var differs: [String] = []
            if m.shard.count != r.shard.count { differs.append("it is one of \(m.shard.count) shards, not \(r.shard.count)") }
            let identifying = (m: commandLine.identifying(m.arguments), r: commandLine.identifying(r.arguments))
            let sameCommand = m.command == r.command && identifying.m == identifying.r
            if !sameCommand {
                differs.append("its command line is `\(RunManifest.shellCommand(["bt"] + identifying.m))`, not `"
                               + RunManifest.shellCommand(["bt"] + identifying.r) + "`")
            }
            // Another command line splits other items and reads other data anyway: only name
            // those differences between shards of the same command line.
            if sameCommand && (m.items != r.items || m.itemsSHA256 != r.itemsSHA256) {
                differs.append("it split another list of \(r.command == "sweep" ? "combinations" : "symbols") (\(m.items) items, "
                               + "sha256 \(m.itemsSHA256.prefix(12)), not \(r.items), \(r.itemsSHA256.prefix(12)))")
            }
            if sameCommand && (m.dataSHA256 != r.dataSHA256 || m.symbols != r.symbols) {
                differs.append("it read other data (data sha256 \(m.dataSHA256.prefix(12)), not \(r.dataSHA256.prefix(12)): "
                               + "the store changed between the shards)")
            }
            if !differs.isEmpty {
                problems.append("\(f.path) is not part of the same run as \(reference.path): " + differs.joined(separator: "; "))
            }
        }
        var byIndex: [Int: [PartialFolder]] = [:]
        for f in folders where f.manifest.shard.count == r.shard.count { byIndex[f.manifest.shard.index, default: []].append(f) }
        for (index, list) in byIndex.sorted(by: { $0.key < $1.key }) where list.count > 1 {
            problems.append("shard \(index) of \(r.shard.count) is given twice: " + list.map(\.path).joined(separator: " and "))
        }
        let missing = (0..<r.shard.count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let parent = FileName.parent(of: reference.path)
            let names = missing.map { (try! Shard(index: $0, count: r.shard.count)).folderName }
            let rerun = commandLine.rerun(r.arguments, try Shard(index: missing[0], count: r.shard.count))
            problems.append("missing shard" + (missing.count == 1 ? " " : "s ") + missing.map(String.init).joined(separator: ", ")
                            + " of \(r.shard.count) (no " + names.map { (parent as NSString).appendingPathComponent($0) }
                                .joined(separator: ", ") + "); rerun "
                            + (missing.count == 1 ? "it" : "each") + " with: " + RunManifest.shellCommand(["bt"] + rerun)
                            + (missing.count == 1 ? "" : " (and so on)"))
        }
        guard problems.isEmpty else {
            throw InputError("the partial results do not make one complete run:\n  " + problems.joined(separator: "\n  "))
        }
        parts = (0..<r.shard.count).map { byIndex[$0]![0] }
    }

    /// The rows of sweep symbol `symbol` from every shard, merged into combination order, in
    /// chunks. Each row must come from the shard `shardOf` names and every combination of
    /// `0..<combinations` exactly once.
    public func sweepRows(file: String, combinations: Int, chunkSize: Int = 512,
                          shardOf: @escaping (Int) -> Int) throws -> SweepRowsMerger {
        try SweepRowsMerger(readers: parts.map { try SweepRowsReader(path: $0.file(file)) }, paths: parts.map { $0.file(file) },
                            combinations: combinations, chunkSize: chunkSize, shardOf: shardOf)
    }

    /// Every shard's walk-forward choices of sweep symbol `symbol`, merged.
    public func walkForwardChoices(file: String, steps: Int, rankStat: Stat) throws -> [WalkForward.Choice] {
        let perShard = try parts.map { part -> [WalkForward.Choice] in
            let c = try WalkForwardChoicesFile.read(part.file(file))
            guard c.count == steps else { throw InputError("holds \(c.count) walk-forward steps, not \(steps)", at: part.file(file)) }
            return c
        }
        return (0..<steps).map { step in WalkForward.Choice.best(of: perShard.map { $0[step] }, rankStat: rankStat) }
    }

    /// The strategy screen rows of every shard, in the order of the screen's symbol list.
    public func screenRows(file: String, shardOf: (String) -> Int) throws -> [Screen.Row] {
        try ordered(parts.map { part in (part, try ScreenRowsFile.read(part.file(file))) }, shardOf: shardOf)
    }

    /// The condition screen rows of every shard, in the order of the screen's symbol list.
    public func conditionRows(file: String, shardOf: (String) -> Int) throws -> [ConditionScreen.Row] {
        try ordered(parts.map { part in (part, try ConditionRowsFile.read(part.file(file))) }, shardOf: shardOf)
    }

    /// `lists` in position order; with `symbols` (the screen's list), each row must be of the
    /// symbol at its position.
    func ordered<Row>(_ lists: [(PartialFolder, [(position: Int, row: Row)])], symbols: [String]? = nil,
                      shardOf: (String) -> Int) throws -> [Row]
    where Row: SymbolRow {
        let n = manifest.items
        if let symbols, symbols.count != n { throw InputError("the partial results are of \(n) symbols, not \(symbols.count)") }
        var rows = [Row?](repeating: nil, count: n)
        for (part, list) in lists {
            guard list.count == part.manifest.assigned else {
                throw InputError("holds \(list.count) rows; its manifest says \(part.manifest.assigned)", at: part.path)
            }
            for (position, row) in list {
                guard position >= 0, position < n else { throw InputError("holds a row at position \(position) of \(n)", at: part.path) }
                if let symbols {
                    let base = { (s: String) in SeriesName.split(s)?.0 ?? s }
                    guard base(row.symbol) == base(symbols[position]) else {
                        throw InputError("holds \(Excerpt.quoted(row.symbol)) where symbol number \(position + 1), "
                                         + "\(Excerpt.quoted(symbols[position])), belongs", at: part.path)
                    }
                }
                guard shardOf(row.symbol) == part.manifest.shard.index else {
                    throw InputError("holds \(row.symbol), which belongs to shard \(shardOf(row.symbol))", at: part.path)
                }
                guard rows[position] == nil else { throw InputError("\(row.symbol) is in two shards", at: part.path) }
                rows[position] = row
            }
        }
        if let gap = rows.firstIndex(where: { $0 == nil }) {
            throw InputError("no shard holds symbol number \(gap + 1) of \(n)")
        }
        return rows.map { $0! }
    }
}

/// A row that names its symbol.
public protocol SymbolRow { var symbol: String { get } }
extension Screen.Row: SymbolRow {}
extension ConditionScreen.Row: SymbolRow {}

/// The rows of a sweep's shards merged back into combination order (a k-way merge of files
/// each in combination order), handed out in chunks.
public final class SweepRowsMerger {
    private let readers: [SweepRowsReader]
    private let paths: [String]
    private let combinations: Int
    private let chunkSize: Int
    private let shardOf: (Int) -> Int
    private var next = 0

    init(readers: [SweepRowsReader], paths: [String], combinations: Int, chunkSize: Int, shardOf: @escaping (Int) -> Int) {
        self.readers = readers
        self.paths = paths
        self.combinations = combinations
        self.chunkSize = chunkSize
        self.shardOf = shardOf
    }

    /// The next rows in combination order; empty once every combination was handed out.
    /// - Throws: `InputError` naming the file when a row is out of order, in the wrong shard,
    ///   missing or left over.
    public func nextChunk() throws -> [Sweep.Row] {
        var rows: [Sweep.Row] = []
        while rows.count < chunkSize && next < combinations {
            // Combination `next` lives in exactly one shard: the one the split assigns it to.
            let shard = shardOf(next)
            guard let combo = try readers[shard].peek() else {
                throw InputError("ends before combination \(next), which belongs to this shard", at: paths[shard])
            }
            guard combo == next else {
                throw InputError("holds combination \(combo) where combination \(next) was expected", at: paths[shard])
            }
            rows.append(try readers[shard].next())
            next += 1
        }
        if next == combinations {
            for (reader, path) in zip(readers, paths) where try reader.peek() != nil {
                throw InputError("holds more rows than its shard of the combinations", at: path)
            }
        }
        return rows
    }
}
