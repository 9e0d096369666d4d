import Foundation
import Testing
import TestSupport

/// Write-ahead logs beside a store, end to end with the real binary: reads leave no `-wal` or
/// `-shm` and change no byte; a log of another store beside a store is refused before SQLite
/// merges it (nothing in the log says whose it is but the store's own identity), while the
/// store's own log, as a killed writer leaves it, still opens; a store from before bt's identity
/// and another program's database with its log are read or refused leaving nothing beside them.
@Suite("Write-ahead logs beside a store: reads leave none, another store's is refused", .serialized)
struct StoreLogTests {
    @Test("read commands leave no -wal or -shm file beside the store, and change no byte of it")
    func readsLeaveNoLog() throws {
        let db = try BT.googStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let out = BT.scratchDirectory().appendingPathComponent("screen").path
        for args in [["data", "list"], ["data", "export", "GOOG"], ["run", "ma-cross", "GOOG", "--no-chart"],
                     ["screen", "ma-cross", "--all", "--out", out], ["data", "summary", "GOOG"]] {
            let r = try BT.bounded(args + ["--db", db])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            for suffix in ["-wal", "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: db + suffix), "\(args) left \(db)\(suffix)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("a -wal of another store beside a store is refused before anything is read or written (exit 1, naming both files); the store's own log still opens")
    func foreignLog() throws {
        let a = try BT.googStore(), b = try BT.googStore()
        let c = BT.scratchStore()
        // B's log after a committed write its connection has not checkpointed: what a killed
        // writer leaves. It goes beside A (another store), and with B's file as C (its own).
        try RawDatabase.whileOpen("PRAGMA wal_autocheckpoint=0; BEGIN IMMEDIATE; DELETE FROM chunks; DELETE FROM series; COMMIT",
                                  at: b) {
            for (from, to) in [(b + "-wal", a + "-wal"), (b, c), (b + "-wal", c + "-wal")] {
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
        }
        let store = Self.bytes(a), log = Self.bytes(a + "-wal")
        for args in [["data", "import", "data/EURUSD.csv"], ["data", "list"], ["run", "ma-cross", "GOOG", "--no-chart"]] {
            let r = try BT.bounded(args + ["--db", a])
            #expect(r.status == 1, "\(args): \(r.status) \(r.stdout.prefix(200)) \(r.stderr)")
            #expect(r.stderr.contains("\(a): the write-ahead log beside it, \(a)-wal, is not this store's")
                    && r.stderr.contains("changed nothing"), "\(r.stderr)")
        }
        #expect(Self.bytes(a) == store && Self.bytes(a + "-wal") == log, "the store or its log changed")
        #expect(!FileManager.default.fileExists(atPath: a + "-shm"))
        // Without the stray log, A is as it was.
        try FileManager.default.removeItem(atPath: a + "-wal")
        #expect(try BT.bounded(["data", "export", "GOOG", "--db", a]).stdout.split(separator: "\n").count == 2149)
        // C's log is its own: it opens, and the write it holds (every series removed) is there.
        let list = try BT.bounded(["data", "list", "--db", c])
        #expect(list.status == 0 && list.stderr.contains("the store is empty"), "\(list.status) \(list.stdout) \(list.stderr)")
        #expect(try BT.bounded(["data", "import", "data/EURUSD.csv", "--db", c]).status == 0)
        #expect(try BT.bounded(["data", "list", "--db", c]).stdout.contains("EURUSD"))
    }

    @Test("a store from before bt's id is read without leaving -wal or -shm; another program's database with a log is refused leaving nothing beside it")
    func unmarkedFiles() throws {
        let dir = BT.scratchDirectory()
        let modern = try BT.googStore()
        let legacy = dir.appendingPathComponent("old.sqlite").path
        try RawDatabase.execute(RawDatabase.legacySchema + """
            ATTACH '\(modern)' AS m;
            INSERT INTO series SELECT * FROM m.series; INSERT INTO chunks SELECT * FROM m.chunks;
            DETACH m; PRAGMA wal_checkpoint(TRUNCATE);
            """, at: legacy)
        let before = Self.bytes(legacy)
        for args in [["data", "list"], ["run", "ma-cross", "GOOG", "--no-chart"], ["data", "export", "GOOG"]] {
            let r = try BT.bounded(args + ["--db", legacy])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            for suffix in ["-wal", "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: legacy + suffix), "\(args) left \(legacy)\(suffix)")
            }
        }
        #expect(Self.bytes(legacy) == before)
        // Another program's WAL database whose log still holds its writes (its writer was killed).
        let other = dir.appendingPathComponent("other.db").path, copy = dir.appendingPathComponent("copy.db").path
        try RawDatabase.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(x);", at: other)
        try RawDatabase.whileOpen("PRAGMA wal_autocheckpoint=0; INSERT INTO t VALUES (1);", at: other) {
            try FileManager.default.copyItem(atPath: other, toPath: copy)
            try FileManager.default.copyItem(atPath: other + "-wal", toPath: copy + "-wal")
        }
        let file = Self.bytes(copy), log = Self.bytes(copy + "-wal")
        for args in [["data", "list"], ["data", "import", "data/GOOG.csv"]] {
            let r = try BT.bounded(args + ["--db", copy])
            #expect(r.status == 2 && r.stderr.contains("not a bt store"), "\(args): \(r.status) \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: copy + "-shm"), "\(args) made \(copy)-shm")
        }
        #expect(Self.bytes(copy) == file && Self.bytes(copy + "-wal") == log)
    }
}
