import Foundation
import Testing
import TestSupport

/// A screen in which no symbol runs (a strategy screen) or can be checked (a condition screen)
/// is a failure, as a sweep in which nothing ran: exit 2, each symbol's reason on stderr, and no
/// report folder that would look like a result.
@Suite("A screen in which nothing ran fails", .serialized)
struct ScreenNothingRanTests {
    @Test("a screen in which every symbol fails exits 2 with each symbol's reason and writes no report")
    func screenNothingRan() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let csv = dir.appendingPathComponent("TINY.csv").path
        try Data("time,open,high,low,close,volume\n1700000000,1,2,0.5,1.5,10\n1700086400,1.5,2,1,1.2,10\n1700172800,1.2,1.4,1,1.1,10\n".utf8)
            .write(to: URL(fileURLWithPath: csv))
        #expect(try BT.run(["data", "import", csv, "--db", db]).status == 0)
        let out = dir.appendingPathComponent("screen").path
        let r = try BT.run(["screen", "ma-cross", "--symbols", "TINY,NOPE", "--out", out, "--db", db])
        #expect(r.status == 2, "\(r.status) \(r.stdout.prefix(300)) \(r.stderr)")
        #expect(r.stderr.contains("TINY: ") && r.stderr.contains("NOPE: "), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A condition screen in which no symbol can be checked, likewise.
        let c = try BT.run(["screen", "--symbols", "NOPE,NOPE2", "--where", "close > 1", "--out", out, "--db", db])
        #expect(c.status == 2 && c.stderr.contains("NOPE: ") && c.stderr.contains("NOPE2: "), "\(c.status) \(c.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
