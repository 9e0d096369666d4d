/// How a quoting strategy is replayed against recorded events (`EventReplay`).
package struct ReplaySettings: Sendable {
    /// Local time between strategy steps, nanoseconds.
    package var everyNs: Int64
    /// Quantity of each quote.
    package var quoteSize: Double
    /// The largest position either way; a side is quoted only while a fill of `quoteSize` keeps
    /// the position (counting the fills seen) within it.
    package var maxPosition: Double
    package var latency: ReplayLatency
    package var queue: QueueModel
    /// Whether a quote fills whole or in pieces at its price (`--fills`).
    package var fills: FillModel
    /// Maker fee in basis points of a fill's notional; negative: a rebate.
    package var makerBps: Double
    /// The quantity step: fills come in whole lots, and a queue must be passed by half a lot.
    package var lot: Double
    /// Events before this time (UTC ms) only build the book: the first step is at the first
    /// event at or after it. Nil: the first event.
    package var startMs: Int64?

    /// - Throws: `InputError` naming the setting: `every` not positive, a quote size below the
    ///   lot, a maximum position below the quote size, a lot that is not positive.
    package init(everyNs: Int64, quoteSize: Double, maxPosition: Double, latency: ReplayLatency,
                queue: QueueModel = .riskAverse, fills: FillModel = .whole, makerBps: Double = 0, lot: Double, startMs: Int64? = nil) throws {
        guard everyNs > 0 else { throw InputError("the step must be longer than 0", setting: .every, value: "\(everyNs)ns") }
        guard lot.isFinite, lot > 0 else { throw InputError("the lot must be a positive number", setting: .lot, value: "\(lot)") }
        guard quoteSize.isFinite, quoteSize >= lot * (1 - 1e-9) else {
            throw InputError("the quote size \(quoteSize) is below the lot \(lot)", setting: .quoteSize, value: "\(quoteSize)")
        }
        guard maxPosition.isFinite, maxPosition >= quoteSize else {
            throw InputError("the maximum position \(maxPosition) is below the quote size \(quoteSize)", setting: .maxPosition, value: "\(maxPosition)")
        }
        guard makerBps.isFinite else { throw InputError("the maker fee must be a number", setting: .makerBps, value: "\(makerBps)") }
        self.everyNs = everyNs
        self.quoteSize = quoteSize
        self.maxPosition = maxPosition
        self.latency = latency
        self.queue = queue
        self.fills = fills
        self.makerBps = makerBps
        self.lot = lot
        self.startMs = startMs
    }

    /// Quantity in whole lots.
    func lots(_ quantity: Double) -> Int64 { Int64((quantity / lot).rounded()) }
}
