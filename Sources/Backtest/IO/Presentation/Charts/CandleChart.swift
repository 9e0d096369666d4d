import BacktestAnalysis
import BacktestCore
import Foundation

/// Candlesticks with volume, overlays and an optional oscillator panel.
public enum CandleChart {
    /// A line drawn over the candles on the price scale (SMA, EMA, a Bollinger band).
    public struct Overlay: Sendable {
        public var name: String
        public var values: [Double]
        public init(name: String, values: [Double]) { self.name = name; self.values = values }
    }

    /// A panel under the candles with its own scale: RSI, MACD and the like.
    public struct Panel: Sendable {
        public var name: String
        public var lines: [Overlay]
        /// Fixed scale bounds (RSI: 0...100); nil fits the data.
        public var range: ClosedRange<Double>?
        /// Dotted reference lines (RSI: 30 and 70; MACD: 0).
        public var guides: [Double]
        public init(name: String, lines: [Overlay], range: ClosedRange<Double>? = nil, guides: [Double] = []) {
            self.name = name; self.lines = lines; self.range = range; self.guides = guides
        }
    }

    public static let minimumWidth = 30
    public static let minimumHeight = 10

    /// Renders `candles` in one column per bucket of bars (OHLC-merged: first open, max high,
    /// min low, last close), bodies and wicks in half-cell glyphs (two price steps per row,
    /// as cli-candlestick-chart), volume below in eighth blocks, overlays as braille lines under
    /// the candles, then `panels`, then dates.
    /// - Throws: `InputError` when `size` is below 30x10 (plus 5 rows per panel).
    /// - Complexity: O(n + width x height).
    public static func render(_ candles: CandleSeries, overlays: [Overlay] = [], panels: [Panel] = [],
                              size: ChartSize, style: ChartStyle = ChartStyle()) throws -> String {
        try drawing(candles, overlays: overlays, panels: panels, size: size, style: style).text
    }

    /// `render`'s chart with how it was drawn: one candle per column, merging its bars when there
    /// are more bars than columns (`ChartDrawing.note`).
    public static func drawing(_ candles: CandleSeries, overlays: [Overlay] = [], panels: [Panel] = [],
                               size: ChartSize, style: ChartStyle = ChartStyle()) throws -> ChartDrawing {
        try size.require(width: minimumWidth, height: minimumHeight + 5 * panels.count, for: "candlestick")
        for o in overlays + panels.flatMap(\.lines) {
            precondition(o.values.count == candles.count, "\(o.name) must have one value per candle")
        }
        var canvas = Canvas(width: size.width, height: size.height)
        let body = size.height - 2
        let volumeRows = max(2, body / 8)
        let panelRows = panels.isEmpty ? 0 : max(5, body / 4)
        let priceRows = body - volumeRows - panelRows * panels.count
        guard priceRows >= 3 else {
            throw InputError(.needsSetting, "a candlestick chart with \(panels.count) panel(s) needs more than \(size.height) rows",
                             setting: .chartHeight, value: String(size.height))
        }

        // Price scale covers highs, lows and overlays.
        var lo = Double.infinity, hi = -Double.infinity
        for i in 0..<candles.count where candles.low[i].isFinite && candles.high[i].isFinite {
            lo = min(lo, candles.low[i]); hi = max(hi, candles.high[i])
        }
        if let r = LinePlot.range(overlays.map(\.values)) { lo = min(lo, r.min); hi = max(hi, r.max) }
        if !(hi >= lo) { lo = 0; hi = 1 }
        let priceScale = YScale(min: lo, max: hi, rows: priceRows)
        let panelScales = panels.map { p -> YScale in
            let r = p.range.map { ($0.lowerBound, $0.upperBound) } ?? LinePlot.range(p.lines.map(\.values)).map { ($0.min, $0.max) } ?? (0, 1)
            return YScale(min: r.0, max: r.1, rows: panelRows - 1)
        }
        let gutter = ([priceScale.labelWidth] + panelScales.map(\.labelWidth)).max()! + 1
        try size.requirePlotColumns(gutter: gutter, for: "candlestick")
        let columns = size.width - gutter
        let price = PlotPanel(x: 0, y: 1, gutter: gutter, columns: columns, rows: priceRows)

        // Title with the legend of overlays.
        var x = 0
        func title(_ s: String, _ c: ChartColor = .none) { canvas.text(x, 0, s, c); x += s.count + 2 }
        title(candles.symbol + (candles.timeframe.map { " " + $0.rawValue } ?? ""))
        if let last = candles.close.last { title("close " + String(format: "%.6g", last)) }
        for (k, o) in overlays.enumerated() {
            title(o.name + Self.legendSample(k, of: overlays.count, style: style), ChartColor.series[k % ChartColor.series.count])
        }

        price.drawAxis(priceScale, into: &canvas)
        for (k, o) in overlays.enumerated() {
            price.line(o.values, scale: priceScale, color: ChartColor.series[k % ChartColor.series.count],
                       marker: Self.marker(k, style: style), into: &canvas)
        }
        let map = ColumnMap(count: candles.count, slots: columns)
        drawCandles(candles, map: map, panel: price, scale: priceScale, into: &canvas)
        drawVolume(candles.volume, map: map, x: price.plotX, y: 1 + priceRows, rows: volumeRows, into: &canvas)
        canvas.rightAligned(price.plotX - 1, 1 + priceRows + volumeRows - 1, "vol")

        for (k, p) in panels.enumerated() {
            let top = 1 + priceRows + volumeRows + k * panelRows
            var px = price.plotX
            canvas.text(px, top, p.name)
            px += p.name.count + 2
            for (j, l) in p.lines.enumerated() where l.name != p.name {
                let label = l.name + Self.legendSample(j, of: p.lines.count, style: style)
                canvas.text(px, top, label, ChartColor.series[j % ChartColor.series.count]); px += label.count + 2
            }
            let panel = PlotPanel(x: 0, y: top + 1, gutter: gutter, columns: columns, rows: panelRows - 1)
            panel.drawAxis(panelScales[k], into: &canvas)
            for g in p.guides { panel.gridLine(at: g, scale: panelScales[k], into: &canvas) }
            for (j, l) in p.lines.enumerated() {
                panel.line(l.values, scale: panelScales[k], color: ChartColor.series[j % ChartColor.series.count],
                           marker: Self.marker(j, style: style), into: &canvas)
            }
        }
        TimeAxis.draw(into: &canvas, time: candles.time, x: price.plotX, y: size.height - 1, columns: columns, dotsPerColumn: 1)
        return ChartDrawing(text: canvas.render(color: style.color), bars: candles.count, columns: columns,
                            keeps: "a candle of its bars (first open, highest high, lowest low, last close)")
    }

    /// Glyph for a cell whose upper and lower halves are empty (0), wick (1) or body (2).
    private static let glyphs: [[Unicode.Scalar]] = [
        [" ", "╷", "╻"],
        ["╵", "│", "╽"],
        ["╹", "╿", "┃"],
    ]

    private static func drawCandles(_ c: CandleSeries, map: ColumnMap, panel: PlotPanel, scale: YScale, into canvas: inout Canvas) {
        let halves = panel.rows * 2
        var slots = [UInt8](repeating: 0, count: halves)
        c.open.withUnsafeBufferPointer { open in
        c.high.withUnsafeBufferPointer { high in
        c.low.withUnsafeBufferPointer { low in
        c.close.withUnsafeBufferPointer { close in
            for col in 0..<map.slots {
                let range = map.points(in: col)
                guard !range.isEmpty else { continue }
                var h = -Double.infinity, l = Double.infinity
                var o = Double.nan, cl = Double.nan
                for i in range where high[i].isFinite && low[i].isFinite && open[i].isFinite && close[i].isFinite {
                    if o.isNaN { o = open[i] }
                    h = max(h, high[i]); l = min(l, low[i]); cl = close[i]
                }
                guard !o.isNaN else { continue }
                for k in 0..<halves { slots[k] = 0 }
                let wickTop = scale.position(h, steps: halves), wickBottom = scale.position(l, steps: halves)
                for k in wickTop...max(wickTop, wickBottom) { slots[k] = 1 }
                let bodyTop = scale.position(max(o, cl), steps: halves), bodyBottom = scale.position(min(o, cl), steps: halves)
                for k in bodyTop...max(bodyTop, bodyBottom) { slots[k] = 2 }
                let color: ChartColor = cl >= o ? .green : .red
                for r in 0..<panel.rows where slots[2 * r] != 0 || slots[2 * r + 1] != 0 {
                    canvas.set(panel.plotX + col, panel.y + r, glyphs[Int(slots[2 * r])][Int(slots[2 * r + 1])], color, layer: .candle)
                }
            }
        }}}}
    }

    private static let eighths: [Unicode.Scalar] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Volume per column (bucket sum) as bars in eighth blocks, scaled to the largest column.
    private static func drawVolume(_ volume: [Double], map: ColumnMap, x: Int, y: Int, rows: Int, into canvas: inout Canvas) {
        var sums = [Double](repeating: 0, count: map.slots)
        volume.withUnsafeBufferPointer { v in
            for col in 0..<map.slots { for i in map.points(in: col) where v[i].isFinite { sums[col] += v[i] } }
        }
        guard let top = sums.max(), top > 0 else { return }
        for col in 0..<map.slots where sums[col] > 0 {
            // At least one eighth for any traded bucket.
            let eighthsTall = max(1, Int((sums[col] / top * Double(rows * 8)).rounded()))
            for r in 0..<rows {
                let fill = eighthsTall - r * 8
                guard fill > 0 else { break }
                canvas.set(x + col, y + rows - 1 - r, eighths[min(8, fill) - 1], .gray, layer: .candle)
            }
        }
    }

    /// Without colour, lines after the first are drawn as these glyphs (in turn), so two
    /// overlays (`sma(10)`, `sma(30)`) or a panel's lines can be told apart.
    static let markers: [Unicode.Scalar] = ["•", "×", "+", "∘"]

    /// The glyph line `k` is drawn with: nil (braille) for the first line or with colour.
    static func marker(_ k: Int, style: ChartStyle) -> Unicode.Scalar? {
        style.color || k == 0 ? nil : markers[(k - 1) % markers.count]
    }

    /// What the legend shows after line `k`'s name without colour when there are several lines.
    static func legendSample(_ k: Int, of count: Int, style: ChartStyle) -> String {
        guard !style.color, count > 1 else { return "" }
        return " " + (marker(k, style: style).map { String(Character($0)) } ?? "⠒")
    }

}
