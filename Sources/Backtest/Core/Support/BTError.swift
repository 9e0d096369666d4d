/// An error caused by the user's input: a file, a setting, a parameter. The CLI exits 2 for these.
///
/// The fields say what went wrong in structured form, so that a front end can word it (the
/// command line names settings by their flags and adds its own advice); `description` is the
/// library's neutral wording: `data.csv:12: high 1 is below max(open, close) 2`,
/// `fee_bps '-3': fee must be in [0, 10000) basis points`.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Situations a front end may want to phrase with its own advice.
    public enum Kind: Sendable, Equatable {
        /// The input is wrong: a file's content, or the value of `setting`.
        case invalid
        /// `setting` must be given (or changed): it cannot be inferred, or its value does not fit.
        case needsSetting
        /// `file` is an output directory that exists and overwriting was not allowed; nothing was written.
        case outputExists
        /// There is no store at `file`.
        case missingStore
        /// The store holds no candles for the symbol `value`.
        case missingSymbol
        /// The store holds no recorded order book for the symbol `value`.
        case missingBook
    }

    public var kind: Kind
    /// The setting whose value is wrong (`.invalid`) or needed (`.needsSetting`).
    public var setting: Setting?
    /// The offending value as given, when it helps to show it.
    public var value: String?
    /// The file or directory the problem is in.
    public var file: String?
    /// The 1-based line in `file`.
    public var line: Int?
    /// Where in a JSON `file` (`"Time Series (Daily)" > "2024-01-02"`), when there is no line.
    public var key: String?
    /// What is wrong, in words a user can act on.
    public var reason: String
    /// Settings that would get past the problem, checked where they can be (an import file read
    /// again with them), in the order to offer them; empty when none is known.
    public var fixes: [Fix] = []

    /// A setting, with its value (nil for a switch), that gets past a problem, and what it does.
    public struct Fix: Sendable, Equatable {
        public var setting: Setting
        public var value: String?
        /// What the fix does, in the library's words (`read one series per symbol`).
        public var purpose: String

        public init(_ setting: Setting, _ value: String? = nil, purpose: String) {
            self.setting = setting
            self.value = value
            self.purpose = purpose
        }
    }

    /// A problem in general, or at a file or directory `path`.
    public init(_ reason: String, at path: String? = nil) {
        self.init(.invalid, reason, file: path)
    }

    /// An error at `file`, line `line` (1-based).
    public init(_ reason: String, file: String, line: Int) {
        self.init(.invalid, reason, file: file, line: line)
    }

    /// An error at `key` of the JSON `file`.
    public init(_ reason: String, file: String, key: String) {
        self.init(.invalid, reason, file: file, key: key)
    }

    /// A bad `value` of `setting`.
    public init(_ reason: String, setting: Setting, value: String? = nil) {
        self.init(.invalid, reason, setting: setting, value: value)
    }

    public init(_ kind: Kind, _ reason: String, setting: Setting? = nil, value: String? = nil,
                file: String? = nil, line: Int? = nil, key: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.setting = setting
        self.value = value
        self.file = file
        self.line = line
        self.key = key
    }

    /// `file`, `file:line` or `file: key ...`.
    public var location: String? {
        guard let file else { return nil }
        if let line { return "\(file):\(line)" }
        if let key { return "\(file): key \(key)" }
        return file
    }

    /// The message with each setting called `name(setting)`: the location, then for a bad
    /// setting its name and value, then the reason. Advice is left to the caller, except the
    /// neutral note of a needed setting in `description`.
    public func message(naming name: (Setting) -> String) -> String {
        var s = location.map { "\($0): " } ?? ""
        if kind == .invalid, let setting {
            // The value as given, but never more than `Excerpt.limit` characters of it.
            s += name(setting) + (value.map { " " + Excerpt.quoted($0) } ?? "") + ": "
        }
        return s + Setting.worded(reason, naming: name)
    }

    /// The message with each setting called `name(setting)` and the neutral note of the
    /// settings that would fix it (`set NAME`).
    public func text(naming name: (Setting) -> String) -> String {
        let text = message(naming: name)
        if !fixes.isEmpty {
            return text + " (" + fixes.map { "\($0.purpose): set \(name($0.setting))" + ($0.value.map { " \($0)" } ?? "") }
                .joined(separator: "; ") + ")"
        }
        if kind == .needsSetting, let setting { return "\(text) (set \(name(setting)))" }
        return text
    }

    public var description: String { text(naming: \.name) }
}

/// A failure inside bt (a database or library call that should not fail). The CLI exits 1 for these.
public struct InternalError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
