/// One price level of an order book.
public struct BookLevel: Equatable, Sendable, Codable {
    public var price: Double
    public var quantity: Double
    public init(price: Double, quantity: Double) {
        self.price = price
        self.quantity = quantity
    }
}

/// One recorded L2 depth message: a full snapshot, or an update where quantity 0 removes a level.
public struct BookEvent: Equatable, Sendable {
    public enum Kind: String, Sendable, Codable { case snapshot, update }
    /// UTC milliseconds since the epoch. Books keep milliseconds end to end (import, store,
    /// replay): a fill at time T sees only events at or before T.
    public var timeMs: Int64
    public var kind: Kind
    public var bids: [BookLevel]
    public var asks: [BookLevel]
    /// When the recorder received it, UTC nanoseconds on the recording machine's clock: kept by
    /// a `bt live` recording, nil for imported books (one timestamp, the exchange's). An event
    /// replay's feed latency is `localNs - timeMs x 10^6`.
    public var localNs: Int64?
    public init(timeMs: Int64, kind: Kind, bids: [BookLevel], asks: [BookLevel], localNs: Int64? = nil) {
        self.timeMs = timeMs
        self.kind = kind
        self.bids = bids
        self.asks = asks
        self.localNs = localNs
    }
}
