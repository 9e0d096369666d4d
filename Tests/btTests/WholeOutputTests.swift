import Foundation
import Testing
import TestSupport

/// Outputs are whole or absent, end to end with the real binary: a full disk (`ulimit -f`) leaves
/// no half-written report or sweep and the message names the path the user gave, not the hidden
/// staging folder; `--force` replaces a folder of bt's as a whole and never one holding other
/// files.
@Suite("Outputs whole or absent: a full disk, --force, the path a failed write names", .serialized)
struct WholeOutputTests {
    @Test("a full disk leaves no half-written report or sweep, and a rerun is not refused")
    func fullDisk() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let report = dir.appendingPathComponent("reports/run").path
        let sweep = dir.appendingPathComponent("sweeps/grid").path
        let runArgs = ["run", "ma-cross", "GOOG", "--db", db, "--out", report, "--no-chart"]
        let sweepArgs = ["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=2:50:1", "--grid", "slow=20:200:5", "--out", sweep]
        // 100 KB per file: the store's shared memory fits, equity.csv and sweep.csv do not.
        for args in [runArgs, sweepArgs] {
            let r = try BT.shell("ulimit -f 100; trap '' XFSZ; exec " + ([BT.binary.path] + args).map(BT.quoted).joined(separator: " "))
            #expect(r.status == 1, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("File too large"), "\(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["s.sqlite", "s.sqlite-shm", "s.sqlite-wal"]
                    || (try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["s.sqlite"])
        #expect(try BT.run(runArgs).status == 0)
        #expect(try BT.run(sweepArgs).status == 0)
        #expect(FileManager.default.fileExists(atPath: report + "/report.md") && FileManager.default.fileExists(atPath: sweep + "/sweep.md"))
    }

    @Test("--force replaces a sweep folder as a whole; a folder holding other files is never replaced")
    func forceReplaces() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let out = dir.appendingPathComponent("sw").path
        let base = ["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=5:10:5", "--grid", "slow=20:40:20", "--depth", "none", "--out", out]
        #expect(try BT.run(base + ["--walk-forward", "3"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/walk_forward.csv"))
        #expect(try BT.run(base).status == 2)
        #expect(try BT.run(base + ["--force"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/walk_forward.csv"), "a stale file of the old sweep survived --force")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        let r = try BT.run(base + ["--force"])
        #expect(r.status == 2 && r.stderr.contains("which bt did not write"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/notes.txt"))
    }

    @Test("a write that fails inside a staging folder names the path the user gave, never .NAME.partial-...")
    func messagesNameTheTarget() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let parts = dir.appendingPathComponent("parts").path
        let cases: [(args: [String], names: String)] = [
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=2:50:1", "--grid", "slow=20:200:5", "--out", "grid"], "grid/sweep.csv"),
            (["screen", "ma-cross", "--all", "--out", "screen"], "screen/"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=2:50:1", "--grid", "slow=20:200:5", "--shard", "1/2", "--out", parts],
             parts + "/shard-1-of-2/"),
            (["run", "ma-cross", "GOOG", "--out", "report", "--no-chart"], "report"),
        ]
        for c in cases {
            // 100 KB per file: the report's pages and the sweep's rows do not fit.
            let r = try BT.shell("cd \(BT.quoted(dir.path)) && ulimit -f 100; trap '' XFSZ; exec "
                                 + ([BT.binary.path] + c.args + ["--db", db]).map(BT.quoted).joined(separator: " "))
            #expect(r.status == 1 && r.stderr.contains("File too large"), "\(c.args[0]): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(c.names) && !r.stderr.contains(".partial-"), "\(c.args[0]): \(r.stderr)")
        }
    }
}
