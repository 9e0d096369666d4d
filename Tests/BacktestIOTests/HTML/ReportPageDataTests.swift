import Foundation
import Testing
import AnalysisTestSupport
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData
@testable import BacktestPresentation
@testable import BacktestJobs

/// The data bt writes into report.html (docs/reference/report-html-schema.md), read back as the page reads it.
@Suite("report.html data")
struct ReportPageDataTests {
    /// The JSON object inlined in `page`.
    static func data(_ page: String) throws -> [String: Any] {
        let inlined = try HTMLPageTests.dataElement(of: page).replacingOccurrences(of: #"<\/"#, with: "</")
        return try #require(try JSONSerialization.jsonObject(with: Data(inlined.utf8)) as? [String: Any])
    }

    /// The same object parsed by bt's JSON parser, whose numbers are exact (Foundation's parser on
    /// Linux can miss the last bit of a 17-digit number; browsers' `JSON.parse` does not).
    static func exact(_ page: String) throws -> JSONValue {
        var inlined = try HTMLPageTests.dataElement(of: page).replacingOccurrences(of: #"<\/"#, with: "</")
        return try inlined.withUTF8 { try JSONParser.parse($0) }
    }

    /// A numeric array of `exact`'s value in either encoding, NaN for undefined.
    static func numbers(_ value: JSONValue?) throws -> [Double] {
        switch value {
        case .object(let members)?:
            guard case .string(let b64)? = members.first(where: { $0.key == "f64" })?.value else { throw PageDataError("not f64") }
            return try numbers(["f64": b64] as [String: Any])
        case .array(let items)?:
            return items.map { item -> Double in
                switch item {
                case .number(let v): return v
                case .int(let v): return Double(v)
                default: return .nan
                }
            }
        default: throw PageDataError("not a numeric array")
        }
    }

    struct PageDataError: Error { var reason: String; init(_ r: String) { reason = r } }

    /// A numeric array in either encoding, NaN for undefined.
    static func numbers(_ value: Any?) throws -> [Double] {
        if let object = value as? [String: Any], let b64 = object["f64"] as? String {
            let data = try #require(Data(base64Encoded: b64))
            return stride(from: 0, to: data.count, by: 8).map { k in
                Double(bitPattern: UInt64(littleEndian: data[k..<k + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
            }
        }
        let array = try #require(value as? [Any])
        return array.map { ($0 as? NSNumber)?.doubleValue ?? .nan }
    }

    /// Equity and position from a `{"ledger": ...}` curve, summed as the page sums them; without
    /// `at` and `position`, the steps and positions the signed fill quantities imply.
    static func ledgerCurve(_ ledger: [String: Any], fills: [String: Any], close: [Double]) throws -> (equity: [Double], position: [Double]) {
        var at: [Int], position: [Double]
        if ledger["at"] == nil {
            let index = try #require(fills["index"] as? [Int]), quantity = try numbers(fills["quantity"])
            at = [0]; position = [0]
            var p = 0.0
            for (i, q) in zip(index, quantity) {
                p += q
                if i == at.last { position[position.count - 1] = p } else { at.append(i); position.append(p) }
            }
        } else {
            at = try #require(ledger["at"] as? [Int]); position = try numbers(ledger["position"])
        }
        let cash = try numbers(ledger["cash"])
        try #require(at.first == 0 && cash.count == at.count && position.count == at.count)
        var e: [Double] = [], p: [Double] = []
        for k in at.indices {
            for i in at[k]..<(k + 1 < at.count ? at[k + 1] : close.count) {
                e.append(cash[k] + position[k] * close[i]); p.append(position[k])
            }
        }
        return (e, p)
    }

    static func times(_ series: [String: Any]) throws -> [Int64] {
        var t: Int64 = 0
        return try #require(series["time_deltas"] as? [NSNumber]).map { t += $0.int64Value; return t }
    }

    static func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
    }

    static func report() throws -> Report {
        let run = try SVGChartTests.googRun()
        var report = Report(strategy: "ma-cross", parameters: [RunParameter("fast", .int(10)), RunParameter("slow", .int(30))],
                            execution: ExecutionConfig().parameters, commandLine: ["bt", "run", "ma-cross", "GOOG", "--out", "a b"],
                            result: run, stats: Stats(run, bootstrap: .init(resamples: 20)), costs: nil)
        report.indicators = [IndicatorSpec(.sma, 10), IndicatorSpec(.sma, 30), IndicatorSpec(.macd), IndicatorSpec(.bb, 20, 2.5)]
        return report
    }

    @Test("a run page carries the exact candles, indicators, equity, trades, fills and tables")
    func run() throws {
        let report = try Self.report()
        let r = report.result
        let html = report.html()
        let d = try Self.data(html)
        let x = try Self.exact(html)
        #expect(d["schema"] as? Int == 1 && d["kind"] as? String == "run" && d["title"] as? String == "ma-cross on GOOG")
        #expect((d["subtitle"] as? [String])?.contains("2,148 bars") == true)
        let chart = try #require(d["chart"] as? [String: Any])
        let series = try #require(chart["series"] as? [String: Any])
        #expect(try Self.times(series) == r.candles.time)
        #expect(series["timeframe"] as? String == "1d" && series["symbol"] as? String == "GOOG")
        for (key, column) in [("open", r.candles.open), ("high", r.candles.high), ("low", r.candles.low), ("close", r.candles.close),
                              ("volume", r.candles.volume)] {
            #expect(Self.same(try Self.numbers(x["chart"]?["series"]?[key]), column), "\(key) is not exact")
        }
        let equity = try #require(chart["equity"] as? [String: Any])
        #expect(Self.same(try Self.numbers(equity["values"]), r.equity))
        #expect((equity["initial_cash"] as? NSNumber)?.doubleValue == r.initialCash && equity["benchmark"] as? String == "buy_hold")
        // The episodes the page shades are the statistics' own: depth = max drawdown, bars = its duration.
        let drawdowns = try #require(equity["drawdowns"] as? [String: Any])
        let deepest = try #require(drawdowns["deepest"] as? [String: Any]), longest = try #require(drawdowns["longest"] as? [String: Any])
        guard case .number(let depth)? = x["chart"]?["equity"]?["drawdowns"]?["deepest"]?["depth"] else { Issue.record("no depth"); return }
        #expect(abs(depth - report.stats[.maxDrawdown]) < 1e-12)  // the statistic is computed from returns
        let bars = try #require(longest["end"] as? Int) - (try #require(longest["peak"] as? Int))
        #expect(Double(bars) == report.stats[.maxDrawdownDuration])
        let (peak, trough, end) = (try #require(deepest["peak"] as? Int), try #require(deepest["trough"] as? Int), try #require(deepest["end"] as? Int))
        #expect(peak < trough && trough <= end && r.equity[trough] == r.equity[peak...end].min())
        // The page sums the fills for the position: they must give the engine's position.
        let fills = try #require(chart["fills"] as? [String: Any])
        let index = try #require(fills["index"] as? [Int]), sides = try #require(fills["side"] as? [String])
        let quantity = try Self.numbers(x["chart"]?["fills"]?["quantity"])
        let prices = try Self.numbers(x["chart"]?["fills"]?["price"])
        #expect(index == r.fills.map(\.index) && Self.same(prices, r.fills.map(\.vwap)))
        var position = 0.0, k = 0
        for bar in 0..<r.candles.count {
            while k < index.count && index[k] == bar { position += sides[k] == "buy" ? quantity[k] : -quantity[k]; k += 1 }
            #expect(abs(position - r.position[bar]) <= 1e-9 * max(1, abs(r.position[bar])), "position at bar \(bar)")
        }
        let trades = try #require(chart["trades"] as? [String: Any])
        #expect(trades["entry_index"] as? [Int] == r.trades.map(\.entryIndex) && trades["exit_index"] as? [Int] == r.trades.map(\.exitIndex))
        let pnl = try Self.numbers(x["chart"]?["trades"]?["pnl"]), returns = try Self.numbers(x["chart"]?["trades"]?["return"])
        #expect(Self.same(pnl, r.trades.map(\.pnl)) && Self.same(returns, r.trades.map(\.returnFraction)))
        #expect(trades["is_open"] as? [Bool] == r.trades.map(\.isOpen) && trades["side"] as? [String] == r.trades.map(\.side.rawValue))

        let indicators = try #require(chart["indicators"] as? [[String: Any]])
        #expect(indicators.map { $0["spec"] as? String } == ["sma:10", "sma:30", "macd:12,26,9", "bb:20,2.5"])
        #expect(indicators.map { $0["pane"] as? String } == ["price", "price", "own", "price"])
        for (group, spec) in zip(indicators, report.indicators) {
            let lines = try #require(group["lines"] as? [[String: Any]])
            #expect(lines.map { $0["name"] as? String } == spec.columns)
            for (line, expected) in zip(lines, try spec.compute(on: r.candles)) {
                #expect(Self.same(try Self.numbers(line["values"]), expected), "\(spec) values differ")
            }
        }
        #expect((indicators[2]["lines"] as? [[String: Any]])?[2]["style"] as? String == "histogram")
        #expect(indicators[3]["band"] as? [String] == ["bb_upper_20_2.5", "bb_lower_20_2.5"])
        #expect(indicators[0]["label"] as? String == "SMA 10" && indicators[3]["label"] as? String == "Bollinger 20, 2.5")

        let tables = try #require(d["tables"] as? [[String: Any]])
        let stats = try #require(tables.first { $0["id"] as? String == "stats" })
        let rows = try #require(stats["rows"] as? [[String]])
        #expect(rows.count == report.stats.all.count)
        #expect(rows.contains(["Final equity", PageData.formatted(.finalEquity, r.finalEquity)]))
        #expect(rows.contains { $0[0] == "Max drawdown duration (days)" } && rows.contains { $0[0] == "Bars" })
        let manifest = try #require(d["manifest"] as? [[String]])
        #expect(manifest.first == ["command", "bt run ma-cross GOOG --out 'a b'"])
        #expect(manifest.contains { $0[0] == "candles sha256" && $0[1] == r.candles.sha256 })
    }

    @Test("the cost table sits beside the chart with the break-even fee")
    func costs() throws {
        let report = ReportTests.sampleReport()
        let d = try Self.data(report.html())
        let tables = try #require(d["tables"] as? [[String: Any]])
        let costs = try #require(tables.first { $0["id"] as? String == "costs" })
        #expect(costs["placement"] as? String == "side")
        #expect((costs["rows"] as? [[String]])?.map { $0[0] } == ["0x", "0.5x", "1x", "2x"])
        #expect((costs["notes"] as? [String])?.contains { $0.hasPrefix("Break-even fee: ") } == true)
    }

    @Test("a chart page cut to its last bars keeps the indicators' full warm-up")
    func chart() throws {
        let goog = try ShippedData.goog()
        let page = try ChartReport(candles: goog, specs: [IndicatorSpec(.rsi), IndicatorSpec(.sma, 200)], last: 300,
                                   commandLine: ["bt", "chart", "GOOG", "--html", "x.html"])
        let d = try Self.data(page.html())
        #expect(d["kind"] as? String == "chart" && d["title"] as? String == "GOOG")
        let chart = try #require(d["chart"] as? [String: Any])
        let series = try #require(chart["series"] as? [String: Any])
        #expect(try Self.times(series) == Array(goog.time.suffix(300)))
        let indicators = try #require(chart["indicators"] as? [[String: Any]])
        let sma = try Self.numbers((indicators[1]["lines"] as? [[String: Any]])?[0]["values"])
        let expected = Array(try Indicators.sma(goog.close, period: 200).suffix(300))
        #expect(Self.same(sma, expected))
        #expect(sma.allSatisfy { $0.isFinite })
        #expect(chart["equity"] == nil && chart["trades"] == nil)
    }

    @Test("user text stays text: it cannot end the data element", arguments: ["</script><script>alert(1)</script>", "<!--", "a\"b\\c\n"])
    func hostile(symbol: String) throws {
        var goog = try ShippedData.goog().slice(0..<40)
        goog.symbol = symbol
        let page = ChartReport(candles: goog, commandLine: ["bt", "chart", symbol])
        #expect(page.html().lowercased().components(separatedBy: "</script").count - 1 == 2)
        let d = try Self.data(page.html())
        #expect(d["title"] as? String == symbol)
    }

    @Test("writing a chart page refuses an existing file unless forced")
    func chartWrite() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-chart-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("sub/chart.html").path
        let page = ChartReport(candles: try ShippedData.goog().slice(0..<40), commandLine: ["bt"])
        try page.write(to: path)
        #expect(throws: InputError.self) { try page.write(to: path) }
        try page.write(to: path, force: true)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("human figures: thousands separators, units once, dates without a clock at midnight")
    func formatting() {
        #expect(PageData.formatted(.finalEquity, 46834.765) == "46,834.77" || PageData.formatted(.finalEquity, 46834.765) == "46,834.76")
        #expect(PageData.formatted(.feesPaid, -0.004) == "0.00")
        #expect(PageData.formatted(.trades, 12345) == "12,345")
        #expect(PageData.formatted(.start, 1_092_873_600) == "2004-08-19")
        #expect(PageData.formatted(.start, 1_092_873_660) == "2004-08-19T00:01:00Z")
        #expect(PageData.statRow(.maxDrawdownDurationDays, 3) == ["Max drawdown duration (days)", "3.0"])
        #expect(PageData.statRow(.bars, 3) == ["Bars", "3"])
        #expect(PageData.statRow(.avgSlippageBps, 3) == ["Avg slippage (bps)", "3.00"])
        #expect(PageData.grouped(0) == "0" && PageData.grouped(-1234567) == "-1,234,567")
    }
}

@Suite("sweep and screen pages")
struct SweepScreenPageTests {
    static func sweep(_ grid: ParameterGrid, folds: Int? = nil) throws -> (SweepReport, SweepHeatmapCells, SweepEvaluator) {
        let candles = SweepFixtures.candles(400)
        let combos = Array(0..<grid.count)
        let pairs = combos.map { i -> (Int, Int) in let v = grid.values(at: i); return (Int(v[0]), Int(v[1])) }
        let evaluator = SweepFixtures.evaluator(pairs, counter: SweepFixtures.Counter(), failing: [1])
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankStat: .sharpe)
        let summary = try Sweep(rankStat: .sharpe).run(combinations: combos.count, evaluator: evaluator, candles: candles) { cells.add($0) }
        var report = SweepReport(strategy: "ma-cross", candles: candles, commandLine: ["bt", "sweep"], fixedParameters: [],
                                 execution: ExecutionConfig().parameters, grid: grid, whereText: nil, combos: combos,
                                 rankStat: .sharpe, periodsPerYear: 252, summary: summary)
        if let folds {
            report.walkForward = try WalkForward(bars: candles.count, folds: folds).run(combinations: combos.count, evaluator: evaluator,
                                                                                       candles: candles, rankStat: .sharpe)
        }
        return (report, cells, evaluator)
    }

    @Test("a sweep page: axes, a matrix per metric, the best cell, stored curves, walk-forward folds")
    func sweepPage() throws {
        let grid = ParameterGrid(axes: [.init(name: "fast", values: [3, 5, 8]), .init(name: "slow", values: [20, 30, 40, 50])])
        let (report, cells, evaluator) = try Self.sweep(grid, folds: 3)
        let curves = SweepPlan.storedCurves(of: report, cells: cells, evaluator: evaluator)
        #expect(curves.count == 11)  // every cell but the failing combination 1
        let html = report.html(cells: cells, curves: curves, rerun: "bt run ma-cross T --param fast={fast} --param slow={slow}")
        let d = try ReportPageDataTests.data(html)
        let x = try ReportPageDataTests.exact(html)
        #expect(d["kind"] as? String == "sweep")
        let sw = try #require(d["sweep"] as? [String: Any])
        #expect((sw["x"] as? [String: Any])?["name"] as? String == "slow" && (sw["y"] as? [String: Any])?["name"] as? String == "fast")
        let metrics = try #require(sw["metrics"] as? [[String: Any]])
        #expect(metrics.first?["name"] as? String == "sharpe" && metrics.count == SweepStats.columns.count)
        let sharpe = try #require(metrics.first?["values"] as? [[Any]])
        #expect(sharpe.count == 3 && sharpe.allSatisfy { $0.count == 4 })
        #expect(sharpe[0][1] is NSNull)  // combination 1 (fast 3, slow 30) failed
        guard case .array(let exactMetrics)? = x["sweep"]?["metrics"], case .array(let exactRows)? = exactMetrics.first?["values"] else {
            Issue.record("no metric matrix"); return
        }
        for (k, value) in report.summary.rankValues.enumerated() where value.isFinite {
            let c = grid.coordinates(at: k)
            #expect(try ReportPageDataTests.numbers(exactRows[c[0]])[c[1]] == value)
        }
        let best = try #require(sw["best"] as? [String: Double])
        let bestValues = grid.values(at: try #require(report.summary.best))
        #expect(best["x"] == bestValues[1] && best["y"] == bestValues[0])
        let closes = try ReportPageDataTests.numbers(x["chart"]?["series"]?["close"])  // exact: JSONSerialization rounds
        let combos = try #require(sw["combinations"] as? [[String: Any]])
        #expect(combos.count == 11 && sw["curve_note"] as? String == "Curves are stored for every combination.")
        for combo in combos {
            let x = try #require(combo["x"] as? Double), y = try #require(combo["y"] as? Double)
            let k = try #require((0..<grid.count).first { grid.values(at: $0) == [y, x] })
            let run = try evaluator.run(k, on: report.candles, cache: IndicatorCache())
            // The curve is its ledger (implied by the fills here); cash + position × close over
            // the page's closes is the run's equity bit for bit.
            let trades = try #require(combo["trades"] as? [String: Any]), fills = try #require(combo["fills"] as? [String: Any])
            let ledger = try #require((combo["equity"] as? [String: Any])?["ledger"] as? [String: Any])
            #expect(ledger["at"] == nil && ledger["position"] == nil)
            let page = try ReportPageDataTests.ledgerCurve(ledger, fills: fills, close: closes)
            #expect(ReportPageDataTests.same(page.equity, run.equity) && ReportPageDataTests.same(page.position, run.position))
            #expect(try ReportPageDataTests.numbers(trades["pnl"]) == run.trades.map(\.pnl) && trades["pnl"] is [String: Any])
            #expect(try ReportPageDataTests.numbers(trades["entry_price"]) == run.trades.map(\.entryPrice))
            #expect(trades["fees"] == nil && trades["side"] == nil && (trades["is_open"] == nil) == !run.trades.contains(where: \.isOpen))
            #expect(try ReportPageDataTests.numbers(fills["price"]) == run.fills.map(\.vwap) && fills["price"] is [String: Any])
            #expect(try ReportPageDataTests.numbers(fills["quantity"]) == run.fills.map { $0.side == .buy ? $0.quantityFilled : -$0.quantityFilled })
            #expect(fills["side"] == nil)
            #expect(combo["label"] as? String == "fast=\(NumberText.shortest(y)) slow=\(NumberText.shortest(x))")
        }
        let wf = try #require(sw["walk_forward"] as? [String: Any])
        let folds = try #require(wf["folds"] as? [[String: Any]])
        #expect(folds.count == 2)
        let out = try #require(report.walkForward?.outOfSample)
        #expect(ReportPageDataTests.same(try ReportPageDataTests.numbers(wf["equity"]), out.equity))
        #expect((folds[0]["start"] as? NSNumber)?.int64Value == report.candles.time[report.walkForward!.steps[0].step.outOfSample.lowerBound])
        #expect(sw["rerun"] as? String == "bt run ma-cross T --param fast={fast} --param slow={slow}")
        let chart = try #require(d["chart"] as? [String: Any])
        #expect(try ReportPageDataTests.times(try #require(chart["series"] as? [String: Any])) == report.candles.time)
        let tables = try #require(d["tables"] as? [[String: Any]])
        #expect(tables.compactMap { $0["id"] as? String } == ["summary", "best", "top", "walk-forward"])
    }

    @Test("curves: the top ones only when every cell's curve would be too many values")
    func curveLimit() throws {
        let grid = ParameterGrid(axes: [.init(name: "fast", values: [3, 5, 8]), .init(name: "slow", values: [20, 30, 40, 50])])
        let (report, cells, _) = try Self.sweep(grid)
        #expect(report.curveCombos(cells: cells, top: 3).count == 11)
        var big = report
        big.candles = SweepFixtures.candles(SweepReport.curveValueLimit / 5)
        let top = big.curveCombos(cells: cells, top: 3)
        #expect(top.count == 3)
        #expect(top == Array(cells.rankedCombos.prefix(3)))
        let values = top.map { report.summary.rankValues[$0] }
        #expect(values == values.sorted(by: >))
    }

    @Test("a curve is written as its ledger only when cash + position × close is its equity at every bar")
    func ledgerOnlyWhenExact() throws {
        let run = try SVGChartTests.googRun()
        let ledger = try #require(PageData.ledger(run))
        guard case .object(let members) = ledger, case .object(let parts)? = members.first?.value else { Issue.record("not a ledger"); return }
        #expect(members.first?.key == "ledger" && parts.map(\.key) == ["cash"])  // the fills imply the steps and positions
        // Fills that do not add up to the position (a position the broker snapped to zero): the
        // steps and positions are written.
        var snapped = run
        let k = try #require(run.fills.indices.first { run.fills[$0].side == .sell })
        snapped.fills[k].quantityFilled = snapped.fills[k].quantityFilled.nextUp
        guard case .object(let m2)? = PageData.ledger(snapped), case .object(let p2)? = m2.first?.value else { Issue.record("no ledger"); return }
        #expect(p2.map(\.key) == ["at", "cash", "position"])
        func member(_ key: String) -> JSONValue? { p2.first { $0.key == key }?.value }
        guard case .array(let atValues)? = member("at") else { Issue.record("no steps"); return }
        let at = atValues.compactMap { value -> Int? in if case .int(let v) = value { v } else { nil } }
        let cash = try ReportPageDataTests.numbers(member("cash")), position = try ReportPageDataTests.numbers(member("position"))
        #expect(at.count == cash.count && at.count == position.count && at.first == 0)
        for (k, i) in at.enumerated() { #expect(cash[k] == run.cash[i] && position[k] == run.position[i]) }
        var nudged = run
        nudged.equity[run.equity.count / 2] = nudged.equity[run.equity.count / 2].nextUp
        #expect(PageData.ledger(nudged) == nil)
        var portfolio = run
        portfolio.positionValue = run.equity
        #expect(PageData.ledger(portfolio) == nil)
        let flat = try Engine.run(Engine.Request(run.candles, signals: Signals(entries: .init(repeating: false, count: run.equity.count),
                                                                exits: .init(repeating: false, count: run.equity.count)), config: ExecutionConfig()))
        #expect(PageData.ledger(flat) != nil)
    }

    @Test("three swept parameters: the two longest axes, each cell the best over the third")
    func threeAxes() throws {
        let grid = ParameterGrid(axes: [.init(name: "fast", values: [3, 5]), .init(name: "slow", values: [20, 30, 40]),
                                        .init(name: "k", values: [1, 2])])
        let combos = Array(0..<grid.count)
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankStat: .sharpe)
        #expect(cells.yAxis == 0 && cells.xAxis == 1 && cells.rows == 2 && cells.columns == 3)
        // k scales the fast window, so the two combinations of a cell differ.
        let pairs = combos.map { i -> (Int, Int) in let v = grid.values(at: i); return (Int(v[0] * v[2]), Int(v[1])) }
        let summary = try Sweep(rankStat: .sharpe).run(combinations: combos.count,
                                                         evaluator: SweepFixtures.evaluator(pairs, counter: SweepFixtures.Counter()),
                                                         candles: SweepFixtures.candles(400)) { cells.add($0) }
        for fast in 0..<2 {
            for slow in 0..<3 {
                let both = [0, 1].map { k in (fast * 3 + slow) * 2 + k }
                let best = both.max { summary.rankValues[$0] < summary.rankValues[$1] }!
                #expect(cells.combo[fast * 3 + slow] == best)
                #expect(cells.value(.sharpe, cell: fast * 3 + slow) == summary.rankValues[best])
            }
        }
    }

    @Test("screen charts: every symbol within the bar budget, else the best-ranked 50")
    func screenBudget() {
        func rows(_ count: Int, bars: Int) -> [Screen.Row] {
            (0..<count).map { k in Screen.Row(symbol: String(format: "S%03d", k), status: k == 2 ? .error : .ok, rank: k == 2 ? nil : k + 1,
                                              bars: bars) }
        }
        func report(_ r: [Screen.Row]) -> ScreenReport {
            ScreenReport(strategy: "ma-cross", parameters: [], execution: [], commandLine: ["bt"], rankStat: .sharpe, minTrades: 0,
                         top: 20, rows: r)
        }
        let small = report(rows(100, bars: 5_000))
        #expect(small.embeddedSymbols.count == 99 && !small.embeddedSymbols.contains("S002"))
        let large = report(rows(300, bars: 5_000))
        #expect(large.embeddedSymbols.count == 50 && large.embeddedSymbols.first == "S000")
        let d = try? ReportPageDataTests.data(large.html(runs: [:]))
        let screen = d?["screen"] as? [String: Any]
        #expect((screen?["rows"] as? [Any])?.count == 300)
        #expect(((screen?["columns"] as? [[String: Any]])?.first)?["key"] as? String == "sharpe")
    }
}
