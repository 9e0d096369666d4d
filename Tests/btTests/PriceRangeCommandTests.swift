import Foundation
import Testing
import TestSupport

/// The supported price range (positive, 1e-12 to 1e12) end to end: an import refuses a price of
/// 0, a negative one or one outside the range, naming file:line and the range and changing
/// nothing; runs near either end of the range print numbers or words, never `inf` or `nan`.
@Suite("The price range: refused on import outside it, numbers or words inside it", .serialized)
struct PriceRangeCommandTests {
    static func write(_ name: String, closes: [Double], in dir: URL, spike: (bar: Int, high: Double)? = nil) throws -> String {
        var text = "time,open,high,low,close,volume\n"
        for (i, c) in closes.enumerated() {
            let high = spike?.bar == i ? spike!.high : c * 1.01
            text += "\(1_600_000_000 + 86_400 * i),\(c),\(high),\(c * 0.99),\(c),1000\n"
        }
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// `n` closes of a seeded random walk from `p0`, each step within ±1%: within a factor of
    /// about 1.5 of `p0` over 400 bars.
    static func walk(_ n: Int, from p0: Double) -> [Double] {
        var rng = SplitMix64(seed: 7)
        var p = p0
        return (0..<n).map { _ in
            p *= 1 + (Double(rng.next() % 2001) / 1000 - 1) * 0.01
            return p
        }
    }

    @Test("prices outside 1e-12...1e12, zero or negative are refused on import with file:line and the range, leaving the store as it was")
    func priceRangeOnImport() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let before = try BT.run(["data", "export", "GOOG", "--db", db]).stdout
        let cases: [(name: String, closes: [Double], spike: (bar: Int, high: Double)?, line: Int, reason: String)] = [
            ("TINY.csv", [1e-300] + Self.walk(50, from: 1e-300), nil, 2, "open 1e-300 is outside the supported price range, 1e-12 to 1e12"),
            ("ZERO.csv", [0] + Self.walk(50, from: 1), nil, 2, "open 0 is not a price bt supports: prices are positive, from 1e-12 to 1e12"),
            ("NEG.csv", Self.walk(10, from: 10) + [-37.63] + Self.walk(10, from: 10), nil, 12, "open -37.63 is not a price bt supports"),
            ("SPIKE.csv", Self.walk(300, from: 100), (150, 1e200), 152, "high 1e+200 is outside the supported price range, 1e-12 to 1e12"),
        ]
        for c in cases {
            let file = try Self.write(c.name, closes: c.closes, in: dir, spike: c.spike)
            let r = try BT.run(["data", "import", file, "--db", db])
            #expect(r.status == 2, "\(c.name): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("\(file):\(c.line): \(c.reason)"), "\(c.name): \(r.stderr)")
        }
        #expect(try BT.run(["data", "list", "--db", db]).stdout.split(separator: "\n").count == 2)
        #expect(try BT.run(["data", "export", "GOOG", "--db", db]).stdout == before)
        // Near the ends of the range are prices.
        for (name, p0) in [("LOW.csv", 2e-12), ("HIGH.csv", 5e11)] {
            let r = try BT.run(["data", "import", try Self.write(name, closes: Self.walk(300, from: p0), in: dir), "--db", db])
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
    }

    @Test("runs at the ends of the price range print numbers or words, never inf or nan, and write their report with --no-chart")
    func extremePricesPrintNumbers() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let files = [try Self.write("LOW.csv", closes: Self.walk(400, from: 2e-12), in: dir),
                     try Self.write("HIGH.csv", closes: Self.walk(400, from: 5e11), in: dir),
                     try Self.write("SPIKE.csv", closes: Self.walk(400, from: 1), in: dir, spike: (200, 1e12))]
        #expect(try BT.run(["data", "import"] + files + ["--db", db]).status == 0)
        func numbersOnly(_ text: String) -> Bool {
            !text.split(whereSeparator: { " \n|,:()".contains($0) }).contains { ["inf", "-inf", "nan", "-nan", "inf%", "nan%"].contains($0.lowercased()) }
        }
        for symbol in ["LOW", "HIGH", "SPIKE"] {
            for extra in [[], ["--spread-window", "5"], ["--entry", "close > 0", "--exit", "close < 0"]] {
                let strategy = extra.first == "--entry" ? [] : ["ma-cross"]
                let out = dir.appendingPathComponent("report-\(symbol)-\(UUID().uuidString)").path
                let r = try BT.run(["run"] + strategy + [symbol] + extra + ["--no-chart", "--out", out, "--db", db])
                #expect(r.status == 0, "\(symbol) \(extra): \(r.stderr)")
                #expect(numbersOnly(r.stdout), "\(symbol) \(extra):\n\(r.stdout)")
                let md = (try? String(contentsOfFile: out + "/report.md", encoding: .utf8)) ?? ""
                #expect(!md.isEmpty && numbersOnly(md), "\(symbol) \(extra): report.md\n\(md.prefix(2_000))")
            }
        }
    }
}
