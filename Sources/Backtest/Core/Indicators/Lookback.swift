extension Indicators {
    /// Warm-up lengths: how many leading outputs are NaN. Each equals TA-Lib's
    /// `TA_<NAME>_Lookback` for the same parameters with unstable periods 0.
    public enum Lookback {
        /// `period - 1`
        public static func sma(period: Int) -> Int { period - 1 }
        /// `period - 1` (the first value is the SMA seed)
        public static func ema(period: Int) -> Int { period - 1 }
        /// `period - 1`
        public static func wma(period: Int) -> Int { period - 1 }
        /// `period` (one bar to form the first change)
        public static func rsi(period: Int) -> Int { period }
        /// `slow - 1 + signal - 1` (33 for 12/26/9), for all three outputs
        public static func macd(fast: Int, slow: Int, signal: Int) -> Int { (slow - 1) + (signal - 1) }
        /// `period - 1`
        public static func bollinger(period: Int) -> Int { period - 1 }
        /// `period` (one bar for the first true range)
        public static func atr(period: Int) -> Int { period }
        /// `(fastK - 1) + (slowK - 1) + (slowD - 1)` (17 for 14/3/3), for both outputs
        public static func stochastic(fastK: Int, slowK: Int, slowD: Int) -> Int { (fastK - 1) + (slowK - 1) + (slowD - 1) }
        /// `period`
        public static func roc(period: Int) -> Int { period }
        /// `0`
        public static func obv() -> Int { 0 }
        /// `period - 1`
        public static func williamsR(period: Int) -> Int { period - 1 }
        /// `period - 1`
        public static func cci(period: Int) -> Int { period - 1 }
        /// `2 * period - 1` (27 for 14)
        public static func adx(period: Int) -> Int { 2 * period - 1 }
        /// `period - 1`
        public static func stddev(period: Int) -> Int { period - 1 }
        /// `period - 1`
        public static func donchian(period: Int) -> Int { period - 1 }
        /// `period - 1`
        public static func vwap(period: Int) -> Int { period - 1 }
    }

    /// Non-allocating computations for sweeps: each writes into caller-owned output buffers of the
    /// input's length (warm-up included). Inputs must be finite: unlike the array API there is no
    /// gap handling, and a NaN propagates as IEEE arithmetic takes it. Parameters are checked with
    /// `precondition` (validate them once, e.g. through the array API or `IndicatorSpec`).
    public enum Kernel {}
}
