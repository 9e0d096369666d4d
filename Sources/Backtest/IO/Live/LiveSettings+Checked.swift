import BacktestCore
import BacktestData

/// A live session's settings as a front end gives them, each checked into its range.
extension LiveSettings {
    /// A duration: `90s`, `10m`, `2h`, `1d` or plain seconds, at most a year.
    /// - Throws: `InputError` (setting `.duration`).
    package static func seconds(duration text: String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(text)
        var scale = 1.0
        if let last = text.last, let u = units[last] { number = number.dropLast(); scale = u }
        guard let v = Double(number), v.isFinite, v > 0, v * scale <= 366 * 86_400 else {
            throw InputError("not a duration such as 90s, 10m or 2h (at most a year)", setting: .duration, value: text)
        }
        return v * scale
    }

    /// Seconds without a message after which the stream counts as lost: in (0, 86400].
    package mutating func setStaleSeconds(_ v: Double) throws {
        guard v > 0, v <= 86_400 else { throw InputError("must be in (0, 86400]", setting: .staleSeconds, value: NumberText.shortest(v)) }
        staleSeconds = v
    }

    /// The longest wait between reconnection attempts: [0, 86400] seconds.
    package mutating func setMaxBackoffSeconds(_ v: Double) throws {
        guard v >= 0, v <= 86_400 else { throw InputError("must be in [0, 86400]", setting: .maxBackoff, value: NumberText.shortest(v)) }
        maxBackoffSeconds = v
    }

    /// Bars of history loaded first: a whole number, 0 to 100,000.
    package mutating func setWarmUpBars(_ v: Double) throws {
        guard v >= 0, v <= 100_000, v == v.rounded() else {
            throw InputError("must be a whole number of bars, 0 to 100000", setting: .warmupBars, value: NumberText.shortest(v))
        }
        warmUpBars = Int(v)
    }

    /// Dashboard redraws a second: 1 to 30.
    package mutating func setFPS(_ v: Double) throws {
        guard v >= 1, v <= 30 else { throw InputError("must be 1 to 30", setting: .fps, value: NumberText.shortest(v)) }
        fps = v
    }

    /// The journal's name: 1 to 100 characters on one line.
    package mutating func setJournal(_ name: String) throws {
        guard !name.isEmpty, name.count <= 100, !name.contains(where: \.isNewline) else {
            throw InputError("a name of 1 to 100 characters on one line", setting: .journal, value: name)
        }
        journal = name
    }
}

extension LiveSettings {
    /// The markets `bt live` follows, by exchange name.
    package static let markets: [String: BinanceMarket] = ["binance": .spot, "binance-futures": .usdMFutures]

    /// Refuses the execution settings a live session cannot honour: a depth other than the live
    /// book, fixed slippage, and a participation cap (fills come at the next bar's open, when
    /// that bar's volume is not known yet).
    /// On the market: spot trades spot (at any leverage), the USD-M market its perpetuals
    /// (linear, `perp`); inverse perpetuals and dated futures are not followed live yet.
    /// - Throws: `InputError` naming the setting.
    package static func checkExecution(_ request: ExecutionRequest, market: BinanceMarket = .spot) throws {
        let instrument = request.text(.instrument)
        if instrument == "inverse-perp" {
            throw InputError("bt live paper trades spot and linear (USD-M) perpetuals; inverse (coin-margined) perpetuals are "
                             + "not supported live yet (a batch run over their stored bars and funding is)",
                             setting: .instrument, value: "inverse-perp")
        }
        if market == .spot, let instrument, instrument != Instrument.spot.rawValue {
            throw InputError("Binance's spot market streams no perpetual or future: a perpetual is paper traded on the "
                             + "exchange binance-futures (the USD-M market) with \(Setting.instrument.mention) perp",
                             setting: .instrument, value: instrument)
        }
        if market == .usdMFutures, instrument != Instrument.perp.rawValue {
            throw InputError("the exchange binance-futures streams USD-M perpetuals: give \(Setting.instrument.mention) perp "
                             + "(dated futures are not followed live yet)", setting: .instrument, value: instrument)
        }
        if let depth = request.text(.depth), depth != "book" {
            throw InputError("bt live fills against the live order book (what \(Setting.depth.mention) book replays)",
                             setting: .depth, value: depth)
        }
        if request.number(.slippageBps) != nil {
            throw InputError("bt live fills against the live order book, not a fixed slippage", setting: .slippageBps)
        }
        if let v = request.number(.maxParticipation), v != 0 {
            throw InputError("bt live fills at the next bar's open, when that bar's volume is not known yet, so it caps nothing "
                             + "by volume (give 0 or leave it out)", setting: .maxParticipation, value: NumberText.shortest(v))
        }
    }
}
