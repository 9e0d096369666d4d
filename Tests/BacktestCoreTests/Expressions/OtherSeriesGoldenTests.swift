import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// Series held in memory as a store would hold them: each symbol's one series, resampled (UTC
/// buckets) to a coarser timeframe when asked.
struct SeriesInMemory: OtherSeriesSource {
    var series: [CandleSeries]
    /// Sessions by symbol, which resampling follows.
    var sessions: [String: TradingSession] = [:]

    func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
        guard let s = series.first(where: { $0.symbol == symbol }) else { return nil }
        guard let own = s.timeframe, own <= timeframe else { throw InputError("stored only coarser") }
        if own == timeframe { return s }
        return try sessions[symbol].map { try s.resampled(to: timeframe, session: $0) } ?? s.resampled(to: timeframe)
    }

    func session(symbol: String) throws -> TradingSession? { sessions[symbol] }

    func keys() throws -> [String] { series.map { "\($0.symbol)@\($0.timeframe?.rawValue ?? "?")" } }
}

/// `EXPR@TF`, `EXPR@SYMBOL` and `EXPR@SYMBOL@TF` against pandas: resampled, only closed bars
/// visible, an as-of join on close times (`Tests/Fixtures/timeframes/make_goldens.py`).
@Suite("Other series goldens")
struct OtherSeriesGoldenTests {
    /// The runs with goldens: daily GOOG (and GOOGX), hourly EURUSD, the minute stock with a
    /// session and its hourly resampling (`OtherSeriesSessionGoldenTests`).
    enum Dataset: String, CustomTestStringConvertible, Sendable {
        case goog, eurusd, stock, stock1h
        var testDescription: String { rawValue }
    }

    struct Case: Sendable {
        var id: String
        var dataset: Dataset
        var text: String
        var maxStale: Int64?
    }

    static func cases() throws -> [Case] {
        try Repository.text("Tests/Fixtures/timeframes/cases.txt").split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Case(id: f[0], dataset: Dataset(rawValue: f[1])!, text: f[2], maxStale: Int64(f[3]))
        }
    }

    /// Every case of `dataset`, evaluated on `run` reading `source`, equals its golden column on
    /// every bar (NaN where pandas has none).
    static func check(_ dataset: Dataset, run: CandleSeries, source: SeriesInMemory, atLeast: Int) throws {
        let url = Repository.root.appendingPathComponent("Tests/Fixtures/timeframes/\(dataset.rawValue)_goldens.csv")
        let (rows, columns) = try Golden.goldens(at: url)
        #expect(rows == Array(0..<run.count))
        let cases = try Self.cases().filter { $0.dataset == dataset }
        #expect(cases.count >= atLeast)
        for c in cases {
            let expected = try #require(columns[c.id], "no golden column \(c.id)")
            let e = try LocatedExpression(c.text, origin: .setting(.entry))
            let actual = try e.values(on: run, reading: OtherSeriesReader(source, maxStale: c.maxStale))
            var mismatches = 0, known = 0
            for i in 0..<run.count {
                let a = actual[i]
                guard let b = expected[i] else {
                    if !a.isNaN { mismatches += 1; if mismatches < 4 { Issue.record("\(c.id) bar \(i): \(a), expected NaN") } }
                    continue
                }
                known += 1
                if !Golden.close(a, b, absolute: 1e-12 * max(1, abs(b))) {
                    mismatches += 1
                    if mismatches < 4 { Issue.record("\(c.id) bar \(i): \(a), expected \(b)") }
                }
            }
            #expect(mismatches == 0, "\(c.id) on \(dataset): \(mismatches) bars differ")
            #expect(known > run.count / 2, "\(c.id): too few known values to compare")
        }
    }

    @Test("every case matches pandas on every bar", arguments: [Dataset.goog, .eurusd])
    func goldens(dataset: Dataset) throws {
        let run = dataset == .goog ? try ShippedData.goog() : try ShippedData.eurusd()
        try Self.check(dataset, run: run, source: SeriesInMemory(series: [run, try ShippedData.googx()]), atLeast: 5)
    }

    @Test("the two-symbol cases have bars without a closed bar, and --max-stale fills some of them")
    func holidays() throws {
        let columns = try Golden.goldens(at: Repository.root.appendingPathComponent("Tests/Fixtures/timeframes/goog_goldens.csv")).columns
        let missing = columns["close_x"]!.filter { $0 == nil }.count
        let missingWithStale = columns["close_x_stale3d"]!.filter { $0 == nil }.count
        #expect(missing > 50)
        #expect(missingWithStale < missing && missingWithStale > 0)
    }
}
