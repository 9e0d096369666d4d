import Testing
@testable import BacktestCore
import TestSupport

/// The trailing stop from the close (`--trail-from close`, backtesting.py's `TrailingStrategy`)
/// against its rule written out here: after each close of the position's bars, the entry bar's
/// included, level = max(level, close − D) (a short's min(level, close + D)); no level before the
/// entry bar's close (a fill at the close starts it at the fill price); a bar whose low (high)
/// reaches the level exits at it, or at the open when the open is through it. Random bars with
/// gaps, both fill timings, longs and shorts, fractions and an expression.
@Suite("Trailing stop from the close")
struct CloseTrailTests {
    static let bars = 600

    static let distances: [(String, ExitDistance)] = [
        ("4%", .fraction(0.04)),
        ("2 x atr(10)", .price(OrdersTest.expression("2 * atr(10)", .trail))),
    ]

    @Test("every trade's trail exit, and every bar it was not hit, follow the rule", arguments: Array(UInt64(1)...8))
    func followsTheRule(_ seed: UInt64) throws {
        let candles = OrdersTest.candles(bars: Self.bars, seed: seed)
        let signals = OrdersTest.signals(bars: Self.bars, seed: seed)
        let atr = try Indicators.atr(high: candles.high, low: candles.low, close: candles.close, period: 10)
        var exits = 0
        for fill in ExecutionConfig.FillTiming.allCases {
            for short in [false, true] {
                for (name, distance) in Self.distances {
                    var config = ExecutionConfig()
                    config.depth = .none
                    config.fill = fill
                    config.allowShort = short
                    config.exits = ExitRules(trail: distance)
                    config.exits.trailFrom = .close
                    let r = try Engine.run(Engine.Request(candles, signals: signals, config: config))
                    /// The level `price` gives at `bar` (NaN: no distance there), as orders.md writes it:
                    /// price × (1 ∓ f) for a fraction, price ∓ D for a distance.
                    func levelFrom(_ price: Double, _ bar: Int, long: Bool) -> Double {
                        if case .fraction(let f) = distance { return long ? price * (1 - f) : price * (1 + f) }
                        guard atr[bar] > 0 else { return .nan }
                        return long ? price - 2 * atr[bar] : price + 2 * atr[bar]
                    }
                    for t in r.trades {
                        let long = t.side == .long, e = t.entryIndex
                        let what = "\(name), \(fill.rawValue), \(long ? "long" : "short"), entry \(e)"
                        // The level in force on bar j: from the closes before it, the entry bar's on.
                        var level = fill == .close ? levelFrom(t.entryPrice, e, long: long) : .nan
                        var j = fill == .close ? e + 1 : e
                        while j <= t.exitIndex {
                            let hit = !level.isNaN && (long ? candles.low[j] <= level : candles.high[j] >= level)
                            if j == t.exitIndex && t.exitKind == .trail {
                                #expect(hit, "\(what): trail exit at \(j) without reaching \(level)")
                                let o = candles.open[j]
                                let expected = long ? min(o, level) : max(o, level)
                                #expect(abs(t.exitPrice - expected) <= 1e-9 * expected, "\(what): exit \(t.exitPrice), rule \(expected)")
                                exits += 1
                            } else if j < t.exitIndex {
                                #expect(!hit, "\(what): bar \(j) reached \(level) and did not exit")
                            }
                            let l = levelFrom(candles.close[j], j, long: long)
                            if !l.isNaN { level = level.isNaN ? l : long ? max(level, l) : min(level, l) }
                            j += 1
                        }
                    }
                }
            }
        }
        #expect(exits > 20, "too few trail exits to check the rule")
    }
}
