/// One execution setting as every front end offers it: the command line (`--fee-bps`), the C
/// library (`bt_config.fee_bps`) and btcore (`fee_bps=`) all read this description, so a new
/// setting is one entry in `ExecutionSetting.all` (plus its `bt_config` field).
///
/// The setting's name is its `Setting`'s raw value, snake_case (`fee_bps`, `sl`); help texts
/// name other settings by their `Setting.mention`, which each front end writes its own way
/// (`--short` on the command line, `short=` in Python).
public struct ExecutionSetting: Sendable {
    /// What a value is and how a front end passes it.
    public enum Kind: String, Sendable {
        /// A number (`ExecutionValue.number`); `wholeNumber` when only whole numbers make sense.
        case number
        case wholeNumber = "whole_number"
        /// Text the library parses (`5%`, `2 * atr(14)`, `next-open`).
        case text
        /// Text that may be given several times, kept in order (`--tp 5%@50% --tp 10%`).
        case repeatedText = "repeated_text"
        /// On or off.
        case flag
    }

    /// The value a run takes when the setting is not given.
    public enum Default: Sendable, Equatable {
        /// Nothing: the setting is off until given.
        case none
        /// This value (as the setting's kind writes it: `10000`, `next-open`, `off`).
        case value(String)
        /// A value that depends on the run, in words (`the profile's, else estimated from the bars`).
        case described(String)
    }

    public let setting: Setting
    public let kind: Kind
    /// What the value is, for help (`BPS`, `PCT|EXPR`); empty for flags.
    public let valueName: String
    /// One line, naming other settings by `Setting.mention`.
    public let help: String
    public let defaultValue: Default
    /// The `bt_config` field that carries it, when it is not the setting's name.
    public let field: String?

    public init(_ setting: Setting, _ kind: Kind, valueName: String = "", help: String, default defaultValue: Default = .none,
                field: String? = nil) {
        precondition((kind == .flag) == valueName.isEmpty, "\(setting.rawValue): a value name exactly when the setting takes a value")
        self.setting = setting
        self.kind = kind
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.field = field
    }

    /// The library's name (`fee_bps`).
    public var name: String { setting.rawValue }

    /// The `bt_config` field (`fee_bps`; `allow_short` for `short`).
    public var fieldName: String { field ?? name }

    /// The help line with the settings it mentions written by `name` (a front end's spelling)
    /// and the default said after it: `Fee in basis points of notional (default 10)`.
    public func help(naming name: (Setting) -> String) -> String {
        let out = Setting.worded(help, naming: name)
        switch defaultValue {
        case .none: return out
        case .value(let v): return out + " (default \(v))"
        case .described(let words): return out + " (default: " + Setting.worded(words, naming: name) + ")"
        }
    }

    /// The setting called `name`, if any.
    public static func named(_ name: String) -> ExecutionSetting? { byName[name] }

    /// The setting that gives `setting`, if it is an execution setting.
    public static func of(_ setting: Setting) -> ExecutionSetting? { byName[setting.rawValue] }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

/// A setting's value as a front end gives it.
public enum ExecutionValue: Sendable, Equatable {
    case number(Double)
    case text(String)
    /// The texts of a repeatable setting, in order.
    case texts([String])
    case flag(Bool)
}
