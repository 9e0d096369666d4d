import Foundation
import Testing
import TestSupport

/// Shard files are input, end to end with the real binary: `bt merge` refuses a shard file that
/// changed after its shard wrote it (its checksum is in the shard's manifest), naming the file,
/// and never traps on a hostile value in it (bar counts of Int64.max, NaN and 1e300 times).
@Suite("Hand-edited shard files are refused by bt merge, naming them", .serialized)
struct EditedShardFileTests {
    // MARK: - Hand-edited shard files

    /// Byte offsets of fields in a shard's row file (the first row's), as `ScreenRowsFile` and
    /// `ConditionRowsFile` write them: little-endian words, strings with a length word.
    static func offsets(_ b: [UInt8]) -> [String: Int] {
        var p = 8
        func word() -> Int { defer { p += 8 }; return (0..<8).reduce(0) { $0 | Int(b[p + $1]) << (8 * $1) } }
        func string() { p += word() }
        func optional() { p += 1; if b[p - 1] == 1 { string() } }
        var out: [String: Int] = [:]
        if b.starts(with: Array("btSCREEN".utf8)) {
            _ = word(); _ = word(); _ = word()
            string(); string(); optional()
            out["bars"] = p; p += 8
            if b[p] == 1 { p += 1; out["ppy"] = p; p += 8; _ = word(); out["start"] = p }
        } else if b.starts(with: Array("btCONDIT".utf8)) {
            _ = word(); _ = word()
            string(); string(); optional()
            if b[p] == 1 { out["time"] = p + 1 }
        }
        return out
    }

    /// The shards of a strategy screen and a condition screen of GOOG and EURUSD, in one folder each.
    static func shardFolders(db: String, in dir: URL) throws -> (screen: String, condition: String) {
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db]).status == 0)
        let screen = dir.appendingPathComponent("sparts").path, condition = dir.appendingPathComponent("cparts").path
        for k in 0..<2 {
            #expect(try BT.run(["screen", "ma-cross", "--all", "--shard", "\(k)/2", "--out", screen, "--db", db]).status == 0)
        }
        let c = try BT.run(["screen", "--all", "--where", "close > sma(close, 20)", "--shard", "0/1", "--out", condition, "--db", db])
        #expect(c.status == 0, "\(c.stderr)")
        return (screen, condition)
    }

    /// The shard file of `folder` holding rows, edited: `value` written at `field`.
    static func edit(_ folder: String, file: String, field: String, value: UInt64) throws -> String {
        let shards = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("shard-") }
        for shard in shards {
            let path = "\(folder)/\(shard)/\(file)"
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let at = offsets(bytes)[field] else { continue }
            for k in 0..<8 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        Issue.record("no row with \(field) in \(folder)")
        return ""
    }

    static let shardEdits: [(file: String, field: String, value: UInt64)] = [
        ("screen.rows", "bars", UInt64(Int64.max)),
        ("screen.rows", "start", Double.nan.bitPattern),
        ("screen.rows", "start", (1e300).bitPattern),
        ("screen.rows", "ppy", (-1.0).bitPattern),
        ("condition.rows", "time", UInt64(bitPattern: Int64.min)),
        ("condition.rows", "time", UInt64(9_223_372_036_854_775_000)),
    ]

    @Test("a hand-edited shard file is refused by bt merge naming it (its checksum), never a trap", arguments: shardEdits.indices)
    func editedShard(index: Int) throws {
        let e = Self.shardEdits[index]
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let (screen, condition) = try Self.shardFolders(db: db, in: dir)
        let folder = e.file == "screen.rows" ? screen : condition
        let path = try Self.edit(folder, file: e.file, field: e.field, value: e.value)
        let r = try BT.bounded(["merge", folder, "--out", dir.appendingPathComponent("merged").path, "--db", db])
        #expect(r.status == 2, "\(e): \(r.status) \(r.stderr.prefix(400))")
        #expect(r.stderr.contains(path) && r.stderr.contains("checksum"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged").path))
    }

    @Test("unedited shards still merge, and each shard file's checksum is in its manifest")
    func shardChecksums() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let (screen, _) = try Self.shardFolders(db: db, in: dir)
        let manifest = try String(contentsOfFile: screen + "/shard-1-of-2/partial.json", encoding: .utf8)
        #expect(manifest.contains("\"files_sha256\": {\"screen.rows\": \""), "\(manifest)")
        let r = try BT.bounded(["merge", screen, "--out", dir.appendingPathComponent("merged").path, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
