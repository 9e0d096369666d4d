import Testing
import TestSupport
@testable import BacktestCore

/// One reader shared by the runs of several symbols (a screen, a portfolio): what a series
/// shows depends on the run that reads it, not on which run read it first.
@Suite("Other series: a reader shared across symbols")
struct OtherSeriesSharedReaderTests {
    /// B: 100 hours; A: 200 hours from the same start, so B's last value goes stale on A.
    static let a = OtherSeriesLookAheadTests.hourly("A", seed: 1, count: 200)
    static let b = OtherSeriesLookAheadTests.hourly("B", seed: 2, count: 100)

    static func values(_ text: String, on run: CandleSeries, reader: OtherSeriesReader) throws -> [Double] {
        try LocatedExpression(text, origin: .setting(.entry)).values(on: run, reading: reader)
    }

    static func same(_ x: [Double], _ y: [Double]) -> Bool {
        x.count == y.count && zip(x, y).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    @Test("a series read first by its own symbol's run (never stale there) still goes stale on another symbol's, and the reverse",
          arguments: [["B", "A"], ["A", "B"]])
    func staleness(order: [String]) throws {
        let shared = OtherSeriesReader(SeriesInMemory(series: [Self.a, Self.b]))
        for name in order {
            let run = name == "A" ? Self.a : Self.b
            let alone = try Self.values("close@B", on: run, reader: OtherSeriesReader(SeriesInMemory(series: [Self.a, Self.b])))
            #expect(Self.same(try Self.values("close@B", on: run, reader: shared), alone), "\(name) after \(order)")
        }
        let onA = try Self.values("close@B", on: Self.a, reader: shared)
        #expect(onA[99] == Self.b.close[99] && onA[100] == Self.b.close[99] && onA[101].isNaN && onA[199].isNaN)
    }

    @Test("the bars without a value are counted as stale ones for another symbol only, whichever run read the series first")
    func warnings() throws {
        let shared = OtherSeriesReader(SeriesInMemory(series: [Self.a, Self.b]))
        let rules = try SignalRules([.entry: LocatedExpression("close@B@4h > 0", origin: .setting(.entry)),
                                     .exit: LocatedExpression("close < 0", origin: .setting(.exit))], parameters: [])
        var reading = rules
        reading.otherSeries = shared
        let own = try reading.signals(on: Self.b, values: [:])
        #expect(own.unaligned.map(\.canBeStale) == [false], "\(own.unaligned)")
        let other = try reading.signals(on: Self.a, values: [:])
        #expect(other.unaligned.map(\.canBeStale) == [true], "\(other.unaligned)")
    }
}
