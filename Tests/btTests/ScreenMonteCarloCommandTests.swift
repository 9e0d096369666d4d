import Foundation
import Testing
import TestSupport

@Suite("bt screen --monte-carlo end to end")
struct ScreenMonteCarloCommandTests {
    static let symbols = ["GOOG", "SYN0001", "SYN0002", "SYN0003"]

    /// `bt run --json`'s `monte_carlo` object.
    struct RunJSON: Decodable {
        struct Percentiles: Decodable { var p5, p50, p95: Double }
        struct Distribution: Decodable { var final_equity, max_drawdown, cagr: Percentiles; var ruin_probability: Double }
        struct MonteCarlo: Decodable { var trades, bars: Distribution? }
        var monte_carlo: MonteCarlo
    }

    static func store() throws -> String {
        let db = try BT.googStore()
        #expect(try BT.run(["data", "synth", "--symbols", "3", "--bars", "800", "--db", db]).status == 0)
        return db
    }

    /// `screen.csv` as header -> cell, one dictionary per symbol (no quoted cell in these screens).
    static func rows(_ path: String) throws -> (header: [String], bySymbol: [String: [String: String]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        var out: [String: [String: String]] = [:]
        for line in lines.dropFirst() { out[line[1]] = Dictionary(uniqueKeysWithValues: zip(header, line)) }
        return (header, out)
    }

    @Test("each symbol's mc_ columns are bt run --monte-carlo's figures for it, to the last digit; the same on a second screen; none without --monte-carlo")
    func equalsRun() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory()
        let base = ["screen", "ma-cross", "--symbols", Self.symbols.joined(separator: ","), "--db", db, "--min-trades", "0"]
        var csvs: [String] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("mc\(k)").path
            let r = try BT.run(base + ["--monte-carlo", "250", "--seed", "7", "--ruin", "30%", "--out", out])
            #expect(r.status == 0, "\(r.stderr)")
            csvs.append(try String(contentsOfFile: out + "/screen.csv", encoding: .utf8))
        }
        #expect(csvs[0] == csvs[1])
        let (header, rows) = try Self.rows(dir.appendingPathComponent("mc0/screen.csv").path)
        let mcColumns = header.filter { $0.hasPrefix("mc_") }
        #expect(mcColumns.count == 20 && mcColumns.first == "mc_trades_final_equity_p5" && mcColumns.last == "mc_bars_ruin_probability")
        #expect(header.last == "mc_bars_ruin_probability")
        var compared = 0
        for symbol in Self.symbols {
            let r = try BT.run(["run", "ma-cross", symbol, "--db", db, "--json", "--monte-carlo", "250", "--seed", "7", "--ruin", "30%"])
            #expect(r.status == 0, "\(r.stderr)")
            // JSONDecoder, not JSONSerialization: the latter rounds some doubles' last digits on Linux.
            let mc = try JSONDecoder().decode(RunJSON.self, from: Data(r.stdout.utf8)).monte_carlo
            let row = try #require(rows[symbol])
            for (resampling, distribution) in [("trades", mc.trades), ("bars", mc.bars)] {
                let d = try #require(distribution, "\(symbol) \(resampling)")
                for (figure, q) in [("final_equity", d.final_equity), ("max_drawdown", d.max_drawdown), ("cagr", d.cagr)] {
                    for (p, v) in [("p5", q.p5), ("p50", q.p50), ("p95", q.p95)] {
                        #expect(Double(row["mc_\(resampling)_\(figure)_\(p)"] ?? "") == v, "\(symbol) \(resampling) \(figure) \(p)")
                        compared += 1
                    }
                }
                #expect(Double(row["mc_\(resampling)_ruin_probability"] ?? "") == d.ruin_probability)
                compared += 1
            }
        }
        #expect(compared == 80)
        let md = try String(contentsOfFile: dir.appendingPathComponent("mc0/screen.md").path, encoding: .utf8)
        #expect(md.contains("as `bt run --monte-carlo 250 --seed 7` gives it for that symbol"))
        let plain = dir.appendingPathComponent("plain").path
        #expect(try BT.run(base + ["--out", plain]).status == 0)
        let plainHeader = try Self.rows(plain + "/screen.csv").header
        #expect(plainHeader == Array(header.dropLast(20)))
    }

    @Test("a screen with --monte-carlo in 2 shards merges into the single process's files, byte for byte")
    func shards() throws {
        let db = try Self.store()
        try ShardCommandTests.expectSameAsOneProcess(["screen", "ma-cross", "--symbols", Self.symbols.joined(separator: ","), "--db", db,
                                                      "--monte-carlo", "120", "--seed", "3"], shards: 2)
    }

    @Test("bad Monte Carlo settings exit 2 with the reason", arguments: [
        (["--monte-carlo", "0"], "--monte-carlo '0': must be 1 to"),
        (["--seed", "3"], "--seed '3': is for --monte-carlo"),
        (["--monte-carlo", "10", "--ruin", "0"], "--ruin '0'"),
    ])
    func refused(extra: [String], message: String) throws {
        let r = try BT.run(["screen", "ma-cross", "--symbols", "GOOG", "--db", try BT.googStore(), "--out", BT.scratchDirectory().path] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
