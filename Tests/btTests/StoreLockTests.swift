import Backtest
import Foundation
import Testing
import TestSupport

/// A store's SQLite locks survive every other opening of the store in the same process, and a
/// store opened through a symbolic link is the file it leads to.
///
/// POSIX record locks belong to a process and a file: closing any descriptor of the file drops
/// all of them, an open connection's too. bt read a store's header and log through descriptors
/// of its own while its connections were open (`bt live` opens the store three times), so
/// another process's last connection could take the exclusive lock, checkpoint and delete the
/// log under a live writer. Each case here holds a writing connection in this process, opens the
/// store again one way, and lets another bt process write and close it: that process must see a
/// connection still open (the log stays), and every write of both must be in the store after.
@Suite("Store locks beside other openings, and stores behind links", .serialized)
struct StoreLockTests {
    /// The ways bt opens an existing store, each of which reads its raw header (and its log,
    /// and its header's page count, when a log is there).
    static let openings: [(name: String, open: @Sendable (String) throws -> CandleStore?)] = [
        ("read-only", { try CandleStore(existingAt: $0) }),
        ("writable", { try CandleStore(writableAt: $0) }),
        ("if present", { try CandleStore.ifPresent(at: $0) }),
        ("read or create", { try CandleStore(path: $0) }),
    ]

    /// A store holding GOOG, one self-contained file.
    static func googStore() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    /// `count` daily bars of a symbol, starting at 2001-01-01.
    static func series(_ symbol: String, count: Int = 300) -> CandleSeries {
        var s = CandleSeries(symbol: symbol, timeframe: .day1)
        for i in 0..<count {
            let p = 100 + Double(i % 17)
            s.append(time: 978_307_200 + Int64(i) * 86_400, open: p, high: p + 1, low: p - 1, close: p + 0.5, volume: 1_000)
        }
        return s
    }

    @Test("another opening in the process keeps the writer's locks: another process's close leaves the log, and every write lands",
          arguments: openings.indices)
    func locksSurviveAnotherOpening(index: Int) throws {
        let db = try Self.googStore()
        do {
            let writer = try CandleStore(writableAt: db)
            try writer.write([ImportedFile.generated(Self.series("AAA"), source: "test")])
            #expect(FileManager.default.fileExists(atPath: db + "-wal"), "the writer's log holds its write")
            let other = try #require(try Self.openings[index].open(db))
            #expect(try other.list().map(\.symbol) == ["AAA", "GOOG"])
            // Another process writes and closes: it is not the last connection, so it must leave
            // the log (the code before let it checkpoint and delete the log under the writer).
            let imported = try BT.run(["data", "import", "data/EURUSD.csv", "--db", db])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(FileManager.default.fileExists(atPath: db + "-wal"),
                    "\(Self.openings[index].name): another process deleted the log of a connection still open")
            // The writer again, then another process reads.
            try writer.write([ImportedFile.generated(Self.series("BBB"), source: "test")])
            let list = try BT.run(["data", "list", "--db", db])
            #expect(list.status == 0 && list.stdout.contains("BBB"), "\(list.stdout) \(list.stderr)")
        }
        #expect(try RawDatabase.value("PRAGMA integrity_check", at: db) == "ok")
        let store = try CandleStore(existingAt: db)
        #expect(try store.list().map(\.symbol) == ["AAA", "BBB", "EURUSD", "GOOG"])
        #expect(try store.load(symbol: "BBB").count == 300)
        #expect(try store.load(symbol: "GOOG").count > 2_000)
    }

    @Test("a store opened through a symbolic link is the file it leads to: read, written, its log found beside the file")
    func storeThroughALink() throws {
        let db = try Self.googStore()
        let dir = BT.scratchDirectory()
        let link = dir.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: db)
        // Reads (the code before: "the file is 45 bytes ... cut short", exit 1).
        for args in [["data", "list"], ["data", "export", "GOOG"], ["run", "ma-cross", "GOOG", "--no-chart"]] {
            let r = try BT.run(args + ["--db", link])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("damaged"), "\(r.stderr)")
        }
        // A write lands in the file the link leads to, and nothing is left beside the link.
        let r = try BT.run(["data", "import", "data/EURUSD.csv", "--db", link])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CandleStore(existingAt: db).list().map(\.symbol) == ["EURUSD", "GOOG"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == db)
        #expect(!FileManager.default.fileExists(atPath: link + "-wal") && !FileManager.default.fileExists(atPath: link + "-shm"))
        // With a writer's log beside the file (a connection held open here), reads through the
        // link see its writes and check its length against the header's pages.
        let writer = try CandleStore(writableAt: db)
        try writer.write([ImportedFile.generated(Self.series("AAA"), source: "test")])
        let list = try BT.run(["data", "list", "--db", link])
        #expect(list.status == 0 && list.stdout.contains("AAA"), "\(list.stdout) \(list.stderr)")
        #expect(try writer.list().map(\.symbol) == ["AAA", "EURUSD", "GOOG"])
    }

    @Test("another store's log beside the file a link leads to is refused through the link")
    func foreignLogThroughALink() throws {
        let db = try Self.googStore()
        let other = try Self.googStore()
        let link = BT.scratchDirectory().appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: db)
        // The other store's committed writes, left in its log while its connection is open.
        try RawDatabase.whileOpen("PRAGMA wal_autocheckpoint=0; BEGIN IMMEDIATE; DELETE FROM chunks; DELETE FROM series; COMMIT",
                                  at: other) {
            try FileManager.default.copyItem(atPath: other + "-wal", toPath: db + "-wal")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let r = try BT.run(["data", "list", "--db", link])
        #expect(r.status == 1 && r.stderr.contains("is not this store's"), "\(r.status) \(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}
