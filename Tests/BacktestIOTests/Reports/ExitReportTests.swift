import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

/// How each trade ended, in every output of a run: trades.csv, the JSON, report.md, the text
/// summary and the page's data.
@Suite("Exit kinds in reports")
struct ExitReportTests {
    /// ma-cross 10/30 on GOOG with a 3% stop, a 6% target and a 5% trailing stop: trades end in
    /// several ways.
    static func report() throws -> Report {
        let goog = try ShippedData.goog()
        let fast = try Indicators.sma(goog.close, period: 10), slow = try Indicators.sma(goog.close, period: 30)
        var entries = [Bool](repeating: false, count: goog.count), exits = entries
        for t in 1..<goog.count where !slow[t - 1].isNaN {
            entries[t] = fast[t] > slow[t] && fast[t - 1] <= slow[t - 1]
            exits[t] = fast[t] < slow[t] && fast[t - 1] >= slow[t - 1]
        }
        var config = ExecutionConfig()
        config.stopLoss = 0.03
        config.takeProfit = 0.06
        config.exits.trail = .fraction(0.05)
        let result = try Engine.run(Engine.Request(goog, signals: Signals(entries: entries, exits: exits), config: config))
        return Report(strategy: "ma-cross", parameters: [], execution: config.parameters, commandLine: ["bt", "run", "ma-cross", "GOOG"],
                      result: result, stats: Stats(result, bootstrap: .init(resamples: 20)), costs: nil)
    }

    @Test("the run's trades end in several kinds (the fixture shows what the reports must)")
    func fixture() throws {
        let kinds = Set(try Self.report().result.trades.map(\.exitKind))
        #expect(kinds.isSuperset(of: [.stop, .target, .trail]), "\(kinds)")
    }

    @Test("trades.csv ends each row with exit_kind, the kind's name")
    func tradesCSV() throws {
        let report = try Self.report()
        let lines = String(decoding: report.tradesCSVBytes(), as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(lines[0].last == "exit_kind" && lines[0].count == 15)
        #expect(lines.dropFirst().map { String($0.last!) } == report.result.trades.map(\.exitKind.rawValue))
    }

    @Test("the JSON's stats.exits counts every kind, 0 for those that did not happen, in ExitKind order")
    func json() throws {
        let report = try Self.report()
        guard case .object(let top) = report.json, case .object(let stats)? = top.first(where: { $0.key == "stats" })?.value,
              case .object(let exits)? = stats.first(where: { $0.key == "exits" })?.value else {
            Issue.record("no stats.exits"); return
        }
        #expect(exits.map(\.key) == ExitKind.allCases.map(\.rawValue))
        for (key, value) in exits {
            let kind = try #require(ExitKind(rawValue: key))
            #expect(value == .int(report.result.trades.filter { $0.exitKind == kind }.count), "\(key)")
        }
        #expect(exits.first { $0.key == "rebalance" }?.value == .int(0))
    }

    @Test("report.md: an exits-by-kind table beside the statistics and the kind in the trades table")
    func markdown() throws {
        let report = try Self.report()
        let md = try report.markdown()
        let exits = report.exits
        #expect(md.contains("### Exits by kind") && md.contains("| exit kind | trades | share | avg return |"))
        for row in exits.present {
            #expect(md.contains("| \(row.kind.rawValue) | \(row.trades) | \(Format.percent(row.share)) | \(Format.percent(row.averageReturn)) |"))
        }
        #expect(!md.contains("| rebalance |"), "kinds that did not happen are left out of the table")
        #expect(md.contains("| # | side | entry | exit | exit kind | bars |"))
        let first = report.result.trades[0]
        #expect(md.contains("| 1 | long | \(UTCTime.iso(first.entryTime)) | \(UTCTime.iso(first.exitTime)) | \(first.exitKind.rawValue) | "))
        // The statistics section holds it, before the trades.
        let stats = try #require(md.range(of: "## Statistics")), table = try #require(md.range(of: "### Exits by kind"))
        let trades = try #require(md.range(of: "## Trades"))
        #expect(stats.upperBound < table.lowerBound && table.upperBound < trades.lowerBound)
    }

    @Test("the text summary counts exits by kind on one line; none without trades")
    func summary() throws {
        let report = try Self.report()
        let text = RunSummaryText.summary(report, headline: report.headline, rules: [])
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("exits: ") })
        let counts = report.exits.present.map { "\($0.trades) \($0.kind.rawValue)" }.joined(separator: ", ")
        #expect(line == "exits: " + counts)
        #expect(line.contains(" stop") && line.contains(" target") && line.contains(" trail"))
        var flat = ReportTests.sampleReport()
        flat.result.trades = []
        flat.stats = Stats(flat.result, periodsPerYear: 252, bootstrap: .init(resamples: 20))
        #expect(!RunSummaryText.summary(flat, headline: "", rules: []).contains("exits:") && flat.exitRows == nil)
    }

    @Test("the page: each trade's exit_kind and an exits table beside the statistics")
    func page() throws {
        let report = try Self.report()
        let d = try ReportPageDataTests.data(report.html())
        let trades = try #require((d["chart"] as? [String: Any])?["trades"] as? [String: Any])
        #expect(trades["exit_kind"] as? [String] == report.result.trades.map(\.exitKind.rawValue))
        let tables = try #require(d["tables"] as? [[String: Any]])
        #expect(tables.map { $0["id"] as? String }.prefix(2) == ["stats", "exits"])
        let exits = try #require(tables.first { $0["id"] as? String == "exits" })
        #expect(exits["columns"] as? [String] == ["exit kind", "trades", "share", "avg return"])
        #expect((exits["rows"] as? [[String]])?.map { $0[0] } == report.exits.present.map(\.kind.rawValue))
    }

    @Test("a sweep curve's trades carry exit_kind only when a trade did not end as its default")
    func curveTrades() throws {
        var trades = [StatsFixtures.trade(0, 2, pnl: 1, ret: 0.01), StatsFixtures.trade(3, 5, pnl: 1, ret: 0.01)]
        trades[1].isOpen = true; trades[1].exitKind = .end
        guard case .object(let plain) = PageData.curveTrades(trades) else { Issue.record("not an object"); return }
        #expect(!plain.contains { $0.key == "exit_kind" })
        trades[0].exitKind = .stopGap
        guard case .object(let kinds) = PageData.curveTrades(trades) else { Issue.record("not an object"); return }
        #expect(kinds.first { $0.key == "exit_kind" }?.value == .array([.string("stop-gap"), .string("end")]))
    }
}
