import BacktestCore

/// How an adjusted close rewrites a bar (Yahoo's convention, `ImportOptions.adjusted`): open,
/// high and low are scaled by k = adjusted close / close, the close becomes the adjusted close,
/// and the volume is divided by k, so volume x close, the notional traded in the bar, stays what
/// the raw bar says. A 2:1 split before the bar halves its adjusted prices and doubles its
/// adjusted volume; a participation cap (a share of the bar's volume) then allows the same
/// notional on adjusted prices as on raw ones. A missing (NaN) or zero volume stays as it is.
enum PriceAdjustment {
    /// The bar `open`...`volume` adjusted to `adjusted`, nil when the close is 0 or the adjusted
    /// close is not a positive number (no ratio can be taken).
    static func apply(adjusted: Double, open: inout Double, high: inout Double, low: inout Double, close: inout Double,
                      volume: inout Double) -> Bool {
        guard close != 0, adjusted > 0, adjusted.isFinite else { return false }
        let k = adjusted / close
        open *= k; high *= k; low *= k; close = adjusted
        volume /= k
        return true
    }

    /// The reason `apply` refused a bar, naming the adjusted close as the file calls it.
    static func refusal(close: Double, adjustedName name: String) -> String {
        close == 0 ? "close is 0, cannot apply \(name)" : "\(name) must be a positive number to scale the bar by it"
    }
}
