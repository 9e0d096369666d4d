import BacktestAnalysis
import BacktestCore
import Foundation

/// The human report of `bt calibrate`.
package enum CalibrationText {
    package static func render(_ r: DepthCalibration.Result, events: Int, candles: CandleSeries?, trades: Int) -> String {
        let p = r.profile
        func g(_ v: Double?, _ digits: Int = 4) -> String { v.map { Format.fixed($0, digits) } ?? "n/a" }
        var s = "\(p.symbol) depth profile from \(events) book events, \(UTCTime.isoMs(r.firstMs)) .. \(UTCTime.isoMs(r.lastMs))\n"
        s += "calibration window \(UTCTime.isoMs(r.firstMs)) .. \(UTCTime.isoMs(r.splitMs)): \(r.samples) samples \(r.sampleSpacingMs / 1000) s apart"
        s += candles == nil ? ", no candles stored\n" : ", \(r.volumeBars) bars\n"
        s += "tick \(p.tick.map(NumberText.shortest) ?? "n/a"); spread median \(g(p.spreadBps)) bps, p90 \(g(p.spreadP90Bps)) bps\n"
        s += "depth within x bps of the mid: bid Q(x) = \(g(p.bid.a)) x^\(g(p.bid.b)), ask Q(x) = \(g(p.ask.a)) x^\(g(p.ask.b))\n"
        s += "depth against bar volume: rank correlation \(g(p.volumeRankCorrelation, 3))\n"
        if trades == 0 {
            s += "refill half-life: n/a (no trade prints stored; import the trades with 'bt data import --format trades')\n"
        } else {
            s += "refill half-life: " + (p.refillHalfLifeSeconds.map { Format.fixed($0, 3) + " s" } ?? "n/a")
                + " (\(r.sweepsUsed) of \(r.sweeps) taker sweeps moved the reference cost by half a tick or more)\n"
        }
        guard let h = p.holdout else {
            return s + "holdout: none (no held-out bars)\n"
        }
        s += "\nheld out from \(UTCTime.isoMs(r.splitMs)): \(r.holdoutBars) bars, cost of market orders in bps against the mid\n"
        var rows = [["size", "predicted buy", "true buy (median)", "predicted sell", "true sell (median)",
                     "median |error|", "p90 |error|"]]
        for (k, size) in h.sizes.enumerated() {
            rows.append([NumberText.shortest(size), g(r.predictedBuyBps[k], 3), g(r.trueMedianBuyBps[k], 3),
                         g(r.predictedSellBps[k], 3), g(r.trueMedianSellBps[k], 3),
                         g(h.medianAbsErrorBps[k], 3), g(h.p90AbsErrorBps[k], 3)])
        }
        return s + TextTable.render(rows, rightAligned: Set(0..<7))
    }
}
