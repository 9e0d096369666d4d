import Backtest
import Foundation

/// The execution options shared by `bt run` and the commands that simulate many runs
/// (`bt screen`, `bt sweep`, `bt portfolio`, `bt live`): one option per library setting
/// (`ExecutionSetting.all`), spelt `--` and its name with dashes (`fee_bps` is `--fee-bps`).
enum ExecutionOptions {
    /// Every execution setting's option, in the library's order, but `--periods-per-year`, which
    /// the commands list with the results' options (it also annualises the statistics).
    static let table: [Option] = options(ExecutionSetting.all)

    /// The options of `settings`, but `--periods-per-year`.
    static func options(_ settings: [ExecutionSetting]) -> [Option] {
        settings.filter { $0.setting != .periodsPerYear }.map(Option.init(executing:))
    }

    /// Settings whose long-window warning was printed: a screen or sweep says it once.
    private static let warned = Locked(Set<Setting>())

    /// Prints `warning` on stderr once per command.
    static func say(_ warning: ExecutionWarning) {
        guard warned.withLock({ $0.insert(warning.setting).inserted }) else { return }
        Diagnostics.line("warning: " + warning.text(naming: ErrorMessage.flags))
    }
}

extension Option {
    /// The option of an execution setting: `--` and its name with dashes, its help with the
    /// settings it mentions written as flags.
    init(executing spec: ExecutionSetting) {
        let kind: Kind = switch spec.kind {
        case .flag: .flag
        case .repeatedText: .repeated
        case .number, .wholeNumber, .text: .value
        }
        self.init(Self.flagName(spec.setting), kind: kind, valueName: spec.valueName,
                  help: spec.help { "--" + Self.flagName($0) })
    }

    /// The option for the execution setting `setting`.
    init(executing setting: Setting) {
        guard let spec = ExecutionSetting.of(setting) else { preconditionFailure("\(setting.name) is not an execution setting") }
        self.init(executing: spec)
    }

    /// An execution setting's spelling on the command line, without the dashes: its name with
    /// `-` for `_`.
    static func flagName(_ setting: Setting) -> String { setting.name.replacingOccurrences(of: "_", with: "-") }
}

extension ParsedArguments {
    /// The execution settings given on the command line, each read as its kind (numbers with the
    /// command line's own checks).
    var executionRequest: ExecutionRequest {
        get throws { try executionRequest(ExecutionSetting.all) }
    }

    /// The request of `settings` (`ExecutionSetting.all`; tests add one).
    func executionRequest(_ settings: [ExecutionSetting]) throws -> ExecutionRequest {
        var request = ExecutionRequest(settings: settings)
            for spec in settings {
                let option = Option(executing: spec)
                guard command.accepts(option) else { continue }
                let value: ExecutionValue?
                switch spec.kind {
                case .number: value = try double(option).map(ExecutionValue.number)
                case .wholeNumber: value = try int(option).map { .number(Double($0)) }
                case .text: value = self.value(option).map(ExecutionValue.text)
                case .repeatedText: value = values(option).isEmpty ? nil : .texts(values(option))
                case .flag: value = flag(option) ? .flag(true) : nil
                }
                if spec.setting == .periodsPerYear {
                    // Checked as the statistics read it.
                    if let v = try periodsPerYear { try request.set(.periodsPerYear, .number(v)) }
                } else if let value {
                    try request.set(spec.setting, value)
                }
            }
            return request
    }

    /// The execution configuration from the execution options (`ExecutionRequest`), reading
    /// `symbol`'s recorded book and stored profile from `store` when the run needs them; a
    /// window longer than the series is said once on stderr.
    /// - Parameter depth: the depth model when the command fixes it (`bt live`: its own book);
    ///   nil: `--depth`.
    func executionConfig(symbol: String, candles: CandleSeries, store: @escaping @autoclosure () throws -> CandleStore,
                         strategy: Strategy? = nil, parameters: StrategyParameters? = nil,
                         depth fixedDepth: String? = nil) throws -> ExecutionConfig {
        let plan = try executionRequest.configuration(for: candles, symbol: symbol, strategy: strategy, parameters: parameters,
                                                      resources: StoreExecutionResources(store: { try store() }),
                                                      depth: fixedDepth)
        plan.warnings.forEach(ExecutionOptions.say)
        unread(plan.unused.map(Option.init(executing:)))
        return plan.config
    }
}
