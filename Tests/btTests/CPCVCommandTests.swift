import Foundation
import Testing
import TestSupport

@Suite("bt sweep --cv cpcv:N,K end to end")
struct CPCVCommandTests {
    @Test("cv_splits.csv of GOOG's 2,148 bars equals skfolio's splits; sweep.md reports the paths and PBO across splits")
    func splitsAndReport() throws {
        let out = BT.scratchDirectory().appendingPathComponent("cv").path
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", try BT.googStore(), "--depth", "none", "--grid", "fast=5:50:5",
                            "--grid", "slow=20:200:20", "--where", "fast<slow", "--cv", "cpcv:8,3", "--purge", "21", "--embargo", "5",
                            "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: Repository.path("Tests/Fixtures/cpcv/goldens.json"), encoding: .utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let golden = try #require((root["cases"] as? [[String: Any]])?.first { $0["bars"] as? Int == 2148 })
        #expect(golden["groups"] as? Int == 8 && golden["test_groups"] as? Int == 3 && golden["purge"] as? Int == 21
                && golden["embargo"] as? Int == 5)
        let splits = try #require(golden["splits"] as? [[String: [[Int]]]])
        var expected: [String] = []
        for (j, split) in splits.enumerated() {
            let rows = split["train"]!.map { ("train", $0) } + split["test"]!.map { ("test", $0) }
            for (set, range) in rows.sorted(by: { $0.1[0] < $1.1[0] }) { expected.append("\(j),\(set),\(range[0]),\(range[1])") }
        }
        let lines = try String(contentsOfFile: out + "/cv_splits.csv", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "split,set,first_bar,last_bar,first_time,last_time")
        #expect(lines.dropFirst().map { $0.split(separator: ",").prefix(4).joined(separator: ",") } == expected)
        #expect(lines[1].hasPrefix("0,test,0,267,2004-08-19T00:00:00Z,"))
        let md = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
        #expect(md.contains("cpcv:8,3 with a purge of 21 and an embargo of 5 bars: 56 splits, 21 recombined paths"))
        #expect(md.contains("| paths with a positive Sharpe |") && md.contains("| PBO across the splits |"))
    }

    @Test("bad cross-validations exit 2 with the reason", arguments: [
        (["--cv", "cpcv:6,6"], "--cv 'cpcv:6,6': the test groups K must be at least 2 and below the groups N"),
        (["--cv", "cpcv:2,1"], "--cv 'cpcv:2,1': needs at least 3 groups"),
        (["--cv", "kfold:5"], "--cv 'kfold:5': expected cpcv:N,K"),
        (["--cv", "cpcv:6,2", "--purge", "400"], "groups of 358 bars are too short for a purge of 400"),
        (["--cv", "cpcv:6,2", "--purge", "-1"], "--purge '-1'"),
        (["--purge", "4"], "--purge '4': is for --cv cpcv:N,K"),
        (["--cv", "cpcv:40,2", "--grid", "slow=60"], "groups of 53 bars are not longer than the strategy's warm-up of 59 bars"),
        (["--cv", "cpcv:6,2", "--shard", "0/2"], "runs in one process"),
    ])
    func refused(extra: [String], message: String) throws {
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", try BT.googStore(), "--grid", "fast=5:50:5",
                            "--out", BT.scratchDirectory().appendingPathComponent("o").path] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
