import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

/// The store changes only when it should: bt recognises its own files, refuses and
/// leaves alone every other file, creates stores atomically, reads without writing, and refuses
/// damaged series instead of reading past them.
@Suite("Store: recognition, open modes, atomic creation, damage")
struct StoreSafetyTests {
    static func goog() throws -> [ImportedFile] { try Importer.read(paths: [TestSupport.repoFile("data/GOOG.csv")]) }

    /// A store holding GOOG, checkpointed into one file.
    static func googStore() throws -> (path: String, dir: URL) {
        let dir = TestSupport.scratchDirectory()
        let path = dir.appendingPathComponent("s.sqlite").path
        let store = try CandleStore(path: path)
        try store.write(try goog())
        try store.checkpoint()
        return (path, dir)
    }

    static func error<T: Error>(_ type: T.Type, _ body: () throws -> Void) -> T? {
        do { try body() } catch let e as T { return e } catch { Issue.record("unexpected \(error)") }
        return nil
    }

    @Test("a new store carries bt's application id and schema version in its header")
    func header() throws {
        let (path, _) = try Self.googStore()
        let h = try #require(RawDatabase.header(path))
        #expect(h.applicationID == 0x6274_5354)
        #expect(h.userVersion == UInt32(StoreSchema.version))
    }

    @Test("another program's SQLite file is refused by every open and left byte for byte as it was",
          arguments: ["plain", "wal", "marked"])
    func foreignDatabase(kind: String) throws {
        let dir = TestSupport.scratchDirectory()
        let path = dir.appendingPathComponent("other.db").path
        var sql = "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
        if kind == "wal" { sql = "PRAGMA journal_mode=WAL; " + sql }
        if kind == "marked" { sql = "PRAGMA application_id=1234; " + sql }
        try RawDatabase.execute(sql, at: path)
        let before = try #require(FileManager.default.contents(atPath: path))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let opens: [() throws -> Void] = [{ _ = try CandleStore(existingAt: path) }, { _ = try CandleStore(path: path) },
                                          { _ = try CandleStore(writableAt: path) },
                                          { _ = try CandleStore.updating(at: path) { try $0.write(try Self.goog()) } }]
        for open in opens {
            let e = try #require(Self.error(InputError.self) { try open() })
            #expect(e.setting == .store)
            #expect(e.reason.contains("not a bt store"), "\(e)")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == files)
    }

    @Test("a file that is not a database, an empty file and a directory are refused and untouched")
    func notADatabase() throws {
        let dir = TestSupport.scratchDirectory()
        let text = TestSupport.write("date,open\n", named: "x.sqlite", in: dir)
        let empty = TestSupport.write("", named: "e.sqlite", in: dir)
        for (path, reason) in [(text, "not an SQLite database"), (empty, "empty file"), (dir.path, "is a directory")] {
            let before = FileManager.default.contents(atPath: path)
            let opens: [() throws -> Void] = [{ _ = try CandleStore(existingAt: path) }, { _ = try CandleStore(path: path) }]
            for open in opens {
                let e = try #require(Self.error(InputError.self) { try open() })
                #expect(e.setting == .store && e.reason.contains(reason), "\(e)")
            }
            #expect(FileManager.default.contents(atPath: path) == before)
        }
    }

    @Test("in-memory databases, URIs and an empty path are refused", arguments: ["", ":memory:", "file:x?mode=memory", "FILE:y.db"])
    func notAFilePath(path: String) throws {
        let opens: [() throws -> Void] = [{ _ = try CandleStore(existingAt: path) }, { _ = try CandleStore(path: path) },
                                          { try CandleStore.updating(at: path) { _ in } }]
        for open in opens {
            let e = try #require(Self.error(InputError.self) { try open() })
            #expect(e.setting == .store, "\(e)")
        }
        #expect(!FileManager.default.fileExists(atPath: "x?mode=memory"))
    }

    @Test("a store from before schema versions is read as it is and stamped on the first write")
    func legacyStore() throws {
        let dir = TestSupport.scratchDirectory()
        let path = dir.appendingPathComponent("old.sqlite").path
        // What an older bt wrote: its tables, WAL, no id; one series written by today's code.
        let modern = dir.appendingPathComponent("new.sqlite").path
        let store = try CandleStore(path: modern)
        try store.write(try Self.goog())
        try store.checkpoint()
        try RawDatabase.execute(RawDatabase.legacySchema + """
            ATTACH '\(modern)' AS m;
            INSERT INTO series SELECT * FROM m.series; INSERT INTO chunks SELECT * FROM m.chunks;
            DETACH m; PRAGMA wal_checkpoint(TRUNCATE);
            """, at: path)
        #expect(RawDatabase.header(path)?.applicationID == 0)
        let before = try #require(FileManager.default.contents(atPath: path))
        let reader = try CandleStore(existingAt: path)
        #expect(try reader.load(symbol: "GOOG").count == 2148)
        #expect(FileManager.default.contents(atPath: path) == before, "reading changed the file")
        let writer = try CandleStore(writableAt: path)
        try writer.write(try Importer.read(paths: [TestSupport.repoFile("data/EURUSD.csv")]))
        try writer.checkpoint()
        #expect(RawDatabase.header(path)?.applicationID == 0x6274_5354)
        #expect(try RawDatabase.value("PRAGMA user_version", at: path) == String(StoreSchema.version))
        #expect(try writer.list().map(\.symbol) == ["EURUSD", "GOOG"])
    }

    @Test("a store written by a newer bt is refused")
    func newerSchema() throws {
        let (path, _) = try Self.googStore()
        try RawDatabase.execute("PRAGMA user_version=\(StoreSchema.version + 1)", at: path)
        let e = try #require(Self.error(InputError.self) { _ = try CandleStore(existingAt: path) })
        #expect(e.reason.contains("newer bt"))
    }

    @Test("creating a store is atomic: a failing write leaves no file and no directory behind")
    func atomicCreation() throws {
        let dir = TestSupport.scratchDirectory()
        let path = dir.appendingPathComponent("a/b/s.sqlite").path
        struct Boom: Error {}
        #expect(throws: Boom.self) { try CandleStore.updating(at: path) { store in try store.write(try Self.goog()); throw Boom() } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        // A single bar for a new symbol cannot be stored (no timeframe): the same, through write().
        let one = try Importer.read(bytes: Array("date,open,high,low,close\n2024-01-02,1,2,0.5,1\n".utf8), name: "one.csv")
        #expect(throws: InputError.self) { try CandleStore.updating(at: path) { try $0.write([one]) } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let reports = try CandleStore.updating(at: path) { try $0.write(try Self.goog()) }
        #expect(reports.first?.added == 2148)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("a/b").path) == ["s.sqlite"])
        #expect(try CandleStore(existingAt: path).load(symbol: "GOOG").count == 2148)
    }

    @Test("a store opened for reading cannot write")
    func readOnly() throws {
        let (path, _) = try Self.googStore()
        let store = try CandleStore(existingAt: path)
        #expect(store.isReadOnly)
        let e = try #require(Self.error(StoreError.self) { try store.remove(symbol: "GOOG") })
        #expect(e.kind == .access)
        #expect(try store.list().count == 1)
    }

    @Test("symbols outside the alphabet are refused by the store", arguments: ["\u{1}GOOG", "A|B", "A B", "<img>", "", "É"])
    func badSymbols(symbol: String) throws {
        let (path, _) = try Self.googStore()
        var files = try Self.goog()
        files[0].symbol = symbol
        let store = try CandleStore(path: path)
        let e = try #require(Self.error(InputError.self) { try store.write(files) })
        #expect(e.setting == .symbol, "\(e)")
    }

    /// Damage done behind bt's back, and what bt must say about it.
    static let damage: [(name: String, sql: String, reason: String)] = [
        ("a column shorter than the others", "UPDATE chunks SET open = substr(open, 1, length(open) - 8)", "2147 open values"),
        ("a column not a whole number of values", "UPDATE chunks SET high = substr(high, 1, length(high) - 3)", "not a whole number"),
        ("a count of 1e15 bars", "UPDATE series SET bars = 1000000000000000", "1000000000000000 bars"),
        ("a count that does not match the chunks", "UPDATE series SET bars = 2000", "2000 bars but its chunks hold 2148"),
        ("text instead of a blob", "UPDATE chunks SET close = 'x'", "not a blob"),
        ("times out of order", "UPDATE chunks SET time = CAST(substr(time, 1, 8) || substr(time, 1, length(time) - 8) AS BLOB)", "does not come after"),
        ("a chunk without its index row", "DELETE FROM series", "no index row"),
        ("NaN values", "UPDATE chunks SET volume = CAST(x'000000000000F87F' || substr(volume, 9) AS BLOB)", "volume of nan"),
        ("a page of zeros in the highs", "UPDATE chunks SET high = zeroblob(length(high))", "high 0 is not a price bt supports"),
        ("a negative volume", "UPDATE chunks SET volume = CAST(x'000000000000F0BF' || substr(volume, 9) AS BLOB)", "negative volume -1.0"),
        ("a price beyond 1e250", "UPDATE chunks SET low = CAST(x'FFFFFFFFFFFFEF7F' || substr(low, 9) AS BLOB)", "is outside the supported price range, 1e-12 to 1e12"),
        // What a bt before the price range stored: consistent bars, a price below 1e-12.
        ("a bar of 1e-300 prices", "UPDATE chunks SET open = CAST(x'59F3F8C21F6EA501' || substr(open, 9) AS BLOB), "
            + "low = CAST(x'59F3F8C21F6EA501' || substr(low, 9) AS BLOB)",
         "open 1e-300 is outside the supported price range, 1e-12 to 1e12 (a bt before the supported price range may have stored it)"),
    ]

    @Test("a store file shorter than its pages (an interrupted copy) is damaged on every open, with or without a log")
    func truncatedFile() throws {
        let (path, _) = try Self.googStore()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 16_384)) == 0)
        for open in [{ _ = try CandleStore(existingAt: path) }, { _ = try CandleStore(writableAt: path) }] {
            let e = try #require(Self.error(StoreError.self) { try open() })
            #expect(e.kind == .damaged && e.reason.contains("cut short") && e.reason.contains("\(size - 16_384) bytes"), "\(e)")
        }
        // A log beside it does not hide the shortfall: the file's header still counts its pages.
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(repeating: 1, count: 4096)))
        #expect(StoreSchema.headerPages(of: path).map { $0 * 65_536 > Int64(size - 16_384) } == true)
    }

    @Test("every store names an identity of its own on page 1, where each transaction of its log carries it")
    func identity() throws {
        let (a, _) = try Self.googStore()
        let (b, _) = try Self.googStore()
        func named(_ path: String) throws -> String? {
            let page = [UInt8](try #require(FileManager.default.contents(atPath: path)).prefix(65_536))
            return StoreLog.identity(in: page[...])
        }
        let ida = try #require(try named(a)), idb = try #require(try named(b))
        #expect(ida.count == 32 && ida != idb)
    }

    @Test("a log is refused beside another store, and opens beside its own, as a live writer leaves them")
    func logOwnership() throws {
        let (a, _) = try Self.googStore()
        let (b, dir) = try Self.googStore()
        let own = dir.appendingPathComponent("own.sqlite").path
        let writer = try CandleStore(writableAt: b)
        try writer.write(try Importer.read(paths: [TestSupport.repoFile("data/EURUSD.csv")]))
        // The writer is still open, so its log holds the write: what a kill leaves.
        #expect(FileManager.default.fileExists(atPath: b + "-wal"))
        for (from, to) in [(b + "-wal", a + "-wal"), (b, own), (b + "-wal", own + "-wal")] {
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
        let before = FileManager.default.contents(atPath: a)
        let opens: [() throws -> Void] = [{ _ = try CandleStore(existingAt: a) }, { _ = try CandleStore(writableAt: a) },
                                          { _ = try CandleStore.updating(at: a) { try $0.write(try Self.goog()) } }]
        for open in opens {
            let e = try #require(Self.error(StoreError.self) { try open() })
            #expect(e.kind == .failed && e.reason.contains("\(a)-wal, is not this store's"), "\(e)")
        }
        #expect(FileManager.default.contents(atPath: a) == before)
        #expect(!FileManager.default.fileExists(atPath: a + "-shm"))
        #expect(try CandleStore(existingAt: own).list().map(\.symbol) == ["EURUSD", "GOOG"])
        withExtendedLifetime(writer) {}
    }

    @Test("a whole store, with its log full or checkpointed, opens")
    func wholeFileOpens() throws {
        let (path, _) = try Self.googStore()
        let writer = try CandleStore(writableAt: path)
        try writer.remove(symbol: "GOOG")
        try writer.write(try Self.goog())
        // The log now holds the rewrite; a reader opened beside the writer checks the header.
        #expect(try CandleStore(existingAt: path).load(symbol: "GOOG").count == 2148)
        try writer.checkpoint()
        #expect(try CandleStore(existingAt: path).load(symbol: "GOOG").count == 2148)
    }

    @Test("a damaged series is an error naming it: never read past, never rewritten; removing it works",
          arguments: damage.indices)
    func damaged(index: Int) throws {
        let c = Self.damage[index]
        let (path, _) = try Self.googStore()
        try RawDatabase.execute(c.sql, at: path)
        let before = TestSupport.storeBytes(path)
        let reader = try CandleStore(existingAt: path)
        let load = try #require(Self.error(StoreError.self) {
            if c.name == "a chunk without its index row" {
                _ = try reader.loadStored(symbol: "GOOG", timeframeKey: "1d")
            } else {
                _ = try reader.load(symbol: "GOOG")
            }
        })
        #expect(load.kind == .damaged, "\(c.name)")
        #expect(load.series == "GOOG 1d" && load.description.contains(path), "\(load)")
        #expect(load.reason.contains(c.reason), "\(c.name): \(load)")
        // An import into the damaged series stops before writing anything.
        let writer = try CandleStore(writableAt: path)
        #expect(throws: StoreError.self) { try writer.write(try Self.goog()) }
        #expect(TestSupport.storeBytes(path) == before)
        if c.name != "a chunk without its index row" {
            try writer.remove(symbol: "GOOG")
            #expect(try writer.list().isEmpty)
            try writer.write(try Self.goog())
            #expect(try writer.load(symbol: "GOOG").count == 2148)
        }
    }
}
