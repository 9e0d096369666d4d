import BacktestCore

/// One indicator drawn on a report page: its spec, label, pane and output lines (the `indicators`
/// entries of docs/reference/report-html-schema.md). Built from an `IndicatorSpec` computed over the
/// chart's candles, or from lines computed elsewhere (an expression's indicator calls).
public struct ChartIndicator: Sendable {
    /// Where the lines are drawn.
    public enum Pane: String, Sendable {
        /// Over the candles, on the price scale.
        case price
        /// In a pane of its own below the price.
        case own
    }

    /// One output series.
    public struct Line: Sendable {
        /// bt's column name (`sma_20`, `macd_hist_12_26_9`): the tooltip's row key.
        public var name: String
        /// Legend and tooltip text.
        public var label: String
        /// One value per bar, NaN in the warm-up.
        public var values: [Double]
        /// Bars from zero instead of a line (the MACD histogram).
        public var isHistogram: Bool

        public init(name: String, label: String, values: [Double], isHistogram: Bool = false) {
            self.name = name; self.label = label; self.values = values; self.isHistogram = isHistogram
        }
    }

    /// The spec as users write it (`sma:20`); its name decides the page's default guides and range.
    public var spec: String
    /// Pane title (own panes) and the prefix of the line labels.
    public var label: String
    public var pane: Pane
    public var lines: [Line]
    /// Names of two lines whose area is tinted (Bollinger, Donchian).
    public var band: (upper: String, lower: String)?

    public init(spec: String, label: String, pane: Pane, lines: [Line], band: (upper: String, lower: String)? = nil) {
        self.spec = spec; self.label = label; self.pane = pane; self.lines = lines; self.band = band
    }

    /// The indicator on the last `count` bars only (computed over a longer series, drawn over
    /// its end).
    public func suffix(_ count: Int) -> ChartIndicator {
        var out = self
        out.lines = lines.map { var l = $0; l.values = Array(l.values.suffix(count)); return l }
        return out
    }

    /// `spec` computed over `candles` (`IndicatorSpec.compute(on:)`), columns named as
    /// `bt indicators` names them. Price-scale indicators (moving averages, bands, channels,
    /// VWAP) go over the candles, the others into their own pane.
    /// - Throws: `InputError` when the series is too short for the spec.
    public init(_ spec: IndicatorSpec, on candles: CandleSeries) throws {
        let outputs = try spec.compute(on: candles)
        let label = Self.title(spec)
        let columns = spec.columns
        var lines: [Line] = []
        for (k, values) in outputs.enumerated() {
            // Lines of a pane of their own sit under its title (`MACD 12, 26, 9`): their own
            // names say enough. Lines over the candles need the indicator and its parameters.
            let lineLabel: String
            switch spec.kind {
            case .macd: lineLabel = ["MACD", "Signal", "Histogram"][k]
            case .stoch: lineLabel = ["%K", "%D"][k]
            case .bb, .donchian: lineLabel = label + " " + ["upper", "middle", "lower"][k]
            default: lineLabel = label
            }
            lines.append(Line(name: columns[k], label: lineLabel, values: values, isHistogram: spec.kind == .macd && k == 2))
        }
        let onPrice: Set<IndicatorSpec.Kind> = [.sma, .ema, .wma, .bb, .donchian, .vwap]
        let band = spec.kind == .bb || spec.kind == .donchian ? (upper: columns[0], lower: columns[2]) : nil
        self.init(spec: spec.description, label: label, pane: onPrice.contains(spec.kind) ? .price : .own,
                  lines: lines, band: band)
    }

    /// `SMA 20`, `Bollinger 20, 2`, `MACD 12, 26, 9`, `OBV`.
    static func title(_ spec: IndicatorSpec) -> String {
        let names: [IndicatorSpec.Kind: String] = [
            .sma: "SMA", .ema: "EMA", .wma: "WMA", .rsi: "RSI", .macd: "MACD", .bb: "Bollinger", .atr: "ATR",
            .stoch: "Stochastic", .roc: "ROC", .obv: "OBV", .willr: "Williams %R", .cci: "CCI", .adx: "ADX",
            .stddev: "Std dev", .donchian: "Donchian", .vwap: "VWAP",
        ]
        let name = names[spec.kind] ?? spec.kind.rawValue
        return spec.parameters.isEmpty ? name : name + " " + spec.parameters.map(NumberText.shortest).joined(separator: ", ")
    }

    /// The same indicator over bars `range` only (for a chart cut to its last bars).
    public func slice(_ range: Range<Int>) -> ChartIndicator {
        var copy = self
        copy.lines = lines.map { var l = $0; l.values = Array($0.values[range]); return l }
        return copy
    }

    /// The schema's indicator object; values as `f64` arrays.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "spec", value: .string(spec)), (key: "label", value: .string(label)), (key: "pane", value: .string(pane.rawValue)),
            (key: "lines", value: .array(lines.map { line in
                var l: [(key: String, value: JSONValue)] = [(key: "name", value: .string(line.name)),
                                                             (key: "label", value: .string(line.label)),
                                                             (key: "values", value: PageData.f64(line.values))]
                if line.isHistogram { l.append((key: "style", value: .string("histogram"))) }
                return .object(l)
            })),
        ]
        if let band { members.append((key: "band", value: [.string(band.upper), .string(band.lower)])) }
        return .object(members)
    }
}
