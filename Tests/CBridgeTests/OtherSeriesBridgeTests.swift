import Backtest
import CBTABI
import Foundation
import Testing
import TestSupport
@testable import CBridge

/// `@` through the C library: expressions and strategies read other series from a `bt_other`
/// (bars given by key, a store) and the run's own bars, and match the pandas goldens of
/// `Tests/Fixtures/timeframes/make_goldens.py`, as the library's own `@` does. The calls go to
/// the bridge's functions by their module (`CBridge.bt_...`: bt.h's declarations return
/// `bt_status`, the bridge's the same code as `Int32`).
@Suite("bt_other: @ through the C library")
struct OtherSeriesBridgeTests {
    /// `candles` as caller columns in a `bt_bars`, for the length of `body`.
    static func withBars<T>(_ candles: CandleSeries, symbol: String? = nil, timeframe: String? = nil,
                            _ body: (UnsafePointer<bt_bars>) throws -> T) rethrows -> T {
        try candles.time.withUnsafeBufferPointer { t in
            try candles.open.withUnsafeBufferPointer { o in
                try candles.high.withUnsafeBufferPointer { h in
                    try candles.low.withUnsafeBufferPointer { l in
                        try candles.close.withUnsafeBufferPointer { c in
                            try candles.volume.withUnsafeBufferPointer { v in
                                try (symbol ?? candles.symbol).withCString { s in
                                    try (timeframe ?? "").withCString { tf in
                                        var bars = bt_bars(n: candles.count, time: t.baseAddress, open: o.baseAddress,
                                                           high: h.baseAddress, low: l.baseAddress, close: c.baseAddress,
                                                           volume: v.baseAddress, symbol: s, timeframe: timeframe == nil ? nil : tf)
                                        return try body(&bars)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The library's last error after a failed call.
    static var lastError: String { String(cString: CBridge.bt_last_error()) }

    /// A `bt_other` holding `series` by key, with `maxStale`.
    static func other(_ series: [(String, CandleSeries)] = [], db: String? = nil, maxStale: String? = nil) throws -> OpaquePointer {
        var out: OpaquePointer?
        let status = db.withOptionalCString { d in maxStale.withOptionalCString { m in CBridge.bt_other_new(d, m, &out) } }
        guard status == 0, let out else { throw BridgeError.input(lastError) }
        for (key, candles) in series {
            let added = withBars(candles) { bars in CBridge.bt_other_add(out, key, bars) }
            guard added == 0 else { throw BridgeError.input(lastError) }
        }
        return out
    }

    /// The golden columns of a dataset by case id, NaN for empty cells.
    static func goldens(_ dataset: String) throws -> [String: [Double]] {
        let lines = try Repository.text("Tests/Fixtures/timeframes/\(dataset)_goldens.csv").split(separator: "\n")
        let names = lines[0].split(separator: ",").map(String.init)
        var columns = [String: [Double]]()
        for line in lines.dropFirst() {
            for (name, cell) in zip(names, line.split(separator: ",", omittingEmptySubsequences: false)) {
                columns[name, default: []].append(Double(cell) ?? .nan)
            }
        }
        return columns
    }

    /// (id, dataset, expression, max stale seconds) of `cases.txt`.
    static func cases() throws -> [(id: String, dataset: String, text: String, maxStale: Int64?)] {
        try Repository.text("Tests/Fixtures/timeframes/cases.txt").split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (f[0], f[1], f[2], Int64(f[3]))
        }
    }

    /// The values of `text` compiled with `other` (NULL: none) on `run`.
    static func values(_ text: String, other: OpaquePointer?, on run: CandleSeries, symbol: String? = nil) throws -> [Double] {
        var expr: OpaquePointer?
        guard CBridge.bt_expr_compile_other(text, nil, 0, other, &expr) == 0 else { throw BridgeError.input(lastError) }
        defer { CBridge.bt_expr_free(expr) }
        var out = [Double](repeating: -1, count: run.count)
        let status = withBars(run, symbol: symbol) { bars in out.withUnsafeMutableBufferPointer { CBridge.bt_expr_eval(expr, bars, $0.baseAddress) } }
        guard status == 0 else { throw BridgeError(Status(rawValue: status)!, lastError) }
        return out
    }

    static func sameValues(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x.isNaN ? y.isNaN : abs(x - y) <= 1e-12 * max(1, abs(y)) }
    }

    @Test("every golden case: the run's own bars resampled (no other data at all), GOOGX given by key, --max-stale")
    func goldens() throws {
        let googx = try ShippedData.googx()
        var checked = 0
        for dataset in ["goog", "eurusd"] {
            let run = dataset == "goog" ? try ShippedData.goog() : try ShippedData.eurusd()
            let columns = try Self.goldens(dataset)
            for c in try Self.cases() where c.dataset == dataset {
                let reads = c.text.contains("GOOGX")
                let other: OpaquePointer? = reads || c.maxStale != nil
                    ? try Self.other(reads ? [("googx", googx)] : [], maxStale: c.maxStale.map { "\($0 / 86_400)d" }) : nil
                defer { CBridge.bt_other_free(other) }
                let actual = try Self.values(c.text, other: other, on: run)
                let expected = try #require(columns[c.id])
                #expect(Self.sameValues(actual, expected), "\(c.id): \(zip(actual, expected).filter { !Self.sameValues([$0], [$1]) }.prefix(3))")
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    @Test("a symbol given at a finer timeframe is resampled to the one asked, as the store resamples it")
    func resampledFromFiner() throws {
        let goog = try ShippedData.goog()
        let other = try Self.other([("GOOGX@1d", try ShippedData.googx())])
        defer { CBridge.bt_other_free(other) }
        let weekly = try Self.values("close@GOOGX@1w", other: other, on: goog)
        #expect(Self.sameValues(weekly, try #require(try Self.goldens("goog")["close_x_1w"])))
    }

    @Test("from a store: another symbol, and the run's own symbol at a higher timeframe, as bt run reads them; each series read once per bt_other")
    func fromTheStore() throws {
        let db = TestSupport.scratchDirectory().appendingPathComponent("bt.sqlite").path
        let store = try CandleStore(path: db)
        _ = try store.write([.generated(try ShippedData.goog(), source: "GOOG.csv"), .generated(try ShippedData.googx(), source: "GOOGX.csv"),
                             .generated(try ShippedData.eurusd(), source: "EURUSD.csv")])
        let other = try Self.other(db: db)
        defer { CBridge.bt_other_free(other) }
        let goldens = try Self.goldens("goog")
        let goog = try ShippedData.goog()
        #expect(Self.sameValues(try Self.values("close@GOOGX", other: other, on: goog), try #require(goldens["close_x"])))
        #expect(Self.sameValues(try Self.values("close@GOOGX@1w", other: other, on: goog), try #require(goldens["close_x_1w"])))
        // The run's own symbol: the store's EURUSD resampled, for bars that name it.
        let eurusd = try ShippedData.eurusd()
        #expect(Self.sameValues(try Self.values("sma(close, 5)@1d", other: other, on: eurusd), try #require(try Self.goldens("eurusd")["sma5_1d"])))
    }

    /// A source that counts what it is asked.
    final class Counting: OtherSeriesSource, @unchecked Sendable {
        let lock = NSLock()
        var asked = 0
        func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
            lock.lock(); asked += 1; lock.unlock()
            return symbol == "GOOGX" ? try ShippedData.googx() : nil
        }
        func keys() throws -> [String] { ["GOOGX@1d"] }
    }

    @Test("each stored series is read once per bt_other, however many evaluations read it")
    func storeReadOnce() throws {
        let counting = Counting()
        let once = StoreOnce(counting)
        let goog = try ShippedData.goog()
        for _ in 0..<3 {
            let reader = OtherSeriesReader(CallerSeries(given: [:], store: once, run: goog))
            let values = try LocatedExpression("close@GOOGX", origin: .setting(.entry)).values(on: goog, reading: reader)
            #expect(Self.sameValues(values, try #require(try Self.goldens("goog")["close_x"])))
            _ = try once.candles(symbol: "SPY", timeframe: .day1)
        }
        #expect(counting.asked == 2, "GOOGX once, SPY (not stored) once")
    }

    @Test("a strategy reading @ (bt_strategy_reading) gives the goldens' signals and a run that counts the bars without a closed bar")
    func strategies() throws {
        let eurusd = try ShippedData.eurusd()
        var rules: OpaquePointer?, reading: OpaquePointer?
        #expect(CBridge.bt_strategy_rules("close > sma(close, 3)@1d", "close < sma(close, 3)@1d", nil, nil, nil, 0, &rules) == 0)
        defer { CBridge.bt_strategy_free(rules) }
        #expect(CBridge.bt_strategy_reads_other(rules) == 1)
        // Without a reader the rule cannot run, and says where it can.
        var entries = [UInt8](repeating: 0, count: eurusd.count), exits = entries
        let refused = Self.withBars(eurusd) { CBridge.bt_strategy_signals(rules, nil, 0, $0, &entries, &exits, nil, nil, nil) }
        #expect(refused == 1 && Self.lastError.contains("the C library and btcore given other series"), "\(Self.lastError)")
        #expect(CBridge.bt_strategy_reading(rules, nil, &reading) == 0)
        defer { CBridge.bt_strategy_free(reading) }
        let status = Self.withBars(eurusd) { CBridge.bt_strategy_signals(reading, nil, 0, $0, &entries, &exits, nil, nil, nil) }
        #expect(status == 0, "\(Self.lastError)")
        let filter = try #require(try Self.goldens("eurusd")["filter_1d"])
        let differ = zip(entries, filter).filter { $0 != ($1 == 1 ? 1 : 0) }.count
        #expect(differ == 0, "\(differ) bars differ from the golden")
        #expect(entries.contains(1) && exits.contains(1))

        var config = bt_config()
        CBridge.bt_config_init(&config)
        var result: OpaquePointer?
        let ran = Self.withBars(eurusd) { CBridge.bt_backtest_strategy($0, reading, nil, 0, &config, &result) }
        #expect(ran == 0, "\(Self.lastError)")
        defer { CBridge.bt_result_free(result) }
        var length = 0
        #expect(CBridge.bt_result_json(result, 0, nil, 0, &length) == 0)
        var text = [CChar](repeating: 0, count: length + 1)
        #expect(CBridge.bt_result_json(result, 0, &text, length + 1, &length) == 0)
        let json = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let missing = try #require(try Self.goldens("eurusd")["close_1d"]).prefix { $0.isNaN }.count
        #expect(json.contains("\(missing) bars had no closed EURUSD@1d bar"), "\(json.prefix(400))")
        #expect(CBridge.bt_strategy_reads_other(nil) == -1)
        // The signals' own warnings: the same no_closed_bar, as JSON, without a run.
        var warningsLength = 0
        #expect(Self.withBars(eurusd) { CBridge.bt_strategy_signal_warnings(reading, nil, 0, $0, nil, 0, &warningsLength) } == 0)
        var small = [CChar](repeating: 1, count: warningsLength)
        #expect(Self.withBars(eurusd) { CBridge.bt_strategy_signal_warnings(reading, nil, 0, $0, &small, warningsLength, nil) } == 3)
        #expect(small.allSatisfy { $0 == 1 }, "nothing written into a buffer too small")
        var warnings = [CChar](repeating: 0, count: warningsLength + 1)
        #expect(Self.withBars(eurusd) { CBridge.bt_strategy_signal_warnings(reading, nil, 0, $0, &warnings, warningsLength + 1, nil) } == 0)
        let warned = warnings.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #expect(warned.hasPrefix(#"[{"kind":"no_closed_bar","message":"\#(missing) bars had no closed EURUSD@1d bar"#), "\(warned)")
    }

    @Test("bad keys are refused with the reason, a suggestion and a caret under the key")
    func badKeys() throws {
        let goog = try ShippedData.goog()
        let other = try Self.other([("GOOGX", try ShippedData.googx())])
        defer { CBridge.bt_other_free(other) }
        func refusal(_ text: String) -> String? {
            do { _ = try Self.values(text, other: other, on: goog); return nil } catch let e as BridgeError { return e.message } catch { return "\(error)" }
        }
        let unknown = try #require(refusal("close > close@GOOGXX"))
        #expect(unknown.hasPrefix("expression: no candles stored for 'GOOGXX'"), "\(unknown)")
        #expect(unknown.contains("did you mean 'GOOGX@1d'?") && unknown.contains("close > close@GOOGXX\n") && unknown.contains("^^^^^^"), "\(unknown)")
        let lower = try #require(refusal("close@1h"))
        #expect(lower.contains("'@1h' is a lower timeframe than the run's (1d)"), "\(lower)")
        let coarser = try #require(refusal("close@GOOGX@1h"))
        #expect(coarser.contains("lower timeframe") , "\(coarser)")
        // The plain compile still refuses @, naming where it works.
        var expr: OpaquePointer?
        #expect(CBridge.bt_expr_compile("close@1d", nil, 0, &expr) == 1)
        #expect(Self.lastError.contains("the C library and btcore given other series"), "\(Self.lastError)")
    }

    @Test("bt_other_new and bt_other_add refuse bad input: a duration, a store, a key, a timeframe, a series given twice")
    func badOther() throws {
        var out: OpaquePointer?
        #expect(CBridge.bt_other_new(nil, "3x", &out) == 1 && Self.lastError.hasPrefix("max_stale '3x': a duration is"), "\(Self.lastError)")
        #expect(CBridge.bt_other_new("/nonexistent/bt.sqlite", nil, &out) == 1 && out == nil, "\(Self.lastError)")
        let other = try Self.other()
        defer { CBridge.bt_other_free(other) }
        let goog = try ShippedData.goog()
        #expect(Self.withBars(goog) { CBridge.bt_other_add(other, "GO OG", $0) } == 1, "\(Self.lastError)")
        #expect(Self.withBars(goog) { CBridge.bt_other_add(other, "GOOG@1h", $0) } == 1 && Self.lastError.contains("the key says 1h"))
        #expect(Self.withBars(goog) { CBridge.bt_other_add(other, "GOOG", $0) } == 0)
        #expect(Self.withBars(goog) { CBridge.bt_other_add(other, "goog@1d", $0) } == 1 && Self.lastError.contains("GOOG@1d was given already"))
        // A NaN row (a frame reindexed to another calendar) is refused, as a store would refuse it.
        var holes = try ShippedData.googx()
        holes.close[5] = .nan
        #expect(Self.withBars(holes) { CBridge.bt_other_add(other, "SPY", $0) } == 1)
        #expect(Self.lastError.hasPrefix("other['SPY'][5] (GOOGX 2004-08-27"), "\(Self.lastError)")
        // Two bars a second apart: no timeframe bt knows.
        let undated = CandleSeries(symbol: "X", time: [0, 1], open: [1, 1], high: [1, 1], low: [1, 1], close: [1, 1], volume: [0, 0])
        #expect(Self.withBars(undated) { CBridge.bt_other_add(other, "X", $0) } == 1 && Self.lastError.contains("timeframe is unknown"), "\(Self.lastError)")
        #expect(CBridge.bt_other_add(out, "GOOG", nil) == 2)
        // Freed and wrong-kind handles are refused, never dereferenced.
        let freed = try Self.other()
        CBridge.bt_other_free(freed)
        var expr: OpaquePointer?, strategy: OpaquePointer?
        #expect(CBridge.bt_expr_compile_other("close@1d", nil, 0, freed, &expr) == 2 && expr == nil)
        #expect(Self.lastError == "other is not a live handle (freed already, or never made by bt)", "\(Self.lastError)")
        #expect(CBridge.bt_strategy_reading(freed, nil, &strategy) == 2 && strategy == nil)
        #expect(CBridge.bt_strategy_reading(other, other, &strategy) == 2 && Self.lastError.contains("another kind"), "\(Self.lastError)")
    }
}

extension Optional where Wrapped == String {
    /// The string as a C string for `body`, NULL when nil.
    func withOptionalCString<T>(_ body: (UnsafePointer<CChar>?) throws -> T) rethrows -> T {
        guard let self else { return try body(nil) }
        return try self.withCString(body)
    }
}
