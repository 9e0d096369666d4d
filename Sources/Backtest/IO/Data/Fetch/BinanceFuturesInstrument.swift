import BacktestCore
import Foundation

/// A Binance USD-M futures symbol's instrument settings (`bt data instrument`) from the
/// exchange's `GET /fapi/v1/exchangeInfo` (every symbol; no query), read when `bt data fetch
/// binance-futures` fetches: `contractType` PERPETUAL is `perp`, a dated contract
/// (CURRENT_QUARTER, NEXT_QUARTER, CURRENT_MONTH, NEXT_MONTH) `future`, another type no kind;
/// `tick` is the PRICE_FILTER's `tickSize`, `lot` the LOT_SIZE's `stepSize` (decimal strings).
package enum BinanceFuturesInstrument {
    static let datedContracts: Set<String> = ["CURRENT_QUARTER", "NEXT_QUARTER", "CURRENT_MONTH", "NEXT_MONTH"]

    /// `symbol`'s settings from the server at `baseURL`.
    /// - Throws: `InputError` when the service refuses the request, `FetchError` when it cannot
    ///   be fetched or the answer is not valid (`settings(_:symbol:)`).
    package static func fetch(symbol: String, baseURL: URL, client: RetryingClient) throws -> [Setting: ExecutionValue] {
        let url = baseURL.endpoint("fapi/v1/exchangeInfo", query: [])
        let reply = try client.get(url)
        guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
        do {
            return try settings(reply.body, symbol: symbol)
        } catch let e as InputError {
            throw FetchError(.badAnswer, url: url.shown, reason: e.detail)
        }
    }

    /// Reads an exchangeInfo answer: `symbol`'s settings, each checked as `bt data instrument`
    /// checks it (`ExecutionRequest.checkedAlone`).
    /// - Throws: `InputError` naming the field: not JSON, no `symbols` array, the symbol not
    ///   listed, a `tickSize` or `stepSize` that is not a positive decimal string.
    package static func settings(_ body: [UInt8], symbol: String) throws -> [Setting: ExecutionValue] {
        guard let root = try? body.withUnsafeBufferPointer({ try JSONParser.parse($0) }) else {
            throw InputError("the answer is not JSON")
        }
        guard case .array(let symbols)? = root["symbols"] else { throw InputError("no \"symbols\" array in the answer") }
        guard let entry = symbols.first(where: { $0["symbol"] == .string(symbol) }) else {
            throw InputError("\"symbols\" does not list \(symbol)")
        }
        var out: [Setting: ExecutionValue] = [:]
        if case .string(let type)? = entry["contractType"] {
            if type == "PERPETUAL" { out[.instrument] = .text("perp") }
            if datedContracts.contains(type) { out[.instrument] = .text("future") }
        }
        let filters: [JSONValue] = if case .array(let f)? = entry["filters"] { f } else { [] }
        for (type, field, setting) in [("PRICE_FILTER", "tickSize", Setting.tick), ("LOT_SIZE", "stepSize", Setting.lot)] {
            guard let filter = filters.first(where: { $0["filterType"] == .string(type) }) else { continue }
            guard case .string(let text)? = filter[field], case .success(let v) = DecimalParsing.double(text), v.isFinite, v > 0 else {
                let shown = if case .string(let t)? = filter[field] { Excerpt.quoted(t, limit: 40) } else { filter[field]?.kindName ?? "missing" }
                throw InputError("\(symbol) \(type) \(field) \(shown) is not a positive decimal string")
            }
            out[setting] = .number(v)
        }
        var request = ExecutionRequest()
        for (setting, value) in out { try request.set(setting, value) }
        try request.checkedAlone()
        return out
    }
}
