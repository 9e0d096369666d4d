import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis

/// A condition screen whose expressions read another series with `@`: one reader for every
/// symbol, so the series is loaded once, and each symbol's value is its own computation's.
@Suite("Condition screens reading other series")
struct ConditionScreenOtherSeriesTests {
    /// Candles by symbol, counting the loads.
    final class Source: OtherSeriesSource, @unchecked Sendable {
        let series: [CandleSeries]
        private let lock = NSLock()
        private var counted = 0

        init(_ series: [CandleSeries]) { self.series = series }

        var loads: Int { lock.withLock { counted } }

        func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
            lock.withLock { counted += 1 }
            guard let s = series.first(where: { $0.symbol == symbol }) else { return nil }
            return s.timeframe == timeframe ? s : s.resampled(to: timeframe)
        }

        func keys() throws -> [String] { series.map { "\($0.symbol)@\($0.timeframe?.rawValue ?? "?")" } }
    }

    /// GOOG's bars as `symbol`, bars `range`, closes scaled by `scale`.
    static func variant(_ symbol: String, _ range: Range<Int>, scale: Double = 1) throws -> CandleSeries {
        var s = try ShippedData.goog().slice(range)
        s.symbol = symbol
        s.close = s.close.map { $0 * scale }
        return s
    }

    static let filter = "close > sma(close, 20)@BENCH@1w"
    static let shown = "sma(close, 20)@BENCH@1w"

    @Test("a shared market filter is loaded once and equals each symbol's own computation; an unaligned symbol is an error row")
    func sharedFilter() throws {
        let bench = try Self.variant("BENCH", 300..<2148)
        let symbols = [try Self.variant("A", 0..<2148), try Self.variant("B", 0..<1500, scale: 1.1),
                       try Self.variant("C", 400..<1900, scale: 0.9), try Self.variant("D", 1000..<2100, scale: 0.95),
                       try Self.variant("EARLY", 0..<250)]
        let source = Source([bench] + symbols)
        let reader = OtherSeriesReader(source)
        let screen = try ConditionScreen(condition: LocatedExpression(Self.filter, origin: .setting(.where)),
                                         shows: [LocatedExpression(Self.shown, origin: .setting(.show))], reading: reader)
        let rows = screen.run(symbols: symbols.map(\.symbol)) { name in symbols.first { $0.symbol == name }! }
        #expect(source.loads == 1, "the benchmark is read once for all symbols")
        // Its one SMA, in the cache every symbol's evaluation shares.
        #expect(try reader.series(OtherSeriesReference(symbol: "BENCH", timeframe: .week1), for: symbols[0]).cache.count == 1)
        #expect(reader.read.map(\.name) == ["BENCH@1w"])
        for (row, candles) in zip(rows.prefix(4), symbols) {
            // The symbol alone, with a reader of its own.
            let own = try LocatedExpression(Self.shown, origin: .setting(.show))
                .values(on: candles, reading: OtherSeriesReader(Source([bench] + symbols))).last!
            #expect(row.status != .error, "\(row.symbol): \(row.error ?? "")")
            #expect(row.values.first.map { $0 == own || ($0.isNaN && own.isNaN) } == true, "\(row.symbol)")
            #expect(row.status == (candles.close.last! > own ? .match : .noMatch), "\(row.symbol)")
        }
        #expect(rows[4].status == .error)
        #expect(rows[4].error?.hasPrefix("no BENCH@1w bar closed within the run's bars") == true, "\(rows[4].error ?? "")")
        #expect(rows[4].error?.contains("\n") == false)
    }

    @Test("a last bar no bar of the other series has closed by is the symbol's error row")
    func staleAtLastBar() throws {
        // BENCH lacks the last 20 days: another symbol's value is stale after one bar length.
        let bench = try Self.variant("BENCH", 0..<2128)
        let a = try Self.variant("A", 0..<2148)
        let screen = try ConditionScreen(condition: LocatedExpression("close > close@BENCH", origin: .setting(.where)),
                                         reading: OtherSeriesReader(Source([bench, a])))
        let row = try #require(screen.run(symbols: ["A"]) { _ in a }.first)
        #expect(row.status == .error)
        #expect(row.error?.hasPrefix("no closed BENCH@1d bar (none yet, or its last one was older") == true, "\(row.error ?? "")")
        #expect(row.error?.hasSuffix("at the bar looked at (2013-03-01T00:00:00Z)") == true, "\(row.error ?? "")")
    }

    @Test("an unknown symbol after @ is refused once, at the keys, before any symbol is screened")
    func unknownSymbol() throws {
        let source = Source([try Self.variant("BENCH", 0..<100)])
        #expect {
            try ConditionScreen(condition: LocatedExpression("close > 0", origin: .setting(.where)),
                                shows: [LocatedExpression("close@BENCX", origin: .setting(.show))], reading: OtherSeriesReader(source))
        } throws: { error in
            let e = error as? InputError
            return e?.setting == .show && e?.reason.contains("no candles stored for 'BENCX'; did you mean 'BENCH'?") == true
                && e?.reason.hasSuffix("\n  close@BENCX\n       ^^^^^^") == true
        }
        #expect(source.loads == 0)
    }
}
