import Foundation
import Testing

/// A run of rules reading other series with `@` equals the run of the same signals computed in
/// pandas and passed with `--signals` (`Tests/Fixtures/timeframes/<dataset>_signals.csv`, the
/// rules in `signals.txt`): hourly EURUSD with a daily filter, GOOG against GOOGX (other
/// holidays), a minute stock with a session reading @1h and @1d, and its hourly resampling.
@Suite("bt run with @ rules equals bt run --signals with pandas' signals")
struct OtherSeriesSignalsFileCommandTests {
    struct Rules: Sendable, CustomTestStringConvertible {
        var dataset: String
        var entry: String
        var exit: String
        var testDescription: String { dataset }
        /// The run's symbol and options by dataset.
        var run: [String] {
            switch dataset {
            case "eurusd": ["EURUSD"]
            case "goog": ["GOOG"]
            case "stock": ["STOCK"]
            default: ["STOCK", "--timeframe", "1h"]
            }
        }
    }

    static let rules: [Rules] = {
        let text = (try? String(contentsOfFile: "Tests/Fixtures/timeframes/signals.txt", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let f = line.split(separator: "\t").map(String.init)
            return Rules(dataset: f[0], entry: f[1], exit: f[2])
        }
    }()

    @Test("the committed rules cover every dataset")
    func datasets() {
        #expect(Self.rules.map(\.dataset) == ["eurusd", "goog", "stock", "stock1h"])
    }

    @Test("bt signals prints pandas' file, and bt run's statistics and trades equal the --signals run's",
          arguments: rules)
    func sameRun(rules: Rules) throws {
        let db = try OtherSeriesSessionCommandTests.store()
        let file = "Tests/Fixtures/timeframes/\(rules.dataset)_signals.csv"
        let pandas = try String(contentsOfFile: file, encoding: .utf8)
        let signals = try BT.run(["signals"] + rules.run + ["--entry", rules.entry, "--exit", rules.exit, "--db", db])
        #expect(signals.status == 0, "\(signals.stderr)")
        #expect(signals.stdout == pandas)
        let dir = BT.scratchDirectory()
        let withRules = try BT.run(["run"] + rules.run + ["--entry", rules.entry, "--exit", rules.exit, "--json",
                                                          "--out", dir.appendingPathComponent("rules").path, "--db", db])
        let withFile = try BT.run(["run"] + rules.run + ["--signals", file, "--json",
                                                         "--out", dir.appendingPathComponent("file").path, "--db", db])
        let a = try ExpressionCommandTests.stats(withRules), b = try ExpressionCommandTests.stats(withFile)
        #expect(ExpressionCommandTests.same(a, b), "\(a)\n\(b)")
        #expect((a["trades"] as? Int ?? 0) >= 5, "\(a)")
        let trades = try ["rules", "file"].map {
            try String(contentsOf: dir.appendingPathComponent("\($0)/trades.csv"), encoding: .utf8)
        }
        #expect(trades[0] == trades[1])
        #expect(trades[0].split(separator: "\n").count > 5)
    }
}
