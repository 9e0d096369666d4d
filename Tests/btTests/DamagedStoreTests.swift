import Foundation
import Testing
import TestSupport

/// Damaged stores, end to end with the real binary: a file cut short (SQLite reads the missing
/// pages as zeros and its integrity check passes) and bar values no import would store, written
/// behind bt's back, are errors naming the file or the series and bar (exit 1), never a backtest
/// of what the damage left.
@Suite("Damaged stores: files cut short, bars the importer refuses", .serialized)
struct DamagedStoreTests {
    @Test("a store cut short by 16 KB (an interrupted copy) is damaged: exit 1 naming the file, never a backtest of zeros")
    func truncatedStore() throws {
        let db = try BT.googStore()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int)
        #expect(truncate(db, off_t(size - 16_384)) == 0)
        for args in [["run", "ma-cross", "GOOG", "--no-chart"], ["data", "export", "GOOG"], ["data", "list"]] {
            let r = try BT.bounded(args + ["--db", db])
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
        let db = try BT.googStore()
        try RawDatabase.execute(c.sql, at: db)
        let r = try BT.bounded(["run", "ma-cross", "GOOG", "--no-chart", "--db", db])
        #expect(r.status == 1, "\(c.sql): \(r.status) \(r.stdout.prefix(300))")
        #expect(r.stderr.contains("damaged") && r.stderr.contains("GOOG 1d") && r.stderr.contains(c.reason), "\(r.stderr)")
    }

    @Test("the shipped data still loads after a write through the WAL is checked against the header")
    func storeWithLog() throws {
        let db = try BT.googStore()
        // A second import leaves nothing in the log once closed; list and run read it back whole.
        #expect(try BT.run(["data", "import", "data/EURUSD.csv", "--db", db]).status == 0)
        #expect(try BT.bounded(["run", "ma-cross", "EURUSD", "--no-chart", "--db", db]).status == 0)
        #expect(try BT.bounded(["data", "list", "--db", db]).status == 0)
    }
}
