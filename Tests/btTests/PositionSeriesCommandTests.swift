import Foundation
import Testing

/// Position series (`trade_return`, ...) end to end: refused with a caret where there is no run
/// (screens, ranks, `bt signals`) and where their past is needed; listed by `bt help expressions`.
@Suite("bt with position series: where they are refused")
struct PositionSeriesCommandTests {
    @Test("bt signals refuses a strategy whose rules read the position, exit 2, pointing at bt run")
    func signals() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["signals", "GOOG", "--entry", "close > sma(close, 20)", "--exit", "trade_return > 0.05 or bars_in_trade >= 10",
                            "--db", db])
        #expect(r.status == 2 && r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.contains("error: the exit rule reads the open position (position series such as trade_return): such rules "
                                  + "have values only inside a run"), "\(r.stderr)")
        #expect(r.stderr.contains("use 'bt run' and read its trades"))
        let file = BT.scratchDirectory().appendingPathComponent("p.bt")
        try "[rules]\nentry = position == 0 and close > open\nexit = close < highest_since_entry * 0.9\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let both = try BT.run(["signals", file.path, "GOOG", "--db", db])
        #expect(both.status == 2 && both.stderr.contains("the entry and exit rules read the open position"), "\(both.stderr)")
    }

    @Test("bt screen --where/--show and a portfolio --rank refuse position series with a caret, exit 2")
    func noRun() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["screen", "--all", "--where", "position > 0", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: --where: 'position' is a position series, known only bar by bar during a run, and a screen "
                                  + "condition is evaluated without one"), "\(r.stderr)")
        #expect(r.stderr.contains("\n  position > 0\n  ^^^^^^^^\n"), "\(r.stderr)")
        let show = try BT.run(["screen", "--all", "--where", "close > 0", "--show", "close / entry_price", "--db", db])
        #expect(show.status == 2 && show.stderr.contains("--show: 'entry_price' is a position series"), "\(show.stderr)")
        #expect(show.stderr.contains("\n  close / entry_price\n          ^^^^^^^^^^^\n"), "\(show.stderr)")
        let rank = try BT.run(["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD", "--rank", "trade_return", "--db", db])
        #expect(rank.status == 2 && rank.stderr.contains("'trade_return' is a position series") && rank.stderr.contains("a rank"),
                "\(rank.stderr)")
    }

    @Test("a position series feeding an indicator or an offset is an error at the series in --exit and in a file")
    func needsPast() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "GOOG", "--entry", "close > open", "--exit", "sma(trade_return, 5) > 0", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: --exit: 'trade_return' is a position series, known only bar by bar during a run: "
                                  + "it cannot feed sma(...)"), "\(r.stderr)")
        #expect(r.stderr.contains("\n  sma(trade_return, 5) > 0\n      ^^^^^^^^^^^^\n"), "\(r.stderr)")
        let file = BT.scratchDirectory().appendingPathComponent("p.bt")
        try "[rules]\nentry = close > open\nexit = close < 1 or\n  bars_in_trade[1] > 3\n".write(to: file, atomically: true, encoding: .utf8)
        let f = try BT.run(["run", file.path, "GOOG", "--db", db])
        #expect(f.status == 2 && f.stderr.contains("p.bt:4: 'bars_in_trade' is a position series"), "\(f.stderr)")
    }

    @Test("bt help expressions lists the position series")
    func help() throws {
        let r = try BT.run(["help", "expressions"])
        #expect(r.status == 0)
        for name in ["POSITION SERIES", "  trade_return  ", "  highest_since_entry  ", "NaN when flat"] {
            #expect(r.stdout.contains(name), "\(name)")
        }
    }
}
