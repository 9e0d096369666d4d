import Backtest

/// Options that backtesting.py, vectorbt and backtrader users type out of habit, with bt's own
/// spelling and, where the units differ, their value converted (`--commission 0.001` is
/// `--fee-bps 10`).
enum ForeignOptions {
    /// bt's option for the foreign `--name`, and how to write it; `value` is the argument that
    /// followed, when there was one. nil for a name no other tool uses.
    static func hint(_ name: String, value: String?) -> (option: Option, text: String)? {
        let fraction = value.flatMap(Double.init).flatMap { $0.isFinite && $0 >= 0 && $0 < 1 ? $0 : nil }
        func bps(_ option: Option, _ what: String) -> (Option, String) {
            let converted = fraction.map { "\(option) \(NumberText.shortest(($0 * 10_000 * 1e6).rounded() / 1e6))" }
            return (option, "bt takes \(what) in basis points: "
                    + (converted.map { "\($0) (\(value!) of notional)" } ?? "\(option) BPS (0.001 of notional is \(option) 10)"))
        }
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "commission", "fees", "fee", "commission-rate", "comm":
            return bps(.feeBps, "the fee")
        case "slippage", "slippage-rate", "slip":
            return bps(.slippageBps, "fixed slippage (with --depth fixed)")
        case "init-cash", "initial-cash", "cash-init", "capital", "initial-capital", "starting-cash", "start-cash":
            return (.cash, "bt's starting cash is \(Option.cash) AMOUNT")
        case "sl-stop", "stop-loss", "stoploss", "stop":
            return (.stopLoss, "bt's stop-loss is \(Option.stopLoss) PCT, e.g. \(Option.stopLoss) 5%")
        case "tp-stop", "take-profit", "takeprofit", "target":
            return (.takeProfit, "bt's take-profit is \(Option.takeProfit) PCT, e.g. \(Option.takeProfit) 10%")
        case "allow-short", "shorts", "short-selling":
            return (.short, "bt allows shorts with \(Option.short)")
        default:
            return nil
        }
    }
}
