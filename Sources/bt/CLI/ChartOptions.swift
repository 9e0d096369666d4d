import Backtest

/// `--width`, `--height`, `--color`: for every command that draws a text chart.
enum ChartOptions {
    static let all: [Option] = [.width, .height, .color]
}

extension ParsedArguments {
    /// Chart size: `--width/--height`, else the terminal's size, else `COLUMNS`/`LINES`, else 80x24,
    /// each dimension on its own.
    func chartSize() throws -> ChartSize {
        let terminal = Environment.terminalSize(1)
        func resolve(_ option: Option, _ env: String, _ fromTerminal: Int?, _ fallback: Int) throws -> Int {
            if let v = try int(option) {
                guard v > 0 else { throw UsageError("\(option) must be positive", command: command.name) }
                return v
            }
            // The terminal and the environment cannot ask for more than the largest chart.
            if let t = fromTerminal { return min(t, option == .width ? ChartSize.maximum.width : ChartSize.maximum.height) }
            if let text = Environment.value(env), let v = Int(text), v > 0 {
                return min(v, option == .width ? ChartSize.maximum.width : ChartSize.maximum.height)
            }
            return fallback
        }
        let size = ChartSize(width: try resolve(.width, "COLUMNS", terminal?.columns, ChartSize.fallback.width),
                             height: try resolve(.height, "LINES", terminal?.rows, ChartSize.fallback.height))
        try size.checkMaximum()
        return size
    }

    /// Colour from `--color always|never|auto`; auto means stdout is a terminal and NO_COLOR is unset.
    func chartStyle() throws -> ChartStyle {
        switch value(.color) ?? "auto" {
        case "always": return ChartStyle(color: true)
        case "never": return ChartStyle(color: false)
        case "auto": return .automatic
        case let other:
            throw UsageError("\(Option.color): '\(other)' is not one of always, never, auto", command: command.name)
        }
    }
}

extension ChartStyle {
    /// Colour when stdout is a terminal and NO_COLOR is unset: `--color auto`, and the rule for
    /// commands without `--color`.
    static var automatic: ChartStyle { ChartStyle(color: Environment.colorAllowed(1)) }
}
