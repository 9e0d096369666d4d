import BacktestAnalysis
import BacktestCore
import BacktestData

/// The outputs of a condition screen: `screen.csv` (one row per symbol checked), `screen.md`
/// (manifest, matches, failures) and the `--json` object.
public struct ConditionScreenReport {
    public var screen: ConditionScreen
    public var rows: [ConditionScreen.Row]
    public var commandLine: [String]
    /// Parameters the expressions use (`--param`).
    public var parameters: [RunParameter]
    /// The time looked at (`--at`), nil for each symbol's last bar.
    public var at: Int64?
    /// Stored symbols left out and series read resampled, with why (`CandleStore.seriesNotes`).
    public var seriesNotes: [SeriesNote] = []

    public init(screen: ConditionScreen, rows: [ConditionScreen.Row], commandLine: [String],
                parameters: [RunParameter] = [], at: Int64? = nil) {
        self.screen = screen; self.rows = rows; self.commandLine = commandLine
        self.parameters = parameters; self.at = at
    }

    /// The shown expressions as written: the column names and JSON keys of their values.
    public var showNames: [String] { screen.shows.map(\.text) }

    public var matches: [ConditionScreen.Row] { rows.filter { $0.status == .match } }
    public var errors: [ConditionScreen.Row] { rows.filter { $0.status == .error } }

    /// `{"checked": N, "matches": [{"symbol", "timeframe", "time", "values": {"<show>": v}}],
    /// "errors": [{"symbol", "error"}]}`: numbers as numbers, conditions as booleans,
    /// undefined values as null. `checked` counts every symbol, errors included. Then `skipped`
    /// and `resampled` (`[{"series", "reason"}]`), each only when the screen has such series.
    public var json: JSONValue {
        let matches = self.matches.map { row -> JSONValue in
            .object([
                (key: "symbol", value: .string(row.symbol)),
                (key: "timeframe", value: row.timeframe.map { .string($0) } ?? .null),
                (key: "time", value: row.time.map { .string(UTCTime.iso($0)) } ?? .null),
                (key: "values", value: .object(zip(showNames, values(of: row)).map { (key: $0, value: $1) })),
            ])
        }
        let errors = self.errors.map { row -> JSONValue in
            .object([(key: "symbol", value: .string(row.symbol)), (key: "error", value: .string(row.error ?? ""))])
        }
        return .object([(key: "checked", value: .int(rows.count)), (key: "matches", value: .array(matches)),
                        (key: "errors", value: .array(errors))] + SeriesNote.json(seriesNotes))
    }

    /// A row's shown values as JSON: numbers, booleans for conditions, null when undefined.
    func values(of row: ConditionScreen.Row) -> [JSONValue] {
        zip(screen.showTypes, row.values).map { type, v in
            guard v.isFinite else { return .null }
            return type == .condition ? .bool(v == 1) : .number(v)
        }
    }

    /// A shown value as text: shortest number, `true`/`false`, empty when undefined.
    func text(_ v: Double, _ type: ExpressionType) -> String {
        guard v.isFinite else { return "" }
        return type == .condition ? (v == 1 ? "true" : "false") : NumberText.shortest(v)
    }

    /// One row per symbol in the order checked: `symbol,timeframe,time,status,error` then one
    /// column per shown expression (headed by its text).
    public func csv() -> String {
        var out = CSV.row(["symbol", "timeframe", "time", "status", "error"] + showNames.map(CSV.text))
        for row in rows {
            let shown = zip(screen.showTypes, row.values).map { type, v in
                type == .condition ? text(v, type) : CSV.number(v)
            }
            out += CSV.row([CSV.text(row.symbol), CSV.text(row.timeframe ?? ""), row.time.map(UTCTime.iso) ?? "",
                            row.status.rawValue, CSV.text(row.error ?? "")]
                           + (row.status == .error ? showNames.map { _ in "" } : shown))
        }
        return out
    }

    public var manifest: RunManifest {
        var m = RunManifest(commandLine: commandLine, strategy: "condition screen", parameters: parameters, execution: [])
        m.symbols = rows.count
        m.rules = [RunParameter("where", .string(screen.condition.text))]
            + screen.shows.map { RunParameter("show", .string($0.text)) }
        m.list(otherSeries: screen.other?.read ?? [])
        return m
    }

    /// The table rows for terminals and `screen.md`: header, then one row per match.
    public var matchTable: [[String]] {
        [["symbol", "timeframe", "time"] + showNames] + matches.map { row in
            [row.symbol, row.timeframe ?? "", row.time.map(UTCTime.iso) ?? ""]
                + zip(screen.showTypes, row.values).map { text($1, $0) }
        }
    }

    /// `N of M symbols match` with the place looked at.
    public var headline: String {
        let place = at.map { "at or before \(UTCTime.iso($0))" } ?? "on their last bar"
        return "\(matches.count) of \(rows.count) symbols match \(screen.condition.text) \(place)"
            + (errors.isEmpty ? "" : " (\(errors.count) could not be checked)")
    }

    public func markdown() -> String {
        var md = "# Condition screen\n\n## Run\n\n" + manifest.markdown
        if let at { md += "| at | \(UTCTime.iso(at)) |\n" }
        md += "\n## Matches\n\n\(headline).\n\n"
        let table = matchTable
        if table.count > 1 {
            md += "| " + table[0].map(Markdown.cell).joined(separator: " | ") + " |\n"
            md += "|" + String(repeating: "---|", count: table[0].count) + "\n"
            for r in table.dropFirst() { md += "| " + r.map(Markdown.cell).joined(separator: " | ") + " |\n" }
        }
        if !errors.isEmpty {
            md += "\n## Could not be checked\n\n| symbol | why |\n|---|---|\n"
            for row in errors { md += "| \(Markdown.cell(row.symbol)) | \(Markdown.cell(row.error ?? "")) |\n" }
        }
        md += SeriesNote.markdown(seriesNotes)
        md += "\nEvery symbol checked, with its status and shown values, is in `screen.csv`.\n"
        return md
    }
}
