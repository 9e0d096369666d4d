import Testing

@Suite("bt command line")
struct CommandLineTests {
    @Test("--version prints the version")
    func version() throws {
        let r = try BT.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("bt "))
    }

    @Test("--help lists the data commands and ends with the help hint")
    func help() throws {
        let r = try BT.run(["--help"])
        #expect(r.status == 0)
        for name in ["data import", "data list", "data export", "data remove"] { #expect(r.stdout.contains(name)) }
        #expect(r.stdout.hasSuffix("See 'bt help <command>' for details.\n"))
    }

    @Test("bt help lists its topics; bt help expressions documents every function of the rule language")
    func expressionsTopic() throws {
        let overview = try BT.run(["help"])
        #expect(overview.status == 0 && overview.stdout.contains("TOPICS:\n  expressions "))
        let r = try BT.run(["help", "expressions"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        for call in ["sma(x, n = 20) -> number", "macd(x, fast = 12, slow = 26, signal = 9) -> number: .macd, .signal, .hist",
                     "cross_above(a, b) -> condition", "bars_since(cond) -> number", "min(a, b, ...) -> number",
                     "e.g. rsi(close, 14) < 30   (warm-up 14)"] {
            #expect(r.stdout.contains(call), "missing: \(call)")
        }
        let bad = try BT.run(["help", "expresions"])
        #expect(bad.status == 2 && bad.stderr.contains("did you mean 'expressions'?"), "\(bad.stderr)")
    }

    @Test("bt help data import and bt data import --help show the same options")
    func commandHelp() throws {
        let a = try BT.run(["help", "data", "import"])
        let b = try BT.run(["data", "import", "--help"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        for option in ["--symbol S", "--timeframe TF", "--format F", "--adjusted", "--db PATH"] { #expect(a.stdout.contains(option)) }
    }

    @Test("unknown command: exit 2 with a suggestion")
    func unknownCommand() throws {
        let r = try BT.run(["dat", "list"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean 'data'?"))
        let sub = try BT.run(["data", "lst"])
        #expect(sub.status == 2)
        #expect(sub.stderr.contains("did you mean 'data list'?"))
    }

    @Test("unknown option: exit 2 with a suggestion")
    func unknownOption() throws {
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--symbl", "X", "--db", BT.scratchStore()])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown option '--symbl'; did you mean '--symbol'?"))
    }
}
