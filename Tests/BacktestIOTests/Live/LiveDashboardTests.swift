import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestLive

/// `bt live`'s dashboard frame: exactly the terminal's rows, none wider than its columns, the
/// parts it promises, and no colour unless asked.
@Suite("Live dashboard frames")
struct LiveDashboardTests {
    static func status(bars: Int = 300, fills: Int = 2) -> LiveStatus {
        let series = Synth.series(symbol: "BTCUSDT", bars: bars, seed: 11, timeframe: .minute1)
        let mid = series.close.last ?? 100
        return LiveStatus(
            symbol: "BTCUSDT", interval: .minute1, connected: true, synced: true, messagesPerSecond: 1234.4, messages: 98_765,
            reconnects: 2, gaps: 1, bars: series, sessionStart: series.time[max(0, series.count - 20)],
            bids: (1...10).map { BookLevel(price: mid - Double($0) / 100, quantity: Double($0)) },
            asks: (1...10).map { BookLevel(price: mid + Double($0) / 100, quantity: Double(11 - $0)) },
            initialCash: 10_000, cash: 4_000, position: 60, equity: 10_150,
            fills: (0..<fills).map { JournalFill(time: series.time[series.count - 1 - $0], side: $0 % 2 == 0 ? .buy : .sell,
                                                 quantity: 60, vwap: mid, fee: 6) })
    }

    /// The frame's lines with escapes removed.
    static func visible(_ frame: String) -> [String] {
        frame.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        }
    }

    @Test("a frame fills the terminal exactly, at every size from the smallest", arguments: [(40, 24), (80, 30), (120, 40), (200, 60)])
    func size(_ size: (Int, Int)) {
        let (width, height) = size
        let indicators = [IndicatorSpec(.sma, 5), IndicatorSpec(.rsi, 14)]
        let frame = LiveDashboard.render(Self.status(), indicators: indicators, events: ["bar 1", "fill 2", "gap 3", "four"],
                                         width: width, height: height, color: true)
        let lines = Self.visible(frame)
        #expect(lines.count == height)
        for line in lines { #expect(line.count <= width, "\(line.count) > \(width): \(line)") }
    }

    @Test("the parts: connection and rate, position and PnL, the chart, the book with size bars, fills, the latest events")
    func parts() {
        let frame = LiveDashboard.render(Self.status(), indicators: [], events: (1...5).map { "event \($0)" },
                                         width: 120, height: 40, color: false)
        let lines = Self.visible(frame)
        #expect(lines[0].contains("bt live BTCUSDT 1m") && lines[0].contains("connected, book synced")
                && lines[0].contains("1234 msg/s") && lines[0].contains("reconnects 2") && lines[0].contains("gaps 1"))
        #expect(lines[1].contains("position 60") && lines[1].contains("equity 10150") && lines[1].contains("+150")
                && lines[1].contains("+1.50%"))
        #expect(lines.contains { $0.contains("BTCUSDT 1m") && $0.contains("close") }, "the chart's title")
        let book = lines.filter { $0.hasPrefix("bid ") }
        #expect(book.count == LiveDashboard.bookRows - 1)
        // Sizes as bars: the largest level shown has the longest bar.
        let bars = book.map { $0.split(separator: "│")[0].filter { $0 == "█" }.count }
        #expect(bars == bars.sorted(), "bid sizes grow with depth here: \(bars)")
        #expect(lines.contains { $0.hasPrefix("fills: ") && $0.contains("buy 60") })
        #expect(lines.suffix(3).joined().contains("event 5") && !lines.joined().contains("event 2"), "the three latest events")
        #expect(!frame.replacingOccurrences(of: "\u{1B}[K", with: "").contains("\u{1B}"), "no colour when not asked")
    }

    @Test("before the first bar and while reconnecting: no chart, no crash, the state said")
    func early() {
        var s = Self.status(bars: 1, fills: 0)
        s.connected = false
        s.bids = []
        s.asks = []
        let lines = Self.visible(LiveDashboard.render(s, indicators: [], events: [], width: 80, height: 24, color: true))
        #expect(lines.count == 24)
        #expect(lines[0].contains("reconnecting"))
        #expect(lines.contains { $0.hasPrefix("fills: none yet") })
    }
}
