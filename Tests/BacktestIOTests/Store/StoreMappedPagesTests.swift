import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData

/// A long whole-series load reads its blobs through the store's mapping of the file; it gives
/// the mapped pages back (`CandleStore.loadStored`), so the process does not hold the series
/// twice, as file pages and as arrays.
@Suite("Long loads give back the store's mapped pages")
struct StoreMappedPagesTests {
    /// Resident kilobytes of this process's mappings of `path` (`/proc/self/smaps`); nil where
    /// there is no such file (not Linux).
    static func residentKB(mapping path: String) -> Int? {
        // Read to the end: /proc files report size 0, and a read by size stops at one page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"), let data = try? handle.readToEnd() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        var total = 0, inFile = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5, !first.hasSuffix(":") {
                inFile = fields.count >= 6 && fields[5...].joined(separator: " ") == path
            } else if inFile, fields.first == "Rss:", fields.count >= 2, let kb = Int(fields[1]) {
                total += kb
            }
        }
        return total
    }

    @Test("a load of a million bars reads every bar and leaves none of the file resident in the process")
    func longLoad() throws {
        let db = TestSupport.scratchDirectory().appendingPathComponent("long.sqlite").path
        let n = CandleStore.remapAfterBars
        var series = CandleSeries(symbol: "LONG", timeframe: .minute1)
        series.reserveCapacity(n)
        for i in 0..<n {
            let p = 100 + Double(i % 1000) / 100
            series.append(time: 1_600_000_020 + Int64(i) * 60, open: p, high: p + 0.5, low: p - 0.5, close: p + 0.25, volume: 10)
        }
        do {
            let writer = try CandleStore(path: db)
            try writer.write([.generated(series, source: "test")])
            try writer.checkpoint()  // into the file, which is what is mapped (the WAL is read, not mapped)
        }
        let store = try CandleStore(existingAt: db)  // as bt run opens it
        let loaded = try store.loadStored(symbol: "LONG", timeframeKey: "1m")
        #expect(loaded == series)
        let canonical = URL(fileURLWithPath: db).resolvingSymlinksInPath().path
        if let kb = Self.residentKB(mapping: canonical) {
            // 48 MB of blobs were read through the mapping; a page or two of the index may stay.
            #expect(kb < 1024, "\(kb) KB of the store file still resident after the load")
        }
        // The store reads on after the remapping.
        #expect(try store.loadStored(symbol: "LONG", timeframeKey: "1m").count == n)
    }
}
