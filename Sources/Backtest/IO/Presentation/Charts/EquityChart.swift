import BacktestAnalysis
import BacktestCore
import Foundation

/// Equity curve over a drawdown panel, with date labels.
public enum EquityChart {
    public static let minimumWidth = 30
    public static let minimumHeight = 8

    /// Renders the equity line (top, about two thirds of the rows) and the drawdown from the
    /// running peak in percent (bottom), sharing one x axis of dates.
    /// - Parameters:
    ///   - equity: per-bar equity; NaN draws a gap.
    ///   - initial: the starting cash, the first peak for the drawdown.
    /// - Throws: `InputError` when `size` is below 30x8.
    public static func render(time: [Int64], equity: [Double], initial: Double, size: ChartSize,
                              style: ChartStyle = ChartStyle(), title: String = "Equity") throws -> String {
        try render(time: time, equity: equity, initial: initial, drawdown: DrawdownEpisodes.curve(equity: equity, initial: initial),
                   size: size, style: style, title: title)
    }

    /// The same chart with the drawdown already computed (`DrawdownEpisodes.curve`, the
    /// statistics' own, as a negative fraction per bar).
    public static func render(time: [Int64], equity: [Double], initial: Double, drawdown curve: [Double], size: ChartSize,
                              style: ChartStyle = ChartStyle(), title: String = "Equity") throws -> String {
        try drawing(time: time, equity: equity, initial: initial, drawdown: curve, size: size, style: style, title: title).text
    }

    /// `render`'s chart with how it was drawn: its braille dot columns, each spanning its bars'
    /// lowest to highest value when there are more bars than dot columns (`ChartDrawing.note`).
    public static func drawing(time: [Int64], equity: [Double], initial: Double, drawdown curve: [Double], size: ChartSize,
                               style: ChartStyle = ChartStyle(), title: String = "Equity") throws -> ChartDrawing {
        precondition(time.count == equity.count && curve.count == equity.count, "time, equity and drawdown must have the same length")
        try size.require(width: minimumWidth, height: minimumHeight, for: "equity")
        var canvas = Canvas(width: size.width, height: size.height)
        let drawdown = curve.indices.map { equity[$0].isFinite ? curve[$0] * 100 : .nan }
        let body = size.height - 2
        let ddRows = max(2, body / 3)
        let eqRows = body - ddRows
        let range = LinePlot.range([equity]) ?? (initial, initial)
        let eqScale = YScale(min: range.min, max: range.max, rows: eqRows)
        let ddRange = LinePlot.range([drawdown]) ?? (0, 0)
        let ddScale = YScale(min: ddRange.min, max: 0, rows: ddRows, suffix: "%")
        let gutter = max(eqScale.labelWidth, ddScale.labelWidth) + 1
        try size.requirePlotColumns(gutter: gutter, for: "equity")
        let columns = size.width - gutter
        let top = PlotPanel(x: 0, y: 1, gutter: gutter, columns: columns, rows: eqRows)
        let bottom = PlotPanel(x: 0, y: 1 + eqRows, gutter: gutter, columns: columns, rows: ddRows)

        let finite = equity.filter(\.isFinite)
        var header = title
        if let first = finite.first, let last = finite.last {
            header += "  " + String(format: "%.2f -> %.2f", first, last)
            header += "  max drawdown \(ddScale.format(ddRange.min))"
        }
        canvas.text(0, 0, header)
        top.drawAxis(eqScale, into: &canvas)
        top.line(equity, scale: eqScale, color: .green, into: &canvas)
        bottom.drawAxis(ddScale, into: &canvas)
        bottom.line(drawdown, scale: ddScale, color: .red, into: &canvas)
        TimeAxis.draw(into: &canvas, time: time, x: top.plotX, y: size.height - 1, columns: columns, dotsPerColumn: 2)
        return ChartDrawing(text: canvas.render(color: style.color), bars: equity.count, columns: 2 * columns,
                            keeps: "spans its bars' lowest to highest value")
    }
}
