import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Creates the instrument settings table when missing: per symbol (a base symbol, without
    /// `@TF`), one row per setting it keeps (`ExecutionRequest.instrumentSettings`, by its name),
    /// its value as text (a number in Swift's round-trip form, a text as given).
    func createInstrumentTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS instrument_settings(
              symbol TEXT NOT NULL, setting TEXT NOT NULL, value TEXT NOT NULL,
              PRIMARY KEY(symbol, setting)) WITHOUT ROWID;
            """)
    }

    /// The instrument settings stored for `symbol`; empty when none.
    /// - Throws: `StoreError` (`.damaged`) when a row is one `setInstrument` would refuse: an
    ///   unknown setting, a value not of its kind, or settings a run would refuse.
    public func instrumentSettings(symbol: String) throws -> [Setting: ExecutionValue] {
        try instrumentRows(symbol: symbol)[symbol] ?? [:]
    }

    /// Every symbol with stored instrument settings and its settings, ordered by symbol.
    public func instrumentList() throws -> [(symbol: String, settings: [Setting: ExecutionValue])] {
        try instrumentRows(symbol: nil).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The rows of `symbol` (nil: of every symbol), checked.
    private func instrumentRows(symbol: String?) throws -> [String: [Setting: ExecutionValue]] {
        guard tables.contains("instrument_settings") else { return [:] }
        let stmt = try db.prepare("""
            SELECT symbol, setting, value, typeof(value) = 'text' FROM instrument_settings
            WHERE ?1 IS NULL OR symbol = ?1 ORDER BY symbol, setting
            """)
        if let symbol { stmt.bind(1, symbol) }
        var out: [String: [Setting: ExecutionValue]] = [:]
        while try stmt.step() {
            let (symbol, name, text) = (stmt.string(0), stmt.string(1), stmt.string(2))
            func damaged(_ reason: String) -> StoreError {
                StoreError(.damaged, path: path, reason: "instrument settings of \(symbol): \(reason)")
            }
            guard let setting = Setting(rawValue: name), ExecutionRequest.instrumentSettings.contains(setting),
                  let spec = ExecutionSetting.of(setting) else { throw damaged("'\(name)' is not an instrument setting") }
            guard stmt.int64(3) == 1, let value = Self.value(text, kind: spec.kind) else {
                throw damaged("\(name) is not \(spec.kind == .number ? "a number" : "text")")
            }
            out[symbol, default: [:]][setting] = value
        }
        for (symbol, settings) in out {
            do { try ExecutionRequest().over(settings).checkedAlone() } catch let e as InputError {
                throw StoreError(.damaged, path: path, reason: "instrument settings of \(symbol): \(e.message(naming: \.name))")
            }
        }
        return out
    }

    /// A stored value's text as the setting's kind (nil: not one).
    private static func value(_ text: String, kind: ExecutionSetting.Kind) -> ExecutionValue? {
        switch kind {
        case .number: Double(text).flatMap { $0.isFinite ? .number($0) : nil }
        case .text: .text(text)
        case .wholeNumber, .repeatedText, .flag: nil
        }
    }

    /// A value as it is stored (`value(_:kind:)` reads it back).
    private static func text(_ value: ExecutionValue) -> String {
        switch value {
        case .number(let v): "\(v)"
        case .text(let t): t
        case .texts(let t): t.joined(separator: ",")
        case .flag(let f): f ? "true" : "false"
        }
    }

    /// `instrumentSettings(symbol:)` of a symbol that must have something stored.
    /// - Throws: `InputError` for a symbol with nothing stored (with the closest one).
    public func instrument(symbol: String) throws -> [Setting: ExecutionValue] {
        try requireStored(symbol)
        return try instrumentSettings(symbol: symbol)
    }

    /// The symbols with series, a book or funding rates stored.
    func storedSymbols() throws -> Set<String> {
        Set(try rawList().map(\.symbol)).union(try fundingList().map(\.symbol)).union(try bookList().map(\.symbol))
    }

    /// Throws `InputError` (`.missingSymbol`, with the closest one) unless `symbol` has series,
    /// a book or funding rates stored.
    private func requireStored(_ symbol: String) throws {
        let known = try storedSymbols()
        guard known.contains(symbol) else {
            let hint = Suggest.closest(to: symbol, among: known.sorted()).map { " (did you mean \($0)?)" } ?? ""
            throw InputError(.missingSymbol, "nothing stored for symbol '\(symbol)'\(hint)")
        }
    }

    /// Stores `given` as `symbol`'s instrument settings over the ones stored (or, with `clear`,
    /// instead of them: `clear` and nothing given removes them), in one transaction, and returns
    /// what is stored after. The settings are checked as a run checks them
    /// (`ExecutionRequest.checkedAlone`) before anything is written, so a refused call leaves the
    /// store as it was.
    /// - Throws: `InputError` for a symbol with nothing stored (with the closest one), or a
    ///   setting a run would refuse (naming it).
    @discardableResult
    public func setInstrument(symbol: String, given: [Setting: ExecutionValue], clear: Bool = false) throws
        -> [Setting: ExecutionValue] {
        try transaction { try replaceInstrument(symbol: symbol, given: given, clear: clear) }
    }

    /// `setInstrument`'s work; call inside `transaction`.
    func replaceInstrument(symbol: String, given: [Setting: ExecutionValue], clear: Bool = false) throws -> [Setting: ExecutionValue] {
        try requireStored(symbol)
        var request = ExecutionRequest()
        for setting in ExecutionRequest.instrumentSettings { if let v = given[setting] { try request.set(setting, v) } }
        let merged = clear ? request : try request.over(try instrumentSettings(symbol: symbol))
        try merged.checkedAlone()
        let settings = merged.values.filter { ExecutionRequest.instrumentSettings.contains($0.key) }
        try deleteInstrument(symbol: symbol)
        let insert = try db.prepare("INSERT INTO instrument_settings(symbol, setting, value) VALUES (?1, ?2, ?3)")
        for (setting, value) in settings.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            insert.reset()
            insert.bind(1, symbol)
            insert.bind(2, setting.rawValue)
            insert.bind(3, Self.text(value))
            try insert.step()
        }
        return settings
    }

    /// True when `symbol` has instrument settings rows, read or not (a damaged row counts).
    func hasInstrumentRows(symbol: String) throws -> Bool {
        guard tables.contains("instrument_settings") else { return false }
        let stmt = try db.prepare("SELECT 1 FROM instrument_settings WHERE symbol = ?1 LIMIT 1")
        stmt.bind(1, symbol)
        return try stmt.step()
    }

    /// Deletes the stored instrument settings of `symbol` (no-op when absent).
    func deleteInstrument(symbol: String) throws {
        guard tables.contains("instrument_settings") else { return }
        let stmt = try db.prepare("DELETE FROM instrument_settings WHERE symbol = ?1")
        stmt.bind(1, symbol)
        try stmt.step()
    }
}
