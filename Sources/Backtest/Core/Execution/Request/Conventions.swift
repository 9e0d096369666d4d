/// A preset that sets bt's execution settings to another tool's defaults and rules, so a first
/// comparison with it matches trade for trade (`conventions`). Settings given (on the command
/// line, in a strategy file's sections, to btcore or `bt_config`) win over the preset's; the
/// symbol's stored instrument settings come under it. Goldens: Tests/Fixtures/conventions.
public enum Conventions: String, Sendable, CaseIterable {
    /// backtesting.py 0.6's `Backtest(data, S)` defaults: cash 10,000, commission 0, spread 0,
    /// margin 1, `trade_on_close=False` (market orders fill at the next open),
    /// `exclusive_orders=False`, `hedging=False`; `self.buy()` without a size spends all the
    /// equity in whole units. With `finalize_trades=False` a trade still open at the end is
    /// marked at the last close, as bt's `end` trade is. Its stop-loss and take-profit orders
    /// are processed before a `position.close()` at the same open (`levelsBeforeSignalExit`).
    case backtestingPy = "backtesting.py"
    /// vectorbt 1.2's `Portfolio.from_signals(close, entries.shift(1), exits.shift(1),
    /// price=open, size=np.inf, stop_entry_price="price")`, the next-open fill its users set up,
    /// with its defaults: `init_cash=100`, fees 0, slippage 0. Its stops (`sl_stop`, `sl_trail`)
    /// are checked from the bar after the entry's, and its trailing peak leaves the entry bar out
    /// (`ExitRules.checksFillBar` false); they come before a signal exit on the same bar
    /// (`levelsBeforeSignalExit`).
    case vectorbt

    /// Parses a setting's text (`backtesting.py`, `vectorbt`).
    /// - Throws: `InputError` naming `conventions`.
    public static func parse(_ text: String) throws -> Conventions {
        guard let c = Conventions(rawValue: text.trimmingWhitespace().lowercased()) else {
            throw InputError("not one of \(allCases.map(\.rawValue).joined(separator: ", "))", setting: .conventions, value: text)
        }
        return c
    }

    /// The settings the preset gives, as a front end gives them: no cost model or volume cap
    /// (fills at the reference price), no fee, next-open fills, all the equity per entry.
    public var settings: [(setting: Setting, value: ExecutionValue)] {
        let common: [(setting: Setting, value: ExecutionValue)] = [
            (.fill, .text(ExecutionConfig.FillTiming.nextOpen.rawValue)), (.size, .text("100%")), (.feeBps, .number(0)),
            (.depth, .text("none")), (.maxParticipation, .number(0)),
        ]
        switch self {
        case .backtestingPy: return [(.cash, .number(10_000)), (.lot, .number(1))] + common
        case .vectorbt: return [(.cash, .number(100))] + common
        }
    }

    /// What the engine does the tool's way, beyond the settings.
    func apply(to config: inout ExecutionConfig) {
        config.conventions = self
        config.exits.checksFillBar = self != .vectorbt
        config.exits.levelsBeforeSignalExit = true
    }
}

extension ExecutionRequest {
    /// The request with its `conventions` preset's settings where it gives none (itself without one).
    /// - Throws: `InputError` for a preset that is none of `Conventions`.
    func overConventions() throws -> ExecutionRequest {
        guard let text = text(.conventions) else { return self }
        var merged = self
        for (setting, value) in try Conventions.parse(text).settings where values[setting] == nil {
            try merged.set(setting, value)
        }
        return merged
    }
}
