import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("Decimal parsing")
struct DecimalParsingTests {
    func parse(_ s: String) -> Result<Double, DecimalParsing.Failure> { DecimalParsing.double(s) }

    @Test("agrees bit for bit with the standard library on random decimals (fixed seed)")
    func matchesStandardLibrary() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let digits = Int(rng.next() % 20) + 1
            var s = String(rng.next() % 10_000_000_000_000_000_000)
            s = String(s.prefix(digits))
            let point = Int(rng.next() % UInt64(s.count + 1))
            s.insert(".", at: s.index(s.startIndex, offsetBy: point))
            if s.hasSuffix(".") { s += "0" }
            if s.hasPrefix(".") { s = "0" + s }
            if rng.next() % 4 == 0 { s += "e\(Int(rng.next() % 40) - 20)" }
            if rng.next() % 3 == 0 { s = "-" + s }
            let expected = Double(s)!
            guard case .success(let v) = parse(s), v.bitPattern == expected.bitPattern else {
                Issue.record("\(s): \(parse(s)) != \(expected)")
                return
            }
        }
    }

    @Test("shortest round-trip descriptions parse back exactly")
    func roundTrip() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let v = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            guard case .success(let back) = parse(v.description), back == v else {
                Issue.record("\(v.description) did not round-trip")
                return
            }
        }
    }

    @Test("failures", arguments: [
        ("", DecimalParsing.Failure.missing), ("  ", .missing), ("abc", .notANumber), ("1.2.3", .notANumber),
        ("NaN", .notFinite), ("-inf", .notFinite), ("Infinity", .notFinite), ("1e", .notANumber), ("1e999", .notFinite),
    ])
    func failures(text: String, failure: DecimalParsing.Failure) {
        #expect(parse(text) == .failure(failure))
    }

    @Test("ISO-8601 from bytes: dates, date-times, fractions dropped, offsets to UTC; invalid text is nil", arguments: [
        ("2024-02-29", Int64?(1_709_164_800)), ("2023-02-29", nil), ("2024-01-02 03:04", 1_704_164_640),
        ("2024-01-02T03:04:05", 1_704_164_645), ("2024-01-02T03:04:05.999Z", 1_704_164_645),
        ("2024-01-02T03:04:05-05:30", 1_704_184_445), ("2024-01-02T24:00:00", nil), ("2024-01-02X", nil),
        ("2024-1-02", nil), ("1969-12-31T23:59:59Z", -1),
    ])
    func iso(text: String, expected: Int64?) {
        var copy = text
        #expect(copy.withUTF8 { DecimalParsing.iso($0) } == expected)
        #expect(UTCTime.parseISO(Substring(text)) == expected)
    }

    @Test("times: ISO dates, date-times with offsets, epoch s/ms/µs, yyyymmdd")
    func times() {
        #expect(DecimalParsing.time("2024-01-02") == 1_704_153_600)
        #expect(DecimalParsing.time("2024-01-02 01:00:00") == 1_704_157_200)
        #expect(DecimalParsing.time("2024-01-02T02:00:00+01:00") == 1_704_157_200)
        #expect(DecimalParsing.time("1704153600") == 1_704_153_600)
        #expect(DecimalParsing.time("1704153600123") == 1_704_153_600)
        #expect(DecimalParsing.time("1704153600123456") == 1_704_153_600)
        #expect(DecimalParsing.time("20240102") == 1_704_153_600)
        #expect(DecimalParsing.time("2024-13-01") == nil)
        #expect(DecimalParsing.time("yesterday") == nil)
    }
}
