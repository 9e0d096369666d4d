import BacktestCore

/// One of `count` parts of a screen's symbols or a sweep's combinations, run as a process of its
/// own (a task of a Slurm job array, a pod of a Kubernetes Indexed Job) and merged afterwards.
///
/// Shards are numbered from 0, as Slurm array indexes and Kubernetes completion indexes are. An
/// item belongs to shard `h mod count`, where `h` is a 64-bit hash of the item's key: for a symbol
/// its UTF-8 bytes; for a combination each swept parameter's name and value, sorted by name. The
/// hash is FNV-1a finished with SplitMix64's mixer over bytes laid out in a fixed order
/// (little-endian IEEE-754 values, -0 as 0), so the split is the same on every machine and every
/// run, and an item stays in its shard however the input is ordered (`--symbols B,A`, `--grid`
/// values or axes in another order) and whatever other items are added or removed.
public struct Shard: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// 0-based: `0..<count`.
    public let index: Int
    public let count: Int

    /// Largest number of shards (a job array of 10,000 tasks is far beyond any use of it).
    public static let maximumCount = 10_000

    /// - Throws: `InputError` (setting `.shard`) unless `count` is in 1...`maximumCount` and
    ///   `index` in `0..<count`.
    public init(index: Int, count: Int) throws {
        guard count >= 1, count <= Self.maximumCount else {
            throw InputError("the number of shards must be from 1 to \(Self.maximumCount)", setting: .shard, value: "\(index)/\(count)")
        }
        guard index >= 0, index < count else {
            throw InputError("the shard index must be from 0 to \(count - 1) (shards are numbered from 0, as Slurm array "
                             + "and Kubernetes completion indexes are)", setting: .shard, value: "\(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    /// - Throws: `InputError` (setting `.shard`) for anything else, or K, N out of range.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw InputError("expected K/N, shard K of N counted from 0 (e.g. 0/4 ... 3/4)", setting: .shard, value: text)
        }
        try self.init(index: k, count: n)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// The name of the shard's partial-result folder: `shard-K-of-N`.
    public var folderName: String { "shard-\(index)-of-\(count)" }

    /// Reads a folder name written by `folderName`; nil for any other name.
    public init?(folderName: String) {
        let parts = folderName.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "shard", parts[2] == "of", let k = Int(parts[1]), let n = Int(parts[3]),
              String(k) == parts[1], String(n) == parts[3], let shard = try? Shard(index: k, count: n) else { return nil }
        self = shard
    }

    /// Whether `symbol` belongs to this shard.
    public func contains(symbol: String) -> Bool {
        Self.index(ofSymbol: symbol, count: count) == index
    }

    /// The shard of `symbol` among `count`. A series name `SYMBOL@TF` goes with its symbol, so a
    /// merge can check rows, which name the symbol and the timeframe apart.
    public static func index(ofSymbol symbol: String, count: Int) -> Int {
        var h = Hash()
        h.add((SeriesName.split(symbol)?.0 ?? symbol).utf8)
        return h.bucket(count)
    }

    /// FNV-1a, 64-bit, finished with SplitMix64's mixer (FNV alone spreads short keys poorly in
    /// its low bits, which `mod count` reads).
    struct Hash {
        private var state: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for b in bytes {
                state ^= UInt64(b)
                state &*= 0x0000_0100_0000_01b3
            }
        }

        mutating func add(_ value: Double) {
            let bits = (value == 0 ? 0.0 : value).bitPattern
            for k in 0..<8 { add(CollectionOfOne(UInt8(truncatingIfNeeded: bits >> (8 * k)))) }
        }

        var value: UInt64 {
            var z = state &+ 0x9e37_79b9_7f4a_7c15
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }

        func bucket(_ count: Int) -> Int { Int(value % UInt64(count)) }
    }
}

extension ParameterGrid {
    /// Assigns combinations to shards: by each combination's parameter names and values sorted by
    /// name, so reordering `--grid` options or an axis' values moves no combination to another shard.
    public struct ShardKey: Sendable {
        /// Axis indexes in name order, with each name's bytes.
        private let order: [(axis: Int, name: [UInt8])]

        init(_ grid: ParameterGrid) {
            order = grid.axes.indices.sorted { Array(grid.axes[$0].name.utf8).lexicographicallyPrecedes(Array(grid.axes[$1].name.utf8)) }
                .map { ($0, Array(grid.axes[$0].name.utf8)) }
        }

        /// The shard among `count` of the combination whose values (in axis order) are `values`.
        public func shard(of values: [Double], count: Int) -> Int {
            var h = Shard.Hash()
            for (axis, name) in order {
                h.add(name)
                h.add(CollectionOfOne(0))
                h.add(values[axis])
            }
            return h.bucket(count)
        }
    }

    public var shardKey: ShardKey { ShardKey(self) }
}
