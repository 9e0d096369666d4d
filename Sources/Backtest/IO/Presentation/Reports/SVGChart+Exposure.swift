import BacktestCore

extension SVGChart {
    /// A portfolio's exposure over its positions: the share of equity invested (Σ |position
    /// value| / equity) at each bar's close, and the number of symbols held with K as a dashed
    /// line, on the portfolio clock.
    public static func exposure(_ p: PortfolioResult, title: String = "Exposure and positions", slots: Int? = nil) -> String {
        let n = p.time.count
        var c = SVGCanvas(width: width, height: 400)
        c.text(title, x: plotLeft, y: 18, size: 14, bold: true)
        let k = Double(slots ?? p.symbols.count)
        let legend: [LegendItem] = [.init(label: "Invested share of equity", color: Color.equity, kind: .area),
                                    .init(label: "Positions held", color: Color.profit, kind: .line),
                                    .init(label: "Max positions (K)", color: Color.bench, kind: .dashed)]
        let top = drawLegend(&c, legend, y: 38) + 8
        let exposurePane = Pane(top: top, height: 170)
        let countPane = Pane(top: exposurePane.bottom + 10, height: 120)
        let axisY = countPane.bottom + 16

        let exposure = p.time.indices.map { p.equity[$0] > 0 ? p.positionValue[$0] / p.equity[$0] : .nan }
        let counts = p.positions.map(Double.init)
        let exposureScale = ValueScale(values: [exposure, [0]], pane: exposurePane, ticks: 5, percent: true, includeZero: true)
        let countScale = ValueScale(values: [counts, [0, k]], pane: countPane, ticks: 4, includeZero: true)
        let right = width - max(exposureScale.labelWidth, countScale.labelWidth) - 14
        let x = XMap(uniform: n, left: plotLeft, right: right)

        for pane in [exposurePane, countPane] { c.rect(pane.box(left: plotLeft, right: right), fill: "none", stroke: Color.axis) }
        drawTimeGrid(&c, SVGAxis.timeTicks(p.time, width: right - plotLeft), x: x, panes: [exposurePane, countPane], axisY: axisY)
        drawValueAxis(&c, exposureScale, right: right)
        drawValueAxis(&c, countScale, right: right)

        for run in decimated(exposure, x: x, scale: exposureScale) where run.count > 1 {
            c.polygon([(run[0].x, exposureScale.y(0))] + run + [(run[run.count - 1].x, exposureScale.y(0))],
                      fill: Color.equity, opacity: 0.25)
        }
        c.polyline(decimated(exposure, x: x, scale: exposureScale), stroke: Color.equity, width: 1)
        c.line(plotLeft, countScale.y(k), right, countScale.y(k), stroke: Color.bench, dash: "4,3")
        c.polyline(decimated(counts, x: x, scale: countScale), stroke: Color.profit, width: 1.5)
        return c.svg
    }
}
