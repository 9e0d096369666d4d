import Backtest
import Foundation
import Testing
@testable import bt

/// The library reports settings; bt names them by their flags and adds its own advice.
@Suite("bt words library errors with its flags")
struct ErrorMessageTests {
    @Test("every setting the library may name is an option of some command, spelt as bt names it")
    func everySettingHasAFlag() {
        let accepted = Set(CommandRegistry.all.flatMap(\.allOptions).map(\.name))
        for setting in Setting.allCases {
            let names = Option.names(for: setting)
            #expect(!names.isEmpty && names.allSatisfy(accepted.contains), "\(setting.name): \(names) is not an option of any command")
        }
    }

    @Test("a bad setting is named by its flag, with the value given",
          arguments: [
            (["run", "ma-cross", "GOOG", "--fee-bps", "-3"], "error: --fee-bps '-3': fee must be in [0, 10000) basis points"),
            (["run", "ma-cross", "GOOG", "--cash", "0"], "error: --cash '0': initial cash must be a positive number"),
            (["run", "ma-cross", "GOOG", "--sl", "150%"], "error: --sl: stop-loss must be between 0% and 100%"),
            (["run", "ma-cross", "GOOG", "--tp", "abc%"], "error: --tp 'abc%': not a percentage like 5%"),
            (["run", "ma-cross", "GOOG", "--size", "150%"], "error: --size '150%': is more than the leverage allows: at most 100% of equity at leverage 1 (a margin account with --leverage N sizes up to N × 100%)"),
            (["run", "ma-cross", "GOOG", "--from", "2024-13-01"], "error: --from '2024-13-01': not a date"),
            (["run", "ma-cross", "GOOG", "--param", "fast=0"], "error: --param: parameter 'fast' needs a whole number >= 1"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=5:10:0"], "error: --grid 'fast=5:10:0': step must be positive"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fats=5"], "error: --grid: 'fats' is not a parameter of ma-cross; did you mean 'fast'?"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=5", "--where", "fast<slw"],
             "error: --where 'fast<slw': unknown parameter 'slw'; did you mean 'slow'?"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=5", "--rank", "sharp"], "error: --rank 'sharp': unknown metric; did you mean 'sharpe'?"),
            (["sweep", "ma-cross", "GOOG", "--grid", "fast=5", "--walk-forward", "1"], "error: --walk-forward '1': needs at least 2 folds"),
            (["screen", "ma-cross", "--symbols", "GOOG", "--rank", "sharp"], "error: --rank 'sharp': unknown statistic; did you mean 'sharpe'?"),
          ])
    func settings(args: [String], message: String) throws {
        let db = try RunCommandTests.store()
        let out = args[0] == "run" ? [] : ["--out", BT.scratchDirectory().path + "/x"]  // sweep and screen write
        let r = try BT.run(args + ["--db", db] + out)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix(message), "\(r.stderr)")
    }

    @Test("situations with advice: bt names its commands and flags")
    func advice() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory()
        let cases: [([String], String)] = [
            (["run", "ma-cross", "GOOG", "--depth", "book", "--db", db],
             "error: no recorded book stored for symbol 'GOOG'; import one with 'bt data import --format book' or 'bt data synth --book'"),
            (["run", "ma-cross", "GOOGL", "--db", db],
             "error: no candles stored for symbol 'GOOGL' (did you mean GOOG?); import them with 'bt data import'"),
            (["data", "list", "--db", dir.path + "/none.sqlite"],
             "error: \(dir.path)/none.sqlite: no candle store here; import data first with 'bt data import' or 'bt data synth'"),
            (["chart", "GOOG", "--width", "10", "--height", "5", "--db", db],
             "error: a candlestick chart needs at least 30x10 cells, got 10x5 (use --width/--height)"),
            (["run", "ma-cross", "GOOG", "--no-costs", "--out", dir.path, "--db", db],
             "error: \(dir.path): report directory already exists; nothing was written (choose another --out or pass --force)"),
        ]
        for (args, message) in cases {
            let r = try BT.run(args)
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        let one = dir.appendingPathComponent("one.csv")
        try "date,open,high,low,close\n2024-01-02,1,2,0.5,1\n".write(to: one, atomically: true, encoding: .utf8)
        let r = try BT.run(["data", "import", one.path, "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr == "error: \(one.path): cannot infer the timeframe of a single bar for a new symbol 'ONE' (use --timeframe)\n")
    }

    @Test("errors written into screen.csv and sweep.csv are worded as on the terminal")
    func rows() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().path
        let sweep = try BT.run(["sweep", "rsi", "GOOG", "--grid", "lower=50:80:30", "--grid", "upper=70", "--depth", "none",
                                "--out", dir + "/sweep", "--db", db])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let csv = try String(contentsOfFile: dir + "/sweep/sweep.csv", encoding: .utf8)
        #expect(csv.contains(",error,'--param: rsi: need 0 < lower (80.0) < upper (70.0) < 100"), "\(csv)")
        let screen = try BT.run(["screen", "ma-cross", "--symbols", "GOOG,NOPE", "--out", dir + "/screen", "--db", db])
        #expect(screen.status == 0, "\(screen.stderr)")
        let rows = try String(contentsOfFile: dir + "/screen/screen.csv", encoding: .utf8)
        #expect(rows.contains(",NOPE,,error,no candles stored for symbol 'NOPE'; import them with 'bt data import',"), "\(rows)")
    }
}
