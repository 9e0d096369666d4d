/// An error caused by the user's input: a file, an option, a parameter. The CLI exits 2 for these.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Where the problem is: a file path, optionally with a line (`data.csv:12`) or a JSON key.
    public var location: String?
    /// What is wrong, in words a user can act on.
    public var reason: String

    public init(_ reason: String, at location: String? = nil) {
        self.reason = reason
        self.location = location
    }

    /// An error at `file`, line `line` (1-based).
    public init(_ reason: String, file: String, line: Int) {
        self.init(reason, at: "\(file):\(line)")
    }

    public var description: String {
        if let location { return "\(location): \(reason)" }
        return reason
    }
}

/// A failure inside bt (a database or library call that should not fail). The CLI exits 1 for these.
public struct InternalError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
