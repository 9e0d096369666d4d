import BacktestCore

/// A local order book kept in step with Binance's diff stream, by Binance's documented
/// procedure ("How to manage a local order book correctly"):
///
/// 1. Buffer the diffs as they arrive; ask for a REST snapshot once one is buffered.
/// 2. A snapshot older than the stream (`lastUpdateId + 1 < U` of the first buffered diff)
///    cannot be joined to it: it is dropped and another is asked for.
/// 3. Buffered diffs with `u <= lastUpdateId` are dropped.
/// 4. The first diff applied must straddle `lastUpdateId + 1` (`U <= lastUpdateId + 1 <= u`).
/// 5. Every later diff must start at the previous `u + 1`; a gap means a resync: the book is
///    unknown from that diff on, and the procedure starts again from step 1 with it.
///
/// The USD-M futures market's procedure (`DepthProcedure.futures`) differs in the joins: its
/// ids are not consecutive, so step 3 drops diffs with `u < lastUpdateId`, step 4's first diff
/// has `U <= lastUpdateId <= u`, and step 5 checks each diff's `pu` against the previous `u`.
///
/// The book is the library's `OrderBook`: the diffs' quantities are absolute and 0 removes a
/// level. What the book went through is kept as `BookEvent`s for the store and the execution
/// core (`takeRecorded`): the snapshot, stamped with the event time of the first diff applied
/// on it, then each diff applied; a gap or a lost connection records an empty snapshot (the book
/// is unknown until the next sync), so a replay of the record fills nothing in that time, as the
/// live session could not. Times never go backwards in the record.
///
/// Each recorded event also keeps the local time at which the book took it (`BookEvent.localNs`,
/// given with each call): a diff applied on arrival its arrival; at a join, the snapshot and the
/// buffered diffs applied with it the time of the call that joined them (the later of the
/// snapshot's and the straddling diff's arrival: the book was not known before); an empty
/// snapshot for a gap or a loss the time of the call that found it.
package struct DepthSync: Sendable {
    package enum State: Equatable, Sendable {
        /// Waiting for the first diff of a (re)subscription.
        case waitingForDiff
        /// Diffs buffered; a snapshot is wanted (or one is held waiting for the diff that joins it).
        case needsSnapshot
        case synced
    }

    package private(set) var state = State.waitingForDiff
    /// How diffs join a snapshot and each other.
    package let procedure: DepthProcedure
    /// The live book; meaningful when `state == .synced`.
    package private(set) var book = OrderBook()
    /// `u` of the last diff applied.
    package private(set) var lastUpdateId: Int64 = 0
    /// Event time of the last diff applied.
    package private(set) var lastEventMs: Int64 = 0
    private var buffer: [DepthDiff] = []
    /// A snapshot waiting for the diff that straddles it.
    private var held: DepthSnapshot?
    private var recorded: [BookEvent] = []
    private var recordedUntilMs = Int64.min
    /// The local time (UTC ns) given with the call being handled, for the events it records.
    private var callNs: Int64?

    // Counters, for the summary.
    package private(set) var syncs = 0
    /// Gaps in the diff stream (`U != previous u + 1`), each followed by a resync.
    package private(set) var gaps = 0
    /// Snapshots that could not be joined to the stream (too old, or no diff straddled them).
    package private(set) var snapshotsRefused = 0
    /// Buffered diffs dropped as already in a snapshot (`u <= lastUpdateId`).
    package private(set) var diffsDropped = 0
    package private(set) var diffsApplied = 0
    /// Diffs buffered beyond this are dropped from the front (a snapshot that never comes must
    /// not grow memory for ever); the next snapshot then cannot join and is retried.
    package static let bufferLimit = 100_000

    package init(procedure: DepthProcedure = .spot) {
        self.procedure = procedure
    }

    /// Whether a REST snapshot should be fetched now.
    package var wantsSnapshot: Bool { state == .needsSnapshot && held == nil }

    /// Takes the events recorded since the last call, in time order.
    package mutating func takeRecorded() -> [BookEvent] {
        defer { recorded.removeAll(keepingCapacity: true) }
        return recorded
    }

    /// Receives one diff, which arrived at `localNs` (UTC ns; nil: not kept). Returns true when
    /// it was applied to the live book.
    @discardableResult
    package mutating func receive(_ diff: DepthDiff, localNs: Int64? = nil) -> Bool {
        callNs = localNs
        switch state {
        case .synced:
            guard procedure.follows(diff, lastId: lastUpdateId) else {
                gaps += 1
                lose(atMs: diff.eventMs)
                buffer.append(diff)
                state = .needsSnapshot
                return false
            }
            apply(diff)
            return true
        case .waitingForDiff, .needsSnapshot:
            if buffer.count >= Self.bufferLimit { buffer.removeFirst(buffer.count / 2) }
            buffer.append(diff)
            state = .needsSnapshot
            if held != nil { return tryJoin() }
            return false
        }
    }

    /// Receives a REST snapshot asked for while `wantsSnapshot`. Returns true when the book is
    /// synced; false when the snapshot is held for a later diff or refused (then `wantsSnapshot`
    /// is true again).
    @discardableResult
    package mutating func receive(_ snapshot: DepthSnapshot, localNs: Int64? = nil) -> Bool {
        callNs = localNs
        guard state == .needsSnapshot else { return state == .synced }
        held = snapshot
        return tryJoin()
    }

    /// The connection was lost (or the stream went stale): the book is unknown from just after
    /// the last diff applied, and the next subscription starts the procedure again.
    package mutating func disconnected(localNs: Int64? = nil) {
        callNs = localNs
        if state == .synced { lose(atMs: lastEventMs &+ 1) }
        buffer.removeAll(keepingCapacity: true)
        held = nil
        state = .waitingForDiff
    }

    // MARK: - Steps

    /// Steps 2 to 5 with the held snapshot and the buffer.
    private mutating func tryJoin() -> Bool {
        guard let snap = held, let first = buffer.first else { return false }
        let next = procedure.joinId(snap.lastUpdateId)
        if next < first.firstId {
            // The snapshot is older than the first diff buffered: they cannot be joined.
            refuse()
            return false
        }
        var k = 0
        while k < buffer.count, buffer[k].lastId < next { k += 1 }
        diffsDropped += k
        buffer.removeFirst(k)
        guard let straddling = buffer.first else { return false }  // wait for a newer diff
        guard straddling.firstId <= next && next <= straddling.lastId else {
            refuse()
            return false
        }
        book = OrderBook(bids: snap.bids, asks: snap.asks)
        record(BookEvent(timeMs: straddling.eventMs, kind: .snapshot, bids: snap.bids, asks: snap.asks))
        held = nil
        syncs += 1
        state = .synced
        lastUpdateId = snap.lastUpdateId
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        for (k, diff) in pending.enumerated() {
            if k > 0 && !procedure.follows(diff, lastId: lastUpdateId) {
                // A gap inside the buffer: resync from this diff on.
                gaps += 1
                lose(atMs: diff.eventMs)
                state = .needsSnapshot
                buffer = Array(pending[k...])
                return false
            }
            apply(diff)
        }
        return true
    }

    private mutating func refuse() {
        snapshotsRefused += 1
        held = nil
    }

    private mutating func apply(_ diff: DepthDiff) {
        let event = BookEvent(timeMs: diff.eventMs, kind: .update, bids: diff.bids, asks: diff.asks)
        // Levels set without the O(n) debug check each time; it runs every 4,096 diffs.
        for level in diff.bids { book.setUnchecked(.buy, price: level.price, quantity: level.quantity) }
        for level in diff.asks { book.setUnchecked(.sell, price: level.price, quantity: level.quantity) }
        if diffsApplied & 4095 == 0 { book.checkInvariants() }
        lastUpdateId = diff.lastId
        lastEventMs = max(lastEventMs, diff.eventMs)
        diffsApplied += 1
        record(event)
    }

    /// The book is unknown from `timeMs` on.
    private mutating func lose(atMs timeMs: Int64) {
        record(BookEvent(timeMs: timeMs, kind: .snapshot, bids: [], asks: []))
        book = OrderBook()
    }

    private mutating func record(_ event: BookEvent) {
        var e = event
        e.timeMs = max(e.timeMs, recordedUntilMs)
        e.localNs = callNs
        recordedUntilMs = e.timeMs
        recorded.append(e)
    }
}

/// How a market's depth diffs join a snapshot and each other (`DepthSync`).
package enum DepthProcedure: Sendable {
    /// Spot: consecutive ids; the first diff applied holds `lastUpdateId + 1`.
    case spot
    /// USD-M futures: each diff names the previous one's `u` (`pu`); the first diff applied
    /// holds `lastUpdateId` itself.
    case futures

    /// The id the first diff applied on a snapshot of `lastUpdateId` must hold (`U <= id <= u`);
    /// buffered diffs ending before it are dropped.
    func joinId(_ lastUpdateId: Int64) -> Int64 { self == .spot ? lastUpdateId &+ 1 : lastUpdateId }

    /// Whether `diff` continues a book whose last applied diff ended at `lastId`.
    func follows(_ diff: DepthDiff, lastId: Int64) -> Bool {
        self == .spot ? diff.firstId == lastId &+ 1 : diff.previousId == lastId
    }
}
