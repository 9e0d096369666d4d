import BacktestAnalysis
import BacktestCore
import Foundation

/// The pieces of a report page's data (docs/reference/report-html-schema.md), built as `JSONValue`:
/// candles as JSON numbers in shortest round-trip form (exact, and short for prices on a tick
/// grid), derived series (indicators, equity) as `{"f64": base64}` arrays, bars by index, times
/// as epoch seconds.
enum PageData {
    /// The schema version written in every page.
    static let schema = 1

    /// `{"f64": "<base64>"}`: little-endian doubles, NaN for undefined.
    static func f64(_ values: [Double]) -> JSONValue {
        .object([(key: "f64", value: .string(HTMLPage.f64Base64(values)))])
    }

    /// A JSON array of numbers, `null` where a value is not finite.
    static func numbers(_ values: [Double]) -> JSONValue {
        .array(values.map { .number($0) })
    }

    /// `time_deltas`: the first time, then each time's distance from the one before.
    static func timeDeltas(_ times: [Int64]) -> JSONValue {
        var previous: Int64 = 0
        return .array(times.map { t in
            defer { previous = t }
            return .int(Int(t &- previous))
        })
    }

    /// How a chart's candles are written.
    enum CandleEncoding {
        /// JSON numbers: short for prices on a tick grid, the smallest page.
        case numbers
        /// `f64` arrays: written many times faster (pages embedding hundreds of charts).
        case f64
    }

    /// The `series` object: OHLCV (exact either way), times as deltas.
    static func series(_ candles: CandleSeries, timeframe: String?, encoding: CandleEncoding = .numbers) -> JSONValue {
        func column(_ values: [Double]) -> JSONValue { encoding == .numbers ? numbers(values) : f64(values) }
        return [
            "symbol": .string(candles.symbol),
            "timeframe": timeframe.map { .string($0) } ?? .null,
            "time_deltas": timeDeltas(candles.time),
            "open": column(candles.open), "high": column(candles.high), "low": column(candles.low),
            "close": column(candles.close), "volume": column(candles.volume),
        ]
    }

    /// The `equity` object of a run: values as `f64`, the position left to the page (it sums the
    /// fills), buy and hold as the benchmark.
    /// - Parameter thinned: a thinned chart's sample and the run's own bar times (the episodes'
    ///   indices then point at drawn bars, and carry their length in the run's bars and seconds).
    static func equity(_ result: BacktestResult, drawdowns: DrawdownEpisodes, label: String = "Strategy",
                       thinned: (sample: DisplaySample, times: [Int64])? = nil) -> JSONValue {
        ["initial_cash": .number(result.initialCash), "values": f64(result.equity),
         "drawdowns": Self.drawdowns(drawdowns, thinned: thinned),
         "benchmark": .string("buy_hold"), "label": .string(label)]
    }

    /// `drawdowns`: the deepest and the longest episode (`DrawdownEpisodes`, the statistics'
    /// own), each `{peak, trough, end, depth, recovered}` with bars as indices, null without one.
    /// On a thinned chart the indices are the drawn bars holding them, and `bars` and `seconds`
    /// follow: the episode's length in the run's own bars and time.
    static func drawdowns(_ episodes: DrawdownEpisodes, thinned: (sample: DisplaySample, times: [Int64])? = nil) -> JSONValue {
        func json(_ e: DrawdownEpisodes.Episode?) -> JSONValue {
            guard let e else { return .null }
            let at = { (bar: Int) in thinned?.sample.index(of: bar) ?? bar }
            var members: [(key: String, value: JSONValue)] = [
                (key: "peak", value: .int(at(e.peak))), (key: "trough", value: .int(at(e.trough))), (key: "end", value: .int(at(e.end))),
                (key: "depth", value: .number(e.depth)), (key: "recovered", value: .bool(e.recovered)),
            ]
            if let times = thinned?.times {
                members += [(key: "bars", value: .int(e.end - e.peak)), (key: "seconds", value: .int(Int(times[e.end] - times[e.peak])))]
            }
            return .object(members)
        }
        return ["deepest": json(episodes.deepest), "longest": json(episodes.longest)]
    }

    /// The `trades` columns, in entry order (a portfolio's in the order they closed), with
    /// `exit_kind` (how each ended) and, given `symbols` (one per trade), a `symbol` column.
    static func trades(_ trades: [Trade], symbols: [String]? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let symbols {
            precondition(symbols.count == trades.count, "one symbol per trade")
            members.append((key: "symbol", value: .array(symbols.map { .string($0) })))
        }
        return .object(members + [
            (key: "side", value: .array(trades.map { .string($0.side.rawValue) })),
            (key: "entry_index", value: .array(trades.map { .int($0.entryIndex) })),
            (key: "exit_index", value: .array(trades.map { .int($0.exitIndex) })),
            (key: "entry_price", value: numbers(trades.map(\.entryPrice))),
            (key: "exit_price", value: numbers(trades.map(\.exitPrice))),
            (key: "quantity", value: numbers(trades.map(\.quantity))),
            (key: "pnl", value: numbers(trades.map(\.pnl))),
            (key: "return", value: numbers(trades.map(\.returnFraction))),
            (key: "fees", value: numbers(trades.map(\.fees))),
            (key: "is_open", value: .array(trades.map { .bool($0.isOpen) })),
            (key: "exit_kind", value: .array(trades.map { .string($0.exitKind.rawValue) })),
        ])
    }

    /// The `fills` columns (VWAP and filled quantity), in time order.
    static func fills(_ fills: [Fill]) -> JSONValue {
        [
            "index": .array(fills.map { .int($0.index) }),
            "side": .array(fills.map { .string($0.side.rawValue) }),
            "price": numbers(fills.map(\.vwap)),
            "quantity": numbers(fills.map(\.quantityFilled)),
        ]
    }

    /// A sweep curve's `trades`: what the page shows, with defaults left out: numbers as `f64`,
    /// no `fees` (the page does not show them; sweep.csv and `bt run` have them), no `side` when
    /// every trade is long, no `is_open` when none is open, no `exit_kind` when every trade ended
    /// as its default (`end` when open, else `signal`).
    static func curveTrades(_ trades: [Trade]) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if trades.contains(where: { $0.side != .long }) {
            members.append((key: "side", value: .array(trades.map { .string($0.side.rawValue) })))
        }
        members += [
            (key: "entry_index", value: .array(trades.map { .int($0.entryIndex) })),
            (key: "exit_index", value: .array(trades.map { .int($0.exitIndex) })),
            (key: "entry_price", value: f64(trades.map(\.entryPrice))),
            (key: "exit_price", value: f64(trades.map(\.exitPrice))),
            (key: "quantity", value: f64(trades.map(\.quantity))),
            (key: "pnl", value: f64(trades.map(\.pnl))),
            (key: "return", value: f64(trades.map(\.returnFraction))),
        ]
        if trades.contains(where: \.isOpen) { members.append((key: "is_open", value: .array(trades.map { .bool($0.isOpen) }))) }
        if trades.contains(where: { $0.exitKind != ($0.isOpen ? .end : .signal) }) {
            members.append((key: "exit_kind", value: .array(trades.map { .string($0.exitKind.rawValue) })))
        }
        return .object(members)
    }

    /// A sweep curve's `fills`: `f64` VWAPs and signed quantities (buys positive) instead of a
    /// `side` column.
    static func curveFills(_ fills: [Fill]) -> JSONValue {
        ["index": .array(fills.map { .int($0.index) }), "price": f64(fills.map(\.vwap)),
         "quantity": f64(fills.map(signedQuantity))]
    }

    /// A fill's quantity, positive for a buy and negative for a sell (an exact sign flip).
    static func signedQuantity(_ fill: Fill) -> Double { fill.side == .buy ? fill.quantityFilled : -fill.quantityFilled }

    /// A curve as its ledger, `{"ledger": {"at": [...], "cash": f64, "position": f64}}`: the
    /// bars where cash or position change and their values from there on. The page computes
    /// equity[i] = cash + position × close[i] as the engine does (one multiply, one add, no
    /// fused multiply-add in JavaScript), so the curve it draws is `result.equity` bit for bit,
    /// in a few bytes per fill instead of 10.7 per bar.
    ///
    /// `at` and `position` are left out when the fills imply them: the steps are bar 0 and each
    /// bar with a fill, and the position is the running sum of the signed fill quantities, added
    /// in fill order (both checked here bit for bit, as the page will compute them).
    ///
    /// Nil when the result's equity is not that sum at every bar (a portfolio's), or the ledger
    /// would not be smaller.
    static func ledger(_ result: BacktestResult) -> JSONValue? {
        let cash = result.cash, position = result.position, equity = result.equity, close = result.candles.close
        let n = equity.count
        guard n > 0, cash.count == n, position.count == n, close.count == n, result.positionValue == nil else { return nil }
        var at: [Int] = [], stepCash: [Double] = [], stepPosition: [Double] = []
        for i in 0..<n {
            guard (cash[i] + position[i] * close[i]).bitPattern == equity[i].bitPattern else { return nil }
            if i == 0 || cash[i].bitPattern != cash[i - 1].bitPattern || position[i].bitPattern != position[i - 1].bitPattern {
                at.append(i); stepCash.append(cash[i]); stepPosition.append(position[i])
            }
        }
        guard at.count * 3 < n else { return nil }
        let implied = impliedSteps(result.fills)
        let fillsImply = implied.at == at && zip(implied.position, stepPosition).allSatisfy { $0.bitPattern == $1.bitPattern }
        let members: [(key: String, value: JSONValue)] = fillsImply
            ? [(key: "cash", value: f64(stepCash))]
            : [(key: "at", value: .array(at.map { .int($0) })), (key: "cash", value: f64(stepCash)),
               (key: "position", value: f64(stepPosition))]
        return ["ledger": .object(members)]
    }

    /// The ledger steps the fills imply: bar 0 and each bar with a fill, and the position after
    /// each (the signed quantities added in fill order, starting from 0).
    static func impliedSteps(_ fills: [Fill]) -> (at: [Int], position: [Double]) {
        var at = [0], position = [0.0], p = 0.0
        for fill in fills {
            p += signedQuantity(fill)
            if fill.index == at[at.count - 1] { position[position.count - 1] = p } else { at.append(fill.index); position.append(p) }
        }
        return (at, position)
    }

    /// A `chart` object: the candles, indicators drawn over them and, for a run, its equity,
    /// trades and fills.
    static func chart(_ candles: CandleSeries, timeframe: String?, indicators: [ChartIndicator] = [],
                      run: (result: BacktestResult, drawdowns: DrawdownEpisodes)? = nil,
                      encoding: CandleEncoding = .numbers, sample: DisplaySample? = nil) -> JSONValue {
        let drawn = sample.map { $0.candles(candles) } ?? candles
        var members: [(key: String, value: JSONValue)] = [(key: "series", value: series(drawn, timeframe: timeframe, encoding: encoding))]
        if !indicators.isEmpty {
            members.append((key: "indicators", value: .array(indicators.map { (sample?.indicator($0) ?? $0).json })))
        }
        if let (result, drawdowns) = run {
            let shown = sample.map { $0.result(result) } ?? result
            members += [(key: "equity", value: equity(shown, drawdowns: drawdowns, thinned: sample.map { ($0, result.candles.time) })),
                        (key: "trades", value: trades(shown.trades)), (key: "fills", value: fills(shown.fills))]
        }
        if let sample { members.append((key: "thinned", value: .object([(key: "bars", value: .int(sample.bars))]))) }
        return .object(members)
    }

    /// Where a table goes: beside the chart, or full width below it.
    enum Placement: String { case side, main }

    /// A table of preformatted text.
    static func table(id: String, title: String, columns: [String], rows: [[String]], align: [String]? = nil,
                      notes: [String] = [], placement: Placement = .side) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "id", value: .string(id)), (key: "title", value: .string(title)),
            (key: "columns", value: .array(columns.map { .string($0) })),
        ]
        if let align { members.append((key: "align", value: .array(align.map { .string($0) }))) }
        members += [(key: "rows", value: .array(rows.map { .array($0.map { .string($0) }) })),
                    (key: "notes", value: .array(notes.map { .string($0) })),
                    (key: "placement", value: .string(placement.rawValue))]
        return .object(members)
    }

    /// The top-level object: `schema`, `kind`, `title`, `subtitle`, `generator`, `manifest`
    /// (`[name, value]` text pairs), `tables`, then the kind's own members.
    static func page(_ kind: HTMLPage.Kind, title: String, subtitle: [String], manifest: [(name: String, value: String)],
                     tables: [JSONValue], members: [(key: String, value: JSONValue)]) -> JSONValue {
        var top: [(key: String, value: JSONValue)] = [
            (key: "schema", value: .int(schema)), (key: "kind", value: .string(kind.rawValue)),
            (key: "title", value: .string(title)), (key: "subtitle", value: .array(subtitle.map { .string($0) })),
            (key: "generator", value: .string("bt " + btVersion)),
        ]
        top.append((key: "manifest", value: .array(manifest.map { [.string($0.name), .string($0.value)] })))
        top.append((key: "tables", value: .array(tables)))
        return .object(top + members)
    }

    /// The page for `data`, whose `kind` member must be `kind`.
    static func render(_ data: JSONValue, title: String, kind: HTMLPage.Kind) -> String {
        HTMLPage.render(title: title, json: data.serialized(), kind: kind)
    }

    /// Subtitle pieces of a candle series: symbol, timeframe, date range, bar count.
    static func subtitle(_ candles: CandleSeries, timeframe: String?) -> [String] {
        var out = [candles.symbol]
        if let timeframe { out.append(timeframe) }
        if let first = candles.time.first, let last = candles.time.last {
            out.append("\(UTCTime.isoDate(first)) .. \(UTCTime.isoDate(last))")
        }
        out.append(grouped(candles.count) + (candles.count == 1 ? " bar" : " bars"))
        return out
    }

    /// `2,148`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// The page's unit name for a statistic's unit (how the page formats its values).
    static func unit(_ unit: Stat.Unit) -> String {
        switch unit {
        case .fraction: return "fraction"
        case .ratio, .perYear: return "ratio"
        case .cash: return "cash"
        case .count: return "count"
        case .bars: return "bars"
        case .days: return "days"
        case .bps: return "bps"
        case .time: return "time"
        }
    }

    /// A statistic's name for people: `Sharpe`, `Max drawdown`, `CAGR`, `Volatility (annual)`.
    static func label(_ stat: Stat) -> String {
        switch stat {
        case .cagr: return "CAGR"
        case .psr: return "PSR"
        case .sqn: return "SQN"
        case .var95: return "VaR 95%"
        case .cvar95: return "CVaR 95%"
        case .volatilityAnn: return "Volatility (annual)"
        case .sharpeCILow: return "Sharpe CI low"
        case .sharpeCIHigh: return "Sharpe CI high"
        case .avgSlippageBps: return "Avg slippage"
        case .buyHoldReturn: return "Buy & hold return"
        default:
            let words = stat.name.replacingOccurrences(of: "_", with: " ")
            return words.prefix(1).uppercased() + words.dropFirst()
        }
    }

    /// A statistic's row for a human table: label with its unit where the value does not show
    /// it, and `value` as `formatted(_:_:)` prints it.
    static func statRow(_ stat: Stat, _ value: Double, coin: Bool = false) -> [String] {
        var label = self.label(stat)
        for (word, unit) in [(" days", Stat.Unit.days), (" bars", .bars), (" bps", .bps)] where stat.unit == unit {
            if label.hasSuffix(word) { label.removeLast(word.count) }
            if label.lowercased() != word.dropFirst() { label += " (\(word.dropFirst()))" }
        }
        return [label, formatted(stat, value, coin: coin)]
    }

    /// `Stat.formatted(_:)`, with thousands separators for cash and counts, and dates without a
    /// clock for times at midnight (daily bars); cash in a `coin` with eight decimals.
    static func formatted(_ stat: Stat, _ value: Double, coin: Bool = false) -> String {
        guard value.isFinite else { return stat.formatted(value) }
        switch stat.unit {
        case .cash where coin: return stat.formatted(value, coin: true)
        case .cash:
            let cents = (abs(value) * 100).rounded()
            guard cents < 1e17 else { return stat.formatted(value) }
            let whole = Int(cents / 100), frac = Int(cents.truncatingRemainder(dividingBy: 100))
            return (value < 0 && cents > 0 ? "-" : "") + grouped(whole) + "." + (frac < 10 ? "0" : "") + String(frac)
        case .count, .bars:
            return abs(value) < 1e15 ? grouped(Int(value.rounded())) : stat.formatted(value)
        case .time:
            let t = Int64(value)
            return t % 86_400 == 0 ? UTCTime.isoDate(t) : stat.formatted(value)
        default:
            return stat.formatted(value)
        }
    }
}

extension RunManifest {
    /// `arguments` as one line that pastes back into a shell: words with characters other than
    /// letters, digits and `-_./:=,@%+` single-quoted.
    package static func shellCommand(_ arguments: [String]) -> String {
        arguments.map(Markdown.shellQuoted).joined(separator: " ")
    }

    /// The manifest's rows as plain text for the page (no markdown code spans): the command line
    /// shell-quoted, hashes and filters as typed.
    var plainRows: [(name: String, value: String)] {
        rows.map { row in
            if row.name == "command" { return (row.name, Self.shellCommand(commandLine)) }
            if row.value.count >= 2 && row.value.hasPrefix("`") && row.value.hasSuffix("`") {
                return (row.name, String(row.value.dropFirst().dropLast()))
            }
            return row
        }
    }
}
