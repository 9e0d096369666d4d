import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

@Suite("Run manifest: one builder for report.md, sweep.md, screen.md and stats.json")
struct RunManifestTests {
    static func sweepManifest() -> RunManifest {
        var m = RunManifest(commandLine: ["bt", "sweep", "ma-cross", "X", "--where", "fast<slow | 1"], strategy: "ma-cross",
                            data: RunManifest.Data(StatsFixtures.sample.candles), periodsPerYear: 252.5,
                            parameters: [RunParameter("type", .string("sma"))],
                            execution: [RunParameter("sl", .none), RunParameter("fee_bps", .double(10))])
        m.rankStat = .maxDrawdown
        m.grid = [ParameterGrid.Axis(name: "fast", values: [5, 7.5])]
        m.filter = "fast<slow"
        return m
    }

    @Test("markdown rows in order, every cell escaped, numbers in shortest form")
    func markdown() {
        let m = Self.sweepManifest()
        #expect(m.rows.map(\.name) == ["command", "bt version", "symbol", "timeframe", "data range", "bars", "candles sha256",
                                        "periods per year", "rank metric", "grid fast", "where", "parameter type",
                                        "execution sl", "execution fee_bps"])
        let md = m.markdown
        #expect(md.hasPrefix("| | |\n|---|---|\n| command | `bt sweep ma-cross X --where 'fast<slow \\| 1'` |\n"))
        for row in ["| bars | 10 |", "| data range | 2024-01-01T00:00:00Z .. 2024-01-10T00:00:00Z |",
                    "| periods per year | 252.5 |", "| rank metric | max_drawdown |", "| grid fast | 5 7.5 |",
                    "| where | `fast<slow` |", "| execution sl | none |", "| execution fee_bps | 10 |",
                    "| candles sha256 | `\(StatsFixtures.sample.candles.sha256)` |"] {
            #expect(md.contains(row + "\n"), "missing \(row)")
        }
    }

    @Test("JSON members: the stats.json head, then the sweep or screen settings; no command line")
    func json() {
        let m = Self.sweepManifest()
        #expect(m.jsonMembers.map(\.key) == ["strategy", "symbol", "timeframe", "params", "execution", "bars", "first", "last",
                                             "candles_sha256", "bt_version", "rank_metric", "grid", "where"])
        #expect(JSONValue.object(Array(m.jsonMembers[3...4])).serialized() == #"{"params":{"type":"sma"},"execution":{"sl":null,"fee_bps":10}}"#)
        var screen = RunManifest(commandLine: ["bt"], strategy: "rsi", parameters: [], execution: [])
        screen.symbols = 3
        screen.minTrades = 2
        #expect(JSONValue.object(screen.jsonMembers).serialized()
                == #"{"strategy":"rsi","params":{},"execution":{},"bt_version":"\#(btVersion)","symbols":3,"min_trades":2}"#)
        #expect(screen.rows.map(\.name) == ["command", "bt version", "symbols", "min trades"])
    }

    @Test("a series without bars has no range")
    func empty() {
        let data = RunManifest.Data(CandleSeries(symbol: "E"))
        let m = RunManifest(commandLine: [], strategy: "s", data: data, parameters: [], execution: [])
        #expect(m.markdown.contains("| data range | no bars |\n| bars | 0 |"))
        #expect(m.markdown.contains("| timeframe | unknown |"))
    }
}
