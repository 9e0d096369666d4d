import Foundation
import Testing
import TestSupport

/// Sizes from the command line beyond the data, end to end with the real binary: windows and
/// slot counts up to Int64.max allocate only what the data needs (each run under 1.5 GB of
/// address space and 60 s) and give the figures of the largest the data allows; a window longer
/// than the series is clamped and said so on stderr, once.
@Suite("Sizes beyond the data: bounded memory, the same figures, windows clamped and said so", .serialized)
struct SizesBeyondDataTests {
    static func object(_ json: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
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
        let huge = try stats(try BT.bounded(run + ["--spread-window", size]))
        let whole = try stats(try BT.run(run + ["--spread-window", "2148"]))
        #expect(!huge.isEmpty && NSDictionary(dictionary: huge).isEqual(to: whole), "a window past the series is the whole series")
        let portfolio = try BT.bounded(["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD", "--max-positions", size,
                                          "--weight", "rank", "--rank", "close", "--json", "--no-costs", "--db", db])
        #expect(portfolio.status == 0, "\(portfolio.stderr.prefix(300))")
    }

    @Test("--spread-window and --impact-window longer than the series are clamped and said so on stderr, once; shorter or default ones are not")
    func clampedWindows() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let run = ["run", "ma-cross", "GOOG", "--no-chart", "--no-costs", "--db", db]
        let long = try BT.run(run + ["--spread-window", "100000000", "--impact-window", "2149"])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stderr.contains("warning: --spread-window 100000000 is longer than the series (GOOG: 2148 bars): it is clamped to the series"),
                "\(long.stderr)")
        #expect(long.stderr.contains("warning: --impact-window 2149 is longer than the series (GOOG: 2148 bars)"), "\(long.stderr)")
        let fits = try BT.run(run + ["--spread-window", "2148", "--impact-window", "100"])
        #expect(fits.status == 0 && !fits.stderr.contains("warning"), "\(fits.stderr)")
        // A screen reads the options once per symbol: one warning, not one per symbol.
        #expect(try BT.run(["data", "import", "data/EURUSD.csv", "--db", db]).status == 0)
        let screen = try BT.run(["screen", "ma-cross", "--all", "--spread-window", "1000000", "--out",
                                 dir.appendingPathComponent("screen").path, "--db", db])
        #expect(screen.status == 0, "\(screen.stderr)")
        #expect(screen.stderr.components(separatedBy: "warning: --spread-window").count == 2, "\(screen.stderr)")
        // The default window (250 bars) on a shorter series is no one's choice: nothing to say.
        let short = dir.appendingPathComponent("SHORT.csv").path
        let rows = (0..<100).map { "\(1_700_000_000 + 86_400 * $0),10,11,9,\(10 + Double($0 % 7) / 10),1000" }
        try ("time,open,high,low,close,volume\n" + rows.joined(separator: "\n") + "\n").write(toFile: short, atomically: false, encoding: .utf8)
        #expect(try BT.run(["data", "import", short, "--db", db]).status == 0)
        let quiet = try BT.run(["run", "ma-cross", "SHORT", "--param", "slow=20", "--no-chart", "--no-costs", "--db", db])
        #expect(quiet.status == 0 && !quiet.stderr.contains("--spread-window"), "\(quiet.stderr)")
    }
}
