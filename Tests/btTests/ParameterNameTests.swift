import Testing

/// A `--param` that names no parameter of the strategy is an error naming the valid ones, on
/// every command that runs a strategy; for rules given as text, where `--param` declares the
/// `$names`, one that nothing reads is a warning.
@Suite("--param names a parameter")
struct ParameterNameTests {
    @Test("a misspelt parameter of a named strategy is refused with the valid names", arguments: [
        ["run", "ma-cross", "GOOG", "--no-chart"],
        ["screen", "ma-cross", "--symbols", "GOOG"],
        ["sweep", "ma-cross", "GOOG", "--grid", "slow=30,40"],
        ["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD"],
        ["signals", "ma-cross", "GOOG"],
        ["run", "rsi", "GOOG", "--no-chart", "--strategies", "strategies", "--param", "lowr=25"],
    ])
    func namedStrategies(arguments: [String]) throws {
        let db = try RunCommandTests.store()
        let out = ["screen", "sweep"].contains(arguments[0]) ? ["--out", BT.scratchDirectory().path + "/x"] : []
        let misspelt = arguments.contains("rsi") ? [] : ["--param", "fsat=5"]
        let r = try BT.run(arguments + misspelt + ["--db", db] + out)
        #expect(r.status == 2, "\(arguments): \(r.stdout)")
        let expected = arguments.contains("rsi")
            ? "error: --param: unknown parameter 'lowr' for rsi; did you mean 'lower'? (valid: period, lower, upper)"
            : "error: --param: unknown parameter 'fsat' for ma-cross; did you mean 'fast'? (valid: fast, slow, type)"
        #expect(r.stderr.hasPrefix(expected), "\(arguments): \(r.stderr)")
    }

    static let rules = ["--entry", "close > sma(close, $n)", "--exit", "close < sma(close, 20)"]

    @Test("rules: a --param or --grid name that nothing reads is a warning; one read by a rank or a where clause is not", arguments: [
        (["run", "GOOG", "--no-chart", "--no-costs", "--param", "n=10", "--param", "m=3"], ["--param m"]),
        (["screen", "--symbols", "GOOG", "--param", "n=10", "--param", "m=3"], ["--param m"]),
        (["sweep", "GOOG", "--grid", "n=5,10", "--grid", "k=1,2", "--param", "m=3"], ["--param m", "--grid k"]),
        (["portfolio", "--symbols", "GOOG,EURUSD", "--param", "n=10", "--param", "m=3"], ["--param m"]),
        (["signals", "GOOG", "--param", "n=10", "--param", "m=3"], ["--param m"]),
        (["portfolio", "--symbols", "GOOG,EURUSD", "--param", "n=10", "--param", "m=3", "--rank", "roc(close, $m)"], []),
        (["sweep", "GOOG", "--grid", "n=5,10", "--param", "m=30", "--where", "n < m"], []),
        (["run", "GOOG", "--no-chart", "--no-costs", "--param", "n=10"], []),
    ])
    func unusedByRules(arguments: [String], warned: [String]) throws {
        let db = try RunCommandTests.store()
        let out = ["screen", "sweep"].contains(arguments[0]) ? ["--out", BT.scratchDirectory().path + "/x"] : []
        let r = try BT.run(arguments + Self.rules + ["--db", db] + out)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("no expression reads") }
        #expect(lines.count == warned.count, "\(arguments): \(r.stderr)")
        for (line, option) in zip(lines, warned) {
            let name = option.split(separator: " ")[1]
            #expect(line == "warning: \(option): no expression reads $\(name), so it changes nothing", "\(line)")
        }
    }

    @Test("a condition screen warns about a --param its condition and shows do not read")
    func conditionScreen() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["screen", "--where", "close > sma(close, $n)", "--show", "rsi(close, $k)", "--param", "n=10", "--param", "k=14",
                            "--param", "m=3", "--symbols", "GOOG", "--db", db])
        #expect(r.status == 0 && r.stderr == "warning: --param m: no expression reads $m, so it changes nothing\n", "\(r.stderr)")
    }
}
