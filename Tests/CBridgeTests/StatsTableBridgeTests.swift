import Backtest
import CBTABI
import Foundation
import Testing
import TestSupport
@testable import CBridge

/// btcore's statistics on demand (`Result.stats`, `.stat`) through the C library: the table
/// (`bt_result_stats_json`) and one statistic (`bt_result_stat`) build no report (whose manifest
/// hashes every bar) and run no bootstrap unless asked for the intervals, and give what
/// `bt_result_json_with` gives. A guard on the work done, not on the time it takes.
@Suite("bt_result_stats_json: the statistics without the report")
struct StatsTableBridgeTests {
    /// ma-cross on the shipped GOOG bars through `bt_backtest_strategy`, with bt_config's defaults.
    static func run() throws -> OpaquePointer {
        let candles = try ShippedData.candles("GOOG")
        var strategy: OpaquePointer?
        #expect(CBridge.bt_strategy_named("ma-cross", nil, &strategy) == 0)
        defer { CBridge.bt_strategy_free(strategy) }
        var out: OpaquePointer?
        let status = OtherSeriesBridgeTests.withBars(candles) { bars in CBridge.bt_backtest_strategy(bars, strategy, nil, 0, nil, &out) }
        guard status == 0, let out else { throw BridgeError.input(OtherSeriesBridgeTests.lastError) }
        return out
    }

    /// A text function of bt.h's kind (length first, then the text), parsed as a JSON object.
    static func object(_ call: (UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>?) -> Int32) throws -> [String: Any] {
        var length = 0
        #expect(call(nil, 0, &length) == 0)
        var buffer = [CChar](repeating: 0, count: length + 1)
        #expect(call(&buffer, buffer.count, &length) == 0)
        let data = Data(buffer.prefix(length).map { UInt8(bitPattern: $0) })
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the table and single statistics build no report and run no bootstrap; the table equals the run's JSON")
    func tableWithoutReport() throws {
        let handle = try Self.run()
        defer { CBridge.bt_result_free(handle) }
        let run = try Handles.shared.get(handle, as: RunHandle.self, "result")
        var value = 0.0
        #expect(CBridge.bt_result_stat(handle, "final_equity", &value) == 0)
        #expect(CBridge.bt_result_stat(handle, "alpha", &value) == 0)
        let table = try Self.object { CBridge.bt_result_stats_json(handle, 0, $0, $1, $2) }
        #expect(CBridge.bt_result_stat(handle, "max_drawdown_duration", &value) == 0)
        #expect(run.work.reports == 0 && !run.work.bootstrap, "\(run.work)")
        #expect(Set(table.keys) == ["strategy", "symbol", "warnings", "stats"])
        #expect(table["strategy"] as? String == "ma-cross" && table["symbol"] as? String == "GOOG")

        // The full JSON without intervals: one report, still no bootstrap; the same statistics and warnings.
        let json = try Self.object { CBridge.bt_result_json_with(handle, 0, 0, $0, $1, $2) }
        #expect(run.work.reports == 1 && !run.work.bootstrap)
        #expect(NSDictionary(dictionary: table["stats"] as! [String: Any]).isEqual(to: json["stats"] as! [String: Any]))
        #expect(NSArray(array: table["warnings"] as! [Any]).isEqual(to: json["warnings"] as! [Any]))
        let stats = table["stats"] as! [String: Any]
        #expect(stats["sharpe_ci_low"] is NSNull && stats["psr"] is NSNull && stats["final_equity"] is Double)

        // With the intervals: the bootstrap runs, still no report; the run's JSON has the same table.
        let full = try Self.object { CBridge.bt_result_stats_json(handle, 1, $0, $1, $2) }
        #expect(run.work.reports == 1 && run.work.bootstrap)
        let withIntervals = try Self.object { CBridge.bt_result_json_with(handle, 0, 1, $0, $1, $2) }
        #expect(NSDictionary(dictionary: full["stats"] as! [String: Any]).isEqual(to: withIntervals["stats"] as! [String: Any]))
        #expect((full["stats"] as! [String: Any])["psr"] is Double)
    }

    @Test("one statistic read alone equals the table's, bit for bit")
    func statEqualsTable() throws {
        let handle = try Self.run()
        defer { CBridge.bt_result_free(handle) }
        let run = try Handles.shared.get(handle, as: RunHandle.self, "result")
        let table = Stats(run.result, periodsPerYear: run.yearPeriods())
        for stat in Stat.allCases {
            var value = 0.0
            #expect(CBridge.bt_result_stat(handle, stat.rawValue, &value) == 0)
            let expected = table[stat]
            #expect(value.bitPattern == expected.bitPattern || (value.isNaN && expected.isNaN), "\(stat): \(value), \(expected)")
        }
    }
}
