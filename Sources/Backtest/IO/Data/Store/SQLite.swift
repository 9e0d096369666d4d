import BacktestAnalysis
import BacktestCore
import CSQLite

/// A failed SQLite call as a `StoreError`: the kind from SQLite's result code.
extension StoreError {
    init(sqlite code: Int32, message: String, path: String, statement: String? = nil) {
        let kind: Kind
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: kind = .damaged
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
        case SQLITE_FULL: kind = .full
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM: kind = .access
        default: kind = .failed
        }
        self.init(kind, path: path, reason: "SQLite: " + message + (statement.map { " (in: \($0.prefix(60)))" } ?? ""))
        self.code = code
    }
}

/// The one place bt calls SQLite's C API: a connection and prepared statements.
final class SQLiteDatabase {
    /// How a connection opens its file.
    enum Mode: Equatable {
        /// Read only; with `immutable`, SQLite also takes no locks and ignores any write-ahead
        /// log, which is what makes a store in a read-only directory readable.
        case readOnly(immutable: Bool)
        /// Read and write an existing file.
        case readWrite
        /// Read and write, creating the file when missing.
        case create
    }

    private(set) var handle: OpaquePointer?
    let path: String
    let mode: Mode

    /// Opens `path` (a plain file path, never a URI or `:memory:`: callers check that) in `mode`.
    init(path: String, mode: Mode) throws {
        self.path = path
        self.mode = mode
        var flags: Int32 = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        var query = ""
        switch mode {
        case .readOnly(let immutable):
            flags |= SQLITE_OPEN_READONLY
            query = immutable ? "?mode=ro&immutable=1" : "?mode=ro"
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(Self.uri(path) + query, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            let code = db.map { sqlite3_extended_errcode($0) } ?? rc
            sqlite3_close(db)
            throw StoreError(sqlite: code, message: msg, path: path)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 30_000)
    }

    deinit { close() }

    /// Closes the connection (idempotent). The last connection to a WAL database checkpoints
    /// the log into the file and removes it.
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// `file:` URI for a path: every byte outside unreserved characters and `/` percent-encoded,
    /// so `?`, `#` and `%` in a file name stay part of the name.
    static func uri(_ path: String) -> String {
        var out = "file:"
        for b in path.utf8 {
            let c = Character(Unicode.Scalar(b))
            if b < 0x80 && (c.isLetter || c.isNumber || "-._~/".contains(c)) {
                out.append(c)
            } else {
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return out
    }

    private func error(_ sql: String?) -> StoreError {
        StoreError(sqlite: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), path: path,
                   statement: sql)
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(err)
            throw StoreError(sqlite: sqlite3_extended_errcode(handle), message: msg, path: path, statement: sql)
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else { throw error(sql) }
        return SQLiteStatement(stmt, db: self, sql: sql)
    }

    /// The single integer a statement such as `PRAGMA user_version` returns.
    func integer(_ sql: String) throws -> Int64 {
        let stmt = try prepare(sql)
        guard try stmt.step() else { return 0 }
        return stmt.int64(0)
    }

    /// The first column of every row, as text.
    func strings(_ sql: String) throws -> [String] {
        let stmt = try prepare(sql)
        var out: [String] = []
        while try stmt.step() { out.append(stmt.string(0)) }
        return out
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back
    /// when it throws, so the store is all-or-nothing. The write lock is taken before `body`
    /// runs, so what `body` reads cannot change under it.
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

    fileprivate func stepError(_ sql: String) -> StoreError { error(sql) }
}

/// A prepared statement; bind with 1-based indexes, read columns with 0-based ones.
final class SQLiteStatement {
    private let stmt: OpaquePointer
    private unowned let db: SQLiteDatabase
    private let sql: String

    fileprivate init(_ stmt: OpaquePointer, db: SQLiteDatabase, sql: String) {
        self.stmt = stmt
        self.db = db
        self.sql = sql
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

    func bindNull(_ index: Int32) {
        sqlite3_bind_null(stmt, index)
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
        throw db.stepError(sql)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(stmt, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_NULL }
    /// True when the column holds a blob (not text, a number or NULL).
    func isBlob(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_BLOB }

    func string(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, column) else { return "" }
        return String(cString: p)
    }

    /// The size in bytes of a blob or text column.
    func byteCount(_ column: Int32) -> Int { Int(sqlite3_column_bytes(stmt, column)) }

    /// Appends a blob column's bytes, read as native-order values, to `array` (copied, so the
    /// blob's alignment does not matter). Trailing bytes that do not fill a value are ignored:
    /// callers check `byteCount` first.
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

/// A database file or its write-ahead log read through SQLite's own file layer (its default
/// VFS), for the checks bt makes on a store's raw bytes before and beside its connections.
///
/// A store file is never opened with a descriptor of bt's own: POSIX record locks belong to the
/// process and the file, so closing *any* descriptor of a file drops every lock the process
/// holds on it, those of its open SQLite connections too. A connection that has lost its
/// shared lock still believes it holds it, and another process's last connection then takes
/// the exclusive lock, checkpoints the log and deletes it under the first one's writes: the
/// store is damaged (SQLite's "How To Corrupt An SQLite Database File", 2.2; a `bt live`
/// session beside `bt data import` did exactly that). SQLite's unix VFS knows every lock it
/// holds on a file and keeps a descriptor closed here open until the last one is released.
final class SQLiteRawFile {
    /// What the file is to SQLite, which decides how its VFS opens it.
    enum Kind {
        /// A database file: opened as a main database, so its descriptor joins SQLite's record
        /// of the file's locks.
        case database
        /// A write-ahead log (`PATH-wal`; SQLite takes no locks on it).
        case log
    }

    private let file: UnsafeMutablePointer<sqlite3_file>
    private let name: sqlite3_filename
    /// The file's size in bytes when it was opened.
    let size: Int64

    /// Opens `path` read-only; nil when it cannot be opened (missing, unreadable) or sized. The
    /// name is made full first, as SQLite makes a database's (its VFS resolves links there).
    init?(path: String, kind: Kind) {
        guard let vfs = sqlite3_vfs_find(nil) else { return nil }
        var full = [CChar](repeating: 0, count: Int(vfs.pointee.mxPathname) + 1)
        guard vfs.pointee.xFullPathname(vfs, path, Int32(full.count), &full) & 0xFF == SQLITE_OK,
              let name = sqlite3_create_filename(full, "", "", 0, nil) else { return nil }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: Int(vfs.pointee.szOsFile))
        let file = raw.bindMemory(to: sqlite3_file.self, capacity: 1)
        let type = kind == .database ? SQLITE_OPEN_MAIN_DB : SQLITE_OPEN_WAL
        var opened: Int32 = 0
        var size: sqlite3_int64 = 0
        let rc = vfs.pointee.xOpen(vfs, name, file, SQLITE_OPEN_READONLY | type, &opened)
        guard rc == SQLITE_OK, let methods = file.pointee.pMethods,
              methods.pointee.xFileSize(file, &size) == SQLITE_OK, size >= 0 else {
            if let methods = file.pointee.pMethods { _ = methods.pointee.xClose(file) }
            raw.deallocate()
            sqlite3_free_filename(name)
            return nil
        }
        self.file = file
        self.name = name
        self.size = size
    }

    deinit {
        _ = file.pointee.pMethods?.pointee.xClose(file)
        UnsafeMutableRawPointer(file).deallocate()
        sqlite3_free_filename(name)
    }

    /// Up to `count` bytes from `offset`: fewer at the end of the file, none past it or on a
    /// read error.
    func read(count: Int, at offset: Int64) -> [UInt8] {
        guard count > 0, offset >= 0, offset < size, let methods = file.pointee.pMethods else { return [] }
        let n = Int(min(Int64(count), size - offset, Int64(Int32.max)))
        var bytes = [UInt8](repeating: 0, count: n)
        let rc = bytes.withUnsafeMutableBytes { methods.pointee.xRead(file, $0.baseAddress, Int32(n), offset) }
        return rc == SQLITE_OK ? bytes : []
    }
}
