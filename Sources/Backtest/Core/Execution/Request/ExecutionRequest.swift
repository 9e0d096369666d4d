/// A run's execution settings by name, as a front end was given them, and the one place that
/// turns them into the engine's `ExecutionConfig` (`configuration(for:...)`).
///
/// The command line, the C library and btcore each fill a request by setting name
/// (`ExecutionSetting.all`) and word its errors their own way: the library's errors name the
/// `Setting` (`InputError.setting`, `Setting.mention`), never a flag.
public struct ExecutionRequest: Sendable {
    /// The values given, by setting (absent: the setting's default).
    public private(set) var values: [Setting: ExecutionValue] = [:]
    /// The settings this request takes: `ExecutionSetting.all` (tests add one to see it reach
    /// every front end).
    private let settings: [ExecutionSetting]

    public init(settings: [ExecutionSetting] = ExecutionSetting.all) {
        self.settings = settings
    }

    /// Gives the setting called `name` (an `ExecutionSetting` name such as `fee_bps`).
    /// - Throws: `InputError` for a name that is no execution setting (with the closest one), or
    ///   a value of another kind than the setting's.
    public mutating func set(_ name: String, _ value: ExecutionValue) throws {
        guard let spec = settings.first(where: { $0.name == name }) else {
            let hint = Suggest.closest(to: name, among: settings.map(\.name)).map { " (did you mean \($0)?)" } ?? ""
            throw InputError("'\(Excerpt.shortened(name, limit: 40))' is not an execution setting\(hint)")
        }
        try set(spec, value)
    }

    /// Gives `setting`, which must be an execution setting.
    public mutating func set(_ setting: Setting, _ value: ExecutionValue) throws {
        guard let spec = settings.first(where: { $0.setting == setting }) else {
            preconditionFailure("\(setting.name) is not an execution setting")
        }
        try set(spec, value)
    }

    private mutating func set(_ spec: ExecutionSetting, _ value: ExecutionValue) throws {
        switch (spec.kind, value) {
        case (.number, .number), (.text, .text), (.flag, .flag), (.repeatedText, .texts):
            values[spec.setting] = value
        case (.wholeNumber, .number(let v)):
            // Its range is the configuration's to check (`SyntheticDepth.validate`).
            guard v.rounded() == v else {
                throw InputError("not a whole number", setting: spec.setting, value: NumberText.shortest(v))
            }
            values[spec.setting] = value
        case (.repeatedText, .text(let t)):
            values[spec.setting] = .texts((texts(spec.setting) ?? []) + [t])
        default:
            throw InputError("takes \(Self.describe(spec.kind)), not \(Self.describe(value))", setting: spec.setting)
        }
    }

    private static func describe(_ kind: ExecutionSetting.Kind) -> String {
        switch kind {
        case .number: "a number"
        case .wholeNumber: "a whole number"
        case .text: "text"
        case .repeatedText: "text, or a list of texts"
        case .flag: "true or false"
        }
    }

    private static func describe(_ value: ExecutionValue) -> String {
        switch value {
        case .number: "a number"
        case .text: "text"
        case .texts: "a list of texts"
        case .flag: "true or false"
        }
    }

    public func number(_ setting: Setting) -> Double? {
        if case .number(let v)? = values[setting] { return v } else { return nil }
    }

    /// A whole-number setting (checked when set); beyond `Int`'s range (`Int.max` as a
    /// `Double` rounds past it) it is `Int.max` or `Int.min`.
    public func wholeNumber(_ setting: Setting) -> Int? {
        number(setting).map { $0 >= Double(Int.max) ? Int.max : $0 <= Double(Int.min) ? Int.min : Int($0) }
    }

    public func text(_ setting: Setting) -> String? {
        if case .text(let t)? = values[setting] { return t } else { return nil }
    }

    public func texts(_ setting: Setting) -> [String]? {
        if case .texts(let t)? = values[setting] { return t } else { return nil }
    }

    public func flag(_ setting: Setting) -> Bool {
        if case .flag(let f)? = values[setting] { return f } else { return false }
    }

    /// The order and exit settings given, as the library's (in the table's order; a target may
    /// be given several times).
    public var orderSettings: OrderSettings {
        OrderSettings(ExecutionSetting.all.filter { Self.orderSettingNames.contains($0.setting) }.flatMap { spec in
            (texts(spec.setting) ?? text(spec.setting).map { [$0] } ?? [])
                .map { OrderSettings.Item(spec.setting, $0, origin: .setting(spec.setting)) }
        })
    }

    private static let orderSettingNames = Set(OrderSettings.exitSettings + OrderSettings.orderSettings)
}
