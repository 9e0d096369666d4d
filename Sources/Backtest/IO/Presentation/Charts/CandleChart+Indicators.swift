import BacktestAnalysis
import BacktestCore

extension CandleChart {
    /// Chart layers for indicator specs: price-scale indicators (sma, ema, wma, bb, donchian,
    /// vwap) become overlays; the rest get a panel each, with fixed ranges and guide lines where
    /// the indicator has them (rsi and stoch 0...100 with 30/70 and 20/80, willr -100...0 with
    /// -80/-20, adx 0...100, macd and roc around 0).
    ///
    /// Indicators are computed on all of `candles` and then cut to the last `last` bars, so the
    /// visible values have their full warm-up.
    /// - Throws: `InputError` for bad indicator parameters.
    public static func layers(for specs: [IndicatorSpec], on candles: CandleSeries, last: Int? = nil) throws
        -> (candles: CandleSeries, overlays: [Overlay], panels: [Panel]) {
        let start = last.map { max(0, candles.count - $0) } ?? 0
        var overlays = [Overlay](), panels = [Panel]()
        for spec in specs {
            let outputs = try spec.compute(on: candles).map { Array($0[start...]) }
            let lines = zip(spec.columns, outputs).map { Overlay(name: $0.0, values: $0.1) }
            switch spec.kind {
            case .sma, .ema, .wma, .bb, .donchian, .vwap:
                overlays += lines
            case .rsi:
                panels.append(Panel(name: spec.columns[0], lines: lines, range: 0...100, guides: [30, 70]))
            case .stoch:
                panels.append(Panel(name: spec.description, lines: lines, range: 0...100, guides: [20, 80]))
            case .willr:
                panels.append(Panel(name: spec.columns[0], lines: lines, range: -100...0, guides: [-80, -20]))
            case .adx:
                panels.append(Panel(name: spec.columns[0], lines: lines, range: 0...100, guides: [25]))
            case .macd, .roc:
                panels.append(Panel(name: spec.description, lines: lines, guides: [0]))
            case .atr, .obv, .cci, .stddev:
                panels.append(Panel(name: spec.columns[0], lines: lines, guides: spec.kind == .cci ? [-100, 100] : []))
            }
        }
        return (candles.slice(start..<candles.count), overlays, panels)
    }
}
