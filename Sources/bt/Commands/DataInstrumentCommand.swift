import Backtest

extension Command {
    static let dataInstrument = Command(
        path: ["data", "instrument"],
        help: EmbeddedAssets.dataInstrumentTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol (its settings serve every timeframe)")],
        // The run options' help without their defaults (which a stored setting is).
        options: [.kind] + ExecutionOptions.options(ExecutionRequest.instrumentSettings.dropFirst().compactMap(ExecutionSetting.of)
            .map { ExecutionSetting($0.setting, $0.kind, valueName: $0.valueName, help: $0.help) }) + [.clear, .json]
    ) { args in
        let symbol = try args.symbol(at: 0)
        var given = try args.executionRequest.values
        given[.instrument] = args.value(.kind).map(ExecutionValue.text)
        do {
            let stored = given.isEmpty && !args.flag(.clear) ? try args.openStore().instrument(symbol: symbol)
                : try args.openStoreForWriting().setInstrument(symbol: symbol, given: given, clear: args.flag(.clear))
            Output.write(args.flag(.json) ? try InstrumentSettingsText.json(symbol: symbol, stored).serialized() + "\n"
                             : InstrumentSettingsText.text(symbol: symbol, stored))
        } catch let e as InputError where e.setting == .instrument {
            throw InputError(e.message { $0 == .instrument ? Option.kind.description : ErrorMessage.flags($0) })
        }
    }
}
