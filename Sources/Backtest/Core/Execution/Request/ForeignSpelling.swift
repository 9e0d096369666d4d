/// Settings that backtesting.py, vectorbt and backtrader users type out of habit, with bt's own
/// setting and, where the units differ, their value converted (`commission 0.001` is
/// `fee_bps 10`). Each front end words the settings its own way (`Setting.mention`).
public enum ForeignSpelling {
    /// bt's setting for the foreign `name` (any of `_`, `-` and case), and how to write it, the
    /// settings named by `Setting.mention`; `value` is the value that came with it, when there
    /// was one. nil for a name no other tool uses.
    public static func hint(_ name: String, value: String?) -> (setting: Setting, text: String)? {
        let fraction = value.flatMap(Double.init).flatMap { $0.isFinite && $0 >= 0 && $0 < 1 ? $0 : nil }
        func bps(_ setting: Setting, _ what: String) -> (Setting, String) {
            let flag = setting.mention
            let converted = fraction.map { "\(flag) \(NumberText.shortest(($0 * 10_000 * 1e6).rounded() / 1e6))" }
            return (setting, "bt takes \(what) in basis points: "
                    + (converted.map { "\($0) (\(value!) of notional)" } ?? "\(flag) BPS (0.001 of notional is \(flag) 10)"))
        }
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "commission", "fees", "fee", "commission-rate", "comm":
            return bps(.feeBps, "the fee")
        case "slippage", "slippage-rate", "slip":
            return bps(.slippageBps, "fixed slippage (with \(Setting.depth.mention) fixed)")
        case "init-cash", "initial-cash", "cash-init", "capital", "initial-capital", "starting-cash", "start-cash":
            return (.cash, "bt's starting cash is \(Setting.cash.mention) AMOUNT")
        case "sl-stop", "stop-loss", "stoploss", "stop":
            return (.stopLoss, "bt's stop-loss is \(Setting.stopLoss.mention) PCT, e.g. \(Setting.stopLoss.mention) 5%")
        case "tp-stop", "take-profit", "takeprofit", "target":
            return (.takeProfit, "bt's take-profit is \(Setting.takeProfit.mention) PCT, e.g. \(Setting.takeProfit.mention) 10%")
        case "allow-short", "shorts", "short-selling":
            return (.short, "bt allows shorts with \(Setting.short.mention)")
        default:
            return nil
        }
    }
}
