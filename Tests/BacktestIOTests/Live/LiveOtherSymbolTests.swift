import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestLive

/// A live session's rules that read another symbol with `@` (`close@OTHER`): close by close,
/// the trader reports the fills and the warnings of one batch run over everything stored (what
/// the replay, `bt run`, computes), the batch aligning the other symbol by its as-of join on
/// close times and its staleness (its bar length, or `--max-stale`). The other symbol's minutes
/// skip now and then, by up to four minutes (so its value goes stale), and its bars reach the
/// feed as the session makes them final: each before the session's bar closing at the same time
/// is decided, some sooner (its stream ahead of the session's). Then the ordering of the two
/// streams (`LiveOtherSymbol`): when the other symbol's bars are final, from trades or klines.
@Suite("Live paper trader: rules reading another symbol")
struct LiveOtherSymbolTests {
    /// The stored series of the run's symbol and of OTHER, resampled, as `CandleStore.load` gives them.
    struct Stored: OtherSeriesSource {
        var own: CandleSeries
        var other: CandleSeries
        func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
            switch symbol {
            case own.symbol: own.resampled(to: timeframe)
            case other.symbol: other.resampled(to: timeframe)
            default: nil
            }
        }
        func keys() throws -> [String] { ["\(own.symbol)@1m", "\(other.symbol)@1m"] }
    }

    /// OTHER's minutes from `from` to `to` (UTC s), a random walk; a minute skipped now and then,
    /// and now and then three or four.
    static func other(seed: UInt64, from: Int64, to: Int64) -> CandleSeries {
        var rng = SplitMix64(seed: seed)
        var s = CandleSeries(symbol: "OTHER", timeframe: .minute1)
        var price = 50.0
        var t = from
        while t <= to {
            let o = (price * 100).rounded() / 100
            price = max(1, price * (1 + (rng.unit() - 0.5) / 40))
            let c = (price * 100).rounded() / 100
            s.append(time: t, open: o, high: max(o, c) + Double(rng.next() % 20) / 100, low: min(o, c) - Double(rng.next() % 20) / 100,
                     close: c, volume: 1 + rng.unit() * 9)
            let r = rng.next() % 12
            t += (r == 0 ? 4 : r == 1 ? 2 : 1) * 60
        }
        return s
    }

    @Test("fills and warnings close by close equal the batch run's, stale values and --max-stale included",
          arguments: [nil, Int64(180)])
    func fillsEqualTheBatch(_ maxStale: Int64?) throws {
        let strategy = try Strategy.expressions([
            .entry: "close@OTHER > sma(close, 3)@OTHER and close > open or close@OTHER@5m > open@OTHER@5m",
            .exit: "close@OTHER < ema(close, 4)@OTHER or trade_return > 0.004",
        ])
        let parameters = try strategy.parameters([])
        var total = 0, unaligned = 0
        for (name, config) in LivePaperTraderTests.configs {
            for seed in UInt64(1)...4 {
                let s = LivePaperTraderTests.stream(seed: seed &* 7_919 &+ UInt64(name.count), historyBars: 40, sessionBars: 60)
                let all = LivePaperTraderTests.bars(s)
                let other = Self.other(seed: seed &+ 99, from: all.time[0] - 300, to: all.time[all.count - 1] + 300)
                let start = s.session.time[0]
                let history = other.slice(0..<other.lowerBound(of: start))
                let source = try LiveOtherSeries(symbol: "TEST", interval: .minute1, history: s.history, others: ["OTHER": history],
                                                 store: nil, maxStale: maxStale)
                let feed = try #require(source.feeds["OTHER"])
                var trader = try LivePaperTrader(history: s.history, startTime: start, events: [s.first], config: config,
                                                 strategy: strategy.following(source), parameters: parameters)
                var rng = SplitMix64(seed: seed)
                var fed = history.count
                var events = s.events.flatMap { $0 }
                let early = events.prefix { $0.timeMs <= start * 1000 }
                trader.append(Array(early))
                events.removeFirst(early.count)
                var live: [Fill] = []
                for k in 0..<s.session.count {
                    // OTHER's bars closing by this bar's close are final first; sometimes one or two after it too.
                    let close = s.session.time[k] + 60 + Int64(rng.next() % 3) * 60 * Int64(rng.next() % 2)
                    while fed < other.count, other.time[fed] + 60 <= close {
                        feed.append(other[bar: fed])
                        fed += 1
                    }
                    let next = k + 1 < s.session.count ? s.session.time[k + 1] : nil
                    let due = next.map { n in events.prefix { $0.timeMs <= n * 1000 } } ?? events[...]
                    trader.append(Array(due))
                    events.removeFirst(due.count)
                    trader.append(TradeBar(time: s.session.time[k], open: s.session.open[k], high: s.session.high[k],
                                           low: s.session.low[k], close: s.session.close[k], volume: s.session.volume[k], trades: 1))
                    live += try trader.step(opening: next.map { (time: $0, price: s.session.open[k + 1]) })
                }
                live += try trader.step(opening: nil)
                // The store after the session: OTHER's bars up to the session's last close (later ones are not read).
                let stored = other.slice(0..<fed)
                let batch = try LivePaperTraderTests.batchResult(
                    s, config: config, strategy: (strategy.reading(OtherSeriesReader(Stored(own: all, other: stored), maxStale: maxStale)),
                                                  parameters))
                #expect(live == batch.fills, "\(name), seed \(seed)")
                #expect(trader.lastResult?.warnings == batch.warnings, "\(name), seed \(seed)")
                total += batch.fills.count
                unaligned += batch.warnings.filter { $0.message.contains("no closed OTHER@1m bar") }.count
            }
        }
        #expect(total >= 20, "the streams should trade (\(total) fills)")
        // Gaps of up to three minutes: stale after one (its bar length), never within --max-stale 3m.
        #expect(maxStale == nil ? unaligned >= 1 : unaligned == 0, "bars without OTHER's value: \(unaligned) warnings")
    }

    static func trade(_ id: Int64, _ iso: String, _ price: Double) -> StreamTrade {
        let ms = UTCTime.parseISO(Substring(iso))! * 1000 + 500
        return StreamTrade(id: id, eventMs: ms, timeMs: ms, price: price, quantity: 1, buyerIsMaker: false)
    }

    @Test("another symbol's bar closing at T is final once its stream passes T, else from its kline when the session settles T")
    func ordering() throws {
        let t0 = UTCTime.parseISO("2024-03-15T10:00:00Z")!
        let minute: Int64 = 60
        var history = CandleSeries(symbol: "OTHER", timeframe: .minute1)
        history.append(time: t0 - minute, open: 1, high: 1, low: 1, close: 1, volume: 1)
        let feed = OtherBarFeed(symbol: "OTHER", timeframe: .minute1, history: history)
        var other = LiveOtherSymbol(feed: feed)
        var asked: [(Int64, Int64)] = []
        func klines(_ from: Int64, _ to: Int64) -> CandleSeries {
            asked.append((from, to))
            var s = CandleSeries(symbol: "OTHER", timeframe: .minute1)
            var t = from
            while t <= to { s.append(time: t, open: 9, high: 9, low: 9, close: 9, volume: 9); t += 60 }
            return s
        }
        #expect(other.hasPassed(t0), "the stored bar closing at 10:00 is final")
        // The first trade's bar may have missed trades before it: its kline, when it closes.
        other.receive(Self.trade(1, "2024-03-15T10:00:30Z", 2), klines: klines)
        other.receive(Self.trade(2, "2024-03-15T10:01:05Z", 3), klines: klines)
        #expect(asked.count == 1 && asked[0] == (t0, t0))
        other.receive(Self.trade(3, "2024-03-15T10:01:40Z", 4), klines: klines)
        #expect(!other.hasPassed(t0 + 2 * minute), "10:01's bar is forming: a bar closing at 10:02 waits for it")
        #expect(feed.lastTime == t0)
        other.receive(Self.trade(4, "2024-03-15T10:02:00Z", 5), klines: klines)
        #expect(other.hasPassed(t0 + 2 * minute))
        #expect(feed.bars(from: 1, closingBy: .max).map(\.close) == [9, 4], "10:00 from its kline, 10:01 from its trades")
        #expect(asked.count == 1)
        // The stream is quiet past 10:04: the session settles it, 10:02 and 10:03 from klines.
        other.settle(through: t0 + 4 * minute, klines: klines)
        #expect(asked.count == 2 && asked[1] == (t0 + 2 * minute, t0 + 3 * minute))
        #expect(feed.bars(from: 3, closingBy: .max).map(\.time) == [t0 + 2 * minute, t0 + 3 * minute])
        #expect(other.hasPassed(t0 + 4 * minute))
        other.receive(Self.trade(5, "2024-03-15T10:03:30Z", 6), klines: klines)
        #expect(other.lateTrades == 1, "a trade of a settled bar is late")
        // Trades missed (ids 7 and 8, between 10:04:10 and 10:05:10): the bars they may have been
        // in come from klines when they close.
        other.receive(Self.trade(6, "2024-03-15T10:04:10Z", 6), klines: klines)
        other.receive(Self.trade(9, "2024-03-15T10:05:10Z", 7), klines: klines)
        other.receive(Self.trade(10, "2024-03-15T10:06:10Z", 8), klines: klines)
        #expect(asked.count == 4 && asked[2] == (t0 + 4 * minute, t0 + 4 * minute) && asked[3] == (t0 + 5 * minute, t0 + 5 * minute))
        #expect(feed.bars(from: 5, closingBy: .max).map(\.close) == [9, 9], "10:04 and 10:05 missed trades: their klines")
        let written = other.takeUnwritten()
        #expect(written.time == (0..<6).map { t0 + Int64($0) * minute })
        #expect(other.takeUnwritten().isEmpty)
        // The end: the bar forming is final as it stands.
        other.finish()
        #expect(feed.lastTime == t0 + 6 * minute)
        #expect(other.takeUnwritten().close == [8])
    }
}
