import BacktestAnalysis
import BacktestCore
import Foundation

/// How a file is recognised as a bt store, and the tables a store holds.
///
/// A bt store carries `PRAGMA application_id` 0x62745354 ("btST") and its schema version in
/// `PRAGMA user_version`. Both are written in the transaction that creates the store, before
/// it switches to WAL, so they sit in the file's header from the first commit on; bt reads
/// them from the raw header before SQLite ever opens a file, and refuses any other file
/// without touching it. Version 0 is a store written before versions existed: the same
/// tables, no id; bt reads it as is and stamps it on the first write. A store also names itself
/// (`StoreLog.identityView`, made with its tables), so that a log beside it can be told to be
/// its own.
enum StoreSchema {
    static let applicationID: Int32 = 0x6274_5354
    /// The schema version this bt writes.
    static let version: Int64 = 1

    /// The tables, each `CREATE TABLE IF NOT EXISTS`, so running them on an older store adds
    /// only what it lacks. A new table goes here (or in its own `create...Table` function called
    /// from `CandleStore.createTables`); a change to an existing table needs a new `version`
    /// and a migration step in `CandleStore.migrate`, except a nullable column added with
    /// `CandleStore.addColumnIfMissing` (the book and trade tables' `local_ns`), which a bt
    /// without it still reads and writes correctly.
    static let tables = """
        CREATE TABLE IF NOT EXISTS series(
          symbol TEXT NOT NULL, timeframe TEXT NOT NULL,
          first INTEGER NOT NULL, last INTEGER NOT NULL, bars INTEGER NOT NULL,
          PRIMARY KEY(symbol, timeframe)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS chunks(
          symbol TEXT NOT NULL, timeframe TEXT NOT NULL, start INTEGER NOT NULL,
          time BLOB NOT NULL, open BLOB NOT NULL, high BLOB NOT NULL, low BLOB NOT NULL,
          close BLOB NOT NULL, volume BLOB NOT NULL,
          PRIMARY KEY(symbol, timeframe, start));
        """

    /// The columns of the version-0 tables, to recognise a store written before versions (with
    /// books in seconds, `book_events`, or in milliseconds, `books`; with or without trades and
    /// depth profiles).
    static let legacyColumns: [String: [String]] = [
        "series": ["symbol", "timeframe", "first", "last", "bars"],
        "chunks": ["symbol", "timeframe", "start", "time", "open", "high", "low", "close", "volume"],
        "book_events": ["symbol", "seq", "time", "kind", "bids", "asks"],
        "books": ["symbol", "seq", "time_ms", "kind", "bids", "asks"],
        "trades": ["symbol", "start_ms", "count", "time_ms", "price", "qty", "side"],
        "depth_profiles": ["symbol", "profile", "written"],
    ]

    /// What the raw header of a file says.
    enum Header: Equatable {
        /// A bt store (its version is read through SQLite: a newer one may still be in the log).
        case bt
        /// An SQLite database without an application id: a version-0 store, or another program's.
        case unmarked
    }

    /// Reads the first 100 bytes of `path` (never writing, through SQLite's file layer: see
    /// `SQLiteRawFile`) and classifies them.
    /// - Throws: `InputError` (setting `.store`) for an empty file, a file that is not an
    ///   SQLite database, or one marked as another application's.
    static func header(of path: String) throws -> Header {
        guard let file = SQLiteRawFile(path: path, kind: .database) else {
            throw InputError("cannot read the store file", setting: .store, value: path)
        }
        let bytes = file.read(count: 100, at: 0)
        if bytes.isEmpty {
            throw InputError("is an empty file, not a bt store; bt leaves it as it is", setting: .store, value: path)
        }
        guard bytes.count == 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw InputError("is not a bt store (not an SQLite database); bt leaves it as it is", setting: .store, value: path)
        }
        let id = bytes[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if Int32(bitPattern: id) == applicationID { return .bt }
        if id == 0 { return .unmarked }
        throw InputError("is an SQLite database of another application (application_id 0x\(String(id, radix: 16))), "
                             + "not a bt store; bt leaves it as it is", setting: .store, value: path)
    }
}

extension StoreSchema {
    /// The database size in pages that `path`'s header records, when the header says it is
    /// current (its change counter equals its version-valid-for number); nil otherwise.
    static func headerPages(of path: String) -> Int64? {
        guard let file = SQLiteRawFile(path: path, kind: .database) else { return nil }
        let b = file.read(count: 100, at: 0)
        guard b.count == 100 else { return nil }
        func word(_ at: Int) -> UInt32 { b[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        guard word(24) == word(92), word(28) > 0 else { return nil }
        return Int64(word(28))
    }
}

/// Checks on store paths, before any file is opened.
enum StorePath {
    /// Refuses paths that are not plain files: empty, SQLite's `:memory:` or a `file:` URI
    /// (an in-memory database would take the data and keep none of it), or a directory.
    static func check(_ path: String) throws {
        if path.isEmpty { throw InputError("the store path is empty", setting: .store, value: path) }
        if path == ":memory:" || path.lowercased().hasPrefix("file:") {
            throw InputError("is not a file path (in-memory databases and SQLite URIs would keep nothing); "
                                 + "give a file such as data/bt.sqlite", setting: .store, value: path)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError("is a directory, not a store file", setting: .store, value: path)
        }
        if path.hasSuffix("/") {
            throw InputError("names a directory, not a store file; give a file such as \(path)bt.sqlite",
                             setting: .store, value: path)
        }
        // A FIFO, socket or device would block the first read (or be written to): only a
        // regular file (or a link to one) is a store.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw InputError("is not a regular file (a FIFO, socket or device), not a store file; bt leaves it as it is",
                             setting: .store, value: path)
        }
    }

    /// `path` with every symbolic link in it resolved (`realpath`), as SQLite resolves a
    /// database's name before it names the log and shared-memory files beside it; `path` itself
    /// when it cannot be resolved (a file not made yet).
    static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory holding `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        let d = FileName.parent(of: path)
        return d.isEmpty ? "." : d
    }

    /// Creates `directory` and its missing parents; returns the ones created, outermost first.
    static func createDirectories(_ directory: String) throws -> [String] {
        var missing: [String] = []
        var d = directory
        while !d.isEmpty, d != "/", d != ".", !FileManager.default.fileExists(atPath: d) {
            missing.append(d)
            d = FileName.parent(of: d)
        }
        var created: [String] = []
        for m in missing.reversed() {
            do {
                try FileManager.default.createDirectory(atPath: m, withIntermediateDirectories: false)
            } catch {
                removeDirectories(created)
                throw InputError("cannot create the store's directory (\(error.localizedDescription))", setting: .store, value: m)
            }
            created.append(m)
        }
        return created
    }

    /// Removes `directories` (outermost first, as `createDirectories` returns them) innermost
    /// first, each only when empty.
    static func removeDirectories(_ directories: [String]) {
        for d in directories.reversed() {
            if let items = try? FileManager.default.contentsOfDirectory(atPath: d), items.isEmpty {
                try? FileManager.default.removeItem(atPath: d)
            }
        }
    }

    /// Removes a database file and its journal, log and shared-memory files.
    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
