import BacktestAnalysis
import BacktestCore
import CSQLite

/// The one place bt calls SQLite's C API: a connection and prepared statements.
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?
    let path: String

    /// Opens (creating when needed) the database at `path`.
    /// With `create` false, a missing file is an error instead of a new empty database. With
    /// `immutable` (read-only only), SQLite takes no locks and reads no write-ahead log.
    init(path: String, readOnly: Bool = false, immutable: Bool = false, create: Bool = true) throws {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var db: OpaquePointer?
        let name = immutable ? Self.uri(path) + "?immutable=1" : path
        let rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0), nil)
        guard rc == SQLITE_OK, let db else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw InputError("cannot open database: \(msg)", at: path)
        }
        handle = db
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// `file:` URI for a path: bytes other than unreserved characters and `/` percent-encoded.
    static func uri(_ path: String) -> String {
        var out = "file:"
        for b in path.utf8 {
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "-._~/".utf8.contains(b) {
                out.append(Character(Unicode.Scalar(b)))
            } else {
                out += String(format: "%%%02X", b)
            }
        }
        return out
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? lastError
            sqlite3_free(err)
            throw InternalError("sqlite: \(msg) (in: \(sql.prefix(80)))")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw InternalError("sqlite: \(lastError) (in: \(sql.prefix(80)))")
        }
        return SQLiteStatement(stmt, db: self)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back
    /// when it throws, so the store is all-or-nothing.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement; bind with 1-based indexes, read columns with 0-based ones.
final class SQLiteStatement {
    private let stmt: OpaquePointer
    private unowned let db: SQLiteDatabase

    fileprivate init(_ stmt: OpaquePointer, db: SQLiteDatabase) {
        self.stmt = stmt
        self.db = db
    }

    deinit { sqlite3_finalize(stmt) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(stmt, index, value, -1, Self.transient)
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(stmt, index, value)
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(stmt, index, value)
    }

    /// Binds the raw bytes of a contiguous array (native byte order); an empty array binds an
    /// empty blob, not NULL.
    func bind<T>(_ index: Int32, blob: [T]) {
        guard !blob.isEmpty else {
            sqlite3_bind_zeroblob(stmt, index, 0)
            return
        }
        blob.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob64(stmt, index, raw.baseAddress, sqlite3_uint64(raw.count), Self.transient)
        }
    }

    /// Steps once; true when a row is available, false when done.
    @discardableResult
    func step() throws -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw InternalError("sqlite: \(db.lastError)")
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(stmt, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_NULL }

    func string(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, column) else { return "" }
        return String(cString: p)
    }

    /// Appends a blob column's bytes, read as native-order values, to `array` (copied, so the
    /// blob's alignment does not matter).
    func appendBlob(_ column: Int32, to array: inout [Double]) { appendRaw(column, to: &array, zero: 0) }
    func appendBlob(_ column: Int32, to array: inout [Int64]) { appendRaw(column, to: &array, zero: 0) }

    private func appendRaw<T>(_ column: Int32, to array: inout [T], zero: T) {
        let bytes = Int(sqlite3_column_bytes(stmt, column))
        guard bytes > 0, let p = sqlite3_column_blob(stmt, column) else { return }
        let n = bytes / MemoryLayout<T>.stride
        if Int(bitPattern: p) % MemoryLayout<T>.alignment == 0 {
            // Aligned (the usual case): one copy, no zero fill.
            array.append(contentsOf: UnsafeBufferPointer(start: p.assumingMemoryBound(to: T.self), count: n))
            return
        }
        let old = array.count
        array.append(contentsOf: repeatElement(zero, count: n))
        array.withUnsafeMutableBytes { dst in
            dst.baseAddress!.advanced(by: old * MemoryLayout<T>.stride)
                .copyMemory(from: p, byteCount: n * MemoryLayout<T>.stride)
        }
    }
}
