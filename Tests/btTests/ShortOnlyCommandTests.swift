import Foundation
import Testing
import TestSupport

/// A short-only strategy: `--short-entry/--short-exit` (or a file's `short_entry`/`short_exit`)
/// without long rules runs as the same rules beside long rules that are never true.
@Suite("Short-only strategies")
struct ShortOnlyCommandTests {
    static let short = ["--short-entry", "close < sma(close, 20)", "--short-exit", "close > sma(close, 10)"]

    @Test("--short-entry/--short-exit alone equal the same rules with never-true --entry/--exit, in stats and trades")
    func sameAsDummyLongRules() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory()
        let alone = try BT.run(["run", "GOOG"] + Self.short + ["--short", "--json", "--out", dir.appendingPathComponent("a").path, "--db", db])
        let dummy = try BT.run(["run", "GOOG", "--entry", "close < 0", "--exit", "close < 0"] + Self.short
                               + ["--short", "--json", "--out", dir.appendingPathComponent("b").path, "--db", db])
        let a = try ExpressionCommandTests.stats(alone), b = try ExpressionCommandTests.stats(dummy)
        #expect(ExpressionCommandTests.same(a, b))
        #expect((a["trades"] as? Int ?? 0) > 0, "\(a)")
        let tradesA = try String(contentsOf: dir.appendingPathComponent("a/trades.csv"), encoding: .utf8)
        let tradesB = try String(contentsOf: dir.appendingPathComponent("b/trades.csv"), encoding: .utf8)
        #expect(tradesA == tradesB && tradesA.contains("\nshort,"), "\(tradesA.prefix(300))")
        // A file with only short rules runs the same.
        let file = TestSupport.write("[rules]\nshort_entry = close < sma(close, 20)\nshort_exit = close > sma(close, 10)\n", named: "shortonly.bt")
        #expect(ExpressionCommandTests.same(try ExpressionCommandTests.stats(try BT.run(["run", file, "GOOG", "--short", "--json", "--db", db])), a))
    }

    @Test("bad input keeps its message: short rules without --short, half a pair, no rules at all")
    func badInput() throws {
        let db = try RunCommandTests.store()
        let noShort = try BT.run(["run", "GOOG"] + Self.short + ["--db", db])
        #expect(noShort.status == 2 && noShort.stderr.contains("--short-entry/--short-exit trade only with --short"), "\(noShort.stderr)")
        let half = try BT.run(["run", "GOOG", "--short-entry", "close < open", "--short", "--db", db])
        #expect(half.status == 2 && half.stderr.contains("short rules come in pairs: give both short_entry and short_exit"), "\(half.stderr)")
        let halfLong = try BT.run(["run", "GOOG", "--entry", "close < open"] + Self.short + ["--short", "--db", db])
        #expect(halfLong.status == 2 && halfLong.stderr.contains("a strategy needs both an entry and an exit rule"), "\(halfLong.stderr)")
        let file = TestSupport.write("[rules]\nshort_entry = close < open\n", named: "half.bt")
        let halfFile = try BT.run(["run", file, "GOOG", "--short", "--db", db])
        #expect(halfFile.status == 2 && halfFile.stderr.contains("no 'entry' rule"), "\(halfFile.stderr)")
    }
}
