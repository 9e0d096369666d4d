import Foundation
import Testing
import TestSupport

/// A portfolio's symbols each pay the fee schedule stored with their series (`bt data
/// instrument S --fee-bps/--maker-bps`), the command line's over it: not the first symbol's for
/// all. Read from fills.csv: each fill's fee over its notional.
@Suite("bt portfolio: each symbol's stored fees")
struct PortfolioSymbolFeesCommandTests {
    /// Fee rate (fee / notional) of every fill, by symbol and side.
    static func feeRates(_ out: String) throws -> [String: Set<Double>] {
        let lines = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let (symbol, vwap, filled, fee) = (header.firstIndex(of: "symbol")!, header.firstIndex(of: "vwap")!,
                                           header.firstIndex(of: "quantity_filled")!, header.firstIndex(of: "fee")!)
        var rates: [String: Set<Double>] = [:]
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let rate = Double(f[fee])! / (Double(f[vwap])! * Double(f[filled])!)
            rates[f[symbol], default: []].insert((rate * 1e6).rounded() / 1e6)
        }
        return rates
    }

    @Test("taker: the second symbol's stored 50 bps and the first's 10 bps; maker: each symbol's stored maker rate on limit fills")
    func storedFees() throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "synth", "--symbols", "3", "--bars", "400", "--db", db]).status == 0)
        #expect(try BT.run(["data", "instrument", "SYN0002", "--fee-bps", "50", "--maker-bps", "3", "--db", db]).status == 0)
        #expect(try BT.run(["data", "instrument", "SYN0003", "--fee-bps", "20", "--db", db]).status == 0)
        let out = BT.scratchDirectory().path + "/fees"
        let r = try BT.run(["portfolio", "ma-cross", "--symbols", "SYN0001,SYN0002,SYN0003", "--depth", "none", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        guard r.status == 0 else { return }
        let rates = try Self.feeRates(out)
        #expect(rates == ["SYN0001": [0.001], "SYN0002": [0.005], "SYN0003": [0.002]], "\(rates)")
        // Limit entries fill as maker: SYN0002's stored 3 bps, the others their taker rate (no maker rate stored).
        let limit = BT.scratchDirectory().path + "/maker"
        let m = try BT.run(["portfolio", "ma-cross", "--symbols", "SYN0001,SYN0002", "--depth", "none", "--entry-limit", "close*0.995",
                            "--out", limit, "--db", db])
        #expect(m.status == 0, "\(m.stderr)")
        guard m.status == 0 else { return }
        let makerRates = try Self.feeRates(limit)
        #expect(makerRates["SYN0002"] == [0.0003, 0.005] && makerRates["SYN0001"] == [0.001], "\(makerRates)")
        // The command line's fee is over every symbol's stored one.
        let given = BT.scratchDirectory().path + "/given"
        #expect(try BT.run(["portfolio", "ma-cross", "--symbols", "SYN0001,SYN0002", "--depth", "none", "--fee-bps", "7", "--out", given,
                            "--db", db]).status == 0)
        #expect(try Self.feeRates(given) == ["SYN0001": [0.0007], "SYN0002": [0.0007]])
    }
}
