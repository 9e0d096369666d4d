import Foundation
import Testing
import TestSupport

/// `bt portfolio --short --neutral` end to end: the legs' notionals from fills.csv are equal after
/// every row the book trades, the manifest and headline say neutral, and the settings a neutral
/// book cannot hold are refused with the reason (exit 2).
@Suite("bt portfolio --neutral")
struct PortfolioNeutralCommandTests {
    static func store() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "synth", "--symbols", "8", "--bars", "800", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    @Test("without fees: long notional = short notional at the fill prices after each row with fills; JSON and headline say neutral")
    func netZero() throws {
        let db = try Self.store(), out = BT.scratchDirectory().path + "/neutral"
        let r = try BT.run(["portfolio", "ma-cross", "--all", "--short", "--neutral", "--max-positions", "3", "--rebalance", "20",
                            "--fee-bps", "0", "--depth", "none", "--json", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        guard r.status == 0 else { return }
        let portfolio = try #require(try RunCommandTests.json(r.stdout)["portfolio"] as? [String: Any])
        #expect(portfolio["neutral"] as? Bool == true, "\(portfolio)")
        let lines = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        var quantity: [String: Double] = [:], rows = 0
        var time = "", price: [String: Double] = [:]
        func check() {
            let held = quantity.filter { $0.value != 0 }
            // Every held symbol filled at this time (the row rebalanced it): its notional is known.
            guard !held.isEmpty, held.keys.allSatisfy({ price[$0] != nil }) else { return }
            let long = held.filter { $0.value > 0 }.map { $0.value * price[$0.key]! }.reduce(0, +)
            let short = held.filter { $0.value < 0 }.map { -$0.value * price[$0.key]! }.reduce(0, +)
            #expect(abs(long - short) <= 1e-9 * (long + short), "\(time): long \(long), short \(short)")
            rows += 1
        }
        for line in lines {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if f[0] != time { check(); (time, price) = (f[0], [:]) }
            let q = Double(f[9])!
            quantity[f[2], default: 0] += f[4] == "buy" ? q : -q
            price[f[2]] = Double(f[5])!
        }
        check()
        #expect(rows > 5, "\(rows) rows checked")
        let text = try BT.run(["portfolio", "ma-cross", "--all", "--short", "--neutral", "--no-costs", "--db", db])
        #expect(text.status == 0 && text.stdout.contains("neutral,"), "\(text.stdout.prefix(400))")
    }

    @Test("refused with the reason: without --short, with one symbol, sized in units", arguments: [
        (["--all"], "needs shorts (use --short)"),
        (["--symbols", "SYN0001", "--short"], "--neutral: a market-neutral book holds a long and a short at once: it needs two symbols or more"),
        (["--all", "--short", "--size", "10u"], "--size: a market-neutral book sizes by value"),
    ])
    func refused(options: [String], message: String) throws {
        let r = try BT.run(["portfolio", "ma-cross", "--neutral", "--db", try Self.store()] + options)
        #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
    }
}
