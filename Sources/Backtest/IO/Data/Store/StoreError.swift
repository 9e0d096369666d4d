import BacktestAnalysis
import BacktestCore

/// The store could not do what was asked: its file is damaged, locked by another writer, out of
/// space or not writable. Nothing was changed when this is thrown. (A path that is not a bt store
/// at all is an `InputError` of setting `.store`.)
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The file's content is broken: SQLite's own checks, or bt's on load (a chunk whose
        /// columns differ in length, a count that does not match the chunks, times out of order).
        case damaged
        /// Another connection held the write lock for longer than the wait.
        case busy
        /// The disk or quota is full.
        case full
        /// The file or its directory cannot be opened or written with the access asked for.
        case access
        /// Any other failure.
        case failed
    }

    public var kind: Kind
    /// The store file.
    public var path: String
    /// The series concerned (`GOOG 1d`), when one is.
    public var series: String?
    public var reason: String
    /// SQLite's extended result code, 0 for bt's own checks.
    var code: Int32 = 0

    public init(_ kind: Kind, path: String, series: String? = nil, reason: String) {
        self.kind = kind
        self.path = path
        self.series = series
        self.reason = reason
    }

    public var description: String {
        var s = path + ": "
        if kind == .damaged { s += "the store is damaged: " }
        if let series { s += "series \(series): " }
        return s + reason
    }
}
