import Backtest
import Foundation
import Testing
@testable import bt

/// The command line's execution options come from the library's table (`ExecutionSetting.all`):
/// one entry there is one option on every command that runs a strategy, with its help, its
/// default and its value in the request the library builds the run from.
@Suite("Execution options made from the library's settings")
struct ExecutionSettingOptionTests {
    /// A setting no run has, standing for the next one added (`holdout` is a calibration
    /// setting, not an execution one, so nothing else reads it).
    static let dummy = ExecutionSetting(.holdout, .number, valueName: "SHARE", help: "A knob no run has yet, unlike \(Setting.size.mention)",
                                        default: .value("1.5"))

    @Test("every execution setting is an option of bt run, screen, sweep and portfolio, with the library's help and default")
    func everySettingIsAnOption() throws {
        for command in [Command.run, .screen, .sweep, .portfolio] {
            for spec in ExecutionSetting.all {
                let option = Option(executing: spec)
                #expect(command.accepts(option), "bt \(command.name) lacks \(option)")
            }
        }
        let help = Help.command(.run)
        for spec in ExecutionSetting.all {
            let line = "--\(Option.flagName(spec.setting))"
            #expect(help.contains(line), "bt help run lacks \(line)")
            #expect(help.contains(spec.help { "--" + Option.flagName($0) }.prefix(40)), "\(line)'s help")
        }
        #expect(help.contains("--fee-bps BPS") && help.contains("Fee in basis points of notional (default: the symbol's stored setting, else 10)"))
        #expect(help.contains("(with --short and --entry-limit)"))
    }

    @Test("a setting added to the table is an option with its help and default, read into the request by its name")
    func aDummySettingReachesTheCommandLine() throws {
        let settings = ExecutionSetting.all + [Self.dummy]
        let options = ExecutionOptions.options(settings)
        let option = try #require(options.first { $0.name == "holdout" })
        #expect(option.valueName == "SHARE" && option.helpText == "A knob no run has yet, unlike --size (default 1.5)")
        let command = Command(path: ["dummy"], summary: "a command over the settings", options: options) { _ in }
        let args = try ArgumentParser.parse(["--holdout", "0.25", "--fee-bps", "5", "--tp", "1%@50%", "--tp", "2%"], for: command)
        let request = try args.executionRequest(settings)
        #expect(request.number(.holdout) == 0.25 && request.number(.feeBps) == 5 && request.texts(.takeProfit) == ["1%@50%", "2%"])
        // Without the entry, the request refuses the name.
        var plain = ExecutionRequest()
        #expect(throws: InputError.self) { try plain.set("holdout", .number(1)) }
    }

    @Test("library errors and warnings name settings by their flags")
    func wording() throws {
        let e = InputError("only one target may sell the rest (a \(Setting.takeProfit.mention) without @SHARE)", setting: .takeProfit)
        #expect(ErrorMessage.text(e) == "--tp: only one target may sell the rest (a --tp without @SHARE)")
        #expect(e.description == "tp: only one target may sell the rest (a tp without @SHARE)")
        let w = ExecutionWarning(setting: .spreadWindow, value: "900", reason: "is longer than the series")
        #expect(w.text(naming: ErrorMessage.flags) == "--spread-window 900 is longer than the series")
    }
}
