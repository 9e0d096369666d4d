import Foundation
import Testing
import TestSupport

@Suite("bt sweep --objective and --objectives end to end")
struct ParetoCommandTests {
    static let args = ["sweep", "ma-cross", "GOOG", "--grid", "fast=5:40:5", "--grid", "slow=20:120:20", "--where", "fast<slow",
                       "--depth", "none"]

    static func store() throws -> String {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        return db
    }

    /// `sweep.csv`'s records split into cells (the sweeps here have no quoted cell).
    static func cells(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("--objectives sharpe,volatility_ann: a last pareto column, true exactly where no row dominates (checked pair by pair); without it the CSV is the same less that column")
    func frontInCSV() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory()
        let plain = dir.appendingPathComponent("plain").path, front = dir.appendingPathComponent("front").path
        let a = try BT.run(Self.args + ["--db", db, "--out", plain])
        let b = try BT.run(Self.args + ["--db", db, "--out", front, "--objectives", "sharpe,volatility_ann"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
        let rows = try Self.cells(front + "/sweep.csv")
        let header = rows[0]
        #expect(header.last == "pareto")
        // Byte for byte the sweep without objectives, once the last column is dropped.
        let stripped = rows.map { $0.dropLast().joined(separator: ",") + "\n" }.joined()
        #expect(stripped == (try String(contentsOfFile: plain + "/sweep.csv", encoding: .utf8)))
        let s = try #require(header.firstIndex(of: "sharpe")), d = try #require(header.firstIndex(of: "volatility_ann"))
        let points = rows.dropFirst().map { (Double($0[s]) ?? .nan, Double($0[d]) ?? .nan, $0.last!) }
        #expect(points.count > 20)
        // Higher Sharpe is better, lower volatility.
        for p in points {
            let defined = p.0.isFinite && p.1.isFinite
            let dominated = points.contains { q in
                q.0.isFinite && q.1.isFinite && q.0 >= p.0 && q.1 <= p.1 && (q.0 > p.0 || q.1 < p.1)
            }
            #expect(p.2 == (defined && !dominated ? "true" : "false"), "\(p)")
        }
        let count = points.filter { $0.2 == "true" }.count
        #expect(count >= 5)
        let md = try String(contentsOfFile: front + "/sweep.md", encoding: .utf8)
        #expect(md.contains("## Pareto front") && md.contains("\(count) of \(points.count) combinations are on the Pareto front over "
                                                              + "sharpe (higher is better), volatility_ann (lower is better)"), "\(md)")
        let html = try String(contentsOfFile: front + "/report.html", encoding: .utf8)
        #expect(html.contains("\"pareto\"") && html.contains("\"front_count\":\(count)"))
        let plainHTML = try String(contentsOfFile: plain + "/report.html", encoding: .utf8)
        #expect(!plainHTML.contains("\"pareto\""))
        // Ranked by the first objective when --objective is not given.
        #expect(md.contains("Best by sharpe"))
    }

    @Test("--rank is --objective's older name: the same files; both given must agree")
    func rankAlias() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory()
        var outputs: [String] = []
        for (k, extra) in [["--rank", "calmar"], ["--objective", "calmar"], ["--objective", "calmar", "--rank", "calmar"]].enumerated() {
            let out = dir.appendingPathComponent("o\(k)").path
            let r = try BT.run(Self.args + ["--db", db, "--out", out] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8))
            let md = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
            #expect(md.contains("Best by calmar"))
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        // --objective wins over the first of --objectives.
        let out = dir.appendingPathComponent("both").path
        let r = try BT.run(Self.args + ["--db", db, "--out", out, "--objective", "calmar", "--objectives", "sharpe,win_rate"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: out + "/sweep.md", encoding: .utf8).contains("Best by calmar"))
    }

    @Test("a sweep with objectives in 2 shards merges into the single process's files, byte for byte")
    func shards() throws {
        let db = try Self.store()
        try ShardCommandTests.expectSameAsOneProcess(Self.args + ["--db", db, "--objectives", "sharpe,max_drawdown,trades"], shards: 2)
    }

    @Test("a portfolio sweep marks its front too")
    func portfolio() throws {
        let db = try Self.store()
        #expect(try BT.run(["data", "synth", "--symbols", "3", "--bars", "700", "--db", db]).status == 0)
        let dir = BT.scratchDirectory().appendingPathComponent("p").path
        let r = try BT.run(["sweep", "--portfolio", "--entry", "close > sma(close, $n)", "--exit", "close < sma(close, $n)",
                            "--symbols", "SYN0001,SYN0002,SYN0003", "--grid", "n=10:40:10", "--grid", "max_positions=1:2:1",
                            "--objectives", "total_return,volatility_ann", "--out", dir, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try Self.cells(dir + "/sweep.csv")
        #expect(rows[0].last == "pareto" && rows.count == 9)
        #expect(rows.dropFirst().allSatisfy { ["true", "false"].contains($0.last!) } && rows.contains { $0.last == "true" })
    }

    @Test("bad objectives exit 2 with the reason", arguments: [
        (["--objective", "sharp"], "--objective 'sharp': unknown metric; did you mean 'sharpe'?"),
        (["--rank", "sharp"], "--rank 'sharp': unknown metric"),
        (["--objectives", "sharpe"], "--objectives 'sharpe': a Pareto front needs two or more objectives, 1 given"),
        (["--objectives", "sharpe,sharpe"], "'sharpe' is named twice"),
        (["--objectives", "sharpe,drawdown"], "--objectives 'drawdown': unknown metric"),
        (["--objective", "sharpe", "--rank", "calmar"], "--objective sharpe and --rank calmar differ"),
    ])
    func refused(extra: [String], message: String) throws {
        let r = try BT.run(Self.args + ["--db", BT.scratchStore()] + extra + ["--out", BT.scratchDirectory().path])
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
