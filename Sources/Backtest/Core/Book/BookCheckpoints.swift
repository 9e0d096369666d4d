/// What runs of the engine over one growing recording of a book found, for the runs after
/// them: `bt live` runs the engine again at every close, over the same bars and events plus the
/// new ones (`LivePaperTrader`).
///
/// A fill through a recorded book depends only on the events up to its millisecond and on the
/// fills taken from the book before it. So a run that asks the book what an earlier run asked,
/// after the same fills (the same number, and the same digest of what each asked), gets that
/// run's fill back without replaying anything; and a new fill starts from the furthest replay
/// state an earlier run reached after the same fills, instead of from the first event. A run's
/// fills, and everything else in its result, are those of a run without checkpoints
/// (`LivePaperTraderTests` compare every close with one batch run).
///
/// The recording may only grow at its end, in time order (no event earlier than the last one
/// held). A fill is kept only once the recording holds an event after its millisecond, and a
/// state only where an appended event cannot change it (`BookReplay.canResume`; the replay
/// otherwise starts over), so nothing kept is changed by what is appended later.
package final class BookCheckpoints: Sendable {
    /// The fills taken from the book so far: how many, and a digest of their requests.
    struct Key: Hashable, Sendable {
        var fills = 0
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325

        /// The key after a fill of `request`.
        func after(_ request: Request) -> Key {
            var d = digest
            for word in [UInt64(bitPattern: request.timeMs), request.side == .buy ? 1 : 2, request.quantity.bitPattern,
                         request.notionalLimit.bitPattern, request.lot?.bitPattern ?? 0x7ff8_dead_0000_0001] {
                d = (d ^ word) &* 0x0000_0100_0000_01b3
                d ^= d >> 29
            }
            return Key(fills: fills + 1, digest: d)
        }
    }

    /// What a fill asked of the book.
    struct Request: Equatable, Sendable {
        var side: OrderSide
        var quantity: Double
        var notionalLimit: Double
        var lot: Double?
        var timeMs: Int64
    }

    /// A fill an earlier run took, with the replay's stale-level count at it.
    struct Outcome: Sendable {
        var request: Request
        var fill: BookFill
        var staleLevelsDropped: Int
    }

    /// The furthest replay state known after some fills, with the last millisecond it applied
    /// and when it was remembered.
    struct Reached: Sendable {
        var throughMs: Int64
        var state: BookReplay.State
        var serial = 0
    }

    private let outcomes = Locked<[Key: Outcome]>([:])
    private let states = Locked<(states: [Key: Reached], serial: Int)>(([:], 0))

    package init() {}

    /// Replays `events` as a run that has taken no fill would, through all but their last
    /// millisecond, for the first run to start from.
    package func seed(_ events: [BookEvent]) {
        guard let last = events.last?.timeMs else { return }
        var replay = BookReplay(events)
        replay.advance(through: last &- 1)
        remember(replay.state, throughMs: last &- 1, after: Key())
    }

    /// The fill an earlier run took after the fills of `key`.
    func outcome(after key: Key) -> Outcome? { outcomes.withLock { $0[key] } }

    func record(_ outcome: Outcome, after key: Key) { outcomes.withLock { $0[key] = outcome } }

    /// The furthest state known after the fills of `key`.
    func reached(after key: Key) -> Reached? { states.withLock { $0.states[key] } }

    /// Removes and returns the state kept for `key` (to advance it without a copy and keep it
    /// again).
    func take(after key: Key) -> Reached? { states.withLock { $0.states.removeValue(forKey: key) } }

    /// Keeps `state` for `key` unless a state further on is kept. Only the `statesKept` states
    /// remembered last are kept (a book each): a run needs the state after the fills it shares
    /// with the run before, which that run remembered last, and without one it replays from the
    /// first event with the fills kept.
    func remember(_ state: BookReplay.State, throughMs: Int64, after key: Key) {
        states.withLock { kept in
            if let known = kept.states[key], known.throughMs >= throughMs { return }
            kept.serial += 1
            kept.states[key] = Reached(throughMs: throughMs, state: state, serial: kept.serial)
            if kept.states.count > 2 * Self.statesKept {
                let oldest = kept.serial - Self.statesKept
                kept.states = kept.states.filter { $0.value.serial > oldest }
            }
        }
    }

    /// How many states are kept.
    static let statesKept = 16

    /// The states kept now.
    var keptStates: Int { states.withLock { $0.states.count } }
}
