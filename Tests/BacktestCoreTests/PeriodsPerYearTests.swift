import Testing
@testable import BacktestCore

/// Bars per year from bar times: the day-counting loop skips the division for bars inside the
/// day it is in, and gives what dividing every bar's time gives.
@Suite("periods per year inferred from bar times")
struct PeriodsPerYearTests {
    /// The definition, dividing every time: days per year x the median bars per UTC day.
    static func byDivision(_ time: [Int64]) -> Double {
        guard time.count >= 2 else { return PeriodsPerYear.tradingDays }
        switch Timeframe.infer(from: time) {
        case .week1?: return 52
        case .month1?: return 12
        default: break
        }
        var perDay: [Int64: Int] = [:]
        for t in time { perDay[floorDiv(t, 86_400), default: 0] += 1 }
        let counts = perDay.values.sorted()
        let weekend = perDay.keys.filter { [2, 3].contains((($0 % 7) + 7) % 7) }.count
        return (weekend * 5 >= counts.count ? PeriodsPerYear.calendarDays : PeriodsPerYear.tradingDays) * Double(counts[counts.count / 2])
    }

    @Test("equal to dividing every bar's time, on minute, hourly, daily and gappy series, before 1970 too")
    func equalsDivision() {
        var random = SystemRandomNumberGenerator()
        for trial in 0..<300 {
            let step: Int64 = [60, 300, 3_600, 86_400, 7_200][trial % 5]
            let offset = Int64(trial)
            var t: Int64 = trial % 3 == 0 ? -1_000_000 + offset : 1_700_000_000 + offset * 37
            var time: [Int64] = []
            for _ in 0..<Int.random(in: 2...2_000, using: &random) {
                time.append(t)
                let gap: Bool = Int.random(in: 0..<20, using: &random) == 0
                let skipped: Int64 = Int64.random(in: 2...400, using: &random)
                t += gap ? step * skipped : step
            }
            #expect(PeriodsPerYear.infer(from: time) == Self.byDivision(time), "trial \(trial)")
        }
        // Daily stock bars skip weekends: 252; crypto trades every day: 365.
        let days: [Int64] = (0..<300).map { (d: Int) -> Int64 in 1_704_067_200 + Int64(d) * 86_400 }
        let weekdays: [Int64] = days.enumerated().filter { $0.offset % 7 < 5 }.map(\.element)  // 2024-01-01 was a Monday
        let stock: Double = PeriodsPerYear.infer(from: weekdays), crypto: Double = PeriodsPerYear.infer(from: days)
        #expect(stock == 252)
        #expect(crypto == 365)
    }
}
