import Foundation
import Testing
@testable import BacktestAnalysis
@testable import BacktestCore
import TestSupport

@Suite("Combinatorial purged cross-validation, cut as skfolio cuts it")
struct CombinatorialPurgedCVTests {
    /// `Tests/Fixtures/cpcv/goldens.json`, written by `make_goldens.py` beside it with skfolio 1.12.2.
    static func cases() throws -> [[String: Any]] {
        let text = try String(contentsOfFile: Repository.path("Tests/Fixtures/cpcv/goldens.json"), encoding: .utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["skfolio"] as? String == "1.12.2")
        return try #require(root["cases"] as? [[String: Any]])
    }

    @Test("every split's train runs and test groups, and every recombined path, equal skfolio's on 12 cases")
    func goldens() throws {
        let cases = try Self.cases()
        #expect(cases.count == 12)
        for c in cases {
            let (bars, n, k) = (c["bars"] as! Int, c["groups"] as! Int, c["test_groups"] as! Int)
            let cv = try CombinatorialPurgedCV(bars: bars, groups: n, testGroups: k, purge: c["purge"] as! Int, embargo: c["embargo"] as! Int)
            let label = "\(bars) bars, cpcv:\(n),\(k), purge \(c["purge"]!), embargo \(c["embargo"]!)"
            let splits = c["splits"] as! [[String: [[Int]]]]
            #expect(cv.splits.count == splits.count, "\(label)")
            for (ours, theirs) in zip(cv.splits, splits) {
                #expect(ours.train.map { [$0.lowerBound, $0.upperBound] } == theirs["train"]!, "\(label)")
                #expect(ours.test.map { [cv.groupBars[$0].lowerBound, cv.groupBars[$0].upperBound] } == theirs["test"]!, "\(label)")
            }
            // skfolio's recombined_paths[fold][path] is our paths[path][group].
            let recombined = c["recombined_paths"] as! [[Int]]
            #expect(cv.paths.count == recombined[0].count, "\(label)")
            for (p, path) in cv.paths.enumerated() {
                #expect(path == recombined.map { $0[p] }, "\(label) path \(p)")
            }
        }
    }

    @Test("refused as skfolio refuses: fewer than 3 groups, K below 2 or not below N, a purge and embargo a group cannot hold, too many splits")
    func refused() throws {
        let bad: [(Int, Int, Int, Int, Int, Setting)] = [
            (100, 2, 1, 0, 0, .cv), (100, 5, 1, 0, 0, .cv), (100, 5, 5, 0, 0, .cv), (100, 5, 6, 0, 0, .cv),
            (100, 5, 2, 19, 0, .cv), (100, 5, 2, 10, 9, .cv), (100, 5, 2, -1, 0, .purge), (100, 5, 2, 0, -1, .embargo),
            (10_000_000, 40, 20, 0, 0, .cv),
        ]
        for (bars, n, k, p, e, setting) in bad {
            let error = try #require(throws: InputError.self, "\(bars) \(n) \(k) \(p) \(e)") {
                try CombinatorialPurgedCV(bars: bars, groups: n, testGroups: k, purge: p, embargo: e)
            }
            #expect(error.setting == setting)
        }
        // The largest purge and embargo a group of 20 bars takes: P + E = 18.
        #expect(try CombinatorialPurgedCV(bars: 100, groups: 5, testGroups: 2, purge: 10, embargo: 8).splits.count == 10)
    }
}
