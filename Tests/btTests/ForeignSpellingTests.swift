import Testing

/// What a user of backtesting.py, vectorbt or Pine Script types first: each refusal names bt's
/// spelling, with the value converted where the units differ.
@Suite("Other tools' spellings")
struct ForeignSpellingTests {
    static func refusal(_ arguments: [String]) throws -> String {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "GOOG", "--no-chart", "--db", db] + arguments)
        #expect(r.status == 2, "\(arguments): exit \(r.status)")
        return r.stderr
    }

    @Test("options of other tools name bt's, with fractions converted to basis points", arguments: [
        (["--commission", "0.001"], "unknown option '--commission'; bt takes the fee in basis points: --fee-bps 10 (0.001 of notional)"),
        (["--fees=0.0025"], "--fee-bps 25 (0.0025 of notional)"),
        (["--commission", "3"], "--fee-bps BPS (0.001 of notional is --fee-bps 10)"),
        (["--slippage", "0.0005"], "--slippage-bps 5 (0.0005 of notional)"),
        (["--init-cash", "5000"], "unknown option '--init-cash'; bt's starting cash is --cash AMOUNT"),
        (["--init_cash", "5000"], "bt's starting cash is --cash AMOUNT"),
        (["--sl-stop", "0.05"], "bt's stop-loss is --sl PCT, e.g. --sl 5%"),
        (["--tp_stop", "0.1"], "bt's take-profit is --tp PCT"),
    ])
    func options(arguments: [String], expected: String) throws {
        let stderr = try Self.refusal(arguments)
        #expect(stderr.contains(expected), "\(stderr)")
    }

    @Test("a command without the option keeps the plain refusal")
    func onlyWhereItApplies() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["data", "list", "--commission", "0.001", "--db", db])
        #expect(r.status == 2 && r.stderr.contains("unknown option '--commission'") && !r.stderr.contains("fee-bps"), "\(r.stderr)")
    }

    @Test("bare numbers for distances and sizes say which unit is meant", arguments: [
        (["--sl", "5"], "--sl '5': a bare number is a fraction of the entry price (5 is 500%): write 5% for 5 percent"),
        (["--tp", "10"], "(10 is 1000%): write 10% for 10 percent"),
        (["--size", "0.5"], "--size '0.5': a size needs a unit: write 50% (that share of the equity), 0.5u (units) or 0.5$ (cash)"),
        (["--size", "10"], "a size needs a unit: write 10u (units) or 10$ (cash)"),
    ])
    func units(arguments: [String], expected: String) throws {
        let stderr = try Self.refusal(arguments)
        #expect(stderr.contains(expected), "\(stderr)")
    }

    @Test("a fraction below 1 is still a distance", arguments: ["0.05", "5%"])
    func fractionStillWorks(sl: String) throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "GOOG", "--sl", sl, "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test("functions of Pine Script, backtesting.py and TA-Lib name bt's", arguments: [
        ("crossover(close, sma(close, 20))", "unknown function 'crossover'; bt calls it 'cross_above'"),
        ("crossunder(close, sma(close, 20))", "unknown function 'crossunder'; bt calls it 'cross_below'"),
        ("close > SMA(close, 20)", "unknown function 'SMA'; bt calls it 'sma'"),
        ("close > ta.sma(close, 20)", "'ta.sma' is another tool's spelling: bt's function is 'sma', written without a namespace"),
        ("stdev(close, 20) > 1", "unknown function 'stdev'; bt calls it 'stddev'"),
    ])
    func functions(entry: String, expected: String) throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "GOOG", "--entry", entry, "--exit", "close < 1", "--db", db])
        #expect(r.status == 2 && r.stderr.contains(expected), "\(r.stderr)")
    }
}
