/// Exit, order, fee, borrow and margin settings a sweep's grid may vary (`--grid sl=2%:10%:2%`, `maker_bps=-2:2:1`), by name.
extension ExecutionConfig {
    /// The grid names of the settings `set(_:to:)` takes, and the settings they give.
    public static let sweptSettings: [String: Setting] = [
        Setting.stopLoss.name: .stopLoss, Setting.takeProfit.name: .takeProfit, Setting.trail.name: .trail,
        Setting.breakeven.name: .breakeven, Setting.exitAfter.name: .exitAfter, Setting.orderBars.name: .orderBars,
        Setting.feeBps.name: .feeBps, Setting.makerBps.name: .makerBps, Setting.feePerUnit.name: .feePerUnit,
        Setting.feeMin.name: .feeMin, Setting.feeMax.name: .feeMax, Setting.borrowBps.name: .borrowBps,
        Setting.leverage.name: .leverage, Setting.mmr.name: .mmr, Setting.liqFeeBps.name: .liqFeeBps,
    ]

    /// The largest count of bars a grid may give `exit_after` or `order_bars`.
    static let maximumSweptBars = 1e9

    /// Sets a swept setting: `sl`, `trail` a fraction of the entry price; `tp` one target selling
    /// everything at that fraction; `breakeven` a fraction; `exit_after`, `order_bars` a whole
    /// number of bars; `fee_bps`, `maker_bps` basis points, `fee_per_unit`, `fee_min` cash,
    /// `fee_max` a fraction of the notional, `borrow_bps` basis points a year, `leverage` a
    /// number, `mmr` a fraction, `liq_fee_bps` basis points.
    /// - Throws: `InputError` naming the setting for a value it cannot take (checked again by
    ///   `validate`).
    public mutating func set(_ setting: Setting, to value: Double) throws {
        func bars() throws -> Int {
            guard value >= 1, value == value.rounded() else {
                throw InputError("not a whole number of bars >= 1", setting: setting, value: NumberText.shortest(value))
            }
            guard value <= Self.maximumSweptBars else {
                throw InputError("at most \(Int(Self.maximumSweptBars)) bars (a grid's values are read as numbers, exact "
                                 + "only to 2^53; any count beyond the series is the same)", setting: setting, value: NumberText.shortest(value))
            }
            return Int(value)
        }
        switch setting {
        case .stopLoss: exits.stopLoss = .fraction(value)
        case .takeProfit: exits.takeProfits = [TakeProfit(.fraction(value))]
        case .trail: exits.trail = .fraction(value)
        case .breakeven: exits.breakeven = value
        case .exitAfter: exits.exitAfterBars = try bars()
        case .orderBars: entries.orderBars = try bars()
        case .feeBps: feeBps = value
        case .makerBps: makerBps = value
        case .feePerUnit: feePerUnit = value
        case .feeMin: feeMin = value
        case .feeMax: feeMax = value
        case .borrowBps: borrowBps = value
        case .leverage: leverage = value
        case .mmr: mmr = value
        case .liqFeeBps: liqFeeBps = value
        default: preconditionFailure("\(setting.name) is not a swept execution setting")
        }
    }
}
