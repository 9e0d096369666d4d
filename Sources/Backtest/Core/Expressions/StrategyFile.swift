/// A strategy written in a small text file: name, summary, typed parameters and the rules as
/// expressions.
///
///     # Moving-average crossover.
///     name = ma-cross
///     summary = Enter when the fast average crosses above the slow one, exit on the cross below
///
///     [params]
///     fast = int 10 >= 1 : Fast moving-average period
///     slow = int 30 >= 2 : Slow moving-average period (> fast)
///     type = sma|ema sma : Moving-average type
///
///     [rules]
///     entry = cross_above($type(close, $fast), $type(close, $slow))
///     exit = cross_below($type(close, $fast), $type(close, $slow))
///     require = $fast < $slow
///
/// Lines are `key = value`; `#` starts a comment line; blank lines are ignored. Before any
/// section: `name` (default: the file name without `.bt`) and `summary`. `[params]`: one line
/// per parameter, `NAME = TYPE DEFAULT [BOUND]... [: HELP]`, TYPE `int`, `number` or a choice
/// `a|b|c` (each a function name, so `$type(close, 10)` calls it), bounds `>= x`, `> x`,
/// `<= x`, `< x`. `[rules]`: `entry` and `exit`, `short_entry` and `short_exit` (either pair or both), and any
/// number of `require` lines (conditions on parameters only). A rule continues on following
/// lines that start with whitespace. Rules may read position series (`trade_return`, ...),
/// which `SignalRules` compiles into `PositionRule`s. `[exits]`: `sl`, `tp` (several targets
/// separated by commas: `5%@50%, 10%`), `trail`, `breakeven`, `exit_after`; `[orders]`:
/// `entry_limit`, `entry_stop`, `short_entry_limit`, `short_entry_stop`, `order_bars`,
/// `pyramid`: the forms of the command line's options (`OrderSettings`), which override them.
/// `[account]`: the account and its costs (`accountSettings`: `leverage`, `margin`,
/// `instrument`, `multiplier`, `mmr`, `liq_fee_bps`, `margin_rate`, `borrow_bps` and the fee settings), in the
/// forms of the command line's options, which override them too.
///
///     [exits]
///     sl = 2 * atr(14)
///     tp = 5%@50%, 10%
///     trail = 8%
///
///     [orders]
///     entry_limit = close * 0.99
///     order_bars = 3
///
/// `StrategyFile(parsing:path:)` takes untrusted text: it never traps and throws only
/// `InputError` with `path` and the 1-based line.
public struct StrategyFile: Sendable {
    /// A bound on a number: `>= 1` is `Bound(1, inclusive: true)` below.
    public struct Bound: Sendable, Equatable {
        public var value: Double
        public var inclusive: Bool

        public init(_ value: Double, inclusive: Bool) {
            self.value = value
            self.inclusive = inclusive
        }
    }

    public struct Parameter: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case int, number
            case choice([String])
        }

        public var name: String
        public var kind: Kind
        public var defaultValue: ExpressionValue
        public var lower: Bound?
        public var upper: Bound?
        public var help: String
        /// 1-based line in the file.
        public var line: Int
    }

    public var path: String
    public var name: String
    public var summary: String
    public var parameters: [Parameter]
    public var rules: SignalRules
    /// The `[exits]` and `[orders]` sections, checked against the parameters' defaults.
    public var orders: OrderSettings
    /// The `[account]` section, in the file's order (checked when a run builds its configuration).
    public var account: [OrderSettings.Item]

    /// The settings an `[account]` section may give (docs/design/orders.md, "Fees", "Borrow", "Margin").
    public static let accountSettings: [Setting] = [.leverage, .margin, .instrument, .multiplier, .mmr, .liqFeeBps, .marginRate,
                                                    .borrowBps, .feeBps, .makerBps, .feePerUnit, .feeMin, .feeMax]

    /// The sections a file may have, in the order they are documented.
    public static let sections = ["params", "rules", "exits", "orders", "account"]

    /// File extension of strategy files.
    public static let fileExtension = "bt"

    /// Parses a strategy file's text; `path` names it in errors and gives the default name.
    /// - Throws: `InputError` with `path` and line: a line that is not `key = value`, an unknown
    ///   or repeated key or section, a bad parameter declaration, an expression error (with a
    ///   caret), a missing entry or exit rule.
    public init(parsing text: String, path: String) throws {
        self.path = path
        var name: String?
        var summary = ""
        var parameters: [Parameter] = []
        var rules: [SignalRules.Role: (text: String, line: Int)] = [:]
        var requirements: [(text: String, line: Int)] = []
        var orderItems: [OrderSettings.Item] = [], accountItems: [OrderSettings.Item] = []
        var section = ""
        var seenSections: Set<String> = []
        var seenKeys: Set<String> = []
        /// Where a continuation line goes: a rule or a requirement.
        enum Open { case rule(SignalRules.Role), requirement(Int) }
        var open: Open?

        func fail(_ reason: String, _ line: Int) -> InputError { InputError(reason, file: path, line: line) }

        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { String($0) }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        for (k, raw) in lines.enumerated() {
            let number = k + 1
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if let first = line.first, first.isWhitespace {
                switch open {
                case .rule(let role)?: rules[role]!.text += "\n" + trimmed
                case .requirement(let i)?: requirements[i].text += "\n" + trimmed
                case nil: throw fail("an indented line continues a rule, but there is no rule above it", number)
                }
                continue
            }
            open = nil
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]") else { throw fail("a section header is '[name]', got '\(trimmed)'", number) }
                let s = String(trimmed.dropFirst().dropLast()).trimmingWhitespace()
                let known = Self.sections
                guard known.contains(s) else {
                    let hint = Suggest.closest(to: s, among: known).map { "; did you mean '[\($0)]'?" } ?? ""
                    throw fail("unknown section '[\(s)]'\(hint) (sections: [params], [rules], [exits], [orders], [account])", number)
                }
                guard seenSections.insert(s).inserted else { throw fail("section '[\(s)]' appears twice", number) }
                section = s
                continue
            }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw fail("expected 'key = value', got '\(trimmed)'", number)
            }
            let key = String(trimmed[..<eq]).trimmingWhitespace()
            let value = String(trimmed[trimmed.index(after: eq)...]).trimmingWhitespace()
            guard !key.isEmpty else { throw fail("a line starts with '=': the key is missing", number) }
            switch section {
            case "":
                let keys = ["name", "summary"]
                guard keys.contains(key) else { throw fail(Self.unknownKey(key, keys, where: "before the sections"), number) }
                guard seenKeys.insert(key).inserted else { throw fail("'\(key)' is given twice", number) }
                if key == "name" {
                    guard Self.isName(value) else {
                        throw fail("name '\(value)' may use only letters, digits, '-', '_' and '.'", number)
                    }
                    name = value
                } else {
                    summary = value
                }
            case "params":
                guard Self.isIdentifier(key) else {
                    throw fail("parameter name '\(key)' must be letters, digits and '_', starting with a letter or '_'", number)
                }
                guard !parameters.contains(where: { $0.name == key }) else { throw fail("parameter '\(key)' is declared twice", number) }
                parameters.append(try Self.parameter(key, value, line: number, fail: fail))
            case "exits", "orders":
                let settings = section == "exits" ? OrderSettings.exitSettings : OrderSettings.orderSettings
                guard let setting = settings.first(where: { $0.name == key }) else {
                    throw fail(Self.unknownKey(key, settings.map(\.name), where: "in [\(section)]"), number)
                }
                guard !orderItems.contains(where: { $0.setting == setting }) else { throw fail("'\(key)' is given twice", number) }
                orderItems.append(OrderSettings.Item(setting, value, origin: .file(path: path, line: number)))
            case "account":
                guard let setting = Self.accountSettings.first(where: { $0.name == key }) else {
                    throw fail(Self.unknownKey(key, Self.accountSettings.map(\.name), where: "in [account]"), number)
                }
                guard !accountItems.contains(where: { $0.setting == setting }) else { throw fail("'\(key)' is given twice", number) }
                accountItems.append(OrderSettings.Item(setting, value, origin: .file(path: path, line: number)))
            default:  // rules
                if key == "require" {
                    requirements.append((value, number))
                    open = .requirement(requirements.count - 1)
                    continue
                }
                guard let role = SignalRules.Role(rawValue: key) else {
                    throw fail(Self.unknownKey(key, SignalRules.Role.allCases.map(\.rawValue) + ["require"], where: "in [rules]"), number)
                }
                guard rules[role] == nil else { throw fail("rule '\(key)' is given twice", number) }
                rules[role] = (value, number)
                open = .rule(role)
            }
        }
        let shortOnly = rules[.entry] == nil && rules[.exit] == nil && rules[.shortEntry] != nil && rules[.shortExit] != nil
        for role in [SignalRules.Role.entry, .exit] where rules[role] == nil && !shortOnly {
            throw InputError("no '\(role.rawValue)' rule: a strategy file needs 'entry = ...' and 'exit = ...' in [rules] "
                + "(or, short only, 'short_entry = ...' and 'short_exit = ...')", at: path)
        }
        self.name = name ?? Self.stem(of: path)
        self.summary = summary
        self.parameters = parameters
        var located: [SignalRules.Role: LocatedExpression] = [:]
        for (role, r) in rules {
            located[role] = try LocatedExpression(r.text, origin: .file(path: path, line: r.line))
        }
        let declared = parameters.map { p -> ExpressionParameter in
            switch p.kind {
            case .int, .number: return ExpressionParameter(p.name, .number)
            case .choice(let options): return ExpressionParameter(p.name, .word(options))
            }
        }
        do {
            self.rules = try SignalRules(located, requirements: try requirements.map {
                try LocatedExpression($0.text, origin: .file(path: path, line: $0.line))
            }, parameters: declared)
        } catch var e as InputError where e.file == nil {
            // A missing short rule: name the file.
            e.file = path
            e.setting = nil
            throw e
        }
        // Checked now against the parameters' defaults, so a bad line is refused when the file is read.
        orders = OrderSettings(orderItems)
        account = accountItems
        let shorts = rules[.shortEntry] != nil || orderItems.contains { $0.setting == .shortEntryLimit || $0.setting == .shortEntryStop }
        try orders.check(values: Dictionary(parameters.map { ($0.name, $0.defaultValue) }, uniquingKeysWith: { a, _ in a }),
                         allowShort: shorts)
    }

    /// `ma-cross` for `strategies/ma-cross.bt`.
    public static func stem(of path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = "." + fileExtension
        return file.hasSuffix(suffix) && file.count > suffix.count ? String(file.dropLast(suffix.count)) : file
    }

    private static func unknownKey(_ key: String, _ keys: [String], where place: String) -> String {
        let hint = Suggest.closest(to: key, among: keys).map { "; did you mean '\($0)'?" } ?? ""
        return "unknown key '\(key)' \(place)\(hint) (keys: \(keys.joined(separator: ", ")))"
    }

    /// Whether `s` can name a parameter: ASCII letters, digits and `_`, not starting with a digit.
    public static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s != "." && s != ".." && s.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
        }
    }

    /// `TYPE DEFAULT [BOUND]... [: HELP]`.
    private static func parameter(_ name: String, _ text: String, line: Int,
                                  fail: (String, Int) -> InputError) throws -> Parameter {
        var spec = text, help = ""
        if let colon = text.firstIndex(of: ":") {
            spec = String(text[..<colon])
            help = String(text[text.index(after: colon)...]).trimmingWhitespace()
        }
        // Operators may touch their numbers (`>=1`): space them out, then split on whitespace.
        var spaced = ""
        for c in spec {
            if c == ">" || c == "<" { spaced += " \(c)" } else if c == "=" { spaced += "= " } else { spaced.append(c) }
        }
        let words = spaced.split(whereSeparator: \.isWhitespace).map(String.init)
        let form = "expected '\(name) = TYPE DEFAULT [BOUND]... [: HELP]' with TYPE int, number or a choice like sma|ema"
        guard words.count >= 2 else { throw fail(form + ", got '\(text)'", line) }
        let kind: Parameter.Kind
        switch words[0] {
        case "int": kind = .int
        case "number": kind = .number
        case let w where w.contains("|"):
            let options = w.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard options.count >= 2, options.allSatisfy(isIdentifier), Set(options).count == options.count else {
                throw fail("choice '\(w)' must list distinct names separated by '|', like sma|ema", line)
            }
            kind = .choice(options)
        default:
            let hint = Suggest.closest(to: words[0], among: ["int", "number"]).map { "; did you mean '\($0)'?" } ?? ""
            throw fail("unknown parameter type '\(words[0])'\(hint) (int, number, or a choice like sma|ema)", line)
        }
        let defaultValue: ExpressionValue
        switch kind {
        case .int:
            guard let v = Double(words[1]), v.isFinite, v == v.rounded(), abs(v) < 1e15 else {
                throw fail("the default of int parameter '\(name)' must be a whole number, got '\(words[1])'", line)
            }
            defaultValue = .number(v)
        case .number:
            guard let v = Double(words[1]), v.isFinite else {
                throw fail("the default of number parameter '\(name)' must be a number, got '\(words[1])'", line)
            }
            defaultValue = .number(v)
        case .choice(let options):
            guard options.contains(words[1]) else {
                throw fail("the default of '\(name)' must be one of \(options.joined(separator: "|")), got '\(words[1])'", line)
            }
            defaultValue = .word(words[1])
        }
        var lower: Bound?, upper: Bound?
        var i = 2
        while i < words.count {
            var op = words[i]
            if i + 1 < words.count, words[i + 1].hasPrefix("=") {  // "> =" from ">=": rejoin
                op += "="
                i += 1
                if words[i] != "=" { throw fail("bad bound '\(words[i - 1])\(words[i])' of '\(name)'", line) }
            }
            guard ["<", "<=", ">", ">="].contains(op) else {
                throw fail("unexpected '\(words[i])' in the declaration of '\(name)': \(form)", line)
            }
            if case .choice = kind { throw fail("a choice parameter takes no bounds", line) }
            guard i + 1 < words.count, let v = Double(words[i + 1]), v.isFinite else {
                throw fail("bound '\(op)' of '\(name)' needs a number", line)
            }
            let bound = Bound(v, inclusive: op.hasSuffix("="))
            if op.hasPrefix(">") {
                guard lower == nil else { throw fail("'\(name)' has two lower bounds", line) }
                lower = bound
            } else {
                guard upper == nil else { throw fail("'\(name)' has two upper bounds", line) }
                upper = bound
            }
            i += 2
        }
        let p = Parameter(name: name, kind: kind, defaultValue: defaultValue, lower: lower, upper: upper, help: help, line: line)
        if case .number(let v) = defaultValue, !p.allows(v) {
            throw fail("the default \(NumberText.shortest(v)) of '\(name)' is outside its bounds (\(p.boundsText))", line)
        }
        return p
    }
}

extension StrategyFile.Parameter {
    /// Whether `v` satisfies the bounds.
    public func allows(_ v: Double) -> Bool {
        if let lower, lower.inclusive ? v < lower.value : v <= lower.value { return false }
        if let upper, upper.inclusive ? v > upper.value : v >= upper.value { return false }
        return true
    }

    /// `>= 1 <= 500`, or empty.
    public var boundsText: String {
        var parts: [String] = []
        if let lower { parts.append((lower.inclusive ? ">= " : "> ") + NumberText.shortest(lower.value)) }
        if let upper { parts.append((upper.inclusive ? "<= " : "< ") + NumberText.shortest(upper.value)) }
        return parts.joined(separator: " ")
    }
}
