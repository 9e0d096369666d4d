import Testing
@testable import BacktestCore

@Suite("Resampling against hand-computed buckets")
struct ResampleTests {
    /// Daily bars from Thursday 2024-02-01 to Wednesday 2024-03-06, close = day index + 1.
    static let daily: CandleSeries = {
        var s = CandleSeries(symbol: "D", timeframe: .day1)
        let start = UTCTime.epoch(year: 2024, month: 2, day: 1)
        for k in 0..<35 {
            let c = Double(k + 1)
            s.append(time: start + Int64(k) * 86_400, open: c - 0.5, high: c + 1, low: c - 1, close: c, volume: 10)
        }
        return s
    }()

    @Test("weekly buckets start on Monday 00:00 UTC")
    func weekly() {
        let w = Self.daily.resampled(to: .week1)
        // Thu 1 Feb..Sun 4 Feb (4 days), then Mon 5, 12, 19, 26 Feb, Mon 4 Mar (Mon-Wed, 3 days).
        #expect(w.time.map(UTCTime.isoDate) == ["2024-01-29", "2024-02-05", "2024-02-12", "2024-02-19", "2024-02-26", "2024-03-04"])
        #expect(w.open == [0.5, 4.5, 11.5, 18.5, 25.5, 32.5])
        #expect(w.high == [5, 12, 19, 26, 33, 36])
        #expect(w.low == [0, 4, 11, 18, 25, 32])
        #expect(w.close == [4, 11, 18, 25, 32, 35])
        #expect(w.volume == [40, 70, 70, 70, 70, 30])
    }

    @Test("monthly buckets start on the 1st (leap February has 29 days)")
    func monthly() {
        let m = Self.daily.resampled(to: .month1)
        #expect(m.time.map(UTCTime.isoDate) == ["2024-02-01", "2024-03-01"])
        #expect(m.open == [0.5, 29.5])
        #expect(m.close == [29, 35])
        #expect(m.high == [30, 36] && m.low == [0, 29])
        #expect(m.volume == [290, 60])
    }

    @Test("hourly to 4h: calendar-aligned buckets, empty buckets skipped")
    func fourHours() {
        var s = CandleSeries(symbol: "H", timeframe: .hour1)
        let t0 = UTCTime.epoch(year: 2024, month: 1, day: 1, hour: 2)
        for h in [0, 1, 2, 3, 9] {  // 02:00 03:00 | 04:00 05:00 | 11:00
            let c = Double(h)
            s.append(time: t0 + Int64(h) * 3600, open: c, high: c + 2, low: c - 2, close: c + 1, volume: 1)
        }
        let r = s.resampled(to: .hour4)
        #expect(r.time.map(UTCTime.iso) == ["2024-01-01T00:00:00Z", "2024-01-01T04:00:00Z", "2024-01-01T08:00:00Z"])
        #expect(r.open == [0, 2, 9] && r.high == [3, 5, 11] && r.low == [-2, 0, 7] && r.close == [2, 4, 10] && r.volume == [2, 2, 1])
    }

    @Test("timeframe inference from spacing", arguments: [
        (Int64(60), Timeframe.minute1), (300, .minute5), (3600, .hour1), (14_400, .hour4), (86_400, .day1), (604_800, .week1),
    ])
    func infer(spacing: Int64, expected: Timeframe) {
        #expect(Timeframe.infer(from: (0..<10).map { 1_700_000_000 + $0 * spacing }) == expected)
    }

    @Test("inference counting runs of equal gaps once gives what counting every gap gives, on mixed and irregular spacings")
    func inferByRunsEqualsEveryGap() {
        /// The median gap's band by sorting: the definition `infer` computes without one.
        func bySorting(_ time: [Int64]) -> Timeframe? {
            let gaps = zip(time.dropFirst(), time).map { $0 - $1 }.filter { $0 > 0 }.sorted()
            guard !gaps.isEmpty else { return nil }
            let median = gaps[gaps.count / 2]
            return Timeframe.allCases.first { tf in
                tf == .month1 ? (28 * 86_400...31 * 86_400).contains(median)
                    : (tf.seconds - tf.seconds / 10...tf.seconds + tf.seconds / 10).contains(median)
            }
        }
        var random = SystemRandomNumberGenerator()
        let spacings: [Int64] = [60, 300, 3_600, 86_400, 0, -60, 7_200, 61, 259_200]
        var agreed = 0
        for trial in 0..<400 {
            var t: Int64 = 1_700_000_000
            var time: [Int64] = [t]
            for _ in 0..<Int.random(in: 1...300, using: &random) {
                // Long runs of one spacing, broken by others, as real series are.
                let spacing = trial % 2 == 0 && Int.random(in: 0..<10, using: &random) < 8
                    ? spacings[trial % 4] : spacings.randomElement(using: &random)!
                t += spacing
                time.append(t)
            }
            #expect(Timeframe.infer(from: time) == bySorting(time), "trial \(trial): \(time.prefix(20))")
            if Timeframe.infer(from: time) != nil { agreed += 1 }
        }
        #expect(agreed > 100)  // most trials name a timeframe, so the comparison is not of nils
    }

    @Test("inference: weekend gaps keep 1d, monthly calendar spacing is 1M, irregular spacing is nil")
    func inferEdgeCases() {
        // 2024-01-01 was a Monday: keep Monday to Friday.
        let days: [Int64] = (0..<60).map { Int64($0) }
        let weekdays: [Int64] = days.filter { $0 % 7 < 5 }.map { 1_704_067_200 + $0 * 86_400 }
        #expect(Timeframe.infer(from: weekdays) == .day1)
        let months = (1...12).map { UTCTime.epoch(year: 2023, month: $0, day: 1) }
        #expect(Timeframe.infer(from: months) == .month1)
        #expect(Timeframe.infer(from: [0, 7200, 14_400, 21_600]) == nil)
        #expect(Timeframe.infer(from: [5]) == nil)
        #expect(Timeframe.infer(from: [5, 5, 5]) == nil)
    }
}

@Suite("Resampling equals a bar-by-bar fold")
struct ResampleFoldTests {
    /// Bars with gaps of one bar to several buckets, and bursts inside one bucket.
    static func irregular(bars: Int, seed: UInt64) -> CandleSeries {
        var s = CandleSeries(symbol: "R", timeframe: .minute1)
        var state = seed
        var t: Int64 = 1_700_000_000 / 60 * 60
        for i in 0..<bars {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Int64(state >> 33)
            t += [60, 60, 60, 120, 3_600, 86_400 * 3, 60][Int(r % 7)]
            let x = Double(r % 1000) / 10 + 1
            s.append(time: t, open: x, high: x + Double(r % 7) / 3, low: x - Double(r % 5) / 7, close: x + 0.1,
                     volume: Double(r % 100) / 3 + Double(i % 3) / 7)
        }
        return s
    }

    /// The buckets by a linear scan and each column folded in bar order.
    static func reference(_ s: CandleSeries, _ timeframe: Timeframe) -> CandleSeries {
        var out = CandleSeries(symbol: s.symbol, timeframe: timeframe)
        var i = 0
        while i < s.count {
            let end = timeframe.barEnd(timeframe.bucketStart(s.time[i]))
            var j = i + 1
            var h = s.high[i], l = s.low[i], v = s.volume[i]
            while j < s.count && s.time[j] < end {
                h = max(h, s.high[j]); l = min(l, s.low[j]); v += s.volume[j]
                j += 1
            }
            out.append(time: timeframe.bucketStart(s.time[i]), open: s.open[i], high: h, low: l, close: s.close[j - 1], volume: v)
            i = j
        }
        return out
    }

    @Test("every timeframe, every length from one bar", arguments: [Timeframe.minute5, .hour1, .hour4, .day1, .week1, .month1])
    func foldEqual(_ timeframe: Timeframe) {
        for bars in [1, 2, 3, 17, 2_000] {
            let s = Self.irregular(bars: bars, seed: UInt64(bars))
            let got = s.resampled(to: timeframe), want = Self.reference(s, timeframe)
            #expect(got.time == want.time && got.open == want.open && got.close == want.close)
            #expect(got.high.map(\.bitPattern) == want.high.map(\.bitPattern) && got.low.map(\.bitPattern) == want.low.map(\.bitPattern))
            #expect(got.volume.map(\.bitPattern) == want.volume.map(\.bitPattern), "volumes summed in bar order")
        }
    }
}
