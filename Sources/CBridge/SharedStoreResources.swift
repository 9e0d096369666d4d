import Backtest
import Foundation

/// The store a `bt_config.db` names, opened once per process and shared by every backtest that
/// names it, instead of once per call: opening checks the file, its length and its schema, which
/// costs about 2 ms, three times a 1,000-bar backtest, and a notebook's loop pays it every call.
///
/// Every query still reads the store as it is (SQLite sees other processes' commits), so an
/// import between two calls is seen by the second. The file is reopened when it is replaced:
/// each call compares the path's device, inode and status-change time with the ones it was
/// opened at (a new file, or one written since, is opened and checked again). Calls are
/// serialized per store by a lock, so threads may share it; an idle connection holds no lock on
/// the file, so writers beside it are not blocked.
final class SharedStoreResources: ExecutionResources, @unchecked Sendable {
    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64, changedSeconds: Int, changedNanoseconds: Int

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            changedSeconds = info.st_ctim.tv_sec
            changedNanoseconds = info.st_ctim.tv_nsec
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: [String: SharedStoreResources] = [:]

    /// The shared resources of the store at `path`.
    static func of(path: String) -> SharedStoreResources {
        lock.lock(); defer { lock.unlock() }
        if let known = shared[path] { return known }
        let made = SharedStoreResources(path: path)
        shared[path] = made
        return made
    }

    private let path: String
    private let lock = NSLock()
    private var current: (identity: Identity, resources: StoreExecutionResources)?

    private init(path: String) {
        self.path = path
    }

    /// `body` on the store's resources as the file now is, under the lock. A path that holds
    /// no file gets fresh resources each call, so the error is the one opening gives.
    private func using<T>(_ body: (StoreExecutionResources) throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        let path = path
        guard let identity = Identity(path: path) else {
            current = nil
            return try body(StoreExecutionResources(store: { try CandleStore(existingAt: path) }))
        }
        if let current, current.identity == identity { return try body(current.resources) }
        let resources = StoreExecutionResources(store: { try CandleStore(existingAt: path) })
        current = (identity, resources)
        return try body(resources)
    }

    func bookEvents(symbol: String) throws -> [BookEvent] {
        try using { try $0.bookEvents(symbol: symbol) }
    }

    func storedDepthProfile(symbol: String) throws -> DepthProfile? {
        try using { try $0.storedDepthProfile(symbol: symbol) }
    }

    func depthProfile(file path: String) throws -> DepthProfile {
        try DepthProfileJSON.read(path: path)
    }

    func funding(symbol: String, fromMs: Int64) throws -> [FundingRate] {
        try using { try $0.funding(symbol: symbol, fromMs: fromMs) }
    }

    func instrumentSettings(symbol: String) throws -> [Setting: ExecutionValue] {
        try using { try $0.instrumentSettings(symbol: symbol) }
    }
}
