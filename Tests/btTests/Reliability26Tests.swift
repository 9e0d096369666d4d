import Foundation
import Testing
import TestSupport

/// Issue 26 end to end, with the real binary: sub-cent prices, look-alike symbols, planted
/// links, sizes from the command line, deep expressions.
@Suite("Reliability round 3: ticks, look-alike names, planted links, sizes, expressions", .serialized)
struct Reliability26Tests {
    /// `bars` hourly SHIB/USDT-like bars near 0.00001234 (8 decimals), a seeded random walk.
    static func subCentBars(_ bars: Int, named name: String, in dir: URL) throws -> String {
        var rng = SplitMix64(seed: 26)
        var units = 1234, text = "time,open,high,low,close,volume\n"
        func price(_ k: Int) -> String { "0.0000" + String(k) }
        for i in 0..<bars {
            let open = units, close = max(1000, min(9999, units + Int.random(in: -30...30, using: &rng)))
            let high = min(9999, max(open, close) + Int.random(in: 0...10, using: &rng))
            let low = max(1000, min(open, close) - Int.random(in: 0...10, using: &rng))
            text += "\(1_700_000_000 + 3600 * i),\(price(open)),\(price(high)),\(price(low)),\(price(close)),\(Int.random(in: 1_000_000_000...5_000_000_000, using: &rng))\n"
            units = close
        }
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func object(_ json: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    }

    // MARK: - Ticks

    @Test("sub-cent bars: the default run infers a tick of 1e-8 and trades; a run that rejects most orders says so first")
    func subCentTick() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let csv = try Self.subCentBars(2000, named: "SHIB.csv", in: dir)
        #expect(try BT.run(["data", "import", csv, "--db", db]).status == 0)

        let plain = try BT.run(["run", "ma-cross", "SHIB", "--json", "--no-costs", "--db", db])
        #expect(plain.status == 0, "\(plain.stderr)")
        let run = try Self.object(plain.stdout)
        let stats = run["stats"] as! [String: Any]
        #expect(run["mostly_rejected"] == nil)
        #expect((stats["rejected_orders"] as! Int) == 0 && (stats["fills"] as! Int) > 10, "\(stats)")
        #expect((stats["total_return"] as! Double) > -0.5)

        // A tick of 10,000 is what the old inference chose: nearly every order is rejected.
        let args = ["run", "ma-cross", "SHIB", "--tick", "10000", "--no-costs", "--no-chart", "--db", db]
        let text = try BT.run(args)
        #expect(text.status == 0)
        let first = text.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Most orders were rejected: ") && first.contains(" of "), "\(text.stdout.prefix(400))")
        #expect(!text.stdout.contains("warning: ") || !text.stdout.contains("orders were rejected ("), "said twice")
        let json = try Self.object(try BT.run(args.filter { $0 != "--no-chart" } + ["--json"]).stdout)
        let mostly = try #require(json["mostly_rejected"] as? [String: Any])
        let rejected = mostly["rejected"] as! Int, orders = mostly["orders"] as! Int
        #expect(2 * rejected > orders && (mostly["message"] as! String).hasPrefix("most orders were rejected"))
        #expect((json["stats"] as! [String: Any])["rejected_orders"] as? Int == rejected)
    }

    @Test("runs on the shipped data carry no rejection headline")
    func shippedRunsUnmarked() throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db]).status == 0)
        for symbol in ["GOOG", "EURUSD"] {
            let r = try BT.run(["run", "ma-cross", symbol, "--no-costs", "--no-chart", "--db", db])
            #expect(r.status == 0 && !r.stdout.contains("Most orders were rejected"), "\(r.stdout.prefix(300))")
        }
    }

    // MARK: - Look-alike symbols

    static let lookAlikes = ["EUR/USD", "EUR_USD", "EUR:USD", "^GSPC", "GSPC"]

    /// A store holding each look-alike symbol, every one with other bars (GOOG's and EURUSD's
    /// files in turn, and the first 1,000 GOOG bars), so their reports differ.
    static func lookAlikeStore(in dir: URL) throws -> String {
        let db = dir.appendingPathComponent("s.sqlite").path
        let goog = try String(contentsOfFile: BT.root.appendingPathComponent("data/GOOG.csv").path, encoding: .utf8)
        let short = dir.appendingPathComponent("short.csv").path
        try goog.split(separator: "\n", omittingEmptySubsequences: false).prefix(1001).joined(separator: "\n").write(toFile: short, atomically: true, encoding: .utf8)
        let files = ["data/GOOG.csv", "data/EURUSD.csv", short, "data/EURUSD.csv", "data/GOOG.csv"]
        for (symbol, file) in zip(lookAlikes, files) {
            let r = try BT.run(["data", "import", file, "--symbol", symbol, "--db", db])
            #expect(r.status == 0, "\(symbol): \(r.stderr)")
        }
        return db
    }

    @Test("a sweep of look-alike symbols writes one folder each, and summary.md links each to its own")
    func lookAlikeSweep() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.lookAlikeStore(in: dir)
        let out = dir.appendingPathComponent("sweep").path
        let r = try BT.run(["sweep", "ma-cross", "--symbols", Self.lookAlikes.joined(separator: ","), "--grid", "fast=5,10",
                            "--grid", "slow=30", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".csv") }
        #expect(folders.count == Self.lookAlikes.count, "\(folders.sorted())")
        #expect(folders.contains("EUR_USD") && folders.contains("GSPC"))
        let summary = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        var linked = Set<String>()
        for symbol in Self.lookAlikes {
            let line = try #require(summary.split(separator: "\n").first { $0.hasPrefix("| \(symbol) |") })
            let link = try #require(line.range(of: "[report](")).upperBound
            let target = line[link...].prefix { $0 != ")" }.replacingOccurrences(of: "%25", with: "%")
            let md = try String(contentsOfFile: out + "/" + target, encoding: .utf8)
            #expect(md.hasPrefix("# Sweep: ma-cross on \(symbol)\n"), "\(symbol)'s link \(target) opens another symbol's sweep")
            linked.insert(target)
        }
        #expect(linked.count == Self.lookAlikes.count)
    }

    @Test("a screen of look-alike symbols keeps one row each")
    func lookAlikeScreen() throws {
        let dir = BT.scratchDirectory()
        let db = try Self.lookAlikeStore(in: dir)
        let out = dir.appendingPathComponent("screen").path
        let r = try BT.run(["screen", "ma-cross", "--all", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try String(contentsOfFile: out + "/screen.csv", encoding: .utf8)
        for symbol in Self.lookAlikes {
            #expect(csv.split(separator: "\n").filter { $0.split(separator: ",").contains(Substring(symbol)) }.count == 1, "\(symbol)")
        }
    }

    // MARK: - Planted links

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    @Test("bt chart --html: a link planted at the old temporary name (.NAME.partial-PID) or at the page is not written through")
    func plantedChartLink() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let victim = dir.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let page = dir.appendingPathComponent("page.html").path
        // exec keeps the shell's PID, so $$ is the PID bt runs with.
        let r = try BT.shell("ln -s \(BT.quoted(victim)) \(BT.quoted(dir.path + "/.page.html.partial-"))$$ && exec "
                             + "\(BT.quoted(BT.binary.path)) chart GOOG --html \(BT.quoted(page)) --db \(BT.quoted(db))")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(page))
        try FileManager.default.removeItem(atPath: page)
        try FileManager.default.createSymbolicLink(atPath: page, withDestinationPath: victim)
        #expect(try BT.run(["chart", "GOOG", "--html", page, "--force", "--db", db]).status == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(page))
    }

    @Test("bt slurm: a link planted at DIR.parts/array.sbatch is replaced, not written through")
    func plantedSlurmLink() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let victim = dir.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let parts = dir.appendingPathComponent("grid.parts").path
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: parts + "/array.sbatch", withDestinationPath: victim)
        let empty = dir.appendingPathComponent("empty-path").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        // No sbatch on PATH: the scripts are written, then the submission fails.
        let r = try BT.run(["slurm", "sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--tasks", "2", "--out", "grid", "--db", db],
                           environment: ["PATH": empty], directory: dir)
        #expect(r.status != 0 && r.stderr.contains("sbatch"), "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(parts + "/array.sbatch"))
    }

    // MARK: - Sizes from the command line

    /// `bt args` under 1.5 GB of address space and 60 s.
    static func bounded(_ args: [String]) throws -> BT.Result {
        try BT.runExecutable("/usr/bin/prlimit", ["--as=1500000000", "--", "/usr/bin/timeout", "60", BT.binary.path] + args)
    }

    @Test("windows and slot counts far beyond the data run in bounded memory and time, as the largest the data allows",
          arguments: ["100000000", "2147483648", "9223372036854775807"])
    func hugeSizes(_ size: String) throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db]).status == 0)
        func stats(_ r: BT.Result) throws -> [String: Any] {
            #expect(r.status == 0, "\(r.stderr.prefix(300))")
            return try Self.object(r.stdout)["stats"] as? [String: Any] ?? [:]
        }
        let run = ["run", "ma-cross", "GOOG", "--json", "--no-costs", "--db", db]
        let huge = try stats(try Self.bounded(run + ["--spread-window", size]))
        let whole = try stats(try BT.run(run + ["--spread-window", "2148"]))
        #expect(!huge.isEmpty && NSDictionary(dictionary: huge).isEqual(to: whole), "a window past the series is the whole series")
        let portfolio = try Self.bounded(["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD", "--max-positions", size,
                                          "--weight", "rank", "--rank", "close", "--json", "--no-costs", "--db", db])
        #expect(portfolio.status == 0, "\(portfolio.stderr.prefix(300))")
    }

    // MARK: - Expressions

    @Test("a strategy file whose rule is a max() of 90,000 arguments, or a 10 MB identifier, exits 2 with a short message")
    func wideExpressions() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let rules = ["max(" + Array(repeating: "close", count: 90_000).joined(separator: ",") + ")",
                     "max(" + Array(repeating: "1", count: 20_000).joined(separator: ",") + ")",
                     String(repeating: "a", count: 10_000_000)]
        for (k, rule) in rules.enumerated() {
            let file = dir.appendingPathComponent("wide\(k).bt").path
            try ("name = wide\nsummary = wide\n\n[rules]\nentry = close > " + rule + "\nexit = close < open\n")
                .write(toFile: file, atomically: false, encoding: .utf8)
            let r = try Self.bounded(["run", file, "GOOG", "--no-chart", "--no-costs", "--db", db])
            #expect(r.status == 2 && r.stderr.contains("expression"), "rule \(k): \(r.status) \(r.stderr.prefix(300))")
            #expect(r.stderr.utf8.count < 1_000, "rule \(k): \(r.stderr.utf8.count) bytes of stderr")
        }
    }
}
