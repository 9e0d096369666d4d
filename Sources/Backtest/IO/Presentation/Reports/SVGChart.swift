import BacktestAnalysis
import BacktestCore
import Foundation

/// Static SVG charts for reports (GitHub shows them beside the markdown): the same colours as
/// `report.html`, round ticks with gridlines, dates along the time axis, legends in a row of
/// their own above the data, and labels placed where no other label is, drawn above every shape.
///
/// Long series are reduced to each pixel column's first, min, max and last points (spikes
/// survive, files stay small); long candle series are aggregated into calendar candles.
public enum SVGChart {
    static let width = 900.0
    static let plotLeft = 12.0

    /// Colours of `report.html`'s light theme.
    enum Color {
        static let fg = "#1b2230", muted = "#5f6b7a", grid = "#edf0f3", axis = "#c9cfd6", white = "#ffffff"
        static let up = "#089981", down = "#e0533d"
        static let profit = "#1f6fd1", loss = "#e8790c"
        static let equity = "#1f6fd1", bench = "#98a1ad", ddFill = "#e0533d", ddLine = "#c4462f", region = "#e0533d"
        static let fold = "#1f6fd1"
        static let indicators = ["#7b3fbf", "#d81b60", "#6d4c41", "#0097a7", "#9e9d24", "#546e7a"]
    }

    /// A walk-forward fold: its first bar and its label.
    public struct Fold: Sendable {
        public var start: Int
        public var label: String
        public init(start: Int, label: String) { self.start = start; self.label = label }
    }

    // MARK: - Equity

    /// Equity over drawdown: the strategy, buy and hold of the same candles, the peak and final
    /// value, and the deepest drawdown (depth and duration) shaded and labelled; with `folds`,
    /// the walk-forward fold boundaries and their labels.
    /// - Parameter drawdowns: the result's drawdowns (`Stats.drawdowns`), drawn as they are.
    public static func equity(_ result: BacktestResult, drawdowns: DrawdownEpisodes, title: String = "Equity and drawdown",
                              folds: [Fold] = []) -> String {
        equityCanvas(result, drawdowns: drawdowns, title: title, folds: folds).svg
    }

    static func equityCanvas(_ result: BacktestResult, drawdowns: DrawdownEpisodes, title: String, folds: [Fold] = []) -> SVGCanvas {
        let n = result.equity.count
        let time = result.candles.time
        let hasFolds = !folds.isEmpty
        var c = SVGCanvas(width: width, height: hasFolds ? 446 : 420)
        c.text(title, x: plotLeft, y: 18, size: 14, bold: true)
        let close = result.candles.close
        let bench: [Double] = close.first.map { c0 in c0 > 0 && c0.isFinite ? close.map { result.initialCash * $0 / c0 } : [] } ?? []
        var legend: [LegendItem] = [.init(label: "Strategy", color: Color.equity, kind: .line)]
        if !bench.isEmpty { legend.append(.init(label: "Buy & hold", color: Color.bench, kind: .dashed)) }
        let deepest = drawdowns.deepest
        if let deepest {
            let days = deepest.days
            let text = "Max drawdown " + SVGAxis.label(deepest.depth, step: 0.0001, percent: true)
                + ", \(deepest.end - deepest.peak) bars (" + SVGAxis.label(days, step: days < 10 ? 0.1 : 1) + " days)"
                + (deepest.recovered ? "" : ", not recovered")
            legend.append(.init(label: text, color: Color.region, kind: .area))
        }
        if hasFolds { legend.append(.init(label: "Walk-forward folds", color: Color.fold, kind: .dashed)) }
        let legendBottom = drawLegend(&c, legend, y: 38)
        let foldRow = legendBottom + 16
        let top = hasFolds ? foldRow + 8 : legendBottom + 8
        let equityPane = Pane(top: top, height: 238)
        let ddPane = Pane(top: equityPane.bottom + 10, height: 84)
        let axisY = ddPane.bottom + 16

        let dd = drawdowns.curve
        let equityScale = ValueScale(values: [result.equity, bench, [result.initialCash]], pane: equityPane, ticks: 7)
        let ddScale = ValueScale(values: [dd, [0]], pane: ddPane, ticks: 4, percent: true, includeZero: true)
        let right = width - max(equityScale.labelWidth, ddScale.labelWidth) - 14
        let x = XMap(uniform: n, left: plotLeft, right: right)
        if let note = thinningNote(bars: n, pixelColumns: right - plotLeft) {
            c.text(note, x: width - 10, y: 18, size: 10, anchor: .end, color: Color.muted)
        }

        for pane in [equityPane, ddPane] { c.rect(pane.box(left: plotLeft, right: right), fill: "none", stroke: Color.axis) }
        let ticks = SVGAxis.timeTicks(time, width: right - plotLeft)
        drawTimeGrid(&c, ticks, x: x, panes: [equityPane, ddPane], axisY: axisY)
        drawValueAxis(&c, equityScale, right: right)
        drawValueAxis(&c, ddScale, right: right)

        if let deepest {
            for pane in [equityPane, ddPane] {
                let box = SVGCanvas.Box(x: x.left(deepest.peak), y: pane.top, width: x.right(deepest.end) - x.left(deepest.peak),
                                        height: pane.height)
                c.rect(box, fill: Color.region, opacity: 0.08)
            }
        }
        for (k, fold) in folds.enumerated() where fold.start >= 0 && fold.start < n {
            let fx = x.left(fold.start)
            if k % 2 == 1 {
                let end = k + 1 < folds.count ? folds[k + 1].start : n
                let endX = end < n ? x.left(end) : x.right(n - 1)
                c.rect(SVGCanvas.Box(x: fx, y: equityPane.top, width: endX - fx, height: ddPane.bottom - equityPane.top),
                       fill: Color.fold, opacity: 0.06)
            }
            c.line(fx, equityPane.top, fx, ddPane.bottom, stroke: Color.fold, dash: "4,3")
        }

        if !bench.isEmpty { c.polyline(decimated(bench, x: x, scale: equityScale), stroke: Color.bench, width: 1, dash: "4,3") }
        c.polyline(decimated(result.equity, x: x, scale: equityScale), stroke: Color.equity, width: 1.5)
        c.line(plotLeft, ddScale.y(0), right, ddScale.y(0), stroke: Color.axis)
        for run in decimated(dd, x: x, scale: ddScale) where run.count > 1 {
            c.polygon([(run[0].x, ddScale.y(0))] + run + [(run[run.count - 1].x, ddScale.y(0))], fill: Color.ddFill, opacity: 0.3)
        }
        c.polyline(decimated(dd, x: x, scale: ddScale), stroke: Color.ddLine, width: 1)

        // Labels, most important first: each takes the first free spot around its point.
        let equityBounds = equityPane.box(left: plotLeft, right: right)
        if let finalValue = result.equity.last, finalValue.isFinite, n > 0 {
            let change = result.totalReturn
            let text = "Final " + SVGAxis.label(finalValue, step: 0.01) + " (" + (change >= 0 ? "+" : "")
                + SVGAxis.label(change, step: 0.0001, percent: true) + ")"
            annotate(&c, text, at: (x.center(n - 1), equityScale.y(finalValue)), color: Color.equity, within: equityBounds)
        }
        if let peak = result.equity.indices.max(by: { !(result.equity[$0] >= result.equity[$1]) }), n > 1,
           result.equity[peak] > result.initialCash, peak < n - 1 {
            annotate(&c, "Peak " + SVGAxis.label(result.equity[peak], step: 0.01),
                     at: (x.center(peak), equityScale.y(result.equity[peak])), color: Color.equity, within: equityBounds)
        }
        if let deepest {
            annotate(&c, SVGAxis.label(deepest.depth, step: 0.0001, percent: true),
                     at: (x.center(deepest.trough), ddScale.y(deepest.depth)), color: Color.ddLine,
                     within: ddPane.box(left: plotLeft, right: right), preferBelow: false)
        }
        for fold in folds where fold.start >= 0 && fold.start < n {
            let fx = x.left(fold.start) + 3
            let bounds = SVGCanvas.Box(x: plotLeft, y: foldRow - 14, width: right - plotLeft, height: 22)
            var text = fold.label
            while !text.isEmpty {
                if let spot = c.place(text, candidates: [(fx, foldRow, .start)], size: 10, within: bounds) {
                    c.text(text, x: spot.x, y: spot.y, size: 10, color: Color.fold)
                    break
                }
                // Shorten to the step's name when the full label does not fit before the next fold.
                let short = text.components(separatedBy: ":").first ?? ""
                text = short == text ? "" : short
            }
        }
        return c
    }

    // MARK: - Price

    /// Candles (calendar candles when there are more bars than room), the indicators drawn on
    /// the price scale, trades from entry to exit coloured by profit (blue) or loss (orange)
    /// with entry and exit markers, and volume below.
    public static func price(_ candles: CandleSeries, trades: [Trade], indicators: [ChartIndicator] = [],
                             title: String? = nil) -> String {
        priceCanvas(candles, trades: trades, indicators: indicators, title: title).svg
    }

    static func priceCanvas(_ candles: CandleSeries, trades: [Trade], indicators: [ChartIndicator] = [],
                            title: String? = nil) -> SVGCanvas {
        var c = SVGCanvas(width: width, height: 470)
        let n = candles.count
        let overlays = indicators.filter { $0.pane == .price }
        let groups = CandleGroups(candles, maxGroups: Int((width - 90) / 4))
        var heading = title ?? candles.symbol
        if let tf = candles.timeframe?.rawValue { heading += " " + tf }
        c.text(heading, x: plotLeft, y: 18, size: 14, bold: true)
        if let tf = groups.timeframe, tf != candles.timeframe {
            c.text("candles: \(tf.rawValue) (\(PageData.grouped(n)) bars aggregated)", x: width - 10, y: 18, size: 10,
                   anchor: .end, color: Color.muted)
        }
        var legend: [LegendItem] = [.init(label: "Up", color: Color.up, kind: .area), .init(label: "Down", color: Color.down, kind: .area)]
        for (k, ind) in overlays.enumerated() {
            legend.append(.init(label: ind.label, color: Color.indicators[k % Color.indicators.count], kind: .line))
        }
        if !trades.isEmpty {
            legend += [.init(label: "Trade won", color: Color.profit, kind: .dashed), .init(label: "Trade lost", color: Color.loss, kind: .dashed),
                       .init(label: "Entry", color: Color.fg, kind: .up), .init(label: "Exit", color: Color.fg, kind: .down)]
        }
        let legendBottom = drawLegend(&c, legend, y: 38)
        let pricePane = Pane(top: legendBottom + 8, height: 470 - legendBottom - 8 - 84 - 22)
        let volumePane = Pane(top: pricePane.bottom + 8, height: 76)
        let axisY = volumePane.bottom + 16
        let hasVolume = candles.volume.contains { $0 > 0 }

        var priceValues = [groups.low, groups.high]
        for ind in overlays { priceValues += ind.lines.map(\.values) }
        priceValues += [trades.map(\.entryPrice), trades.map(\.exitPrice)]
        let priceScale = ValueScale(values: priceValues, pane: pricePane, ticks: 9)
        let volumeScale = ValueScale(values: [groups.volume, [0]], pane: volumePane, ticks: 2, includeZero: true, compact: true,
                                     padding: 0.08)
        let right = width - max(priceScale.labelWidth, hasVolume ? volumeScale.labelWidth : 0) - 14
        let x = XMap(groups: groups, left: plotLeft, right: right)

        c.rect(pricePane.box(left: plotLeft, right: right), fill: "none", stroke: Color.axis)
        if hasVolume { c.rect(volumePane.box(left: plotLeft, right: right), fill: "none", stroke: Color.axis) }
        drawTimeGrid(&c, SVGAxis.timeTicks(candles.time, width: right - plotLeft), x: x,
                     panes: hasVolume ? [pricePane, volumePane] : [pricePane], axisY: hasVolume ? axisY : pricePane.bottom + 16)
        drawValueAxis(&c, priceScale, right: right)
        if hasVolume { drawValueAxis(&c, volumeScale, right: right) }

        // Bands under everything else, then candles, volume, indicator lines and trades.
        for (k, ind) in overlays.enumerated() {
            guard let band = ind.band, let upper = ind.lines.first(where: { $0.name == band.upper }),
                  let lower = ind.lines.first(where: { $0.name == band.lower }) else { continue }
            let color = Color.indicators[k % Color.indicators.count]
            for (top, bottom) in zip(columnRuns(upper.values, x: x, scale: priceScale), columnRuns(lower.values, x: x, scale: priceScale))
            where top.count > 1 && top.count == bottom.count {
                c.polygon(top + bottom.reversed(), fill: color, opacity: 0.07)
            }
        }
        drawCandles(&c, groups, x: x, scale: priceScale)
        if hasVolume {
            var upPath = "", downPath = ""
            let w = max(1, x.slot * 0.7)
            for g in 0..<groups.count where groups.volume[g] > 0 {
                let y = volumeScale.y(groups.volume[g])
                let rect = "M\(SVGCanvas.f(x.groupCenter(g) - w / 2)),\(SVGCanvas.f(volumePane.bottom))V\(SVGCanvas.f(y))h\(SVGCanvas.f(w))V\(SVGCanvas.f(volumePane.bottom))Z"
                if groups.close[g] >= groups.open[g] { upPath += rect } else { downPath += rect }
            }
            c.path(upPath, fill: Color.up, opacity: 0.4)
            c.path(downPath, fill: Color.down, opacity: 0.4)
        }
        for (k, ind) in overlays.enumerated() {
            let color = Color.indicators[k % Color.indicators.count]
            for line in ind.lines {
                let dashed = ind.band.map { line.name == $0.upper || line.name == $0.lower } ?? false
                c.polyline(decimated(line.values, x: x, scale: priceScale), stroke: color, width: 1.2, dash: dashed ? "4,3" : nil)
            }
        }
        for t in trades where t.entryIndex >= 0 && t.entryIndex < n && t.exitIndex >= t.entryIndex && t.exitIndex < n {
            let color = t.pnl >= 0 ? Color.profit : Color.loss
            let x0 = x.center(t.entryIndex), x1 = x.center(t.exitIndex)
            let y0 = priceScale.y(t.entryPrice), y1 = priceScale.y(t.exitPrice)
            c.line(x0, y0, x1, y1, stroke: color, width: 1.4, dash: "4,2")
            let long = t.side == .long
            c.polygon(triangle(x0, y0, up: long), fill: color, stroke: Color.white)
            if !t.isOpen { c.polygon(triangle(x1, y1, up: !long), fill: color, stroke: Color.white) }
        }
        return c
    }

    /// A marker triangle whose tip is at (x, y): pointing up sits below the price, down above it.
    private static func triangle(_ x: Double, _ y: Double, up: Bool) -> [(x: Double, y: Double)] {
        up ? [(x, y), (x - 4.5, y + 8), (x + 4.5, y + 8)] : [(x, y), (x - 4.5, y - 8), (x + 4.5, y - 8)]
    }

    private static func drawCandles(_ c: inout SVGCanvas, _ g: CandleGroups, x: XMap, scale: ValueScale) {
        var upBodies = "", downBodies = "", upWicks = "", downWicks = ""
        let body = x.slot * 0.7
        for k in 0..<g.count where g.open[k].isFinite && g.close[k].isFinite {
            let cx = x.groupCenter(k)
            let up = g.close[k] >= g.open[k]
            let wick = "M\(SVGCanvas.f(cx)),\(SVGCanvas.f(scale.y(g.high[k])))V\(SVGCanvas.f(scale.y(g.low[k])))"
            if up { upWicks += wick } else { downWicks += wick }
            guard body >= 1.5 else { continue }
            let yTop = scale.y(max(g.open[k], g.close[k])), yBottom = scale.y(min(g.open[k], g.close[k]))
            let rect = "M\(SVGCanvas.f(cx - body / 2)),\(SVGCanvas.f(yTop))h\(SVGCanvas.f(body))V\(SVGCanvas.f(max(yBottom, yTop + 0.8)))h\(SVGCanvas.f(-body))Z"
            if up { upBodies += rect } else { downBodies += rect }
        }
        c.path(upWicks, stroke: Color.up, width: 1)
        c.path(downWicks, stroke: Color.down, width: 1)
        c.path(upBodies, fill: Color.up)
        c.path(downBodies, fill: Color.down)
    }

    // MARK: - Layout pieces

    /// A horizontal band of the chart holding one pane.
    struct Pane {
        var top: Double
        var height: Double
        var bottom: Double { top + height }
        func box(left: Double, right: Double) -> SVGCanvas.Box { SVGCanvas.Box(x: left, y: top, width: right - left, height: height) }
    }

    /// Values to y positions in a pane, over round ticks.
    struct ValueScale {
        let lo: Double, hi: Double
        let pane: Pane
        let ticks: [Double]
        let step: Double
        let percent: Bool
        let compact: Bool

        /// The range of every finite value of `values` (plus 6% padding, or none) with ticks.
        init(values: [[Double]], pane: Pane, ticks count: Int, percent: Bool = false, includeZero: Bool = false,
             compact: Bool = false, padding: Double = 0.06) {
            var lo = Double.infinity, hi = -Double.infinity
            for series in values { for v in series where v.isFinite { lo = min(lo, v); hi = max(hi, v) } }
            if !lo.isFinite { lo = 0; hi = 1 }
            if includeZero { lo = min(lo, 0); hi = max(hi, 0) }
            if hi == lo { let pad = lo == 0 ? 1 : abs(lo) * 0.01; lo -= pad; hi += pad }
            let pad = (hi - lo) * padding
            self.lo = includeZero && lo == 0 ? 0 : lo - pad
            self.hi = includeZero && hi == 0 ? 0 : hi + pad
            self.pane = pane
            let t = SVGAxis.ticks(self.lo, self.hi, count: count)
            self.ticks = t.values
            self.step = t.step
            self.percent = percent
            self.compact = compact
        }

        func y(_ v: Double) -> Double { pane.top + (hi - v) / (hi - lo) * pane.height }

        func label(_ v: Double) -> String {
            guard compact, abs(v) >= 1000 else { return SVGAxis.label(v, step: step, percent: percent) }
            for (divisor, suffix) in [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")] where abs(v) >= divisor {
                return SVGAxis.label(v / divisor, step: step / divisor) + suffix
            }
            return SVGAxis.label(v, step: step)
        }

        var labelWidth: Double { ticks.map { SVGCanvas.textWidth(label($0), size: 10) }.max() ?? 20 }
    }

    /// Bar index to x: bars spread evenly (or within their candle group), so gaps such as
    /// weekends take no room.
    struct XMap {
        let left: Double
        let slot: Double
        /// For aggregated candles: each bar's group, and the group's first bar and size.
        let groupOf: [Int]?
        let groupStart: [Int]
        let groupSize: [Int]

        init(uniform n: Int, left: Double, right: Double) {
            self.left = left
            slot = (right - left) / Double(max(1, n))
            groupOf = nil; groupStart = []; groupSize = []
        }

        init(groups: CandleGroups, left: Double, right: Double) {
            self.left = left
            slot = (right - left) / Double(max(1, groups.count))
            groupOf = groups.groupOf
            groupStart = groups.start
            groupSize = groups.size
        }

        /// Left edge of bar `i`'s room.
        func left(_ i: Int) -> Double {
            guard let groupOf else { return left + Double(i) * slot }
            let g = groupOf[i]
            return left + (Double(g) + Double(i - groupStart[g]) / Double(groupSize[g])) * slot
        }

        func right(_ i: Int) -> Double {
            guard let groupOf else { return left + Double(i + 1) * slot }
            let g = groupOf[i]
            return left + (Double(g) + Double(i - groupStart[g] + 1) / Double(groupSize[g])) * slot
        }

        func center(_ i: Int) -> Double { (left(i) + right(i)) / 2 }

        func groupCenter(_ g: Int) -> Double { left + (Double(g) + 0.5) * slot }
    }

    /// Candles merged into calendar buckets (first open, max high, min low, last close, summed
    /// volume): the finest timeframe, from the series' own up, that leaves at most `maxGroups`
    /// candles; bars of an unknown timeframe merge by count.
    struct CandleGroups {
        var timeframe: Timeframe?
        var start: [Int] = [], size: [Int] = [], groupOf: [Int] = []
        var open: [Double] = [], high: [Double] = [], low: [Double] = [], close: [Double] = [], volume: [Double] = []
        var count: Int { start.count }

        init(_ candles: CandleSeries, maxGroups: Int) {
            let n = candles.count
            let own = candles.timeframe ?? Timeframe.infer(from: candles.time)
            timeframe = own
            var key: (Int) -> Int64 = { Int64($0) }
            if n > maxGroups {
                if let own, let tf = Timeframe.allCases.first(where: { $0 >= own && Self.buckets(candles.time, $0) <= maxGroups }) {
                    timeframe = tf
                    key = { tf.bucketStart(candles.time[$0]) }
                } else {
                    timeframe = nil
                    let per = (n + maxGroups - 1) / maxGroups
                    key = { Int64($0 / per) }
                }
            }
            groupOf = [Int](repeating: 0, count: n)
            var i = 0
            while i < n {
                let k = key(i)
                var j = i + 1
                var h = candles.high[i], l = candles.low[i], v = candles.volume[i]
                while j < n && key(j) == k { h = max(h, candles.high[j]); l = min(l, candles.low[j]); v += candles.volume[j]; j += 1 }
                for b in i..<j { groupOf[b] = start.count }
                start.append(i); size.append(j - i)
                open.append(candles.open[i]); high.append(h); low.append(l); close.append(candles.close[j - 1]); volume.append(v)
                i = j
            }
        }

        static func buckets(_ time: [Int64], _ tf: Timeframe) -> Int {
            var count = 0, last: Int64?
            for t in time { let b = tf.bucketStart(t); if b != last { count += 1; last = b } }
            return count
        }
    }

    /// One entry of a legend row.
    struct LegendItem {
        enum Kind { case line, dashed, area, up, down }
        var label: String
        var color: String
        var kind: Kind
    }

    /// Draws `items` left to right from the plot's left edge with their baseline at `y`,
    /// wrapping to a new row when the width runs out; returns the last row's bottom.
    static func drawLegend(_ c: inout SVGCanvas, _ items: [LegendItem], y: Double) -> Double {
        var x = plotLeft, row = y
        for item in items {
            let w = 22 + SVGCanvas.textWidth(item.label, size: 11)
            if x + w > width - 10 && x > plotLeft { x = plotLeft; row += 16 }
            let mid = row - 4
            switch item.kind {
            case .line: c.line(x, mid, x + 16, mid, stroke: item.color, width: 2)
            case .dashed: c.line(x, mid, x + 16, mid, stroke: item.color, width: 2, dash: "4,2")
            case .area: c.rect(SVGCanvas.Box(x: x + 2, y: mid - 5, width: 12, height: 10), fill: item.color, opacity: 0.6)
            case .up: c.polygon(triangle(x + 8, mid - 5, up: true), fill: item.color)
            case .down: c.polygon(triangle(x + 8, mid + 4, up: false), fill: item.color)
            }
            c.text(item.label, x: x + 20, y: row, size: 11, color: Color.muted)
            x += w + 12
        }
        return row + 4
    }

    /// Vertical gridlines and date labels at `ticks` (skipping a label that would touch the one
    /// before it).
    static func drawTimeGrid(_ c: inout SVGCanvas, _ ticks: [SVGAxis.TimeTick], x: XMap, panes: [Pane], axisY: Double) {
        for tick in ticks {
            let tx = x.left(tick.index)
            for pane in panes { c.line(tx, pane.top, tx, pane.bottom, stroke: Color.grid) }
            let box = SVGCanvas.textBox(tick.text, x: tx, y: axisY, size: 10, anchor: .middle)
            if c.isFree(box, gap: 4) && box.x >= 0 && box.maxX <= c.width {
                c.text(tick.text, x: tx, y: axisY, size: 10, anchor: .middle, color: Color.muted)
                c.line(tx, axisY - 12, tx, axisY - 9, stroke: Color.axis)
            }
        }
    }

    /// Horizontal gridlines at the scale's ticks, labels right of the plot.
    static func drawValueAxis(_ c: inout SVGCanvas, _ scale: ValueScale, right: Double) {
        for t in scale.ticks {
            let y = scale.y(t)
            c.line(plotLeft, y, right, y, stroke: t == 0 && scale.lo < 0 ? Color.axis : Color.grid)
            let box = SVGCanvas.textBox(scale.label(t), x: right + 6, y: y + 3.5, size: 10)
            if box.y >= scale.pane.top - 6 && box.maxY <= scale.pane.bottom + 6 && c.isFree(box, gap: 1) {
                c.text(scale.label(t), x: right + 6, y: y + 3.5, size: 10, color: Color.muted)
            }
        }
    }

    /// A marker at `point` and `text` on a white box beside it: the first free spot among right,
    /// left, above and below (flipped vertically with `preferBelow`).
    static func annotate(_ c: inout SVGCanvas, _ text: String, at point: (x: Double, y: Double), color: String,
                         within bounds: SVGCanvas.Box, preferBelow: Bool = true) {
        guard point.x.isFinite, point.y.isFinite else { return }
        c.circle(point.x, point.y, r: 3, fill: color, stroke: Color.white)
        let below = point.y + 16, above = point.y - 9
        let rows = preferBelow ? [below, above, point.y + 4, below + 14, above - 14] : [above, below, point.y + 4, above - 14, below + 14]
        var candidates: [(x: Double, y: Double, anchor: SVGCanvas.Anchor)] = []
        for y in rows { candidates += [(point.x - 8, y, .end), (point.x + 8, y, .start)] }
        candidates += [(bounds.maxX - 6, bounds.y + 14, .end), (bounds.x + 6, bounds.y + 14, .start),
                       (bounds.maxX - 6, bounds.maxY - 6, .end), (bounds.x + 6, bounds.maxY - 6, .start)]
        if let spot = c.place(text, candidates: candidates, size: 11, within: bounds) {
            c.text(text, x: spot.x, y: spot.y, size: 11, anchor: spot.anchor, color: color, bold: true, background: Color.white)
        }
    }

    // MARK: - Lines

    /// What the chart says when `decimated` thins its lines: more bars than pixel columns, so
    /// some column draws several bars (its first, lowest, highest and last); nil otherwise.
    static func thinningNote(bars: Int, pixelColumns: Double) -> String? {
        Double(bars) > pixelColumns
            ? "\(PageData.grouped(bars)) bars, thinned: each pixel column keeps its lowest and highest" : nil
    }

    /// `values` as runs of points (broken at undefined values), each pixel column reduced to its
    /// first, lowest, highest and last point in bar order.
    static func decimated(_ values: [Double], x: XMap, scale: ValueScale) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        var column = Int.min
        var picks: [Int] = []
        func flush() {
            guard let first = picks.first, let last = picks.last else { return }
            var lo = first, hi = first
            for i in picks { if values[i] < values[lo] { lo = i }; if values[i] > values[hi] { hi = i } }
            var keep = [first]
            for i in [lo, hi, last].sorted() where !keep.contains(i) { keep.append(i) }
            for i in keep { current.append((x.center(i), scale.y(values[i]))) }
            picks = []
        }
        for i in values.indices {
            guard values[i].isFinite else {
                flush()
                if !current.isEmpty { runs.append(current); current = [] }
                column = Int.min
                continue
            }
            let col = Int(x.center(i).rounded(.down))
            if col != column { flush(); column = col }
            picks.append(i)
        }
        flush()
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// `values` as runs sampled at the last bar of each pixel column (for band outlines, which
    /// must pair up point for point).
    static func columnRuns(_ values: [Double], x: XMap, scale: ValueScale) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        for i in values.indices {
            guard values[i].isFinite else {
                if !current.isEmpty { runs.append(current); current = [] }
                continue
            }
            let point = (x: x.center(i), y: scale.y(values[i]))
            if let last = current.last, Int(last.x.rounded(.down)) == Int(point.x.rounded(.down)) {
                current[current.count - 1] = point
            } else {
                current.append(point)
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    static func escape(_ s: String) -> String { HTML.escaped(s) }
}
