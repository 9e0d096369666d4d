import Testing
import TestSupport
@testable import BacktestCore

/// Rules that read the run's own symbol at a higher timeframe with `@`, one bar at a time (what
/// `bt live` decides with), equal the batch over every prefix of the bars, bit for bit: the
/// batch reading a source that holds the prefix alone, as the store holds a live session's
/// bars at each close. Random expressions, timeframes from the run's own to a month, random
/// gaps, so a higher bar is closed both by the bar that ends it and by the first bar after a gap.
@Suite("Other series one bar at a time equal the batch")
struct OtherSeriesStreamTests {
    /// `count` bars of `timeframe` from a time that is not on a day's or week's boundary, a run
    /// of one to three buckets left out now and then.
    static func bars(_ timeframe: Timeframe, count: Int, seed: UInt64) -> CandleSeries {
        let r = RandomStream.candles(count: count, seed: seed)
        var g = SplitMix64(seed: seed ^ 0x5EED)
        var s = CandleSeries(symbol: "RUN", timeframe: timeframe)
        var t: Int64 = 1_700_000_000 / 86_400 * 86_400 + 8 * 3600 + 13 * timeframe.seconds
        for i in 0..<count {
            s.append(time: t, open: r.open[i], high: r.high[i], low: r.low[i], close: r.close[i], volume: r.volume[i])
            t += timeframe.seconds * (g.next() % 11 == 0 ? Int64(2 + g.next() % 3) : 1)
        }
        return s
    }

    static func reader(_ run: CandleSeries, streaming: Bool = false) -> OtherSeriesReader {
        OtherSeriesReader(SeriesInMemory(series: [run]), followsStream: streaming)
    }

    static let parameters: [String: ExpressionValue] = ["n": .number(3)]

    @Test("random @ expressions: the stream's value at every checked prefix is the batch's", arguments: [
        (Timeframe.hour1, ["@4h", "@1d", "@1w", "@1h", "@RUN@1d"]),
        (Timeframe.minute15, ["@1h", "@4h", "@1d", "@30m"]),
        (Timeframe.hour4, ["@1d", "@1w", "@1M"]),
    ])
    func valuesEqualTheBatch(_ timeframe: Timeframe, _ suffixes: [String]) throws {
        let run = Self.bars(timeframe, count: 1_200, seed: UInt64(timeframe.seconds))
        var generator = ExpressionLookAheadTests.Generator(rng: SplitMix64(seed: UInt64(timeframe.seconds) &+ 41))
        let checkpoints = RandomStream.checkpoints(count: run.count, seed: 5).filter { $0 % 3 == 0 || $0 > 1_190 }
        var defined = 0
        for k in 0..<20 {
            let text = "(\(generator.number(2)))\(suffixes[k % suffixes.count]) - close"
            let e = try LocatedExpression(text, origin: .setting(.entry))
            try e.check(parameters: [ExpressionParameter("n", .number)])
            // Bound as a live session's command line checks it: over no bars yet.
            let history = RandomStream.prefix(run, 0)
            let node = try e.bind(Self.parameters, other: .read(Self.reader(history, streaming: true), run: history))
            var stream = try ExpressionPlan.Stream(ExpressionPlan([node]), runTimeframe: timeframe, runSymbol: run.symbol)
            var streamed: [Double] = []
            for i in 0..<run.count {
                stream.next(run[bar: i])
                streamed.append(stream.root(0))
            }
            // Where the batch over a prefix refuses (no bar of the series closed in it yet, or an
            // indicator longer than it), the batch over all the bars, which sees nothing later.
            let whole = try e.values(on: run, parameters: Self.parameters, reading: Self.reader(run))
            for n in checkpoints {
                let prefix = RandomStream.prefix(run, n)
                let batch = (try? e.values(on: prefix, parameters: Self.parameters, reading: Self.reader(prefix))) ?? whole
                let same = batch[n - 1].bitPattern == streamed[n - 1].bitPattern || (batch[n - 1].isNaN && streamed[n - 1].isNaN)
                #expect(same, "\(text) at bar \(n - 1): batch \(batch[n - 1]), stream \(streamed[n - 1])")
                if !same { break }
                defined += batch[n - 1].isNaN ? 0 : 1
            }
        }
        #expect(defined > 200, "too few defined values (\(defined)) to see a wrong one")
    }

    @Test("rules reading @ bar by bar: the signals and the bars without a closed higher bar equal the batch's")
    func signalsEqualTheBatch() throws {
        let run = Self.bars(.hour1, count: 900, seed: 77)
        let strategies = [
            try Strategy.expressions([.entry: "close > sma(close, $n)@1d and rsi(close, 5) < 50",
                                      .exit: "cross_below(close, ema(close, 2)@4h) or trade_return > 0.02"], parameters: ["n=3"]),
            try Strategy.expressions([.entry: "close@1d > close@1d[1] and close > open", .exit: "close < low@1w",
                                      .shortEntry: "rsi(close, 3)@4h > 60", .shortExit: "bars_in_trade >= 5"]),
        ]
        for strategy in strategies {
            let parameters = try strategy.parameters([])
            // Warm enough for the indicators of the daily bars and a weekly close, as a live
            // session's warm-up must be.
            let warm = 200
            let history = RandomStream.prefix(run, warm)
            var stream = try #require(try SignalStream(strategy.reading(Self.reader(history, streaming: true)), parameters,
                                                       history: history))
            var unaligned = 0
            for n in (warm + 1)...run.count {
                stream.append(run[bar: n - 1])
                guard n % 29 == 0 || n == run.count || n < warm + 40 else { continue }
                let prefix = RandomStream.prefix(run, n)
                let batch = try strategy.reading(Self.reader(prefix)).signals(prefix, parameters)
                let streamed = stream.signals
                #expect(streamed.entries == batch.entries && streamed.exits == batch.exits, "\(strategy.summary) at \(n)")
                #expect(streamed.shortEntries == batch.shortEntries && streamed.shortExits == batch.shortExits)
                #expect(streamed.unaligned == batch.unaligned, "\(strategy.summary) at \(n)")
                #expect(streamed.positionRules?.exit?.values.count == batch.positionRules?.exit?.values.count)
                unaligned = batch.unaligned.map(\.bars.count).reduce(0, +)
            }
            #expect(unaligned > 0, "the first bars have no closed daily bar: the warnings should count them")
            #expect(stream.signals.entries.contains(true), "\(strategy.summary) never entered")
        }
    }

    @Test("a stream refuses another symbol and a symbol that follows a session, and binding live refuses another symbol")
    func refusals() throws {
        let run = Self.bars(.hour1, count: 50, seed: 3)
        var other = run
        other.symbol = "SPY"
        let source = SeriesInMemory(series: [run, other], sessions: ["SES": TradingSession(zone: "UTC", open: 0, close: 600)])
        let e = try LocatedExpression("close@SPY > close", origin: .setting(.entry))
        let batch = try e.bind([:], other: .read(OtherSeriesReader(source), run: run))
        #expect(throws: InputError.self) { try ExpressionPlan.Stream(ExpressionPlan([batch]), runTimeframe: .hour1, runSymbol: run.symbol) }
        #expect(throws: (any Error).self) { try e.bind([:], other: .read(OtherSeriesReader(source, followsStream: true), run: run)) }
        var session = run
        session.symbol = "SES"
        let daily = try LocatedExpression("close@1d > close", origin: .setting(.entry))
            .bind([:], other: .read(OtherSeriesReader(SeriesInMemory(series: [session], sessions: source.sessions)), run: session))
        #expect(throws: InputError.self) { try ExpressionPlan.Stream(ExpressionPlan([daily]), runTimeframe: .hour1, runSymbol: session.symbol) }
        #expect(throws: InputError.self) { try ExpressionPlan.Stream(ExpressionPlan([daily])) }
    }
}
