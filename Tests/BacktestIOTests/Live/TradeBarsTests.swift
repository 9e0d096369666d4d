import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData

/// The one trade-to-bar aggregation: fed print by print (`bt live`), it gives the bars of
/// `bt data import --format trades` on the same prints.
@Suite("Trade bars")
struct TradeBarsTests {
    @Test("prints one at a time make the importer's bars", arguments: [Timeframe.minute1, .minute5, .hour1])
    func equalsImporter(timeframe: Timeframe) throws {
        var rng = SplitMix64(seed: 5)
        var ms: Int64 = 1_700_000_000_000
        var price = 100.0
        var prints: [TradePrint] = []
        for _ in 0..<5_000 {
            ms += Int64(rng.next() % 4_000) + (rng.next() % 100 == 0 ? 600_000 : 0)   // sometimes a long pause
            price *= 1 + (rng.unit() - 0.5) * 0.002
            prints.append(TradePrint(timeMs: ms, price: price, quantity: 0.001 + rng.unit(), side: rng.next() % 2 == 0 ? .buy : .sell))
        }
        let lines = prints.map { #"{"T":\#($0.timeMs),"p":"\#($0.price)","q":"\#($0.quantity)","m":\#($0.side == .sell)}"# }
        let imported = try TradesImporter.read(InputText(file: "t.jsonl", data: Array(lines.joined(separator: "\n").utf8)), timeframe: timeframe)
        var builder = TradeBarBuilder(timeframe: timeframe)
        var bars: [TradeBar] = []
        for p in prints { if let b = builder.add(p) { bars.append(b) } }
        if let b = builder.finish() { bars.append(b) }
        let s = imported.candles.series
        #expect(bars.count == s.count)
        #expect(bars.map(\.time) == s.time)
        #expect(bars.map(\.open) == s.open)
        #expect(bars.map(\.high) == s.high)
        #expect(bars.map(\.low) == s.low)
        #expect(bars.map(\.close) == s.close)
        #expect(bars.map(\.volume) == s.volume)
        #expect(bars.reduce(0) { $0 + $1.trades } == prints.count)
    }
}
