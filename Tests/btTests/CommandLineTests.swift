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
