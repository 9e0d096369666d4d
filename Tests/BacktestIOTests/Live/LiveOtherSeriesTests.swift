import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestLive

/// A live session's rules that read its own symbol at a higher timeframe with `@`: close by
/// close, the trader reports the fills and the warnings of one batch run over everything it
/// was given, the batch reading the higher bars resampled from all the stored bars (what the
/// replay, `bt run`, reads). The session's bars skip a minute now and then, so a higher bar is
/// closed both by its last minute and by the first minute after a gap.
@Suite("Live paper trader: rules reading higher timeframes")
struct LiveOtherSeriesTests {
    /// The stored series resampled, as `CandleStore.load` gives a timeframe that is not stored.
    struct Resampled: OtherSeriesSource {
        var series: CandleSeries
        func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
            symbol == series.symbol ? series.resampled(to: timeframe) : nil
        }
        func keys() throws -> [String] { ["\(series.symbol)@1m"] }
    }

    @Test("fills and warnings close by close equal the batch run's", arguments: 0..<LivePaperTraderTests.configs.count)
    func fillsEqualTheBatch(_ which: Int) throws {
        let (name, config) = LivePaperTraderTests.configs[which]
        let strategy = try Strategy.expressions([
            .entry: "close > ema(close, 3)@5m and close > open or close@15m > sma(close, 2)@15m[1]",
            .exit: "close < low@5m or trade_return > 0.004",
        ])
        let parameters = try strategy.parameters([])
        var total = 0
        for seed in UInt64(1)...6 {
            let s = LivePaperTraderTests.stream(seed: seed &* 15_485_863 &+ UInt64(which), historyBars: 40, sessionBars: 60)
            let source = try LiveOtherSeries(symbol: "TEST", interval: .minute1, history: s.history, store: nil)
            var warnings: [RunWarning] = []
            let live = try LivePaperTraderTests.live(s, config: config, strategy: (strategy.following(source), parameters)) {
                warnings = $0.lastResult?.warnings ?? []
            }
            let reading = strategy.reading(OtherSeriesReader(Resampled(series: LivePaperTraderTests.bars(s))))
            let batch = try LivePaperTraderTests.batchResult(s, config: config, strategy: (reading, parameters))
            #expect(live == batch.fills, "\(name), seed \(seed)")
            #expect(warnings == batch.warnings, "\(name), seed \(seed)")
            total += batch.fills.count
        }
        #expect(total >= 10, "\(name): the streams should trade (\(total) fills)")
    }

    @Test("a warm-up in which no higher bar closed is refused (the replay would refuse the rule), naming the series")
    func warmUpWithoutAClosedBar() throws {
        // The session starts on the hour, mid-day: 3 minutes of warm-up close a 15-minute bar
        // (its last minute), no daily one.
        let s = LivePaperTraderTests.stream(seed: 5, historyBars: 3, sessionBars: 30)
        for (entry, refused) in [("close > close@1d", true), ("close > close@15m", false)] {
            let strategy = try Strategy.expressions([.entry: entry, .exit: "close < open"])
            let source = try LiveOtherSeries(symbol: "TEST", interval: .minute1, history: s.history, store: nil)
            do {
                _ = try LivePaperTraderTests.live(s, config: LivePaperTraderTests.configs[0].1,
                                                  strategy: (strategy.following(source), try strategy.parameters([])))
                #expect(!refused, "\(entry) over 3 minutes of warm-up")
            } catch {
                #expect(refused, "\(error)")
                #expect("\(error)".contains("no TEST@1d bar closed within the run's bars") && "\(error)".contains("warm-up must hold one"),
                        "\(error)")
            }
        }
    }

    @Test("a warm-up too short for an indicator of a higher timeframe is refused, naming the series and the warm-up")
    func warmUpTooShort() throws {
        let s = LivePaperTraderTests.stream(seed: 2)
        let strategy = try Strategy.expressions([.entry: "close > sma(close, 20)@15m", .exit: "close < open"])
        let source = try LiveOtherSeries(symbol: "TEST", interval: .minute1, history: s.history, store: nil)
        do {
            _ = try LivePaperTrader(history: s.history, startTime: s.session.time[0], events: [s.first],
                                    config: LivePaperTraderTests.configs[0].1, strategy: strategy.following(source),
                                    parameters: try strategy.parameters([]))
            Issue.record("a warm-up of \(s.history.count) minutes holds too few 15-minute bars for sma(close, 20)")
        } catch let e as InputError {
            #expect(e.reason.hasPrefix("TEST@15m: sma: period 20 is longer than the series"), "\(e.reason)")
            #expect(e.reason.contains("a live session's warm-up (\(Setting.warmupBars.mention)) must hold enough of its bars"))
        }
    }

    @Test("a lower timeframe and a store the replay would read otherwise are refused, naming the rule; another symbol is not")
    func refusals() throws {
        let run = LivePaperTraderTests.stream(seed: 1).history
        func refusal(_ entry: String, interval: Timeframe = .minute1, store: CandleStore? = nil) -> String {
            do {
                let s = try Strategy.expressions([.entry: entry, .exit: "close < open"])
                try s.checkLive(try s.parameters([]), symbol: "TEST", interval: interval, store: store)
                return ""
            } catch { return "\(error)" }
        }
        // Another symbol is followed from its own stream (`LiveOtherSymbol`), at the interval or above.
        #expect(refusal("close > close@OTHER").isEmpty)
        #expect(refusal("close > close@OTHER@1h").isEmpty)
        #expect(refusal("close > close@OTHER@1m", interval: .hour1).contains("lower timeframe"))
        #expect(refusal("close > close@1m", interval: .hour1).contains("lower timeframe"))
        #expect(refusal("close > close@TEST@1h").isEmpty)
        #expect(refusal("close > close@1d").isEmpty)
        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("live.sqlite").path)
        var hourly = run.resampled(to: .hour1)
        hourly.symbol = "TEST"
        try store.transaction {
            _ = try store.merge([ImportedFile(file: "m", format: nil, symbol: "TEST", content: .candles(run)),
                                 ImportedFile(file: "h", format: nil, symbol: "TEST", content: .candles(hourly))])
        }
        #expect(refusal("close > close@1h", store: store).contains("the store holds TEST@1h"))
        #expect(refusal("close > close@4h", store: store).isEmpty)
        // So is a store holding another symbol at the timeframe read: the replay would read it.
        var otherHourly = hourly
        otherHourly.symbol = "OTHER"
        try store.transaction {
            _ = try store.merge([ImportedFile(file: "o", format: nil, symbol: "OTHER", content: .candles(otherHourly))])
        }
        #expect(refusal("close > close@OTHER@1h", store: store).contains("the store holds OTHER@1h"))
        #expect(refusal("close > close@OTHER@4h", store: store).isEmpty)
    }
}
