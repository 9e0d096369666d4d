/// One recorded trade print, at millisecond precision.
public struct TradePrint: Equatable, Sendable {
    /// UTC milliseconds since the epoch.
    public var timeMs: Int64
    public var price: Double
    public var quantity: Double
    /// The taker's side when the source says (`"side": "buy"`, Binance's `"m"`), nil otherwise.
    public var side: OrderSide?
    /// When the recorder received it, UTC nanoseconds on the recording machine's clock: kept by
    /// a `bt live` recording, nil for imported prints (`BookEvent.localNs`).
    public var localNs: Int64?

    public init(timeMs: Int64, price: Double, quantity: Double, side: OrderSide? = nil, localNs: Int64? = nil) {
        self.timeMs = timeMs
        self.price = price
        self.quantity = quantity
        self.side = side
        self.localNs = localNs
    }
}
