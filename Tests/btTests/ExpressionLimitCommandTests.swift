import Foundation
import Testing
import TestSupport

/// Expression limits end to end with the real binary: the widest expressions the bounds accept
/// run, and wider or deeper ones are refused with a short message, within a 2 MB stack (a bound
/// tree walked as a chain once overflowed it); `screen --where` and `--show` are refused for the
/// size once written out, as `--entry` is, before any symbol is read.
@Suite("Expression limits: never a crash, one size limit for --entry, --where and --show", .serialized)
struct ExpressionLimitCommandTests {
    /// `bt args` with a stack of `kilobytes` for the main thread and every thread it starts
    /// (glibc sizes new threads by the stack limit; 2 MB is what they get under `ulimit -s unlimited`).
    static func withStack(_ kilobytes: Int, _ args: [String]) throws -> BT.Result {
        try BT.shell("ulimit -s \(kilobytes); exec /usr/bin/timeout 120 " + ([BT.binary.path] + args).map(BT.quoted).joined(separator: " "))
    }

    @Test("the widest expressions the bounds allow run, and wider ones are refused, within a 2 MB stack: never a crash")
    func expressionsWithinSmallStack() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        func maxOf(_ k: Int) -> String { "max(" + Array(repeating: "close", count: k).joined(separator: ",") + ", $k)" }
        // 4,999 arguments bind to 9,999 operations (accepted); 9,990 to more than 10,000 (refused
        // once bound). The code before bound them as a chain 5,000 and 10,000 levels deep, and
        // walking it overflowed a 2 MB stack (exit 139).
        let accepted = "close >= " + maxOf(4_998)
        let refused = "close >= " + maxOf(9_989)
        // Nested calls to the depth limit, each holding a wide max: every level of the bound tree.
        var nested = "close"
        for _ in 0..<30 { nested = "max(" + nested + ", " + Array(repeating: "open", count: 60).joined(separator: ",") + ")" }
        let deep = "close >= " + nested
        for (rule, status) in [(accepted, Int32(0)), (refused, 2), (deep, 0)] {
            for args in [["run", "GOOG", "--entry", rule, "--exit", "close < 0", "--param", "k=1", "--no-chart", "--no-costs"],
                         ["sweep", "GOOG", "--entry", rule, "--exit", "close < 0", "--grid", "k=1:4:1",
                          "--out", dir.appendingPathComponent("sweep-\(UUID().uuidString)").path],
                         ["screen", "--all", "--where", rule.replacingOccurrences(of: "$k", with: "1")]] {
                let r = try Self.withStack(2048, args + ["--db", db])
                let want = args[0] == "sweep" && status == 2 ? Int32(2) : status
                #expect(r.status == want, "\(args[0]) \(rule.prefix(40))...: \(r.status) \(r.stderr.prefix(300))")
                if status == 2 { #expect(r.stderr.contains("expression too large"), "\(r.stderr.prefix(300))") }
            }
        }
    }

    @Test("screen --where refuses an expression too large once written out, once and before any symbol, as --entry does")
    func whereLimit() throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        // 15 levels of zscore: a few dozen characters, but 3^15 operations once written out.
        var text = "close"
        for _ in 0..<15 { text = "zscore(\(text), 5)" }
        let entry = try BT.run(["run", "GOOG", "--entry", text + " > 0", "--exit", "close < 0", "--no-chart", "--db", db])
        #expect(entry.status == 2 && entry.stderr.hasPrefix("error: --entry: expression too large"), "\(entry.stderr.prefix(300))")
        let screen = try BT.run(["screen", "--all", "--where", text + " > 0", "--db", db])
        #expect(screen.status == 2 && screen.stderr.hasPrefix("error: --where: expression too large"), "\(screen.stderr.prefix(300))")
        #expect(!screen.stderr.contains("GOOG"), "refused per symbol: \(screen.stderr.prefix(300))")
        let show = try BT.run(["screen", "--all", "--where", "close > 0", "--show", text, "--db", db])
        #expect(show.status == 2 && show.stderr.hasPrefix("error: --show: expression too large"), "\(show.stderr.prefix(300))")
    }

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
            let r = try BT.bounded(["run", file, "GOOG", "--no-chart", "--no-costs", "--db", db])
            #expect(r.status == 2 && r.stderr.contains("expression"), "rule \(k): \(r.status) \(r.stderr.prefix(300))")
            #expect(r.stderr.utf8.count < 1_000, "rule \(k): \(r.stderr.utf8.count) bytes of stderr")
        }
    }
}
