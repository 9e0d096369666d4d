@testable import BacktestData
import BacktestCore
import Testing

/// Numbers from the network into checked ranges: whole numbers in range pass, everything else
/// (fractions, out of range, NaN, infinities, 2^63, text) is an `InputError` naming the field.
@Suite("Network numbers")
struct NetworkNumberTests {
    @Test("whole numbers in range pass", arguments: [(0.0, Int64(0)), (6000, 6000), (1e9, 1_000_000_000), (-5, -5)])
    func accepted(_ value: Double, _ expected: Int64) throws {
        #expect(try NetworkNumber.integer(value, "limit", in: -10...1_000_000_000) == expected)
    }

    @Test("fractions, numbers out of range, NaN and infinities are refused with the field's name",
          arguments: [0.5, 1e9 + 1, -11, 1e300, -1e19, 9.223372036854775807e18, .nan, .infinity, -.infinity])
    func refused(_ value: Double) {
        #expect {
            try NetworkNumber.integer(value, "rateLimits limit", in: -10...1_000_000_000)
        } throws: { e in
            (e as? InputError)?.reason.hasPrefix("rateLimits limit ") == true && (e as? InputError)?.reason.hasSuffix("-10...1000000000") == true
        }
    }

    @Test("header text: decimal whole numbers in range only", arguments: [
        (" 42 ", Int64?.some(42)), ("9223372036854775807", nil), ("99999999999999999999", nil), ("1e3", nil), ("-1", nil), ("", nil), ("12abc", nil),
    ])
    func headerText(_ text: String, _ expected: Int64?) {
        #expect((try? NetworkNumber.integer(text, "the used-weight header", in: 0...1_000_000_000)) == expected)
    }

    @Test("a refused header is quoted in at most 80 characters")
    func longHeader() {
        #expect {
            try NetworkNumber.integer(String(repeating: "9", count: 10_000), "the used-weight header", in: 0...10)
        } throws: { e in
            let reason = (e as? InputError)?.reason ?? ""
            return reason.count < 200 && reason.contains("(10000 characters)")
        }
    }
}
