import Testing
import TestSupport
@testable import BacktestCore

/// Bad `@` input: an error of kind and place (the caret under the keys) naming the reason.
@Suite("Other series: bad input")
struct OtherSeriesErrorTests {
    static let run = OtherSeriesLookAheadTests.hourly("RUN", seed: 1, count: 100)
    static let reader = OtherSeriesReader(SeriesInMemory(series: [run, OtherSeriesLookAheadTests.hourly("SPY", seed: 2, count: 100)]))

    /// The error `text` gives when evaluated on the hourly run (nil: none).
    static func error(_ text: String, reader: OtherSeriesReader? = reader) -> InputError? {
        do {
            _ = try LocatedExpression(text, origin: .setting(.entry)).values(on: run, reading: reader)
            return nil
        } catch let e as InputError {
            return e
        } catch {
            Issue.record("not an InputError: \(error)")
            return nil
        }
    }

    @Test("each bad @ names its reason and points at its keys", arguments: [
        ("close@SPX > 1", "no candles stored for 'SPX'", "     ^^^^"),
        ("close@SPX > 1", "did you mean 'SPY@1h'?", "     ^^^^"),
        ("close@1m > 1", "lower timeframe than the run's (1h)", "     ^^^"),
        ("close@2h > 1", "no candles stored for '2H' (read as '2H@1h') ('2H' is no timeframe: they are 1m 5m",
         "     ^^^"),
        ("sma(close, 5)@SPY@30m > 1", "lower timeframe", "             ^^^^^^^^"),
        ("entry_price@1d > 1", "'entry_price' is a position series", "^^^^^^^^^^^"),
        ("(close@SPY + close)@1d > 1", "'@' inside an expression read with '@1d'", "      ^^^^"),
        ("close@1d@SPY > 1", "write the symbol before the timeframe", "        ^^^^"),
        ("close@SPY@QQQ > 1", "one symbol at one timeframe", "         ^^^^"),
        ("close@ > 1", "'@' must be followed by a symbol or a timeframe", "     ^"),
        ("close@_X > 1", "neither a timeframe", "     ^^^"),
    ])
    func refused(text: String, reason: String, caret: String) throws {
        let e = try #require(Self.error(text), "\(text) was accepted")
        #expect(e.reason.contains(reason), "\(text): \(e.reason)")
        #expect(e.reason.contains("\n  " + text + "\n  " + caret + "\n") || e.reason.hasSuffix("\n  " + text + "\n  " + caret),
                "\(text): \(e.reason)")
        #expect(e.setting == .entry)
    }

    @Test("without a reader (a screen, the C library) @ is refused at its keys, not evaluated")
    func refusedWithoutReader() throws {
        let e = try #require(Self.error("close > close@SPY", reader: nil))
        #expect(e.reason.contains("'@SPY' reads another series, which only bt run, bt signals, bt sweep"))
    }

    @Test("the keys: a timeframe, else an upper-cased symbol with its punctuation; spaces end them")
    func keys() throws {
        #expect(Self.error("close@spy > close") == nil)
        #expect(Self.error("close@SPY@1h - close >= 0") == nil)
        #expect(Self.error("close@1h-close > 0")?.reason.contains("'1H-CLOSE'") == true)
    }

    @Test("--max-stale takes a whole number and a unit", arguments: [("90m", 5400), ("36h", 129_600), ("3d", 259_200), ("1w", 604_800)])
    func maxStale(text: String, seconds: Int64) throws {
        #expect(try OtherSeriesReader(SeriesInMemory(series: []), maxStale: text).maxStale == seconds)
    }

    @Test("a bad --max-stale is an error of the setting", arguments: ["3", "d", "-1d", "1.5h", "2y"])
    func badMaxStale(text: String) {
        #expect(throws: InputError.self) { try OtherSeriesReader(SeriesInMemory(series: []), maxStale: text) }
        let e = try? OtherSeriesReader(SeriesInMemory(series: []), maxStale: text)
        #expect(e == nil)
    }
}
