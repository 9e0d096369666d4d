import Backtest
import Foundation
import Testing
@testable import bt

/// The option words of a shard's stored command line, which only bt reads: what tells one run
/// from another, how a missing shard is rerun, and the merged run's command line.
@Suite("bt reads the shards' stored command lines")
struct ShardArgumentsTests {
    /// `count` empty screen shards of `bt screen x --out DIR --shard K/N` under a fresh folder,
    /// with `change` applied to shard `k`'s manifest.
    static func shards(_ count: Int, change: (Int, inout PartialManifest) -> Void = { _, _ in }) throws -> String {
        let parent = BT.scratchDirectory().appendingPathComponent("parts").path
        for k in 0..<count {
            var manifest = PartialManifest(command: "screen", arguments: ["screen", "x", "--out", parent, "--shard", "\(k)/\(count)"],
                                           shard: try Shard(index: k, count: count), items: 0, itemsSHA256: "i", assigned: 0,
                                           dataSHA256: "d")
            change(k, &manifest)
            let writer = try PartialWriter(parent: parent, manifest: manifest)
            try writer.commit()
        }
        return parent
    }

    static func problem(_ paths: [String]) -> String {
        do { _ = try PartialSet(try PartialFolder.find(in: paths), commandLine: ShardArguments.commandLine); return "" }
        catch { return "\(error)" }
    }

    @Test("a missing shard is named, with the command that reruns it")
    func missing() throws {
        let parent = try Self.shards(4)
        try FileManager.default.removeItem(atPath: parent + "/shard-2-of-4")
        let message = Self.problem([parent])
        #expect(message.contains("missing shard 2 of 4 (no \(parent)/shard-2-of-4)"))
        #expect(message.contains("rerun it with: bt screen x --out \(parent) --shard 2/4"))
    }

    @Test("shards of another command line are named with both command lines, without the shard options")
    func otherCommandLine() throws {
        let parent = try Self.shards(3) { k, m in
            guard k == 1 else { return }
            m.arguments = ["screen", "y", "--shard", "1/3"]; m.itemsSHA256 = "other"; m.dataSHA256 = "other"
        }
        let message = Self.problem([parent])
        #expect(message.contains("\(parent)/shard-1-of-3 is not part of the same run"), "\(message)")
        #expect(message.contains("its command line is `bt screen y`, not `bt screen x`"), "\(message)")
        // another command line reads other items and data: not blamed on the store
        #expect(!message.contains("store changed") && !message.contains("another list"), "\(message)")
    }

    @Test("--out, --force and the shard options do not tell runs apart; the merged command line has the merge's --out")
    func identifyingArguments() {
        let arguments = ["sweep", "a", "--out=p", "--force", "--shard", "auto", "--shards=4", "--fee-bps", "5", "--", "--out"]
        #expect(ShardArguments.identifying(arguments) == ["sweep", "a", "--fee-bps", "5", "--", "--out"])
        let stored = ["sweep", "a", "--shard=1/4", "--out", "p", "--", "--out", "q"]
        #expect(ShardArguments.merged(stored, out: "result") == ["sweep", "a", "--out", "result", "--", "--out", "q"])
        #expect(ShardArguments.rerun(stored, shard: try! Shard(index: 3, count: 4))
                == ["sweep", "a", "--out", "p", "--shard", "3/4", "--", "--out", "q"])
    }
}
