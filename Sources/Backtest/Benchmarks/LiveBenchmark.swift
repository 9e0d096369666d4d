import Backtest
import Foundation

/// `bt bench live`: the two figures that decide whether `bt live` keeps up with a feed.
///
/// 1. Depth updates a second through the frame parser and the book: `updates` Binance depth
///    frames (five levels each near the touch of a 1,000-level book, one in five a removal),
///    made before the clock starts, each parsed (`BinanceFrameParser`) and applied by
///    `DepthSync` on one core. Parsing alone is timed too.
/// 2. Signal latency: from a bar's closing trade to its orders, the work `bt live` does at each
///    close (`LivePaperTrader.step`: the strategy's signals and the engine over every bar held
///    and the recorded book), for each bar of a session of `sessionBars` one-minute bars after
///    500 bars of warm-up, with a depth diff every 100 ms recorded in between (600 a bar): p50,
///    p99 and the last bar's. The signals and the bar loop run over every bar held; the book
///    resumes from the checkpoints earlier closes left (`BookCheckpoints`).
package enum LiveBenchmark {
    package struct Result: Sendable {
        package var updates: Int
        package var levelsPerUpdate: Int
        /// Depth updates a second, parse and apply.
        package var updatesPerSecond: Double
        /// Depth frames a second, parse only.
        package var parsesPerSecond: Double
        /// Depth updates a second, parse and apply, while the dashboard is drawn at `fps`.
        package var updatesPerSecondDrawing: Double
        package var fps: Double
        /// Dashboard frames drawn a second meanwhile.
        package var framesPerSecond: Double
        package var sessionBars: Int
        package var warmUpBars: Int
        package var eventsPerBar: Int
        /// Milliseconds from the close to the orders, per bar of the session.
        package var latencyP50: Double
        package var latencyP99: Double
        package var latencyLast: Double
    }

    package static func run(updates: Int = 100_000, sessionBars: Int = 60, fps: Double = 4) throws -> Result {
        precondition(updates > 0 && sessionBars > 0, "updates and session bars must be positive")
        let symbol = "BTCUSDT"
        // 1. Parse and apply.
        let rng = GSL.Random(seed: 21)
        let levels = 1_000
        let snapshot = DepthSnapshot(
            lastUpdateId: 1_000,
            bids: (1...levels).map { BookLevel(price: Double(10_000 - $0) / 100, quantity: 1 + Double($0 % 7)) },
            asks: (1...levels).map { BookLevel(price: Double(10_000 + $0) / 100, quantity: 1 + Double($0 % 5)) })
        let perUpdate = 5
        var frames: [[UInt8]] = []
        frames.reserveCapacity(updates)
        var id: Int64 = 1_001
        for k in 0..<updates {
            var bids: [String] = [], asks: [String] = []
            for j in 0..<perUpdate {
                let depth = 1 + rng.int(below: 20)
                let qty = rng.int(below: 5) == 0 ? "0.00000000" : String(format: "%.8f", Double(rng.int(below: 10_000)) / 1_000 + 0.001)
                if j % 2 == 0 {
                    bids.append("[\"\(String(format: "%.2f", Double(10_000 - depth) / 100))\",\"\(qty)\"]")
                } else {
                    asks.append("[\"\(String(format: "%.2f", Double(10_000 + depth) / 100))\",\"\(qty)\"]")
                }
            }
            let text = "{\"stream\":\"btcusdt@depth@100ms\",\"data\":{\"e\":\"depthUpdate\",\"E\":\(1_710_000_000_000 + Int64(k) * 100),"
                + "\"s\":\"BTCUSDT\",\"U\":\(id),\"u\":\(id + Int64(perUpdate) - 1),\"b\":[\(bids.joined(separator: ","))],"
                + "\"a\":[\(asks.joined(separator: ","))]}}"
            id += Int64(perUpdate)
            frames.append(Array(text.utf8))
        }
        let parser = BinanceFrameParser(symbol: symbol)
        var parsed = 0
        let p0 = DispatchTime.now().uptimeNanoseconds
        for f in frames {
            if (try? f.withUnsafeBytes({ try parser.message($0) })) != nil { parsed += 1 }
        }
        let parseSeconds = Double(DispatchTime.now().uptimeNanoseconds - p0) / 1e9
        precondition(parsed == updates, "every benchmark frame must parse")
        // The frames parsed and applied to a book synced from the snapshot, once, as `bt live`
        // does; the dashboard (when drawn) offered the state every 4,096 updates.
        let status = LiveStatus(
            symbol: symbol, interval: .minute1, connected: true, synced: true, messagesPerSecond: 1_000, messages: 0,
            reconnects: 0, gaps: 0, bars: Synth.series(symbol: symbol, bars: 300, seed: 5, timeframe: .minute1), sessionStart: 0,
            bids: Array(snapshot.bids.prefix(LiveStatus.levelsKept)), asks: Array(snapshot.asks.prefix(LiveStatus.levelsKept)),
            initialCash: 10_000, cash: 10_000, position: 0, equity: 10_000, fills: [])
        func applyAll(drawing: CoalescedDrawing<LiveStatus>?) {
            var sync = DepthSync()
            sync.receive(DepthDiff(eventMs: 1_709_999_999_900, firstId: 1_000, lastId: 1_000, bids: [], asks: []))
            sync.receive(snapshot)
            for f in frames {
                if case .depth(let diff)? = try? f.withUnsafeBytes({ try parser.message($0) }) {
                    sync.receive(diff)
                    if sync.diffsApplied & 4095 == 0 {
                        _ = sync.takeRecorded()
                        drawing?.offer(status)
                    }
                }
            }
            precondition(sync.state == .synced && sync.gaps == 0, "the benchmark stream has no gaps")
        }
        let a0 = DispatchTime.now().uptimeNanoseconds
        applyAll(drawing: nil)
        let applySeconds = Double(DispatchTime.now().uptimeNanoseconds - a0) / 1e9

        // The same while the dashboard is drawn as bt live draws it (`CoalescedDrawing`, at
        // 120x40; the frames are thrown away), for at least two seconds so the frame rate is
        // measured over several frames: the stream is applied again as often as that takes.
        let drawing = CoalescedDrawing<LiveStatus>(fps: fps) {
            _ = LiveDashboard.render($0, indicators: [], events: ["bench"], width: 120, height: 40, color: true)
        }
        drawing.start()
        let d0 = DispatchTime.now().uptimeNanoseconds
        var drawnUpdates = 0
        var drawnSeconds = 0.0
        repeat {
            applyAll(drawing: drawing)
            drawnUpdates += frames.count
            drawnSeconds = Double(DispatchTime.now().uptimeNanoseconds - d0) / 1e9
        } while drawnSeconds < 2
        let frameCount = drawing.stop()

        // 2. Signal latency.
        let warmUp = 500
        let minute: Int64 = 60
        let start: Int64 = 1_710_000_000 / minute * minute
        var history = CandleSeries(symbol: symbol, timeframe: .minute1)
        var price = 100.0
        for k in 0..<warmUp {
            let o = price
            price *= 1 + (Double(rng.int(below: 2_001)) - 1_000) / 200_000
            history.append(time: start - Int64(warmUp - k) * minute, open: o, high: max(o, price) * 1.0005, low: min(o, price) * 0.9995,
                           close: price, volume: 100)
        }
        var config = ExecutionConfig()
        config.feeBps = 10
        config.maxParticipation = nil
        // ma-cross 5/20 as rules: its signals are kept bar by bar (`SignalStream`), as bt live keeps them.
        let strategy = try Strategy.expressions([.entry: "cross_above(sma(close, 5), sma(close, 20))",
                                                 .exit: "cross_below(sma(close, 5), sma(close, 20))"])
        var trader = try LivePaperTrader(history: history, startTime: start, events: [
            BookEvent(timeMs: (start - minute) * 1000, kind: .snapshot, bids: snapshot.bids, asks: snapshot.asks),
        ], config: config, strategy: strategy, parameters: try strategy.parameters([]))
        try trader.prepare()  // as bt live does before its first close
        let eventsPerBar = 600
        var latencies: [Double] = []
        for bar in 0..<sessionBars {
            let t = start + Int64(bar) * minute
            let o = price
            for _ in 0..<4 { price *= 1 + (Double(rng.int(below: 2_001)) - 1_000) / 400_000 }
            var diffs: [BookEvent] = []
            diffs.reserveCapacity(eventsPerBar)
            for k in 0..<eventsPerBar {
                let mid = (o + (price - o) * Double(k) / Double(eventsPerBar)) * 100
                let touch = mid.rounded(.down) / 100
                diffs.append(BookEvent(timeMs: t * 1000 + Int64(k) * 100 + 99, kind: .update,
                                       bids: [BookLevel(price: touch - Double(rng.int(below: 5)) / 100, quantity: Double(rng.int(below: 9)) + 1)],
                                       asks: [BookLevel(price: touch + Double(1 + rng.int(below: 5)) / 100, quantity: Double(rng.int(below: 9)) + 1)]))
            }
            trader.append(diffs)
            trader.append(TradeBar(time: t, open: o, high: max(o, price) * 1.0003, low: min(o, price) * 0.9997, close: price,
                                   volume: 100, trades: 100))
            let c0 = DispatchTime.now().uptimeNanoseconds
            _ = try trader.step(opening: (t + minute, price))
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - c0) / 1e6)
        }
        return Result(updates: updates, levelsPerUpdate: perUpdate, updatesPerSecond: Double(updates) / applySeconds,
                      parsesPerSecond: Double(updates) / parseSeconds, updatesPerSecondDrawing: Double(drawnUpdates) / drawnSeconds,
                      fps: fps, framesPerSecond: Double(frameCount) / drawnSeconds, sessionBars: sessionBars, warmUpBars: warmUp,
                      eventsPerBar: eventsPerBar, latencyP50: GSL.quantile(latencies, 0.5), latencyP99: GSL.quantile(latencies, 0.99),
                      latencyLast: latencies.last ?? 0)
    }
}

extension LiveBenchmark.Result {
    package var text: String {
        String(format: "depth updates: %d of %d levels, parse and apply %.0f/s (%.0f ns each), parse alone %.0f/s\n",
               updates, levelsPerUpdate, updatesPerSecond, 1e9 / updatesPerSecond, parsesPerSecond)
            + String(format: "while the dashboard is drawn at %.0f fps (120x40): %.0f updates/s, %.1f frames/s\n",
                     fps, updatesPerSecondDrawing, framesPerSecond)
            + String(format: "signal latency (close to orders), %d one-minute bars after %d of warm-up, %d book events a bar: "
                     + "p50 %.3f ms, p99 %.3f ms, last bar %.3f ms\n",
                     sessionBars, warmUpBars, eventsPerBar, latencyP50, latencyP99, latencyLast)
    }

    package var json: JSONValue {
        .object([
            (key: "updates", value: .int(updates)), (key: "levels_per_update", value: .int(levelsPerUpdate)),
            (key: "updates_per_second", value: .number(updatesPerSecond.rounded())),
            (key: "parses_per_second", value: .number(parsesPerSecond.rounded())),
            (key: "fps", value: .number(fps)),
            (key: "updates_per_second_drawing", value: .number(updatesPerSecondDrawing.rounded())),
            (key: "frames_per_second", value: .number(framesPerSecond)),
            (key: "session_bars", value: .int(sessionBars)), (key: "warm_up_bars", value: .int(warmUpBars)),
            (key: "events_per_bar", value: .int(eventsPerBar)),
            (key: "latency_p50_ms", value: .number(latencyP50)), (key: "latency_p99_ms", value: .number(latencyP99)),
            (key: "latency_last_ms", value: .number(latencyLast)),
        ])
    }
}
