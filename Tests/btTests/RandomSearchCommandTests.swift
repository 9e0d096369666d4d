import Foundation
import Testing
import TestSupport

@Suite("bt sweep --search random end to end")
struct RandomSearchCommandTests {
    static let args = ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:40", "--grid", "slow=30:200", "--grid", "sl=2%:9%",
                       "--where", "fast<slow", "--search", "random", "--trials", "40", "--seed", "11", "--depth", "none"]

    @Test("40 distinct draws inside the ranges, the same on a second run; the report and the overfitting figures count 40 trials")
    func drawsAndReport() throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let dir = BT.scratchDirectory()
        var csvs: [String] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("run\(k)").path
            let r = try BT.run(Self.args + ["--db", db, "--out", out, "--walk-forward", "3"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("40 combinations drawn at random, 40 ran") && r.stdout.contains("over 40 trials"), "\(r.stdout)")
            csvs.append(try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8))
            let md = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
            #expect(md.contains("| search | 40 combinations drawn at random (seed 11) from fast=5:40 slow=30:200 sl=2%:9% (a continuous space) |"))
            #expect(md.contains("| trials (combinations that ran) | 40 |"))
            #expect(FileManager.default.fileExists(atPath: out + "/walk_forward.csv"))
        }
        #expect(csvs[0] == csvs[1])
        let rows = csvs[0].split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 40)
        let drawn = rows.map { row in (0..<3).map { Double(row[$0])! } }
        #expect(Set(drawn).count == 40)
        for d in drawn {
            #expect(d[0] >= 5 && d[0] <= 40 && d[0] == d[0].rounded() && d[1] >= 30 && d[1] <= 200 && d[0] < d[1])
            #expect(d[2] >= 0.02 && d[2] <= 0.09)
        }
        #expect(rows.allSatisfy { $0[$0.count - 2] == "ok" })
    }

    @Test("the draws split across 2 and 3 shards merge into the single process's files, byte for byte")
    func shards() throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        for count in [2, 3] {
            try ShardCommandTests.expectSameAsOneProcess(Self.args + ["--db", db, "--walk-forward", "2"], shards: count)
        }
    }

    @Test("bad searches exit 2 with the reason", arguments: [
        (["--grid", "fast=5:8", "--grid", "slow=20:21", "--search", "random", "--trials", "9"], "--trials '9': more than the 8 combinations of the grid"),
        (["--grid", "fast=5:8", "--grid", "slow=20:30:10", "--where", "fast>6", "--search", "random", "--trials", "5"],
         "more than the 4 combinations of the grid that pass --where"),
        (["--grid", "fast=5:8", "--trials", "3"], "--trials is for --search random or bayes"),
        (["--grid", "fast=5:8", "--search", "random"], "--trials"),
        (["--grid", "fast=5:8", "--search", "annealing", "--trials", "3"], "--search 'annealing': expected grid, random or bayes"),
        (["--grid", "fast=5:8", "--search", "random", "--trials", "0"], "--trials '0'"),
        (["--grid", "fast=5:8", "--search", "random", "--trials", "2", "--seed", "-4"], "--seed '-4'"),
        (["--grid", "fast=5:8"], "a grid needs start:stop:step"),
        (["--grid", "fast=5:8", "--grid", "sl=0%:9%", "--search", "random", "--trials", "2"], "sl=0"),
    ])
    func refused(extra: [String], message: String) throws {
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", BT.scratchStore()] + extra + ["--out", BT.scratchDirectory().path])
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
