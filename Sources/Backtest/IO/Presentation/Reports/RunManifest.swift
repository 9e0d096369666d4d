import BacktestAnalysis
import BacktestCore
import BacktestData

/// What was run, on what, with which settings: the "Run" table of `report.md`, `sweep.md` and
/// `screen.md`, and the head of `stats.json` / `bt run --json`. Reports build one and render it
/// both ways.
public struct RunManifest: Sendable {
    /// The one candle series a run or sweep read (a screen reads many and has none).
    public struct Data: Sendable, Equatable {
        public var symbol: String
        /// Stored or resampled timeframe; nil when unknown.
        public var timeframe: String?
        /// Times of the first and last bar; nil without bars.
        public var first: Int64?
        public var last: Int64?
        public var bars: Int
        /// `CandleSeries.sha256`: identifies the exact bars.
        public var sha256: String
        /// Bars read before the first one (a window's warm-up, `CandleWindow`), and the first's time.
        public var warmUpBars = 0
        public var warmUpFirst: Int64?

        /// `first .. last` as ISO times; nil without bars.
        var range: String? {
            first.flatMap { first in last.map { "\(UTCTime.iso(first)) .. \(UTCTime.iso($0))" } }
        }

        /// `SPY@1d`, or the symbol alone when the timeframe is unknown.
        public var name: String {
            timeframe.map { "\(symbol)@\($0)" } ?? symbol
        }

        /// The series' facts, JSON members `series`, `bars`, `first`, `last`, `candles_sha256`.
        var seriesJSON: JSONValue {
            .object([(key: "series", value: .string(name)), (key: "bars", value: .int(bars)),
                     (key: "first", value: first.map { .string(UTCTime.iso($0)) } ?? .null),
                     (key: "last", value: last.map { .string(UTCTime.iso($0)) } ?? .null),
                     (key: "candles_sha256", value: .string(sha256))])
        }

        /// The facts of `candles`; `timeframe` nil takes the candles' own.
        /// - Complexity: O(n) for the hash.
        public init(_ candles: CandleSeries, timeframe: String? = nil) {
            symbol = candles.symbol
            self.timeframe = timeframe ?? candles.timeframe?.rawValue
            first = candles.time.first
            last = candles.time.last
            bars = candles.count
            sha256 = candles.sha256
        }

        /// The facts of a portfolio's symbols: `bars` rows of its clock from `first` to `last`;
        /// `sha256` is the SHA-256 of one line `SYMBOL <its candles' sha256>\n` per symbol, in
        /// symbol order.
        /// - Complexity: O(bars of all symbols) for the hashes.
        public init(portfolio candles: [CandleSeries], clock: [Int64], timeframe: String?) {
            symbol = candles.count == 1 ? candles[0].symbol : "\(candles.count) symbols"
            self.timeframe = timeframe
            first = clock.first
            last = clock.last
            bars = clock.count
            var h = SHA256()
            for c in candles.sorted(by: { $0.symbol < $1.symbol }) { h.update(Array("\(c.symbol) \(c.sha256)\n".utf8)) }
            sha256 = h.hexDigest()
        }
    }

    /// The command line as typed (`["bt", "run", ...]`).
    public var commandLine: [String]
    public var version = btVersion
    public var strategy: String
    public var data: Data?
    /// Bars per year used to annualise; nil when each symbol infers its own (screens).
    public var periodsPerYear: Double?
    /// Screens: how many symbols ran.
    public var symbols: Int?
    /// Sweeps and screens: the statistic ranked by.
    public var rankStat: Stat?
    /// Screens: the fewest trades a ranked symbol made.
    public var minTrades: Int?
    /// Sweeps: the swept parameters and their values.
    public var grid: [ParameterGrid.Axis] = []
    /// Random and Bayesian searches: what was evaluated, from what, with which seed
    /// (`RandomSearch.summary`, `BayesSearch.summary`).
    public var search: String?
    /// Sweeps: the `--where` filter as typed.
    public var filter: String?
    /// Strategy parameters (for a sweep, the ones not swept), defaults included.
    public var parameters: [RunParameter]
    /// The rules of an expression strategy as written (`entry`, `exit`, ..., `require`), or the
    /// signals file a run read (`signals`); empty for strategies written in Swift.
    public var rules: [RunParameter] = []
    /// Execution options, defaults included (`ExecutionConfig.parameters`).
    public var execution: [RunParameter]
    /// The other series the rules read with `@` (`SPY@1d`), by name, each with its fingerprint
    /// (the same `Data` as the run's own series: range, bars, `candles_sha256`).
    public var otherSeries: [Data] = []
    /// Portfolios: the symbols, and the portfolio's settings (`PortfolioRules.parameters`).
    public var universe: [String] = []
    public var portfolio: [RunParameter] = []

    /// Lists `series` (`OtherSeriesReader.read`) as `otherSeries`.
    /// - Complexity: O(their bars) (it hashes them).
    public mutating func list(otherSeries series: [(name: String, candles: CandleSeries)]) {
        otherSeries = series.map { Data($0.candles, timeframe: SeriesName.split($0.name)?.1.rawValue) }
    }

    public init(commandLine: [String], strategy: String, data: Data? = nil, periodsPerYear: Double? = nil,
                parameters: [RunParameter], execution: [RunParameter]) {
        self.commandLine = commandLine; self.strategy = strategy; self.data = data
        self.periodsPerYear = periodsPerYear; self.parameters = parameters; self.execution = execution
    }

    /// The rows of the markdown table, unescaped: command, version, the data, periods per year,
    /// the sweep or screen settings, then every parameter and execution option. The command is
    /// shell-quoted, so it pastes back into a shell.
    public var rows: [(name: String, value: String)] {
        var rows: [(name: String, value: String)] = [
            ("command", commandLine.map(Markdown.shellQuoted).joined(separator: " ")),
            ("bt version", version),
        ]
        if !universe.isEmpty { rows.append(("symbols", universe.joined(separator: ", "))) }
        if let data {
            let range = data.range
            if universe.isEmpty { rows.append(("symbol", data.symbol)) }
            rows += [
                ("timeframe", data.timeframe ?? "unknown"),
                ("data range", range ?? "no bars"),
            ]
            if data.warmUpBars > 0, let first = data.warmUpFirst {
                rows.append(("warm-up", "\(data.warmUpBars) bars from \(UTCTime.iso(first)), read by the indicators only"))
            }
            rows += [
                ("bars", String(data.bars)),
                ("candles sha256", data.sha256),
            ]
        }
        rows += otherSeries.map { ("read \($0.name)", "\($0.bars) bars, \($0.range ?? "no bars"), sha256 \($0.sha256)") }
        if let periodsPerYear { rows.append(("periods per year", NumberText.shortest(periodsPerYear))) }
        if let symbols { rows.append(("symbols", String(symbols))) }
        if let rankStat { rows.append(("rank metric", rankStat.name)) }
        if let minTrades { rows.append(("min trades", String(minTrades))) }
        rows += grid.map { ("grid " + $0.name, $0.values.map(CSV.number).joined(separator: " ")) }
        if let search { rows.append(("search", search)) }
        if let filter { rows.append(("where", filter)) }
        rows += rules.map { ("rule " + $0.name, $0.text) }
        rows += parameters.map { ("parameter " + $0.name, $0.text) }
        rows += portfolio.map { ("portfolio " + $0.name, $0.text) }
        rows += execution.map { ("execution " + $0.name, $0.text) }
        return rows
    }

    /// Rows shown as inline code (and every `rule ...` row).
    static let codeRows: Set<String> = ["command", "candles sha256", "where"]

    /// The manifest as a two-column markdown table: every cell escaped (`Markdown.cell`), the
    /// command, hash and filter as inline code (`Markdown.code`).
    public var markdown: String {
        "| | |\n|---|---|\n" + rows.map { row in
            let code = Self.codeRows.contains(row.name) || row.name.hasPrefix("rule ")
            let value = code ? Markdown.code(row.value) : Markdown.cell(row.value)
            return "| \(Markdown.cell(row.name)) | \(value) |\n"
        }.joined()
    }

    /// The manifest as JSON object members: `strategy`, then `symbols` (portfolios), with data
    /// `symbol` (not for portfolios), `timeframe`; `rules` (`[{"role", "text"}]`, only for
    /// expression strategies), `params`, `portfolio` (portfolios), `execution`; with data
    /// `bars`, `first`, `last`, `candles_sha256` (and `warm_up_bars`, `warm_up_first` when bars
    /// before the first were read as warm-up); `other_series` (`[{"series", "bars", "first",
    /// "last", "candles_sha256"}]`, when the rules read any with `@`); `bt_version`;
    /// then whichever of `symbols`, `rank_metric`, `min_trades`, `grid`, `search`, `where` are set.
    /// The command line is left out, so `bt run --json` prints what `--out` writes to
    /// `stats.json`; so are the periods per year, which `stats` carries.
    public var jsonMembers: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [(key: "strategy", value: .string(strategy))]
        if !universe.isEmpty { members.append((key: "symbols", value: .array(universe.map { .string($0) }))) }
        if let data {
            if universe.isEmpty { members.append((key: "symbol", value: .string(data.symbol))) }
            members.append((key: "timeframe", value: data.timeframe.map { .string($0) } ?? .null))
        }
        if !rules.isEmpty {
            members.append((key: "rules", value: .array(rules.map { .object([(key: "role", value: .string($0.name)),
                                                                              (key: "text", value: $0.json)]) })))
        }
        members.append((key: "params", value: .object(parameters.map { (key: $0.name, value: $0.json) })))
        if !portfolio.isEmpty { members.append((key: "portfolio", value: .object(portfolio.map { (key: $0.name, value: $0.json) }))) }
        members.append((key: "execution", value: .object(execution.map { (key: $0.name, value: $0.json) })))
        if let data {
            members += [(key: "bars", value: .int(data.bars)),
                        (key: "first", value: data.first.map { .string(UTCTime.iso($0)) } ?? .null),
                        (key: "last", value: data.last.map { .string(UTCTime.iso($0)) } ?? .null),
                        (key: "candles_sha256", value: .string(data.sha256))]
            if data.warmUpBars > 0, let first = data.warmUpFirst {
                members += [(key: "warm_up_bars", value: .int(data.warmUpBars)), (key: "warm_up_first", value: .string(UTCTime.iso(first)))]
            }
        }
        if !otherSeries.isEmpty { members.append((key: "other_series", value: .array(otherSeries.map(\.seriesJSON)))) }
        members.append((key: "bt_version", value: .string(version)))
        if let symbols { members.append((key: "symbols", value: .int(symbols))) }
        if let rankStat { members.append((key: "rank_metric", value: .string(rankStat.name))) }
        if let minTrades { members.append((key: "min_trades", value: .int(minTrades))) }
        if !grid.isEmpty {
            members.append((key: "grid", value: .object(grid.map { (key: $0.name, value: .array($0.values.map { .number($0) })) })))
        }
        if let search { members.append((key: "search", value: .string(search))) }
        if let filter { members.append((key: "where", value: .string(filter))) }
        return members
    }
}
