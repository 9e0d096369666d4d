import CSQLite
import Foundation

/// SQLite files made without bt's store code, for tests of how bt treats files it did not write
/// (another program's database, a store from before schema versions, a damaged store).
package enum RawDatabase {
    /// Runs `sql` (several statements allowed) on the database at `path`, creating it.
    package static func execute(_ sql: String, at path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            sqlite3_close(db)
            throw RawDatabaseError(message: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        var err: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &err) != SQLITE_OK {
            let message = err.map { String(cString: $0) } ?? "error"
            sqlite3_free(err)
            throw RawDatabaseError(message: message)
        }
    }

    /// Runs `sql` on the database at `path`, then `body` while that connection is still open: a
    /// WAL database's log still holds the writes then (the last connection's close copies them
    /// into the file and removes the log).
    package static func whileOpen<T>(_ sql: String, at path: String, _ body: () throws -> T) throws -> T {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            sqlite3_close(db)
            throw RawDatabaseError(message: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        var err: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &err) != SQLITE_OK {
            let message = err.map { String(cString: $0) } ?? "error"
            sqlite3_free(err)
            throw RawDatabaseError(message: message)
        }
        return try body()
    }

    /// The first column of the first row of `sql`, as text.
    package static func value(_ sql: String, at path: String) throws -> String? {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close(db)
            throw RawDatabaseError(message: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
            throw RawDatabaseError(message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(stmt) }
        guard sqlite3_step(stmt) == SQLITE_ROW, let text = sqlite3_column_text(stmt, 0) else { return nil }
        return String(cString: text)
    }

    /// The tables of a store as bt wrote them before schema versions (no application id, user
    /// version 0, WAL), with `rows` of series (symbol, timeframe, first, last, bars) and no chunks.
    package static let legacySchema = """
        PRAGMA journal_mode=WAL;
        CREATE TABLE series(
          symbol TEXT NOT NULL, timeframe TEXT NOT NULL,
          first INTEGER NOT NULL, last INTEGER NOT NULL, bars INTEGER NOT NULL,
          PRIMARY KEY(symbol, timeframe)) WITHOUT ROWID;
        CREATE TABLE chunks(
          symbol TEXT NOT NULL, timeframe TEXT NOT NULL, start INTEGER NOT NULL,
          time BLOB NOT NULL, open BLOB NOT NULL, high BLOB NOT NULL, low BLOB NOT NULL,
          close BLOB NOT NULL, volume BLOB NOT NULL,
          PRIMARY KEY(symbol, timeframe, start));
        CREATE TABLE book_events(
          symbol TEXT NOT NULL, seq INTEGER NOT NULL, time INTEGER NOT NULL,
          kind TEXT NOT NULL, bids BLOB NOT NULL, asks BLOB NOT NULL,
          PRIMARY KEY(symbol, seq)) WITHOUT ROWID;
        """

    /// The store file's header fields: application id and user version (big-endian at 68 and 60).
    package static func header(_ path: String) -> (applicationID: UInt32, userVersion: UInt32)? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 100 else { return nil }
        let b = [UInt8](data.prefix(100))
        func be(_ at: Int) -> UInt32 { b[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        return (be(68), be(60))
    }
}

package struct RawDatabaseError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
