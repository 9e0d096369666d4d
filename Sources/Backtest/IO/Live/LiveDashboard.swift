import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation
import Foundation

/// A live session's state as a dashboard draws it: a copy, so drawing never touches the
/// session.
package struct LiveStatus: Sendable {
    /// Bars a status carries (the chart's and its indicators' warm-up).
    package static let barsKept = 300
    /// Book levels a side a status carries.
    package static let levelsKept = 10

    package var symbol: String
    package var interval: Timeframe
    package var connected: Bool
    package var synced: Bool
    package var messagesPerSecond: Double
    package var messages: Int
    package var reconnects: Int
    package var gaps: Int
    /// The latest bars, the forming one last.
    package var bars: CandleSeries
    package var sessionStart: Int64
    package var bids: [BookLevel]
    package var asks: [BookLevel]
    package var initialCash: Double
    package var cash: Double
    package var position: Double
    package var equity: Double
    /// The latest fills reported.
    package var fills: [JournalFill]

    package init(symbol: String, interval: Timeframe, connected: Bool, synced: Bool, messagesPerSecond: Double, messages: Int,
                 reconnects: Int, gaps: Int, bars: CandleSeries, sessionStart: Int64, bids: [BookLevel], asks: [BookLevel],
                 initialCash: Double, cash: Double, position: Double, equity: Double, fills: [JournalFill]) {
        self.symbol = symbol; self.interval = interval; self.connected = connected; self.synced = synced
        self.messagesPerSecond = messagesPerSecond; self.messages = messages; self.reconnects = reconnects; self.gaps = gaps
        self.bars = bars; self.sessionStart = sessionStart; self.bids = bids; self.asks = asks; self.initialCash = initialCash
        self.cash = cash; self.position = position; self.equity = equity; self.fills = fills
    }
}

/// The terminal dashboard of `bt live`: a header (connection, message rate, reconnects, gaps),
/// the candle chart of the recent bars with the strategy's indicators, the top of the book
/// (bids and asks, sizes as bars), the position, equity and PnL since the start, the last fills
/// and the latest events. One frame is one string of exactly `height` lines of at most `width`
/// columns (plus colour escapes when asked), drawn from the cursor's home position.
package enum LiveDashboard {
    /// The rows the parts under the chart take.
    static let bookRows = 6

    /// - Parameters:
    ///   - indicators: the strategy's indicators, drawn over the candles or in panels.
    ///   - events: the latest event lines, newest last.
    package static func render(_ s: LiveStatus, indicators: [IndicatorSpec], events: [String], width: Int, height: Int,
                               color: Bool) -> String {
        let width = max(40, width), height = max(24, height)
        var lines: [String] = []
        let state = s.connected ? (s.synced ? "connected, book synced" : "connected, syncing the book") : "reconnecting"
        lines.append(fit("bt live \(s.symbol) \(s.interval.rawValue) · \(state) · \(Int(s.messagesPerSecond.rounded())) msg/s · "
                         + "\(s.messages) messages · reconnects \(s.reconnects) · gaps \(s.gaps)", width))
        let pnl = s.equity - s.initialCash
        lines.append(fit("position \(short(s.position)) · cash \(short(s.cash)) · equity \(short(s.equity)) · PnL "
                         + "\(pnl >= 0 ? "+" : "")\(short(pnl)) (" + String(format: "%+.2f%%", s.initialCash > 0 ? pnl / s.initialCash * 100 : 0)
                         + ") since \(UTCTime.iso(s.sessionStart))", width))
        // Under the chart: a blank row, then the book's title and rows, the fills, a blank row,
        // the latest events and a spare row.
        let footer = bookRows + 3 + min(3, events.count)
        let chartHeight = height - lines.count - 1 - footer
        if chartHeight >= CandleChart.minimumHeight, s.bars.count >= 2 {
            let shown = min(s.bars.count, max(10, width - 12))
            let recent = s.bars.slice(max(0, s.bars.count - shown)..<s.bars.count)
            let layers = (try? CandleChart.layers(for: indicators, on: s.bars, last: shown))
                ?? (candles: recent, overlays: [], panels: [])
            let panels = layers.panels.prefix(chartHeight >= CandleChart.minimumHeight + 5 ? 1 : 0)
            if let chart = try? CandleChart.render(layers.candles, overlays: layers.overlays, panels: Array(panels),
                                                   size: ChartSize(width: width, height: chartHeight), style: ChartStyle(color: color)) {
                lines += chart.split(separator: "\n", omittingEmptySubsequences: false).prefix(chartHeight).map(String.init)
            }
        }
        while lines.count < height - footer { lines.append("") }
        lines.append(fit("book (top \(bookRows - 1)):", width))
        lines += book(s, rows: bookRows - 1, width: width)
        lines.append(fit("fills: " + (s.fills.isEmpty ? "none yet" : s.fills.suffix(3).map {
            "\(UTCTime.iso($0.time)) \($0.side.rawValue) \(short($0.quantity)) at \(short($0.vwap))" }.joined(separator: "; ")), width))
        lines.append("")
        lines += events.suffix(3).map { fit($0, width) }
        while lines.count < height { lines.append("") }
        return lines.prefix(height).map { $0 + "\u{1B}[K" }.joined(separator: "\n")
    }

    /// Bids left, asks right: price, size, and the size as a bar scaled to the largest shown.
    static func book(_ s: LiveStatus, rows: Int, width: Int) -> [String] {
        let half = (width - 3) / 2
        let largest = (s.bids.prefix(rows) + s.asks.prefix(rows)).map(\.quantity).max() ?? 1
        func cell(_ level: BookLevel?, _ side: String) -> String {
            guard let level else { return String(repeating: " ", count: half) }
            let text = "\(side) \(short(level.price)) × \(short(level.quantity)) "
            let room = max(0, half - text.count)
            let bar = String(repeating: "█", count: Int((Double(room) * level.quantity / max(largest, 1e-300)).rounded()))
            return pad(text + bar, half)
        }
        return (0..<rows).map { k in
            cell(k < s.bids.count ? s.bids[k] : nil, "bid") + " │ " + cell(k < s.asks.count ? s.asks[k] : nil, "ask")
        }
    }

    static func short(_ x: Double) -> String {
        guard x.isFinite else { return "-" }
        return abs(x) >= 1e5 ? String(format: "%.0f", x) : String(format: "%.6g", x)
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
