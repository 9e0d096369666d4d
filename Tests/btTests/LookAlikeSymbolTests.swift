import Foundation
import Testing
import TestSupport

/// Symbols that differ only in characters a file name cannot hold (`EUR/USD`, `EUR_USD`,
/// `EUR:USD`, `^GSPC`, `GSPC`) never share a report folder: a sweep writes one folder each and
/// links each to its own, a screen keeps one row each.
@Suite("Look-alike symbols: one report folder and one row each", .serialized)
struct LookAlikeSymbolTests {
    static let lookAlikes = ["EUR/USD", "EUR_USD", "EUR:USD", "^GSPC", "GSPC"]

    /// A store holding each look-alike symbol, every one with other bars (GOOG's and EURUSD's
    /// files in turn, and the first 1,000 GOOG bars), so their reports differ.
    static func lookAlikeStore(in dir: URL) throws -> String {
        let db = dir.appendingPathComponent("s.sqlite").path
        let goog = try String(contentsOfFile: BT.root.appendingPathComponent("data/GOOG.csv").path, encoding: .utf8)
        let short = dir.appendingPathComponent("short.csv").path
        try goog.split(separator: "\n", omittingEmptySubsequences: false).prefix(1001).joined(separator: "\n").write(toFile: short, atomically: true, encoding: .utf8)
        let files = ["data/GOOG.csv", "data/EURUSD.csv", short, "data/EURUSD.csv", "data/GOOG.csv"]
        for (symbol, file) in zip(lookAlikes, files) {
            let r = try BT.run(["data", "import", file, "--symbol", symbol, "--db", db])
            #expect(r.status == 0, "\(symbol): \(r.stderr)")
        }
        return db
    }

    @Test("a sweep of look-alike symbols writes one folder each, and summary.md links each to its own")
    func lookAlikeSweep() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.lookAlikeStore(in: dir)
        let out = dir.appendingPathComponent("sweep").path
        let r = try BT.run(["sweep", "ma-cross", "--symbols", Self.lookAlikes.joined(separator: ","), "--grid", "fast=5,10",
                            "--grid", "slow=30", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".csv") }
        #expect(folders.count == Self.lookAlikes.count, "\(folders.sorted())")
        #expect(folders.contains("EUR_USD") && folders.contains("GSPC"))
        let summary = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        var linked = Set<String>()
        for symbol in Self.lookAlikes {
            let line = try #require(summary.split(separator: "\n").first { $0.hasPrefix("| \(symbol) |") })
            let link = try #require(line.range(of: "[report](")).upperBound
            let target = line[link...].prefix { $0 != ")" }.replacingOccurrences(of: "%25", with: "%")
            let md = try String(contentsOfFile: out + "/" + target, encoding: .utf8)
            #expect(md.hasPrefix("# Sweep: ma-cross on \(symbol)\n"), "\(symbol)'s link \(target) opens another symbol's sweep")
            linked.insert(target)
        }
        #expect(linked.count == Self.lookAlikes.count)
    }

    @Test("a screen of look-alike symbols keeps one row each")
    func lookAlikeScreen() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.lookAlikeStore(in: dir)
        let out = dir.appendingPathComponent("screen").path
        let r = try BT.run(["screen", "ma-cross", "--all", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try String(contentsOfFile: out + "/screen.csv", encoding: .utf8)
        for symbol in Self.lookAlikes {
            #expect(csv.split(separator: "\n").filter { $0.split(separator: ",").contains(Substring(symbol)) }.count == 1, "\(symbol)")
        }
    }
}
