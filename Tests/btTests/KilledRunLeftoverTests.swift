import Foundation
import Testing
import TestSupport

/// The hidden folder a killed run leaves (`.NAME.partial-...`, a shard's
/// `.shard-K-of-N.partial-...`) is removed by the next bt that writes the same target when its
/// writer is certainly dead, and kept and named in a note otherwise: a run still writing, a
/// folder of another machine, a name of an older bt.
@Suite("Leftovers of killed runs: removed when certainly dead, kept and noted otherwise", .serialized)
struct KilledRunLeftoverTests {
    static func hidden(in dir: URL, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Starts `args`, waits until a hidden `prefix` folder other than `except` is in `dir`, and
    /// returns the process.
    static func launchUntilStaged(_ args: [String], in dir: URL, prefix: String, except: [String] = []) throws -> Process {
        let p = try BT.launch(args)
        let deadline = Date().addingTimeInterval(30)
        func staged() -> Bool { hidden(in: dir, prefix: prefix).contains { !except.contains($0) } }
        while !staged() && Date() < deadline && p.isRunning { Thread.sleep(forTimeInterval: 0.02) }
        #expect(staged(), "no \(prefix) folder appeared")
        return p
    }

    @Test("a folder a killed sweep left is removed by the next run of this machine; one a live run is writing, or of another machine, is kept and noted")
    func killedRunLeftovers() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let out = dir.appendingPathComponent("grid").path
        let long = ["sweep", "ma-cross", "GOOG", "--grid", "fast=2:60:1", "--grid", "slow=20:300:2", "--db", db, "--out", out]
        let quick = ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--db", db, "--out", out]
        // A run killed while writing leaves its hidden folder.
        let killed = try Self.launchUntilStaged(long, in: dir, prefix: ".grid.partial-")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let left = Self.hidden(in: dir, prefix: ".grid.partial-")
        #expect(left.count == 1)
        // The next run removes it as it starts; while it runs (alive, holding its lock), its own
        // folder is left alone by a third, which says so.
        let live = try Self.launchUntilStaged(long, in: dir, prefix: ".grid.partial-", except: left)
        defer { if live.isRunning { kill(live.processIdentifier, SIGKILL); live.waitUntilExit() } }
        // One of another machine (another kernel's tag) and one of a bt before these names.
        let foreign = dir.appendingPathComponent(".grid.partial-000000000000-1-0123456789abcdef").path
        let older = dir.appendingPathComponent(".grid.partial-12345-6789abcd").path
        for folder in [foreign, older] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        let r = try BT.run(quick)
        #expect(r.status == 0, "\(r.stderr)")
        let now = Self.hidden(in: dir, prefix: ".grid.partial-")
        #expect(!now.contains(left[0]), "the killed run's folder is still there: \(now)")
        #expect(now.contains(".grid.partial-000000000000-1-0123456789abcdef") && now.contains(".grid.partial-12345-6789abcd"), "\(now)")
        #expect(now.count == 3, "the live run's folder was removed: \(now)")
        #expect(r.stderr.contains("note: ") && r.stderr.contains("process \(live.processIdentifier) is running"), "\(r.stderr)")
        #expect(r.stderr.contains("written on another machine") && r.stderr.contains("written by a bt before these names"), "\(r.stderr)")
        kill(live.processIdentifier, SIGKILL)
        live.waitUntilExit()
        // Once that run is dead too, the next run removes its folder.
        #expect(try BT.run(quick + ["--force"]).status == 0)
        #expect(Self.hidden(in: dir, prefix: ".grid.partial-").count == 2)
    }

    @Test("a shard killed while writing leaves a folder the rerun of that shard removes")
    func killedShardLeftover() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let out = dir.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        func args(_ grid: [String]) -> [String] {
            ["sweep", "ma-cross", "GOOG"] + grid + ["--shard", "1/2", "--db", db, "--out", out.path]
        }
        let killed = try Self.launchUntilStaged(args(["--grid", "fast=2:60:1", "--grid", "slow=20:300:2"]), in: out,
                                                prefix: ".shard-1-of-2.partial-")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(Self.hidden(in: out, prefix: ".shard-1-of-2.partial-").count == 1)
        let r = try BT.run(args(["--grid", "fast=5,10,15,20"]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.hidden(in: out, prefix: ".shard-1-of-2.partial-").isEmpty)
        #expect(FileManager.default.fileExists(atPath: out.path + "/shard-1-of-2/partial.json"))
    }
}
