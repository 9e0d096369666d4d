import Foundation
import Testing
import TestSupport

@Suite("bt sweep --search bayes end to end")
struct BayesSearchCommandTests {
    /// ma-cross on the shipped GOOG bars over 1,590 combinations (fast 5 to 50 by 1, slow 20 to
    /// 200 by 5, fast < slow).
    static let grid = ["--grid", "fast=5:50", "--grid", "slow=20:200:5", "--where", "fast<slow", "--depth", "none"]

    static func rows(_ csv: String) -> [[Substring]] {
        csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    /// The `stat` column of a sweep.csv's rows.
    static func column(_ stat: String, of csv: String) -> [Double] {
        let header = csv.split(separator: "\n")[0].split(separator: ",")
        let column = header.firstIndex(of: Substring(stat))!
        return rows(csv).compactMap { Double($0[column]) }
    }

    @Test("the same combinations on a second run; distinct, inside the axes; the report and the overfitting figures count the trials")
    func reproducibleAndReported() throws {
        let db = try BT.googStore()
        let dir = BT.scratchDirectory()
        var csvs: [String] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("run\(k)").path
            let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", db, "--out", out, "--search", "bayes", "--trials", "30",
                                "--seed", "5", "--walk-forward", "3"] + Self.grid)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("30 combinations chosen by a Bayesian search, 30 ran") && r.stdout.contains("over 30 trials"),
                    "\(r.stdout)")
            csvs.append(try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8))
            let md = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
            #expect(md.contains("| search | 30 combinations chosen by a Bayesian search (Gaussian process, expected improvement; "
                                + "the first 7 at random, seed 5) from fast=5:50 slow=20:200:5 (1702 combinations) |"), "\(md)")
            #expect(md.contains("| trials (combinations that ran) | 30 |"))
            #expect(md.contains("over 30 trials") || md.contains("30 trials"))
            #expect(FileManager.default.fileExists(atPath: out + "/walk_forward.csv"))
        }
        #expect(csvs[0] == csvs[1])
        let rows = Self.rows(csvs[0])
        #expect(rows.count == 30)
        let chosen = rows.map { row in (0..<2).map { Double(row[$0])! } }
        #expect(Set(chosen).count == 30)
        #expect(chosen.allSatisfy { $0[0] >= 5 && $0[0] <= 50 && $0[1] >= 20 && $0[1] <= 200 && $0[0] < $0[1] })
    }

    /// On 10 seeds (1 to 10, release build) each search's best Sharpe was at least the grid's 90th
    /// percentile, and the grid's best (docs/guide/sweeps.md); this checks seed 1 in a quarter of
    /// the grid's trials, by Sharpe and by a statistic where lower is better, which the search
    /// minimises (maximising it instead still passes the percentile, not the grid's best).
    @Test("on a real sweep, the best of a quarter of the grid's trials is at least the grid's 90th percentile",
          arguments: [("sharpe", 1), ("volatility_ann", 1)])
    func beatsTheGrid(rank: String, seed: Int) throws {
        let sign = rank == "volatility_ann" ? -1.0 : 1
        let db = try BT.googStore()
        let dir = BT.scratchDirectory()
        let full = try BT.run(["sweep", "ma-cross", "GOOG", "--db", db, "--out", dir.appendingPathComponent("grid").path,
                               "--pbo-blocks", "0", "--rank", rank] + Self.grid.map { $0 == "fast=5:50" ? "fast=5:50:1" : $0 })
        #expect(full.status == 0, "\(full.stderr)")
        let all = Self.column(rank, of: try String(contentsOfFile: dir.appendingPathComponent("grid/sweep.csv").path, encoding: .utf8))
            .map { sign * $0 }.sorted()
        #expect(all.count == 1_590)
        let p90 = all[Int((Double(all.count - 1) * 0.9).rounded(.down))]
        let out = dir.appendingPathComponent("bayes").path
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", db, "--out", out, "--pbo-blocks", "0", "--search", "bayes",
                            "--trials", String(1_590 / 4), "--seed", String(seed), "--rank", rank] + Self.grid)
        #expect(r.status == 0, "\(r.stderr)")
        let best = Self.column(rank, of: try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8)).map { sign * $0 }.max()!
        #expect(best >= p90, "best \(sign * best), the grid's 90th percentile \(sign * p90) (by \(rank))")
        #expect(best == all.last!, "the search found the grid's best")
    }

    @Test("refused with the reason, exit 2", arguments: [
        (["--grid", "fast=5:8", "--grid", "slow=30", "--search", "bayes", "--trials", "3"], "'slow' has one value"),
        (["--grid", "fast=5:8", "--grid", "slow=20:21", "--search", "bayes", "--trials", "9"],
         "--trials '9': more than the 8 combinations of the grid"),
        (["--grid", "fast=5:8", "--grid", "slow=20:30:10", "--where", "fast>6", "--search", "bayes", "--trials", "5"],
         "more than the 4 combinations of the grid that pass --where"),
        (["--grid", "fast=5:8", "--grid", "slow=20:30", "--search", "bayes"], "--trials"),
        (["--grid", "fast=5:8", "--grid", "slow=20:30", "--search", "bayes", "--trials", "0"], "--trials '0'"),
        (["--grid", "fast=5:8", "--grid", "slow=20:30", "--search", "bayes", "--trials", "4", "--shard", "0/2"],
         "--search 'bayes': runs in one process"),
    ])
    func refused(extra: [String], message: String) throws {
        let db = try BT.googStore()
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", db] + extra + ["--out", BT.scratchDirectory().path])
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("refused by bt slurm sweep and with --portfolio, with the reason, exit 2")
    func refusedSlurmAndPortfolio() throws {
        let db = try BT.googStore()
        let search = ["--grid", "fast=5:8", "--grid", "slow=20:30", "--search", "bayes", "--trials", "4"]
        let slurm = try BT.run(["slurm", "sweep", "ma-cross", "GOOG", "--db", db, "--tasks", "2", "--dry-run",
                                "--out", BT.scratchDirectory().path] + search)
        #expect(slurm.status == 2)
        #expect(slurm.stderr.contains("--search 'bayes': runs in one process"), "\(slurm.stderr)")
        let portfolio = try BT.run(["sweep", "ma-cross", "--portfolio", "--symbols", "GOOG", "--db", db,
                                    "--out", BT.scratchDirectory().path] + search)
        #expect(portfolio.status == 2)
        #expect(portfolio.stderr.contains("not with a portfolio sweep"), "\(portfolio.stderr)")
    }
}
