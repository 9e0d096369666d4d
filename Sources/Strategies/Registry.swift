import Backtest

extension Strategy {
    /// Every strategy bt knows, in the order `bt strategies` lists them. One line per strategy.
    public static let all: [Strategy] = [
        .maCross,
        .rsi,
        .macd,
        .bollinger,
        .donchian,
    ]
}
