import Foundation
import Testing
import TestSupport

/// Issue 26, the store items, end to end with the real binary: damaged pages, and `--db` paths
/// that are not store files.
@Suite("Reliability round 3: damaged pages, store paths", .serialized)
struct ReliabilityStoreTests {
    /// `bt args` under a 60 s timeout and a 1.5 GB address-space limit.
    static func bounded(_ args: [String]) throws -> BT.Result {
        try BT.runExecutable("/usr/bin/prlimit", ["--as=1500000000", "--", "/usr/bin/timeout", "60", BT.binary.path] + args)
    }

    /// A store holding GOOG, one self-contained file (the import checkpoints and closes it).
    static func googStore() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        return db
    }

    @Test("a store cut short by 16 KB (an interrupted copy) is damaged: exit 1 naming the file, never a backtest of zeros")
    func truncatedStore() throws {
        let db = try Self.googStore()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int)
        #expect(truncate(db, off_t(size - 16_384)) == 0)
        for args in [["run", "ma-cross", "GOOG", "--no-chart"], ["data", "export", "GOOG"], ["data", "list"]] {
            let r = try Self.bounded(args + ["--db", db])
            #expect(r.status == 1, "\(args): \(r.status) \(r.stdout.prefix(300)) \(r.stderr)")
            #expect(r.stderr.contains("damaged") && r.stderr.contains("cut short") && r.stderr.contains(db), "\(r.stderr)")
        }
    }

    /// Chunk values no import would store, written behind bt's back, and the damage bt must name.
    static let badValues: [(sql: String, reason: String)] = [
        ("UPDATE chunks SET high = zeroblob(length(high))", "high 0 is not a price bt supports"),
        ("UPDATE chunks SET low = CAST(substr(high, 1, 16) || substr(low, 17) AS BLOB), "
            + "high = CAST(substr(low, 1, 16) || substr(high, 17) AS BLOB)", "is below max(open, close)"),
        ("UPDATE chunks SET volume = CAST(x'000000000000F0BF' || substr(volume, 9) AS BLOB)", "negative volume -1.0"),
        ("UPDATE chunks SET close = CAST(x'0000000000000000' || substr(close, 9) AS BLOB)", "bar 0 "),
        ("UPDATE chunks SET open = CAST(x'FFFFFFFFFFFFEF7F' || substr(open, 9) AS BLOB)", "is outside the supported price range"),
    ]

    @Test("chunk values the importer refuses are damage on load: exit 1 naming the series and the bar", arguments: badValues.indices)
    func badChunkValues(index: Int) throws {
        let c = Self.badValues[index]
        let db = try Self.googStore()
        try RawDatabase.execute(c.sql, at: db)
        let r = try Self.bounded(["run", "ma-cross", "GOOG", "--no-chart", "--db", db])
        #expect(r.status == 1, "\(c.sql): \(r.status) \(r.stdout.prefix(300))")
        #expect(r.stderr.contains("damaged") && r.stderr.contains("GOOG 1d") && r.stderr.contains(c.reason), "\(r.stderr)")
    }

    @Test("the shipped data still loads after a write through the WAL is checked against the header")
    func storeWithLog() throws {
        let db = try Self.googStore()
        // A second import leaves nothing in the log once closed; list and run read it back whole.
        #expect(try BT.run(["data", "import", "data/EURUSD.csv", "--db", db]).status == 0)
        #expect(try Self.bounded(["run", "ma-cross", "EURUSD", "--no-chart", "--db", db]).status == 0)
        #expect(try Self.bounded(["data", "list", "--db", db]).status == 0)
    }

    @Test("a FIFO given as --db is refused at once (exit 2), never read from")
    func fifoStore() throws {
        let dir = BT.scratchDirectory()
        let fifo = dir.appendingPathComponent("store.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for args in [["data", "list"], ["run", "ma-cross", "GOOG"], ["data", "import", "data/GOOG.csv"]] {
            let r = try BT.runExecutable("/usr/bin/timeout", ["-s", "KILL", "20", BT.binary.path] + args + ["--db", fifo])
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("not a regular file"), "\(r.stderr)")
        }
    }

    @Test("--db naming a directory that does not exist yet (newdir/) is a usage error (exit 2), creating nothing")
    func directoryStorePath() throws {
        let dir = BT.scratchDirectory()
        let path = dir.appendingPathComponent("newdir").path + "/"
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", path])
        #expect(r.status == 2, "\(r.status) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("newdir").path))
    }

    @Test("a screen in which every symbol fails exits 2 with each symbol's reason and writes no report")
    func screenNothingRan() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let csv = dir.appendingPathComponent("TINY.csv").path
        try Data("time,open,high,low,close,volume\n1700000000,1,2,0.5,1.5,10\n1700086400,1.5,2,1,1.2,10\n1700172800,1.2,1.4,1,1.1,10\n".utf8)
            .write(to: URL(fileURLWithPath: csv))
        #expect(try BT.run(["data", "import", csv, "--db", db]).status == 0)
        let out = dir.appendingPathComponent("screen").path
        let r = try BT.run(["screen", "ma-cross", "--symbols", "TINY,NOPE", "--out", out, "--db", db])
        #expect(r.status == 2, "\(r.status) \(r.stdout.prefix(300)) \(r.stderr)")
        #expect(r.stderr.contains("TINY: ") && r.stderr.contains("NOPE: "), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A condition screen in which no symbol can be checked, likewise.
        let c = try BT.run(["screen", "--symbols", "NOPE,NOPE2", "--where", "close > 1", "--out", out, "--db", db])
        #expect(c.status == 2 && c.stderr.contains("NOPE: ") && c.stderr.contains("NOPE2: "), "\(c.status) \(c.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("read commands leave no -wal or -shm file beside the store, and change no byte of it")
    func readsLeaveNoLog() throws {
        let db = try Self.googStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let out = BT.scratchDirectory().appendingPathComponent("screen").path
        for args in [["data", "list"], ["data", "export", "GOOG"], ["run", "ma-cross", "GOOG", "--no-chart"],
                     ["screen", "ma-cross", "--all", "--out", out], ["data", "summary", "GOOG"]] {
            let r = try Self.bounded(args + ["--db", db])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            for suffix in ["-wal", "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: db + suffix), "\(args) left \(db)\(suffix)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    // MARK: - Logs and files without bt's id

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("a -wal of another store beside a store is refused before anything is read or written (exit 1, naming both files); the store's own log still opens")
    func foreignLog() throws {
        let a = try Self.googStore(), b = try Self.googStore()
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
            let r = try Self.bounded(args + ["--db", a])
            #expect(r.status == 1, "\(args): \(r.status) \(r.stdout.prefix(200)) \(r.stderr)")
            #expect(r.stderr.contains("\(a): the write-ahead log beside it, \(a)-wal, is not this store's")
                    && r.stderr.contains("changed nothing"), "\(r.stderr)")
        }
        #expect(Self.bytes(a) == store && Self.bytes(a + "-wal") == log, "the store or its log changed")
        #expect(!FileManager.default.fileExists(atPath: a + "-shm"))
        // Without the stray log, A is as it was.
        try FileManager.default.removeItem(atPath: a + "-wal")
        #expect(try Self.bounded(["data", "export", "GOOG", "--db", a]).stdout.split(separator: "\n").count == 2149)
        // C's log is its own: it opens, and the write it holds (every series removed) is there.
        let list = try Self.bounded(["data", "list", "--db", c])
        #expect(list.status == 0 && list.stderr.contains("the store is empty"), "\(list.status) \(list.stdout) \(list.stderr)")
        #expect(try Self.bounded(["data", "import", "data/EURUSD.csv", "--db", c]).status == 0)
        #expect(try Self.bounded(["data", "list", "--db", c]).stdout.contains("EURUSD"))
    }

    @Test("a store from before bt's id is read without leaving -wal or -shm; another program's database with a log is refused leaving nothing beside it")
    func unmarkedFiles() throws {
        let dir = BT.scratchDirectory()
        let modern = try Self.googStore()
        let legacy = dir.appendingPathComponent("old.sqlite").path
        try RawDatabase.execute(RawDatabase.legacySchema + """
            ATTACH '\(modern)' AS m;
            INSERT INTO series SELECT * FROM m.series; INSERT INTO chunks SELECT * FROM m.chunks;
            DETACH m; PRAGMA wal_checkpoint(TRUNCATE);
            """, at: legacy)
        let before = Self.bytes(legacy)
        for args in [["data", "list"], ["run", "ma-cross", "GOOG", "--no-chart"], ["data", "export", "GOOG"]] {
            let r = try Self.bounded(args + ["--db", legacy])
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
            let r = try Self.bounded(args + ["--db", copy])
            #expect(r.status == 2 && r.stderr.contains("not a bt store"), "\(args): \(r.status) \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: copy + "-shm"), "\(args) made \(copy)-shm")
        }
        #expect(Self.bytes(copy) == file && Self.bytes(copy + "-wal") == log)
    }
}
