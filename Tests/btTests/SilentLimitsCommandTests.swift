import Foundation
import Testing
import TestSupport

/// What a run used to do without a word, now said: entries whose stop was still in its warm-up
/// (not taken, or taken with --allow-unprotected and said in the headline), and entries cut below
/// the size asked (how many, by how much, by cause, in the summary and in --json).
@Suite("Runs say what they did not do")
struct SilentLimitsCommandTests {
    static let rules = ["--entry", "close > open", "--exit", "close < open"]

    @Test("--sl in its warm-up: the entries are not taken and counted; --allow-unprotected takes them and says so")
    func unprotected() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "GOOG"] + Self.rules + ["--sl", "0.5 * atr(300)", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stdout + r.stderr
        #expect(said.contains(" placed no order: their sl was not yet defined (sl 0.5 * atr(300) still in its warm-up?)"), "\(said)")
        #expect(!said.contains("unprotected entries allowed"))
        let json = try RunCommandTests.json(try BT.run(["run", "GOOG"] + Self.rules + ["--sl", "0.5 * atr(300)", "--json", "--db", db]).stdout)
        let kinds = (json["warnings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.contains("unprotected_entries"), "\(kinds)")
        let allowed = try BT.run(["run", "GOOG"] + Self.rules + ["--sl", "0.5 * atr(300)", "--allow-unprotected", "--db", db])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("unprotected entries allowed") && !allowed.stdout.contains("placed no order: their sl"), "\(allowed.stdout)")
    }

    @Test("sizes cut by cash and by the participation cap are said, with their figures in --json")
    func cuts() throws {
        let db = try RunCommandTests.store()
        let cash = try BT.run(["run", "GOOG"] + Self.rules + ["--size", "500u", "--depth", "none", "--max-participation", "0", "--db", db])
        #expect(cash.status == 0, "\(cash.stderr)")
        #expect(cash.stdout.contains(" cut below the size asked, filling ") && cash.stdout.contains(" by cash or margin (to "), "\(cash.stdout)")
        #expect(!cash.stdout.contains("participation cap or the book"))
        let r = try BT.run(["run", "GOOG"] + Self.rules + ["--size", "50u", "--cash", "100000000", "--depth", "none", "--max-participation", "0.000001",
                                                         "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try RunCommandTests.json(r.stdout)
        let warning = try #require((json["warnings"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "cut_orders" }, "\(json["warnings"] ?? "")")
        let orders = try #require(warning["cut_orders"] as? Int), capped = try #require(warning["liquidity_cut_orders"] as? Int)
        let share = try #require(warning["avg_cut_fill_share"] as? Double)
        #expect(orders > 0 && capped == orders && warning["cash_cut_orders"] as? Int == 0, "\(warning)")
        #expect(share > 0 && share < 1, "\(warning)")
        #expect((warning["message"] as? String)?.contains("by the participation cap or the book") == true)
        // An order sized by its budget (the default 100% of equity) is not a cut.
        let plain = try BT.run(["run", "GOOG"] + Self.rules + ["--depth", "none", "--max-participation", "0", "--db", db])
        #expect(!plain.stdout.contains("cut below the size asked"), "\(plain.stdout)")
    }
}
