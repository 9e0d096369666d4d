import TestSupport
import Testing
@testable import BacktestCore

/// `LikelySplit`: a one-bar close move within 1% of a split ratio, not matched by the volume.
@Suite("Likely splits")
struct LikelySplitTests {
    /// 40 daily bars at 100 with volume 1000, then bar 30 moved to `move` x 100 with `volume`,
    /// the bars after it staying at the new level.
    static func series(move: Double, volume: Double = 1000) -> CandleSeries {
        var s = CandleSeries(symbol: "SPLT", timeframe: .day1)
        let day0 = UTCTime.epoch(year: 2005, month: 2, day: 1)
        for i in 0..<40 {
            let c = i < 30 ? 100 : 100 * move
            s.append(time: day0 + Int64(i) * 86_400, open: c, high: c, low: c, close: c, volume: i == 30 ? volume : 1000)
        }
        return s
    }

    @Test("a 2:1 split in raw prices is found, with the message the run and the import print")
    func twoForOne() {
        let splits = LikelySplit.find(Self.series(move: 0.499))
        #expect(splits.map(\.index) == [30])
        #expect(splits.first?.ratio == "2:1")
        #expect(LikelySplit.warning(symbol: "SPLT", splits)
                == "SPLT 2005-03-03: close fell 50.1% in one bar, like a 2:1 split; import adjusted prices or use --adjusted")
    }

    @Test("each ratio and its inverse within 1% is found; 1.5% off, or a 45% crash, is not")
    func ratios() {
        for q in [1.0 / 2, 1.0 / 3, 2.0 / 3, 1.0 / 4, 1.0 / 10, 2, 3, 1.5, 4, 10] {
            #expect(LikelySplit.find(Self.series(move: q * 1.009)).count == 1, "\(q) x 1.009")
            #expect(LikelySplit.find(Self.series(move: q * 0.991)).count == 1, "\(q) x 0.991")
            #expect(LikelySplit.find(Self.series(move: q * 1.015)).isEmpty, "\(q) x 1.015")
        }
        #expect(LikelySplit.find(Self.series(move: 0.55)).isEmpty)  // a 45% crash
        let up = LikelySplit.find(Self.series(move: 2))
        #expect(LikelySplit.warning(symbol: "X", up) == "X 2005-03-03: close rose 100.0% in one bar, like a 1:2 reverse split; "
                + "import adjusted prices or use --adjusted")
    }

    @Test("the volume: a 2:1 move whose volume doubled (above sqrt 2 x the median before) matches; below it, or missing, it does not")
    func volume() {
        #expect(LikelySplit.find(Self.series(move: 0.5, volume: 2000)).isEmpty)
        #expect(LikelySplit.find(Self.series(move: 0.5, volume: 1450)).isEmpty)
        #expect(LikelySplit.find(Self.series(move: 0.5, volume: 1400)).count == 1)
        #expect(LikelySplit.find(Self.series(move: 0.5, volume: 0)).count == 1)
        #expect(LikelySplit.find(Self.series(move: 0.5, volume: .nan)).count == 1)
        // A reverse 1:2 split matches a volume halved, not one doubled.
        #expect(LikelySplit.find(Self.series(move: 2, volume: 500)).isEmpty)
        #expect(LikelySplit.find(Self.series(move: 2, volume: 2000)).count == 1)
    }

    @Test("the warning lists the first 5 dates, then how many more")
    func capped() {
        var s = CandleSeries(symbol: "MANY", timeframe: .day1)
        let day0 = UTCTime.epoch(year: 2010, month: 1, day: 1)
        for i in 0..<20 {
            let c = i % 2 == 0 ? 100.0 : 50.0
            s.append(time: day0 + Int64(i) * 86_400, open: c, high: c, low: c, close: c, volume: 1000)
        }
        let splits = LikelySplit.find(s)
        #expect(splits.count == 19)
        let text = LikelySplit.warning(symbol: "MANY", splits) ?? ""
        #expect(text.components(separatedBy: "MANY 2010-").count - 1 == 5)
        #expect(text.contains("2010-01-06: close fell 50.0%") && !text.contains("2010-01-07"))
        #expect(text.hasSuffix(" (and 14 more); import adjusted prices or use --adjusted"))
    }

    @Test("the shipped data: GOOG (2004-2013, before its 2014 split) and EURUSD have none")
    func shipped() throws {
        #expect(LikelySplit.find(try ShippedData.goog()).isEmpty)
        #expect(LikelySplit.find(try ShippedData.eurusd()).isEmpty)
    }
}
