import Backtest

extension Option {
    /// The options that give `setting` on bt's command line: `--` and its library name with
    /// dashes (`fee_bps` is `--fee-bps`), but for the few the command line spells its own way.
    /// The library names settings; only the command line knows their flags (`ErrorMessageTests`
    /// checks every setting's flag is an option of some command).
    static func names(for setting: Setting) -> [String] {
        switch setting {
        case .store: ["db"]
        case .output: ["out"]
        case .parameter: ["param"]
        case .chartWidth: ["width"]
        case .chartHeight: ["height"]
        case .chartSize: ["width", "height"]
        case .portfolioRank: ["rank"]
        default: [flagName(setting)]
        }
    }
}

/// How bt words errors: the library's settings named by their flags (`--fee-bps '-3': fee must
/// be in [0, 10000) basis points`), plus bt's advice for the situations that have some.
enum ErrorMessage {
    /// `--timeframe`, or `--width/--height` for a setting given by two options.
    static func flags(_ setting: Setting) -> String {
        Option.names(for: setting).map { "--" + $0 }.joined(separator: "/")
    }

    /// The text after `error: ` for `error`; the fixes an `InputError` offers as the options to
    /// add and, given the `commandLine` typed, the command line that would work.
    static func text(_ error: Error, commandLine: [String]? = nil) -> String {
        if let e = error as? StoreError { return text(e) }
        guard let e = error as? InputError else { return "\(error)" }
        let message = e.message(naming: flags)
        if !e.fixes.isEmpty { return message + e.fixText(naming: flags, commandLine: commandLine) }
        switch e.kind {
        case .invalid:
            return message
        case .needsSetting:
            return message + (e.setting.map { " (use \(flags($0)))" } ?? "")
        case .outputExists:
            return message + " (choose another \(Option.out) or pass \(Option.force))"
        case .missingStore:
            return message + "; import data first with 'bt data import' or 'bt data synth'"
        case .missingSymbol:
            return message + "; import them with 'bt data import'"
        case .missingBook:
            return message + "; import one with 'bt data import \(Option.format) book' or 'bt data synth \(Option.book)'"
        }
    }

    /// A sweep plan's problem, its settings named by their flags.
    static func text(_ problem: SweepPlan.Problem) -> String {
        switch problem {
        case .sweptAndFixed(let name): "'\(name)' is both swept (\(Option.grid)) and fixed (\(Option.param))"
        case .noCombination: "\(Option.where) leaves no combination of the grid"
        case .objectiveAndRank(let objective, let rank):
            "\(Option.objective) \(objective) and \(Option.rank) \(rank) differ (\(Option.rank) is "
                + "\(Option.objective)'s older name): give one"
        }
    }

    /// A store failure with what to do about it.
    static func text(_ e: StoreError) -> String {
        switch e.kind {
        case .damaged:
            let remove = e.series.map { series -> String in
                let parts = series.split(separator: " ")
                return parts.count == 2 ? "'bt data remove \(parts[0]) \(Option.timeframe) \(parts[1])'" : "'bt data remove'"
            } ?? "'bt data remove'"
            return "\(e); nothing was read past the damage or changed (restore the store from a copy, "
                + "or drop the damaged series with \(remove) and import it again)"
        case .busy:
            return "\(e) (another bt is writing to this store; nothing was changed, run the command again when it is done)"
        case .full:
            return "\(e) (no space left; nothing was changed)"
        case .access:
            return "\(e) (check the permissions of the store and its directory)"
        case .failed:
            return "\(e)"
        }
    }

    /// `error` worded for the command line, for library code that turns errors into text itself
    /// (screen rows, sweep rows and summaries). An `InputError` stays one (exit 2).
    static func reworded(_ error: Error) -> Error {
        error is InputError ? InputError(text(error)) : error
    }

    /// Runs `body`, rewording what it throws.
    static func rewording<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw reworded(error) }
    }
}
