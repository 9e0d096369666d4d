import Backtest
import Foundation

/// `bt bench replay`: market events a second through the event-level replay (`EventReplay`: the
/// book, the queue model and a quoting step every 100 ms), on one core, and the peak resident
/// memory of the process meanwhile.
///
/// 1. A synthetic day: `events` events (10 million by default) over 24 hours, made 1,024 at a
///    time (`SyntheticMarket` into `PrefetchedEvents`, never held whole), so the memory shown is
///    the replay's own. The clock leaves out the making (timed apart, `makingSeconds`): the
///    figure is the events through the book, the queue and the steps, as the issue asks.
/// 2. A stored symbol (the ob-analytics Bitstamp sample once imported), streamed from the store
///    as `bt replay` reads it (`CandleStore.replayEvents`): reading and decoding the rows
///    included. Its lot is inferred first, outside the clock.
///
/// Both quote at the touch on each side, size 10 lots, a maximum position of 100 lots, with
/// `--latency 5ms,5ms` and the riskaverse queue.
package enum ReplayBenchmark {
    package struct Figures: Sendable {
        package var name: String
        package var events: Int
        package var seconds: Double
        package var steps: Int
        package var fills: Int
        /// Time making the events, left out of `seconds` (the synthetic day's; 0 for the store,
        /// whose reading is part of a replay).
        package var makingSeconds = 0.0
        package var eventsPerSecond: Double { Double(events) / seconds }
    }

    package struct Result: Sendable {
        package var runs: [Figures]
        /// The process's peak resident set after the runs, bytes (`getrusage`).
        package var peakRSSBytes: Int
    }

    /// Runs the synthetic day of `events` events, then the stored events of `symbol` in `store`
    /// when given.
    /// - Throws: `InputError` when `symbol` has no stored book; `StoreError` while reading it.
    package static func run(events: Int, store: CandleStore? = nil, symbol: String? = nil) throws -> Result {
        precondition(events > 0, "events must be positive")
        var runs: [Figures] = []
        var market = PrefetchedEvents(SyntheticMarket(count: events, seed: 47))
        var day = try time("synthetic day", lot: SyntheticMarket.lot, &market)
        day.makingSeconds = Double(market.makingNs) / 1e9
        day.seconds -= day.makingSeconds
        runs.append(day)
        if let store, let symbol {
            var pass = try store.replayEvents(symbol: symbol, fromMs: nil, toMs: nil)
            let lot = try LotInference.lot(of: &pass)
            var source = try store.replayEvents(symbol: symbol, fromMs: nil, toMs: nil)
            runs.append(try time(symbol + " (store)", lot: lot, &source))
        }
        return Result(runs: runs, peakRSSBytes: peakRSS())
    }

    private static func time(_ name: String, lot: Double, _ source: inout some MarketEventSource) throws -> Figures {
        let replay = try replay(lot: lot)
        let start = DispatchTime.now().uptimeNanoseconds
        let r = try replay.run(&source)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Figures(name: name, events: r.events, seconds: seconds, steps: r.steps, fills: r.fills.count)
    }

    /// The replay every run times: quotes at the touch, 10 lots, at most 100 lots of position,
    /// a step every 100 ms, `5ms,5ms` of latency, the riskaverse queue.
    static func replay(lot: Double) throws -> EventReplay {
        let settings = try ReplaySettings(everyNs: 100_000_000, quoteSize: 10 * lot, maxPosition: 100 * lot,
                                          latency: try ReplayLatency(entryNs: 5_000_000, responseNs: 5_000_000), lot: lot)
        return EventReplay(settings: settings, bidQuote: try QuoteExpression("best_bid", setting: .quoteBid),
                           askQuote: try QuoteExpression("best_ask", setting: .quoteAsk))
    }

    private static func peakRSS() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on macOS
        #endif
    }
}

/// A deterministic synthetic day of market events, made one at a time: a book of ten levels a
/// side around a centre that walks a tick now and then (the level it crosses removed first),
/// depth changes of one level (one in ten at the far level a removal), and one event in ten a
/// trade print at the touch. Prices in whole ticks of 0.01, quantities in lots of 0.001; times
/// spread evenly over `durationMs` (24 hours by default), several events per millisecond at 10
/// million a day.
///
/// A one-level change reuses the previous event's level array, written in place when the reader
/// has let go of that event (as a replay does), so making an event allocates nothing and the
/// figure is the replay's rather than the allocator's.
package struct SyntheticMarket: MarketEventSource {
    package static let lot = 0.001
    private static let tick = 0.01
    private let count: Int
    private let durationMs: Double
    private var made = 0
    private var state: UInt64
    /// The centre in ticks: bids at centre - 1 - k, asks at centre + k, k in 0..<10.
    private var centre: Int64 = 10_000_000
    /// The one level of the last one-level change.
    private var one = [BookLevel(price: 0, quantity: 0)]

    package init(count: Int, seed: UInt64, durationMs: Int64 = 86_400_000) {
        precondition(durationMs > 0, "the synthetic market needs a positive duration")
        self.count = count
        self.durationMs = Double(durationMs)
        state = seed
    }

    /// SplitMix64.
    private mutating func random() -> UInt64 {
        defer { state &+= 0x9E37_79B9_7F4A_7C15 }
        return Synth.mix(state)
    }

    package mutating func next() -> MarketEvent? {
        guard made < count else { return nil }
        let t = 1_700_000_000_000 + Int64(Double(made) * durationMs / Double(count))
        defer { made += 1 }
        func level(_ ticks: Int64, _ lots: UInt64) -> BookLevel {
            BookLevel(price: Double(ticks) * Self.tick, quantity: Double(lots) * Self.lot)
        }
        func change(bid: Bool, _ level: BookLevel) -> MarketEvent {
            one[0] = level
            return .book(BookEvent(timeMs: t, kind: .update, bids: bid ? one : [], asks: bid ? [] : one))
        }
        if made == 0 {
            let bids = (0..<10).map { level(centre - 1 - Int64($0), 1000) }, asks = (0..<10).map { level(centre + Int64($0), 1000) }
            return .book(BookEvent(timeMs: t, kind: .snapshot, bids: bids, asks: asks))
        }
        let r = random()
        let kind = r % 100
        if kind < 1 {
            // The centre moves a tick; the level it moves onto is removed from the other side.
            if r & 0x100 == 0 {
                centre += 1
                return change(bid: false, level(centre - 1, 0))
            }
            centre -= 1
            return change(bid: true, level(centre, 0))
        }
        let buySide = r & 0x200 == 0
        if kind < 11 {
            let lots = 1 + (r >> 12) % 500
            return .trade(TradePrint(timeMs: t, price: Double(buySide ? centre - 1 : centre) * Self.tick,
                                     quantity: Double(lots) * Self.lot, side: buySide ? .sell : .buy))
        }
        let k = Int64((r >> 16) % 10)
        let lots: UInt64 = k == 9 && (r >> 24) % 10 == 0 ? 0 : 1 + (r >> 32) % 5000
        return change(bid: buySide, level(buySide ? centre - 1 - k : centre + k, lots))
    }
}

extension ReplayBenchmark.Result {
    package var json: JSONValue {
        ["runs": .array(runs.map { f in
            ["name": .string(f.name), "events": .int(f.events), "seconds": .numberLiteral(Format.fixed(f.seconds, 3)),
             "events_per_second": .numberLiteral(Format.fixed(f.eventsPerSecond, 0)), "steps": .int(f.steps), "fills": .int(f.fills),
             "making_seconds": .numberLiteral(Format.fixed(f.makingSeconds, 3))]
         }),
         "peak_rss_bytes": .int(peakRSSBytes)]
    }

    package var text: String {
        runs.map { f in
            "\(f.name): \(f.events) events in \(Format.fixed(f.seconds, 3)) s, "
                + "\(Format.fixed(f.eventsPerSecond / 1e6, 2)) million events/s (\(f.steps) steps, \(f.fills) fills"
                + (f.makingSeconds > 0 ? "; making the events took \(Format.fixed(f.makingSeconds, 3)) s more, left out)\n" : ")\n")
        }.joined() + "peak resident memory: \(Format.fixed(Double(peakRSSBytes) / 1_048_576, 1)) MB\n"
    }
}
