import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData

/// `--latency-file`'s CSV: epoch nanoseconds and ISO-8601 times, any column order, and every bad
/// file refused naming the file and the line at fault.
@Suite("LatencyFile")
struct LatencyFileTests {
    @Test("epoch nanoseconds and ISO-8601 (nine digits, an offset) give the same rows; columns in any order, CRLF and a BOM")
    func formats() throws {
        let epoch = try LatencyFile.parse("req_ts,exch_ts,resp_ts\n1700000000000000000,1700000000002500001,1700000000010000000\n", path: "a.csv")
        let iso = try LatencyFile.parse("\u{FEFF}RESP_TS, req_ts ,exch_ts\r\n\r\n2023-11-14T22:13:20.01Z,2023-11-14T22:13:20Z,2023-11-14T23:13:20.002500001+01:00\r\n",
                                        path: "b.csv")
        #expect(epoch.rows == [LatencyTable.Row(requestNs: 1_700_000_000_000_000_000, exchangeNs: 1_700_000_000_002_500_001,
                                                responseNs: 1_700_000_000_010_000_000)])
        #expect(iso == epoch)
    }

    @Test("bad files exit 2 naming the file and line", arguments: [
        ("", nil, "empty latency file"),
        ("\n  \n", nil, "empty latency file"),
        ("req_ts,exch_ts,resp_ts\n", nil, "no latency rows"),
        ("req_ts,exch_ts\n1,2\n", 1, "missing column 'resp_ts'"),
        ("req_ts,exch_ts,resp_ts,x\n", 1, "unknown column 'x'"),
        ("req_ts,req_ts,resp_ts\n", 1, "appears twice"),
        ("req_ts,exch_ts,resp_ts\n1,2,3\n4,5\n", 3, "2 fields"),
        ("req_ts,exch_ts,resp_ts\n1,2,3\n4,five,6\n", 3, "exch_ts 'five' is not a time"),
        ("req_ts,exch_ts,resp_ts\n-1,2,3\n", 2, "req_ts '-1' is not a time"),
        ("req_ts,exch_ts,resp_ts\n2023-11-14T22:13:20.1234567891Z,2,3\n", 2, "is not a time"),
        ("req_ts,exch_ts,resp_ts\n10,20,30\n\n5,25,35\n", 4, "out of time order: req_ts"),
        ("req_ts,exch_ts,resp_ts\n10,20,30\n11,19,35\n", 3, "out of time order: exch_ts"),
        ("req_ts,exch_ts,resp_ts\n10,9,30\n", 2, "negative entry latency"),
        ("req_ts,exch_ts,resp_ts\n10,20,30\n11,25,24\n", 3, "negative response latency"),
    ] as [(String, Int?, String)])
    func bad(text: String, line: Int?, reason: String) {
        do {
            _ = try LatencyFile.parse(text, path: "lat.csv")
            Issue.record("accepted: \(text)")
        } catch let e as InputError {
            #expect(e.file == "lat.csv" && e.line == line && e.setting == .latencyFile && e.description.contains(reason), "\(e)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a file that cannot be read names it")
    func unreadable() {
        #expect(throws: InputError.self) { _ = try LatencyFile.read(path: "/nonexistent/lat.csv") }
    }
}
