import Foundation
import Testing
import TestSupport

/// Inputs that once crashed bt, hung it, allocated without bound or were swallowed, end to end
/// with the real binary: numbers far outside their range, symbols outside the alphabet, stores
/// that are not files, a 5 MB field, an Alpha Vantage note. Each exits 2 with a short message
/// naming the option or file, and nothing on stderr is a raw control character.
@Suite("Inputs that used to crash, hang or be swallowed are refused with a short message", .serialized)
struct RefusedInputTests {
    struct Crash: CustomTestStringConvertible, Sendable {
        var args: [String]
        var message: String
        var testDescription: String { args.joined(separator: " ").prefix(60).description }
    }

    static let crashes: [Crash] = [
        Crash(args: ["run", "ma-cross", "GOOG", "--cash", "1e308"], message: "--cash '1e+308': initial cash must be a positive number up to 1e15"),
        Crash(args: ["chart", "GOOG", "--width", "9223372036854775807"], message: "--width '9223372036854775807': a chart is at most 1000 columns wide"),
        Crash(args: ["chart", "GOOG", "--width", "100000", "--height", "100000"], message: "a chart is at most 1000 columns wide"),
        Crash(args: ["run", "ma-cross", "GOOG", "--height", "9223372036854775807"], message: "a chart is at most 500 rows high"),
        Crash(args: ["data", "synth", "--bars", "9223372036854775807"], message: "--bars '9223372036854775807': at most 20000000 bars"),
        Crash(args: ["data", "synth", "--bars", "100000", "--timeframe", "1M"], message: "would run past the year 9999"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=1:1e300:1"], message: "--grid 'fast=1:1e300:1': more than 1000000 values"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=0:1:1e-300"], message: "more than 1000000 values"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=1:1000000:1", "--grid", "slow=1:1000000:1", "--grid", "type=1:1000000:1"],
              message: "the grid has 1e+12 combinations or more"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=1:1000:1", "--grid", "slow=1:1000:1", "--where", "fast > slow + 5000"],
              message: "--where leaves no combination of the grid"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=50:60:10", "--grid", "slow=10:20:10"],
              message: "no combination could run: all 4 failed (see sweep.csv)"),
        Crash(args: ["data", "import", "data/GOOG.csv", "--symbol", "\u{1}GOOG"], message: "--symbol '\\x01GOOG': the symbol starts with U+0001"),
        Crash(args: ["run", "ma-cross", "\u{1}GOOG"], message: "the symbol starts with U+0001"),
        Crash(args: ["data", "export", "A|B"], message: "the symbol holds '|' at position 2"),
        Crash(args: ["screen", "ma-cross", "--symbols", "GOOG,\u{1B}[2J"], message: "the symbol starts with U+001B"),
        Crash(args: ["data", "list", "--db", ""], message: "--db '': the store path is empty"),
        Crash(args: ["data", "import", "data/GOOG.csv", "--db", ":memory:"], message: "--db ':memory:': is not a file path"),
        Crash(args: ["data", "import", "data/GOOG.csv", "--db", "file:x?mode=memory"], message: "is not a file path"),
        Crash(args: ["run", "ma-cross", "GOOG", "--out", ""], message: "--out '': the report directory path is empty"),
        Crash(args: ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--out", ""], message: "--out '': the output directory path is empty"),
    ]

    @Test("inputs that used to crash, hang or be swallowed exit 2 with a message", arguments: crashes)
    func crashInputs(_ c: Crash) throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        var args = c.args
        if !args.contains("--db") { args += ["--db", db] }
        if ["sweep", "run"].contains(args[0]) && !args.contains("--out") { args += ["--out", dir.appendingPathComponent("out").path] }
        let r = try BT.run(args)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(c.message), "\(r.stderr)")
        #expect(r.stderr.utf8.count < 2000)
        #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\u{1}"))
    }

    @Test("a symbol from a file name outside the alphabet exits 2 and creates nothing")
    func badFileName() throws {
        let dir = BT.scratchDirectory()
        let file = dir.appendingPathComponent("\u{1}evil.csv")
        try Data("date,open,high,low,close\n2024-01-02,1,2,0.5,1\n2024-01-03,1,2,0.5,1\n".utf8).write(to: file)
        let db = dir.appendingPathComponent("new/s.sqlite").path
        let r = try BT.run(["data", "import", file.path, "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot derive a symbol from the file name: the symbol starts with U+0001") && r.stderr.contains("\\x01evil.csv"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new").path))
    }

    @Test("a 5 MB rejected field is quoted in at most 80 characters")
    func hugeField() throws {
        let dir = BT.scratchDirectory()
        let file = dir.appendingPathComponent("big.csv")
        try Data(("date,open,high,low,close\n2024-01-02," + String(repeating: "7", count: 5_000_000) + "x,2,0.5,1\n").utf8).write(to: file)
        let r = try BT.run(["data", "import", file.path, "--db", dir.appendingPathComponent("s.sqlite").path])
        #expect(r.status == 2)
        #expect(r.stderr.utf8.count < 400, "\(r.stderr.utf8.count) bytes of stderr")
        #expect(r.stderr.contains("(5000001 characters) is not a number"))
    }

    @Test("Alpha Vantage notes and information messages are named as such")
    func alphaVantageMessages() throws {
        let dir = BT.scratchDirectory()
        let note = dir.appendingPathComponent("ibm.json")
        try Data(#"{"Note": "Thank you for using Alpha Vantage! Our standard API call frequency is 5 calls per minute."}"#.utf8).write(to: note)
        let r = try BT.run(["data", "import", note.path, "--db", dir.appendingPathComponent("s.sqlite").path])
        #expect(r.status == 2 && r.stderr.contains("Alpha Vantage answered with a note instead of data"), "\(r.stderr)")
    }
}
