import BacktestAnalysis
import BacktestCore

/// An execution request's resources from the candle store and the file system: the store's
/// recorded books, stored depth profiles, funding rows and instrument settings, the store opened
/// once, when a run first needs it, and depth profile files (`DepthProfileJSON`).
public final class StoreExecutionResources: ExecutionResources {
    private let open: () throws -> CandleStore?
    private var opened: CandleStore??

    /// `store` opens the store, or gives nil when there is none (no stored profile is used then,
    /// and a depth book is refused, naming the store setting).
    public init(store: @escaping () throws -> CandleStore?) {
        open = store
    }

    private func store() throws -> CandleStore? {
        if let opened { return opened }
        let s = try open()
        opened = .some(s)
        return s
    }

    public func bookEvents(symbol: String) throws -> [BookEvent] {
        guard let store = try store() else {
            throw InputError(.needsSetting, "the recorded book (\(Setting.depth.mention) book) needs the store that holds \(symbol)",
                             setting: .store)
        }
        return try store.bookEvents(symbol: symbol)
    }

    public func storedDepthProfile(symbol: String) throws -> DepthProfile? {
        try store()?.depthProfile(symbol: symbol)
    }

    public func funding(symbol: String, fromMs: Int64) throws -> [FundingRate] {
        try store()?.funding(symbol: symbol, in: fromMs...Int64.max) ?? []
    }

    /// No store (`InputError.Kind.missingStore`: a live run or a C caller without one) has none.
    public func instrumentSettings(symbol: String) throws -> [Setting: ExecutionValue] {
        do {
            return try store()?.instrumentSettings(symbol: symbol) ?? [:]
        } catch let e as InputError where e.kind == .missingStore {
            return [:]
        }
    }

    public func depthProfile(file path: String) throws -> DepthProfile {
        try DepthProfileJSON.read(path: path)
    }
}
