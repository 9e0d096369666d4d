import Backtest
import CBTABI
import Foundation

/// `bt_config` as the library's `ExecutionRequest`: each execution setting
/// (`ExecutionSetting.all`) is read from the field of its name (`fee_bps`; `allow_short` for
/// `short`), found by reflection, so a new setting needs only its entry in the table and its
/// field in bt.h. The request builds the configuration as `bt run` does
/// (`ExecutionRequest.configuration`); the Python tests hold the two equal through `bt run --json`.
enum Config {
    /// The setting's name in this API and in btcore: its `bt_config` field (`allow_short`),
    /// `db` for the store, `start` and `end` for the window (`--from`, `--to`), `rank` for a
    /// portfolio's rank (`bt_portfolio`'s option), `out` for a report folder, else its library
    /// name.
    static func name(_ setting: Setting) -> String {
        if let spec = ExecutionSetting.of(setting) { return spec.fieldName }
        switch setting {
        case .store: return "db"
        case .from: return "start"
        case .to: return "end"
        case .portfolioRank: return "rank"
        case .output: return "out"
        default: return setting.name
        }
    }

    /// bt_config's fields by name, with their values, in declaration order, by reflection:
    /// `layout` is made from it once; each call reads at the layout's offsets (`value(of:in:)`),
    /// since reflecting the struct costs more than a short backtest.
    static func fields(_ c: bt_config) -> [(name: String, value: Any)] {
        Mirror(reflecting: c).children.map { ($0.label ?? "", $0.value) }
    }

    /// `layout`'s fields by name.
    static let fieldsByName: [String: (type: FieldType, offset: Int)] =
        Dictionary(uniqueKeysWithValues: layout.map { ($0.name, ($0.type, $0.offset)) })

    /// The value of the field `name` of `c`, of the Swift type reflection gives it (Double,
    /// Int32, Int, UnsafePointer<CChar>?); nil when bt_config has no such field.
    static func value(of name: String, in c: bt_config) -> Any? {
        guard let field = fieldsByName[name] else { return nil }
        return withUnsafeBytes(of: c) { bytes -> Any in
            switch field.type {
            case .double: bytes.load(fromByteOffset: field.offset, as: Double.self)
            case .int: bytes.load(fromByteOffset: field.offset, as: Int32.self)
            case .sizeT: bytes.load(fromByteOffset: field.offset, as: Int.self)
            case .string: bytes.load(fromByteOffset: field.offset, as: UnsafePointer<CChar>?.self) as Any
            }
        }
    }

    /// The C type of a field, as btcore's ctypes declares it.
    enum FieldType: String {
        case double, int, sizeT = "size_t", string = "char*"

        init?(of value: Any) {
            switch value {
            case is Double: self = .double
            case is Int32: self = .int
            case is Int: self = .sizeT
            case is UnsafePointer<CChar>?: self = .string
            default: return nil
            }
        }

        var size: Int { self == .int ? 4 : 8 }
    }

    /// bt_config's fields with their types and byte offsets, laid out as C lays them (each at
    /// the next multiple of its size, all of them here being their own alignment), read from
    /// the struct itself; `layoutIsChecked` holds the sum against the compiler's size.
    static let layout: [(name: String, type: FieldType, offset: Int)] = {
        var offset = 0
        return fields(bt_config()).map { field in
            guard let type = FieldType(of: field.value) else { preconditionFailure("bt_config.\(field.name) has a type bt.h does not use") }
            offset = (offset + type.size - 1) / type.size * type.size
            defer { offset += type.size }
            return (field.name, type, offset)
        }
    }()

    /// True when `layout` ends where the compiler's bt_config does.
    static var layoutIsChecked: Bool {
        guard let last = layout.last else { return false }
        return (last.offset + last.type.size + 7) / 8 * 8 == MemoryLayout<bt_config>.size
    }

    /// The defaults of `bt run`: every number the table gives a value (`cash` 10000), the rest
    /// not given (NaN for a double, 0, NULL).
    static func defaults() -> bt_config {
        precondition(layoutIsChecked, "bt_config's layout as read does not add up to its size")
        var c = bt_config()
        let numbers: [String: Double] = Dictionary(uniqueKeysWithValues: ExecutionSetting.all.compactMap { spec in
            guard spec.kind == .number, case .value(let text) = spec.defaultValue, let v = Double(text) else { return nil }
            return (spec.fieldName, v)
        })
        withUnsafeMutableBytes(of: &c) { bytes in
            for field in layout where field.type == .double {
                bytes.storeBytes(of: numbers[field.name] ?? .nan, toByteOffset: field.offset, as: Double.self)
            }
        }
        c.struct_size = MemoryLayout<bt_config>.size
        return c
    }

    /// The size of the first bt_config (ABI 1): the fields up to `db`. Fields added since come
    /// after it, so a caller built against an older bt.h passes one of the sizes between.
    static let firstSize: Int = {
        guard let db = layout.first(where: { $0.name == "db" }) else { preconditionFailure("bt_config has no db field") }
        return db.offset + db.type.size
    }()

    /// The sizes a caller's bt_config may have: this bt.h's, or one that ends at a field added
    /// since ABI 1 (a caller built against an older bt.h of the same ABI).
    static let acceptedSizes: Set<Int> = Set(layout.map { ($0.offset + $0.type.size + 7) / 8 * 8 }.filter { $0 >= firstSize })

    /// The checked struct: a NULL pointer is the defaults; a smaller struct from an older bt.h
    /// is read as far as it goes, over the defaults (only its `struct_size` bytes are touched);
    /// a struct of any other size is refused.
    static func read(_ pointer: UnsafePointer<bt_config>?) throws -> bt_config {
        guard let pointer else { return defaults() }
        let size = UnsafeRawPointer(pointer).load(as: Int.self)  // struct_size, the first field
        if size == MemoryLayout<bt_config>.size { return pointer.pointee }
        guard acceptedSizes.contains(size) else {
            throw BridgeError.argument("config.struct_size is \(size), this library's bt_config has \(MemoryLayout<bt_config>.size) "
                                       + "bytes: call bt_config_init, and build against the bt.h of this library")
        }
        var c = defaults()
        withUnsafeMutableBytes(of: &c) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
        c.struct_size = MemoryLayout<bt_config>.size
        return c
    }

    /// The request `c` gives: each setting's field read by its type (a double not given is
    /// NaN, an int 0, a string NULL; a flag is an int, nonzero on).
    static func request(_ c: bt_config, settings: [ExecutionSetting] = ExecutionSetting.all) throws -> ExecutionRequest {
        var request = ExecutionRequest(settings: settings)
        for spec in settings {
            let name = spec.fieldName
            guard let field = value(of: name, in: c) else { throw BridgeError(.internal, "bt_config has no field \(name) for setting \(spec.name)") }
            let value: ExecutionValue?
            switch (spec.kind, field) {
            case (.number, let v as Double):
                if v.isNaN { value = nil } else {
                    guard v.isFinite else { throw BridgeError.input("\(name) '\(v)': not a number (give a finite value)") }
                    value = .number(v)
                }
            case (.wholeNumber, let v as Int32): value = v == 0 ? nil : .number(Double(v))
            case (.flag, let v as Int32): value = v != 0 ? .flag(true) : nil
            case (.text, let p as UnsafePointer<CChar>?): value = try optionalString(p, name).map(ExecutionValue.text)
            // One field holds every target ("5%@50%, 12%"), as a strategy file's line does.
            case (.repeatedText, let p as UnsafePointer<CChar>?): value = try optionalString(p, name).map { .texts([$0]) }
            default: throw BridgeError(.internal, "bt_config.\(name) is a \(type(of: field)), not a field of a \(spec.kind.rawValue) setting")
            }
            if let value { try request.set(spec.setting, value) }
        }
        return request
    }

    /// The execution configuration `bt run` would make from the same options for `candles`,
    /// with `strategy`'s orders and exits under the config's own, and its warnings; the store
    /// named by `db` (opened once per process: `SharedStoreResources`) gives a recorded book, a
    /// stored profile, funding rows and instrument settings.
    /// - Parameter inferredTick: the candles' `inferredTick` (a prepared series keeps it: it
    ///   scans every price).
    static func execution(_ cfg: bt_config, candles: CandleSeries, inferredTick: () -> Double?, strategy: Strategy? = nil,
                          parameters: StrategyParameters? = nil) throws -> ExecutionPlan {
        let db = try optionalString(cfg.db, "config.db")
        let resources: ExecutionResources = db.map { SharedStoreResources.of(path: $0) } ?? StoreExecutionResources(store: { nil })
        let request = try request(cfg)
        return try withoutActuallyEscaping(inferredTick) { tick in
            try request.configuration(for: candles, strategy: strategy, parameters: parameters, resources: resources,
                                      inferredTick: tick)
        }
    }

    /// The bars a run on `candles` reads and trades: the window `c.start` and `c.end` give
    /// (`CandleWindow(_:from:to:)`, as `bt run --from/--to`), else all of them; and the tick
    /// inferred from the bars traded, as bt run infers it (`inferredTick` when they are all).
    static func window(_ c: bt_config, of candles: CandleSeries, inferredTick: @escaping () -> Double?) throws
    -> (window: CandleWindow, inferredTick: () -> Double?) {
        let from = try optionalString(c.start, "start"), to = try optionalString(c.end, "end")
        guard from != nil || to != nil else { return (CandleWindow(candles), inferredTick) }
        let window = try CandleWindow(candles, from: from, to: to)
        return (window, { window.candles.inferredTick })
    }

    /// The window's bounds `c.start` and `c.end` as epoch seconds, read as the command line
    /// reads `--from` and `--to` (for the store's `loadWindow`).
    static func range(_ c: bt_config) throws -> (from: Int64?, to: Int64?) {
        (try optionalString(c.start, "start").map { try UTCTime.parseUserDate($0, setting: .from) },
         try optionalString(c.end, "end").map { try UTCTime.parseUserEnd($0, setting: .to) })
    }

    /// The periods per year asked for (nil: inferred from the times).
    static func periodsPerYear(_ c: bt_config) throws -> Double? {
        try request(c).periodsPerYear()
    }
}

@_cdecl("bt_config_init")
public func bt_config_init(_ config: UnsafeMutablePointer<bt_config>?) {
    guard let config else {
        LastError.set(.argument, "bt_config_init: config is NULL")
        return
    }
    config.pointee = Config.defaults()
}

extension BacktestResult {
    /// The result with the configuration's warnings (a window longer than the series) among
    /// its own, worded with bt_config's names: a C caller has no other channel for them.
    func adding(_ warnings: [ExecutionWarning]) -> BacktestResult {
        var out = self
        out.warnings += warnings.map { RunWarning(.longWindow, $0.text(naming: Config.name)) }
        return out
    }
}

extension Config {
    /// bt_config described for bindings that build the struct and their keywords from the
    /// library (btcore): each field in order with its C type and, for a field that carries an
    /// execution setting, the setting's name (a binding's keyword), kind, default and help (the
    /// settings it mentions named as keywords, `short=`). Static: made once.
    nonisolated(unsafe) static let settingsJSON: UnsafeMutablePointer<CChar> = strdup(describe())!

    /// `settingsJSON`'s text for `settings` (tests add one).
    static func describe(_ all: [ExecutionSetting] = ExecutionSetting.all) -> String {
        let settings = Dictionary(uniqueKeysWithValues: all.map { ($0.fieldName, $0) })
        let fields: [JSONValue] = layout.map { field in
            var members: [(key: String, value: JSONValue)] = [("name", .string(field.name)), ("type", .string(field.type.rawValue))]
            if let spec = settings[field.name] {
                let value: JSONValue
                switch spec.defaultValue {
                case .value(let text): value = .string(text)
                case .none, .described: value = .null
                }
                members += [("setting", .string(spec.name)), ("kind", .string(spec.kind.rawValue)), ("default", value),
                            ("help", .string(spec.help { $0.name + "=" }))]
            }
            return .object(members)
        }
        return JSONValue.object([("fields", .array(fields))]).serialized()
    }
}

@_cdecl("bt_execution_settings")
public func bt_execution_settings() -> UnsafePointer<CChar> {
    UnsafePointer(Config.settingsJSON)
}
