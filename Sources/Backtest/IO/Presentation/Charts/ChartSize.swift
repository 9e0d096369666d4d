import BacktestAnalysis
import BacktestCore

/// The size of a text chart in terminal cells, and whether it may use colour.
///
/// The library never looks at the terminal: the caller resolves the size (the CLI from
/// `--width/--height`, the terminal, `COLUMNS`/`LINES` or 80x24) and passes the result here.
public struct ChartSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public static let fallback = ChartSize(width: 80, height: 24)
    /// The largest chart drawn: 1,000 columns by 500 rows (a canvas of half a million cells).
    public static let maximum = ChartSize(width: 1000, height: 500)

    public init(width: Int, height: Int) {
        self.width = width; self.height = height
    }

    /// Throws a clear `InputError` (setting `.chartWidth` or `.chartHeight`) for a width or
    /// height above `maximum`.
    public func checkMaximum() throws {
        if width > Self.maximum.width {
            throw InputError("a chart is at most \(Self.maximum.width) columns wide", setting: .chartWidth, value: String(width))
        }
        if height > Self.maximum.height {
            throw InputError("a chart is at most \(Self.maximum.height) rows high", setting: .chartHeight, value: String(height))
        }
    }

    /// Throws a clear `InputError` (kind `.needsSetting`, `.chartSize`) when the size is below what `chart` needs,
    /// or above `maximum`.
    func require(width minWidth: Int, height minHeight: Int, for chart: String) throws {
        try checkMaximum()
        guard width >= minWidth, height >= minHeight else {
            throw InputError(.needsSetting, "a \(chart) chart needs at least \(minWidth)x\(minHeight) cells, got \(width)x\(height)",
                             setting: .chartSize, value: "\(width)x\(height)")
        }
    }

    /// Throws when the y-axis labels leave fewer than 8 columns to plot in (labels of values as
    /// large as 1e200 are 200 characters wide).
    func requirePlotColumns(gutter: Int, for chart: String) throws {
        guard width - gutter >= 8 else {
            throw InputError(.needsSetting, "the y-axis labels of this \(chart) chart take \(gutter) of its \(width) columns",
                             setting: .chartWidth, value: String(width))
        }
    }
}

/// Options shared by every text chart.
public struct ChartStyle: Sendable, Equatable {
    /// Emit ANSI colour escapes; when false the output holds no 0x1B byte.
    public var color: Bool
    public init(color: Bool = false) { self.color = color }
}

/// Colours a chart may use, as ANSI SGR foreground codes.
enum ChartColor: UInt8, Sendable {
    case none = 0
    case red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36, white = 37
    case gray = 90
    // Heatmap ramp (256-colour palette): low to high.
    case ramp0 = 160, ramp1 = 202, ramp2 = 220, ramp3 = 148, ramp4 = 40

    var sgr: String {
        switch self {
        case .ramp0, .ramp1, .ramp2, .ramp3, .ramp4: return "\u{1B}[38;5;\(rawValue)m"
        default: return "\u{1B}[\(rawValue)m"
        }
    }

    /// Colours given to overlay lines in order.
    static let series: [ChartColor] = [.yellow, .cyan, .magenta, .blue, .white]
}
