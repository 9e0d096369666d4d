import BacktestAnalysis
import BacktestCore

/// Reads a depth profile from its JSON object (`DepthProfile.json()`, `bt calibrate --json` or
/// `--out FILE`). Required: `symbol` (string), `spread_bps` (>= 0), `bid` and `ask` as
/// `{"a": A, "b": b}` with A, b > 0. Optional (null or absent): `tick` (> 0),
/// `spread_p90_bps`, `volume_rank_correlation`, `refill_half_life_seconds` (>= 0), `holdout`
/// (`sizes`, `median_abs_error_bps`, `p90_abs_error_bps`: arrays of one length). Other keys are
/// ignored.
public enum DepthProfileJSON {
    /// Reads the profile file at `path`.
    /// - Throws: `InputError` naming the file and key of the first problem.
    public static func read(path: String) throws -> DepthProfile {
        let text = try InputText(path: path)
        return try parse(Array(text.bytes), file: path)
    }

    /// Parses `bytes` as the profile named `file` in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws -> DepthProfile {
        let value: JSONValue
        do {
            value = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
        } catch let e as JSONSyntaxError {
            throw bytes.withUnsafeBufferPointer { e.inputError(file: file, bytes: $0) }
        }
        guard case .object = value else { throw InputError("a depth profile must be a JSON object", at: file) }
        func fail(_ key: String, _ why: String) -> InputError { InputError(why, file: file, key: "\"\(key)\"") }
        func number(_ v: JSONValue?, _ key: String, required: Bool = false, _ ok: (Double) -> Bool = { _ in true },
                    _ why: String = "") throws -> Double? {
            switch v {
            case nil, .null?:
                if required { throw fail(key, "missing (a number)") }
                return nil
            case .number(let x)?:
                guard x.isFinite, ok(x) else { throw fail(key, why.isEmpty ? "not a finite number" : why) }
                return x
            case let other?:
                throw fail(key, "must be a number, found \(other.kindName)")
            }
        }
        func law(_ key: String) throws -> DepthProfile.PowerLaw {
            guard let side = value[key] else { throw fail(key, "missing (an object {\"a\": A, \"b\": b})") }
            guard case .object = side else { throw fail(key, "must be an object {\"a\": A, \"b\": b}") }
            let a = try number(side["a"], key + ".a", required: true, { $0 > 0 }, "must be > 0")!
            let b = try number(side["b"], key + ".b", required: true, { $0 > 0 }, "must be > 0")!
            return DepthProfile.PowerLaw(a: a, b: b)
        }
        func list(_ v: JSONValue?, _ key: String) throws -> [Double] {
            guard case .array(let items)? = v else { throw fail(key, "must be an array of numbers") }
            return try items.enumerated().map { try number($1, "\(key)[\($0)]", required: true)! }
        }
        guard case .string(let symbol)? = value["symbol"], !symbol.isEmpty else {
            throw fail("symbol", "missing (a non-empty string)")
        }
        let spread = try number(value["spread_bps"], "spread_bps", required: true, { $0 >= 0 && $0 < 10_000 },
                                "must be in [0, 10000) basis points")!
        var holdout: DepthProfile.Holdout?
        if let h = value["holdout"], h != .null {
            guard case .object = h else { throw fail("holdout", "must be an object or null") }
            let sizes = try list(h["sizes"], "holdout.sizes")
            let median = try list(h["median_abs_error_bps"], "holdout.median_abs_error_bps")
            let p90 = try list(h["p90_abs_error_bps"], "holdout.p90_abs_error_bps")
            guard median.count == sizes.count, p90.count == sizes.count else {
                throw fail("holdout", "sizes and errors must have the same length")
            }
            holdout = DepthProfile.Holdout(sizes: sizes, medianAbsErrorBps: median, p90AbsErrorBps: p90)
        }
        return DepthProfile(
            symbol: symbol,
            tick: try number(value["tick"], "tick", { $0 > 0 }, "must be > 0"),
            spreadBps: spread,
            spreadP90Bps: try number(value["spread_p90_bps"], "spread_p90_bps", { $0 >= 0 }, "must be >= 0") ?? spread,
            bid: try law("bid"), ask: try law("ask"),
            volumeRankCorrelation: try number(value["volume_rank_correlation"], "volume_rank_correlation",
                                              { $0 >= -1 && $0 <= 1 }, "must be in [-1, 1]"),
            refillHalfLifeSeconds: try number(value["refill_half_life_seconds"], "refill_half_life_seconds",
                                              { $0 >= 0 }, "must be >= 0"),
            holdout: holdout)
    }
}
