import BacktestAnalysis
import BacktestCore

/// Reads Alpha Vantage `TIME_SERIES_*` JSON: `"Time Series (Daily)"` (or any `"Time Series ..."`
/// key) mapping each date or date-time to `"1. open"`, `"2. high"`, `"3. low"`, `"4. close"`,
/// `"5. volume"` (numbers as strings). Dates come unordered; validation sorts them. With
/// `adjusted`, `"5. adjusted close"` replaces the close and scales the bar (`PriceAdjustment`).
/// Errors name the JSON key, e.g. `"Time Series (Daily)" > "2024-01-02" > "1. open"`.
enum AlphaVantageImporter {
    static func read(_ text: InputText, adjusted: Bool) throws -> ParsedCandles {
        let root: JSONValue
        do { root = try JSONParser.parse(text.bytes) } catch let e as JSONSyntaxError {
            throw e.inputError(file: text.file, bytes: text.bytes)
        }
        guard case .object(let members) = root else {
            throw InputError("expected a JSON object at the top level", at: text.file)
        }
        let messages = [
            ("Error Message", "Alpha Vantage answered with an error instead of data"),
            ("Note", "Alpha Vantage answered with a note instead of data (usually the limit on calls per minute or day)"),
            ("Information", "Alpha Vantage answered with an information message instead of data (usually a call limit "
                + "or an endpoint that needs a premium key)"),
        ]
        for (key, what) in messages where root[key] != nil && members.first(where: { $0.key.hasPrefix("Time Series") }) == nil {
            let message: String
            if case .string(let text)? = root[key] { message = text } else { message = root[key]!.kindName }
            throw InputError("\(what): \(Excerpt.quoted(message, limit: 200))", file: text.file, key: "\"\(key)\"")
        }
        guard let series = members.first(where: { $0.key.hasPrefix("Time Series") }) else {
            throw InputError("missing required key \"Time Series (Daily)\"", at: text.file)
        }
        guard case .object(let days) = series.value else {
            throw InputError("expected an object of dates, found \(series.value.kindName)", file: text.file,
                             key: "\"\(Excerpt.shortened(series.key, limit: 40))\"")
        }
        var out = ParsedCandles(file: text.file, capacity: days.count)
        for (date, fields) in days {
            let shownDate = Excerpt.shortened(date, limit: 40)
            let here = "\"\(Excerpt.shortened(series.key, limit: 40))\" > \"\(shownDate)\""
            guard let t = DecimalParsing.time(date) else {
                throw InputError("key is not a date or date-time", file: text.file, key: here)
            }
            guard case .object(let values) = fields else {
                throw InputError("expected an object of prices, found \(fields.kindName)", file: text.file, key: here)
            }
            func number(_ name: String) throws -> Double? {
                guard let m = values.first(where: { fieldName($0.key) == name }) else { return nil }
                let place = "\(here) > \"\(Excerpt.shortened(m.key, limit: 40))\""
                let result: Result<Double, DecimalParsing.Failure>
                switch m.value {
                case .string(let s): result = DecimalParsing.double(s)
                case .number(let v): result = .success(v)
                default: throw InputError("\(name) must be a number, found \(m.value.kindName)", file: text.file, key: place)
                }
                switch result {
                case .success(let v): return v
                case .failure(.missing): throw InputError("missing \(name)", file: text.file, key: place)
                case .failure(.notFinite): throw InputError("\(name) is not finite", file: text.file, key: place)
                case .failure(.notANumber): throw InputError("\(name) is not a number", file: text.file, key: place)
                }
            }
            func required(_ name: String) throws -> Double {
                guard let v = try number(name) else { throw InputError("missing \"\(name)\"", file: text.file, key: here) }
                return v
            }
            var o = try required("open"), h = try required("high"), l = try required("low"), c = try required("close")
            var v = try number("volume") ?? 0
            if adjusted {
                let adj = try required("adjusted close")
                guard PriceAdjustment.apply(adjusted: adj, open: &o, high: &h, low: &l, close: &c, volume: &v) else {
                    throw InputError(PriceAdjustment.refusal(close: c, adjustedName: "adjusted close"), file: text.file, key: here)
                }
            }
            out.append(line: 0, time: t, open: o, high: h, low: l, close: c, volume: v)
            out.keys.append("\(Excerpt.shortened(series.key, limit: 40))\" > \"\(shownDate)")
        }
        if out.series.isEmpty { throw InputError("no data rows in \"\(Excerpt.shortened(series.key, limit: 40))\"", at: text.file) }
        return out
    }

    /// `"1. open"` -> `open`.
    private static func fieldName(_ key: String) -> String {
        var s = Substring(key)
        while let c = s.first, c.isNumber || c == "." || c == " " { s = s.dropFirst() }
        return s.lowercased()
    }
}
