import Foundation
import Testing
import TestSupport
@testable import BacktestPresentation

/// The SVG charts draw a long series reduced per pixel column (`SVGChart.decimated`): each
/// column keeps its first, lowest, highest and last bar, so a spike survives however many bars
/// share the column. Checked on random series, with undefined values breaking the line.
@Suite("SVG charts keep every column's extremes")
struct SVGDecimationTests {
    struct Point: Hashable { var x: Double, y: Double }

    @Test("every pixel column's lowest and highest value is drawn, and only the column's own bars", arguments: 1...12)
    func extremesKept(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let n = Int.random(in: 50...30_000, using: &rng)
        var values: [Double] = [], v = 100.0
        for _ in 0..<n {
            v += Double.random(in: -1...1, using: &rng)
            // Rare spikes (the extremes thinning must not lose) and rare gaps.
            let spike = Double.random(in: 0..<1, using: &rng) < 0.002 ? Double.random(in: -40...40, using: &rng) : 0
            values.append(Double.random(in: 0..<1, using: &rng) < 0.001 ? .nan : v + spike)
        }
        let width = Double(Int.random(in: 40...900, using: &rng))
        let x = SVGChart.XMap(uniform: n, left: 60, right: 60 + width)
        let scale = SVGChart.ValueScale(values: [values], pane: SVGChart.Pane(top: 10, height: 300), ticks: 5)
        let runs = SVGChart.decimated(values, x: x, scale: scale)
        let drawn = Set(runs.joined().map { Point(x: $0.x, y: $0.y) })
        var bars = Set<Point>()
        // The bars of each column, split where a value is undefined, as the line is.
        var column: [Int] = []
        func check() {
            guard let lo = column.min(by: { values[$0] < values[$1] }), let hi = column.max(by: { values[$0] < values[$1] }) else { return }
            // Bools, so a failure prints the bar, not every drawn point.
            let lowDrawn = drawn.contains(Point(x: x.center(lo), y: scale.y(values[lo])))
            let highDrawn = drawn.contains(Point(x: x.center(hi), y: scale.y(values[hi])))
            #expect(lowDrawn, "seed \(seed): low of bar \(lo) dropped")
            #expect(highDrawn, "seed \(seed): high of bar \(hi) dropped")
            column = []
        }
        for i in values.indices {
            guard values[i].isFinite else { check(); continue }
            if let last = column.last, Int(x.center(last).rounded(.down)) != Int(x.center(i).rounded(.down)) { check() }
            column.append(i)
            bars.insert(Point(x: x.center(i), y: scale.y(values[i])))
        }
        check()
        let onlyBars = drawn.isSubset(of: bars)
        #expect(onlyBars, "seed \(seed): a drawn point is no bar's")
        // Thinned: at most four points a column (n bars over width pixels).
        #expect(drawn.count <= 4 * (Int(width) + 2) + 4 * values.filter(\.isNaN).count)
    }
}
