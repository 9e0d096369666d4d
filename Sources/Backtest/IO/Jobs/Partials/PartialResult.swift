import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// What one shard of a screen or sweep wrote: `partial.json` (this manifest) beside the binary
/// row files it lists. `bt merge` reads every shard's manifest, checks that they belong to one
/// run (same command line apart from the shard and output options, as the command line's
/// `ShardCommandLine` tells them apart; same bt version, same items and data) and that every
/// shard is there exactly once, then reads the rows.
public struct PartialManifest: Sendable, Equatable {
    /// The value of `format` this bt writes and reads.
    public static let format = "bt partial result 1"
    public static let fileName = "partial.json"

    /// One symbol of a sweep: its candles' fingerprint, or why it could not be swept.
    public struct SweptSymbol: Sendable, Equatable {
        public var symbol: String
        public var bars: Int
        /// `CandleSeries.sha256` of the candles swept ("" when the symbol failed).
        public var candlesSHA256: String
        /// Fingerprint of the execution settings the symbol ran with ("" when it failed).
        public var executionSHA256: String
        /// Why the symbol could not be swept (every shard fails the same way), nil when it ran.
        public var error: String?

        public init(symbol: String, bars: Int, candlesSHA256: String, executionSHA256: String, error: String? = nil) {
            self.symbol = symbol; self.bars = bars; self.candlesSHA256 = candlesSHA256
            self.executionSHA256 = executionSHA256; self.error = error
        }
    }

    public var version = btVersion
    /// `screen` or `sweep`.
    public var command: String
    /// The command line after `bt` (`["sweep", "ma-cross", "GOOG", ..., "--shard", "auto", ...]`).
    public var arguments: [String]
    public var shard: Shard
    /// Symbols screened, or combinations swept per symbol, across all shards.
    public var items: Int
    /// SHA-256 of the whole item list (symbols in input order, or the combinations' grid indexes).
    public var itemsSHA256: String
    /// Items this shard ran.
    public var assigned: Int
    /// Fingerprint of the data read: a sweep's candles, a screen's stored series.
    public var dataSHA256: String
    /// Sweeps: every symbol, in the order given.
    public var symbols: [SweptSymbol] = []
    /// The payload files and their sizes in bytes.
    public var files: [String: Int] = [:]
    /// The payload files' SHA-256 (lowercase hex), checked by the merge before it reads them.
    public var checksums: [String: String] = [:]

    public init(command: String, arguments: [String], shard: Shard, items: Int, itemsSHA256: String,
                assigned: Int, dataSHA256: String) {
        self.command = command; self.arguments = arguments; self.shard = shard; self.items = items
        self.itemsSHA256 = itemsSHA256; self.assigned = assigned; self.dataSHA256 = dataSHA256
    }

    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "format", value: .string(Self.format)),
            (key: "bt_version", value: .string(version)),
            (key: "command", value: .string(command)),
            (key: "arguments", value: .array(arguments.map { .string($0) })),
            (key: "shard", value: .int(shard.index)),
            (key: "shards", value: .int(shard.count)),
            (key: "items", value: .int(items)),
            (key: "items_sha256", value: .string(itemsSHA256)),
            (key: "assigned", value: .int(assigned)),
            (key: "data_sha256", value: .string(dataSHA256)),
        ]
        if !symbols.isEmpty {
            members.append((key: "symbols", value: .array(symbols.map { s in
                .object([(key: "symbol", value: .string(s.symbol)), (key: "bars", value: .int(s.bars)),
                         (key: "candles_sha256", value: .string(s.candlesSHA256)),
                         (key: "execution_sha256", value: .string(s.executionSHA256)),
                         (key: "error", value: s.error.map { .string($0) } ?? .null)])
            })))
        }
        members.append((key: "files", value: .object(files.keys.sorted().map { (key: $0, value: .int(files[$0]!)) })))
        members.append((key: "files_sha256", value: .object(checksums.keys.sorted().map { (key: $0, value: .string(checksums[$0]!)) })))
        return .object(members)
    }

    /// Reads `partial.json`.
    /// - Throws: `InputError` naming the file when it is not a partial result this bt can read.
    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("cannot read the partial result's manifest", at: path)
        }
        let root: JSONValue
        do {
            root = try data.withUnsafeBytes { try JSONParser.parse($0.bindMemory(to: UInt8.self)) }
        } catch let e as JSONSyntaxError {
            throw InputError("is not valid JSON (byte \(e.offset): \(e.reason)); the shard did not finish writing it", at: path)
        }
        func fail(_ what: String) -> InputError { InputError("is not a bt partial-result manifest (\(what))", at: path) }
        func string(_ key: String) throws -> String {
            guard case .string(let s)? = root[key] else { throw fail("no string \"\(key)\"") }
            return s
        }
        func int(_ key: String, in value: JSONValue? = nil) throws -> Int {
            switch (value ?? root)[key] {
            case .number(let v)?: if let i = Int(exactly: v) { return i }
            case .int(let i)?: return i
            default: break
            }
            throw fail("no whole number \"\(key)\"")
        }
        guard try string("format") == Self.format else {
            throw InputError("was written in another format (\(try string("format"))); this bt reads \"\(Self.format)\"", at: path)
        }
        version = try string("bt_version")
        command = try string("command")
        guard case .array(let args)? = root["arguments"] else { throw fail("no \"arguments\"") }
        arguments = try args.map { a -> String in
            guard case .string(let s) = a else { throw fail("an argument is not a string") }
            return s
        }
        do {
            shard = try Shard(index: try int("shard"), count: try int("shards"))
        } catch let e as InputError {
            throw InputError("holds a bad shard (\(e.reason))", at: path)
        }
        items = try int("items")
        itemsSHA256 = try string("items_sha256")
        assigned = try int("assigned")
        guard items >= 0, items <= Int(Int32.max), assigned >= 0, assigned <= items else {
            throw fail("\(assigned) of \(items) items assigned")
        }
        dataSHA256 = try string("data_sha256")
        if case .array(let list)? = root["symbols"] {
            symbols = try list.map { s in
                guard case .string(let symbol)? = s["symbol"], case .string(let sha)? = s["candles_sha256"],
                      case .string(let execution)? = s["execution_sha256"] else {
                    throw fail("a symbol entry lacks \"symbol\", \"candles_sha256\" or \"execution_sha256\"")
                }
                var error: String?
                if case .string(let e)? = s["error"] { error = e }
                let bars = try int("bars", in: s)
                guard bars >= 0, bars <= CandleStore.maximumBars else { throw fail("\(symbol) has \(bars) bars") }
                return SweptSymbol(symbol: symbol, bars: bars, candlesSHA256: sha, executionSHA256: execution,
                                   error: error)
            }
        }
        guard case .object(let list)? = root["files"] else { throw fail("no \"files\"") }
        for (name, _) in list {
            guard !name.contains("/"), !name.hasPrefix(".") else { throw fail("a file name with a path: \(name)") }
            files[name] = try int(name, in: root["files"])
            guard files[name]! >= 0 else { throw fail("\(name) of \(files[name]!) bytes") }
        }
        guard case .object(let sums)? = root["files_sha256"] else {
            throw InputError("lists no checksums of its files (no \"files_sha256\"): it was written by an older bt; "
                             + "rerun the shard with this bt", at: path)
        }
        for (name, value) in sums {
            guard files[name] != nil, case .string(let hex) = value, hex.utf8.count == 64,
                  hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw fail("a bad checksum for \(name)")
            }
            checksums[name] = hex
        }
        if let unlisted = files.keys.sorted().first(where: { checksums[$0] == nil }) { throw fail("no checksum for \(unlisted)") }
    }
}

/// A shard's partial-result folder found on disk.
public struct PartialFolder: Sendable {
    public var path: String
    public var manifest: PartialManifest

    /// The path of the payload file `name`.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Reads the folder at `path` and checks that its payload files are complete.
    public init(path: String) throws {
        self.path = path
        manifest = try PartialManifest(path: (path as NSString).appendingPathComponent(PartialManifest.fileName))
        for (name, bytes) in manifest.files {
            let full = file(name)
            let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? nil
            guard let size else { throw InputError("lacks \(name), which its manifest lists", at: path) }
            guard size == bytes else { throw InputError("\(name) holds \(size) bytes, its manifest says \(bytes)", at: path) }
            let recorded = manifest.checksums[name] ?? ""
            guard let actual = fileSHA256(full) else { throw InputError("cannot read \(name)", at: path) }
            guard actual == recorded else {
                throw InputError("does not match the checksum its shard recorded in \(PartialManifest.fileName) (sha256 "
                                 + "\(actual.prefix(16))..., recorded \(recorded.prefix(16))...): it changed after the shard "
                                 + "wrote it; rerun the shard", at: full)
            }
        }
    }

    /// The partial-result folders among `paths`: each path is a shard's folder (it holds
    /// `partial.json`) or a folder of them (`bt sweep --shard K/N --out DIR` writes
    /// `DIR/shard-K-of-N`); hidden folders (a shard still writing) are skipped.
    /// - Throws: `InputError` naming a path that is neither, or a folder that cannot be read.
    public static func find(in paths: [String]) throws -> [PartialFolder] {
        var found: [PartialFolder] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw InputError("is not a folder of partial results", at: path)
            }
            if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(PartialManifest.fileName)) {
                found.append(try PartialFolder(path: path))
                continue
            }
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            let inside = entries.map { (path as NSString).appendingPathComponent($0) }.filter {
                FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent(PartialManifest.fileName))
            }
            guard !inside.isEmpty else {
                throw InputError("holds no partial results (no \(PartialManifest.fileName) in it or in its folders); "
                                 + "give the \(Setting.output.mention) folder of the shards, or their shard-K-of-N folders", at: path)
            }
            found += try inside.map(PartialFolder.init(path:))
        }
        return found
    }
}

/// A shard's partial-result folder being written: files go into a hidden folder beside the
/// target (a `StagedDirectory`), and `commit` renames it to `DIR/shard-K-of-N`, replacing the
/// folder of an earlier run of the same shard. A shard that fails or is killed leaves no folder
/// a merge would read.
public final class PartialWriter {
    /// Where the folder will be.
    public let target: String
    /// Where its files are written now.
    public let path: String
    public private(set) var manifest: PartialManifest
    private let staged: StagedDirectory

    /// Starts `parent/shard-K-of-N` (creating `parent` when missing, and keeping it: the other
    /// shards write their folders there too), after removing the folders a killed run of the
    /// same shard left on this machine (`StagingArea.clean`: a shard on another node of a shared
    /// file system may still be writing its own, which is kept).
    public init(parent: String, manifest: PartialManifest) throws {
        self.manifest = manifest
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot create the partial-result folder (\(error.localizedDescription))", at: parent)
        }
        staged = try StagedDirectory(target: (parent as NSString).appendingPathComponent(manifest.shard.folderName),
                                     what: "partial-result folder", replacing: .earlierRun)
        target = staged.target
        path = staged.path
    }

    /// The path of payload file `name` in the folder being written.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Closes `writer`, a payload file written into `path`, and records its size and checksum.
    func add(_ writer: RecordWriter, as name: String) throws {
        manifest.files[name] = try writer.close()
        manifest.checksums[name] = writer.sha256
    }

    /// Updates the manifest before it is written (per-symbol facts learnt while running).
    public func update(_ change: (inout PartialManifest) -> Void) { change(&manifest) }

    /// Writes `partial.json` and moves the folder into place, replacing an earlier run's folder
    /// of this shard.
    public func commit() throws {
        try staged.commit {
            try OutputDirectory.write(manifest.json.serialized(.spaced) + "\n", to: PartialManifest.fileName, in: path)
        }
    }

    /// Removes the folder being written.
    public func discard() { staged.discard() }
}
