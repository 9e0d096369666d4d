import Testing
import TestSupport
@testable import BacktestCore

/// No rule reading another series with `@` sees a bar before it has closed: changing any bar
/// of either series after a bar's close changes nothing at or before that bar.
@Suite("Other series: no look-ahead")
struct OtherSeriesLookAheadTests {
    /// A random hourly series named `symbol`, `skip` bars in, every `drop`-th bar left out.
    static func hourly(_ symbol: String, seed: UInt64, count: Int, skip: Int = 0, drop: Int = 0) -> CandleSeries {
        let r = RandomStream.candles(count: count, seed: seed)
        var s = CandleSeries(symbol: symbol, timeframe: .hour1)
        for i in skip..<count where drop == 0 || i % drop != 1 {
            s.append(time: Int64(i) * 3600 + 1_500_000_000 / 86_400 * 86_400, open: r.open[i], high: r.high[i], low: r.low[i],
                     close: r.close[i], volume: r.volume[i])
        }
        return s
    }

    /// `s` with every bar that closes after `t` changed (prices doubled, volume 0).
    static func changed(_ s: CandleSeries, after t: Int64) -> CandleSeries {
        var out = s
        for i in 0..<s.count where (s.timeframe ?? .hour1).barEnd(s.time[i]) > t {
            out.open[i] *= 2; out.high[i] *= 2; out.low[i] *= 2; out.close[i] *= 2; out.volume[i] = 0
        }
        return out
    }

    static func values(_ text: String, run: CandleSeries, other: CandleSeries) throws -> [Double] {
        let reader = OtherSeriesReader(SeriesInMemory(series: [run, other]), maxStale: 3 * 3600)
        return try LocatedExpression(text, origin: .setting(.entry)).values(on: run, parameters: ["n": .number(4)], reading: reader)
    }

    @Test("random expressions read @1d, @4h, @OTHER and @OTHER@4h: nothing after a bar's close reaches it")
    func noLookAhead() throws {
        let run = Self.hourly("RUN", seed: 7, count: 900)
        let other = Self.hourly("OTHER", seed: 8, count: 900, skip: 60, drop: 9)
        var generator = ExpressionLookAheadTests.Generator(rng: SplitMix64(seed: 41))
        var checked = 0
        for k in 0..<40 {
            let suffix = ["@1d", "@4h", "@OTHER", "@OTHER@4h", "@OTHER@1d"][k % 5]
            let text = "(\(generator.number(2)))\(suffix) - close"
            let base = try Self.values(text, run: run, other: other)
            for cut in [100, 333, 517, 880] {
                let t = Timeframe.hour1.barEnd(run.time[cut])
                let after = try Self.values(text, run: Self.changed(run, after: t), other: Self.changed(other, after: t))
                for i in 0...cut where base[i].bitPattern != after[i].bitPattern && !(base[i].isNaN && after[i].isNaN) {
                    Issue.record("\(text): bar \(i) was \(base[i]), \(after[i]) once bars after bar \(cut) changed")
                    break
                }
                checked += 1
            }
        }
        #expect(checked == 160)
    }

    @Test("a value is seen at the bar whose close is its bar's close: the 23:00 hour shows the day's close")
    func seenWhenClosed() throws {
        let run = Self.hourly("RUN", seed: 3, count: 72)
        let daily = run.resampled(to: .day1)
        let v = try Self.values("close@1d", run: run, other: Self.hourly("OTHER", seed: 4, count: 72))
        for i in 0..<run.count {
            let day = Int((run.time[i] - run.time[0]) / 86_400)
            let closesDay = (i + 1) % 24 == 0
            let expected = closesDay ? daily.close[day] : day == 0 ? Double.nan : daily.close[day - 1]
            #expect(v[i].bitPattern == expected.bitPattern || (v[i].isNaN && expected.isNaN), "bar \(i)")
        }
    }
}
