/// One command-line option, declared once as a static constant in `Options.swift`
/// (swift-driver's `SwiftOptions/Options.swift`): command tables list constants and
/// `ParsedArguments` is queried by constant, so a misspelt option does not compile.
///
/// Two options are the same option when they have the same spelling; a command table may give a
/// constant its own help text with `withHelp(_:valueName:)`.
struct Option: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE` or `--name=VALUE`, at most once.
        case value
        /// `--name VALUE`, as often as wanted; the values are kept in order.
        case repeated
    }

    /// The spelling without the leading `--`.
    let name: String
    let kind: Kind
    /// What the value is, for help (`AMOUNT`, `DIR`); empty for flags.
    let valueName: String
    let helpText: String

    init(_ name: String, kind: Kind, valueName: String = "", help: String) {
        precondition(!name.hasPrefix("-"), "option names are declared without dashes: \(name)")
        precondition((kind == .flag) == valueName.isEmpty, "--\(name): a value name exactly when the option takes a value")
        self.name = name
        self.kind = kind
        self.valueName = valueName
        self.helpText = help
    }

    /// The same option with this command's help text (and value name).
    func withHelp(_ text: String, valueName: String? = nil) -> Option {
        Option(name, kind: kind, valueName: valueName ?? self.valueName, help: text)
    }

    /// `--name VALUE ...`, as help shows the option.
    var synopsis: String { "--\(name)" + (kind == .flag ? "" : " \(valueName)") + (kind == .repeated ? " ..." : "") }

    /// `--name`, as the user types it.
    var description: String { "--\(name)" }

    static func == (a: Option, b: Option) -> Bool { a.name == b.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
