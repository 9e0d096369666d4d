import Foundation
import Testing
import TestSupport

/// A store under concurrent writers and kill -9, end to end with the real binary: two imports
/// into one symbol at the same time both land (or the second is refused), and an import killed
/// at any moment leaves the store as it was before it or after it, never in between.
@Suite("Stores under concurrent imports and kill -9", .serialized)
struct StoreConcurrencyTests {
    /// A CSV of `count` one-minute bars from `start` (epoch seconds).
    static func minuteBars(_ count: Int, from start: Int, named name: String, in dir: URL) throws -> String {
        var text = "time,open,high,low,close,volume\n"
        text.reserveCapacity(count * 40)
        for i in 0..<count { text += "\(start + 60 * i),1,2,0.5,1.5,\(i % 100)\n" }
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func bars(_ db: String) throws -> [String: Int] {
        let r = try BT.run(["data", "list", "--json", "--db", db])
        guard r.status == 0 else { throw CLIError("data list failed: \(r.stderr)") }
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        var out: [String: Int] = [:]
        for s in object["series"] as! [[String: Any]] { out[s["symbol"] as! String] = s["bars"] as? Int }
        return out
    }

    @Test("two imports into one symbol at the same time: both imports' bars are kept (or the second is refused)")
    func concurrentImports() throws {
        let dir = BT.scratchDirectory()
        let a = try Self.minuteBars(150_000, from: 1_600_000_000, named: "a.csv", in: dir)
        let b = try Self.minuteBars(150_000, from: 1_700_000_000, named: "b.csv", in: dir)
        for trial in 0..<4 {
            let db = dir.appendingPathComponent("race\(trial).sqlite").path
            if trial % 2 == 0 { #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0) }
            let first = try BT.launch(["data", "import", a, "--symbol", "X", "--db", db])
            let second = try BT.launch(["data", "import", b, "--symbol", "X", "--db", db])
            first.waitUntilExit()
            second.waitUntilExit()
            let stored = try Self.bars(db)["X"] ?? 0
            let ok = [first, second].filter { $0.terminationStatus == 0 }.count
            #expect(ok >= 1, "trial \(trial): both imports failed")
            #expect(stored == 150_000 * ok, "trial \(trial): \(ok) imports succeeded but \(stored) bars are stored")
            if trial % 2 == 0 { #expect(try Self.bars(db)["GOOG"] == 2148) }
        }
    }

    @Test("kill -9 during an import: the store opens, keeps what it had, and holds all of the import or none")
    func killDuringImport() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("k.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let before = try BT.run(["data", "export", "GOOG", "--db", db]).stdout
        for (k, delay) in [0.05, 0.2, 0.5, 0.9, 1.4, 2.0].enumerated() {
            let p = try BT.launch(["data", "synth", "--symbols", "20", "--bars", "60000", "--seed", "\(k + 2)", "--db", db])
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let bars = try Self.bars(db)
            #expect(bars["GOOG"] == 2148)
            let synthetic = bars.filter { $0.key.hasPrefix("SYN") }
            #expect(synthetic.isEmpty || (synthetic.count == 20 && synthetic.values.allSatisfy { $0 == 60000 }),
                    "after a kill at \(delay)s: \(synthetic.count) synthetic series")
            #expect(try BT.run(["data", "export", "GOOG", "--db", db]).stdout == before)
            #expect(try BT.run(["data", "remove", "SYN0001", "--db", db]).status == (synthetic.isEmpty ? 2 : 0))
        }
    }
}
