import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

@Suite("Condition screens")
struct ConditionScreenTests {
    static func screen(_ condition: String, shows: [String] = []) throws -> ConditionScreen {
        try ConditionScreen(condition: LocatedExpression(condition, origin: .setting(.where)),
                            shows: shows.map { try LocatedExpression($0, origin: .setting(.show)) })
    }

    @Test("the condition and shown values are those of the last bar; short data is an error row, never dropped")
    func rows() throws {
        let goog = try ShippedData.goog(), eurusd = try ShippedData.eurusd()
        let short = goog.slice(0..<40)
        let screen = try Self.screen("close > sma(close, 50)", shows: ["rsi(close)", "close > open", "close / 0"])
        let data = ["GOOG": goog, "EURUSD": eurusd, "SHORT": short]
        let rows = screen.run(symbols: ["GOOG", "EURUSD", "SHORT", "MISSING"]) { symbol in
            guard let c = data[symbol] else { throw InputError("no candles stored for symbol '\(symbol)'") }
            return c
        }
        #expect(rows.map(\.symbol) == ["GOOG", "EURUSD", "SHORT", "MISSING"])
        for (row, c) in zip(rows.prefix(2), [goog, eurusd]) {
            let last = c.count - 1
            let sma = try Indicators.sma(c.close, period: 50)[last]
            #expect(row.status == (c.close[last] > sma ? .match : .noMatch))
            #expect(row.time == c.time[last] && row.timeframe == c.timeframe?.rawValue)
            #expect(row.values[0] == (try Indicators.rsi(c.close, period: 14))[last])
            #expect(row.values[1] == (c.close[last] > c.open[last] ? 1 : 0))
            #expect(row.values[2].isNaN)
        }
        #expect(rows[2].status == .error && rows[2].error == "too short: the condition needs at least 50 bars, GOOG has 40")
        #expect(rows[3].status == .error)

        let report = ConditionScreenReport(screen: screen, rows: rows, commandLine: ["bt", "screen"])
        let json = report.json.serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["checked", "errors", "matches"])
        #expect(object["checked"] as? Int == 4)
        #expect((object["errors"] as? [[String: Any]])?.map { $0["symbol"] as? String } == ["SHORT", "MISSING"])
        let csv = report.csv().split(separator: "\n")
        #expect(csv[0] == "symbol,timeframe,time,status,error,rsi(close),close > open,close / 0")
        #expect(csv.count == 5)
    }

    @Test("a screen condition must be a condition")
    func types() {
        #expect(throws: InputError.self) { try Self.screen("close + 1") }
    }
}
