import BacktestCore
import Foundation

/// Fetches a perpetual future's funding-rate history from Binance's USD-M futures API (or a
/// mirror), page by page, into validated rows ready to be written in one transaction.
///
/// Requests: `GET /fapi/v1/fundingRate?symbol=&startTime=&endTime=&limit=1000`, oldest first,
/// each page from 1 ms after the previous page's last settlement. A page is a JSON array of
/// `{"symbol", "fundingTime" (ms), "fundingRate" (decimal string), "markPrice" (decimal string,
/// may be empty)}`. The fetch resumes after the last stored settlement, stops at a short page,
/// at a page that adds nothing, and at the present (the local clock); a fetch that would need
/// more than `maximumPages` is refused (fetch a shorter range with `from`/`to`). Every number is range-checked: the time within
/// bt's supported times and the asked range, the rate and mark price by `FundingRate.problem`;
/// a row of another symbol, or times not after the previous row's, are refused. Then
/// `GET /fapi/v1/exchangeInfo` once, for the symbol's instrument settings (`BinanceFuturesInstrument`).
package enum BinanceFundingFetch {
    package static let defaultBaseURL = "https://fapi.binance.com"
    /// The endpoint's largest `limit`: settlements per page.
    static let pageLimit = 1000
    /// The most pages one fetch reads: 1,000,000 settlements, about 900 years of 8-hour funding.
    package static let maximumPages = 1000

    /// Fetches `symbol`'s settlements with times in [`from`, `to`] (seconds, inclusive of their
    /// whole second; from 1970 to the present when nil). When `store` holds funding rates of the
    /// symbol and `from` is not before the first, only settlements after the last are asked for.
    /// - Throws: `InputError` when the service refuses the request, `FetchError` when it cannot
    ///   be fetched or a page is not valid data.
    package static func fetch(symbol: String, from: Int64? = nil, to: Int64? = nil, store: CandleStore? = nil, baseURL: URL,
                              policy: FetchPolicy = FetchPolicy(), maximumPages: Int = maximumPages,
                              events: @escaping (FetchEvent) -> Void = { _ in }) throws -> FetchResult {
        let client = RetryingClient(policy: policy, events: events)
        var startMs = (from ?? 0) * 1000
        var resumedAfter: Int64?
        if let stored = try store?.fundingList().first(where: { $0.symbol == symbol }), (from.map { $0 * 1000 } ?? stored.firstMs) >= stored.firstMs {
            resumedAfter = floorDiv(stored.lastMs, 1000)
            startMs = max(startMs, stored.lastMs + 1)
        }
        let endMs = min(to.map { $0 * 1000 + 999 } ?? .max, policy.clockMs())
        var rows: [FundingRate] = []
        var pages = 0
        while startMs <= endMs {
            guard pages < maximumPages else {
                throw FetchError(.badAnswer, url: baseURL.shown, page: pages,
                                 reason: "more than \(maximumPages) pages of funding rates; fetch a shorter range (from, to)")
            }
            let url = baseURL.endpoint("fapi/v1/fundingRate", query: [
                ("symbol", symbol), ("startTime", String(startMs)), ("endTime", String(endMs)), ("limit", String(pageLimit)),
            ])
            let reply = try client.get(url, page: pages + 1)
            guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
            pages += 1
            let page: Page
            do {
                page = try self.page(reply.body, name: url.shown, symbol: symbol, keeping: startMs...endMs)
            } catch let e as InputError {
                throw FetchError(.badAnswer, url: url.shown, page: pages, reason: e.detail)
            }
            if let last = rows.last, let first = page.rows.first, first.timeMs <= last.timeMs {
                throw FetchError(.badAnswer, url: url.shown, page: pages,
                                 reason: "its first settlement \(UTCTime.isoMs(first.timeMs)) is not after the previous page's last "
                                     + UTCTime.isoMs(last.timeMs))
            }
            rows += page.rows
            events(.page(number: pages, estimatedPages: nil, bars: rows.count))
            guard page.count == pageLimit, let last = page.rows.last else { break }
            startMs = last.timeMs + 1
        }
        let instrument = try BinanceFuturesInstrument.fetch(symbol: symbol, baseURL: baseURL, client: client)
        let file = rows.isEmpty ? nil
            : ImportedFile(file: "binance-futures \(symbol) funding", format: .funding, symbol: symbol, content: .funding(rows))
        return FetchResult(file: file, pages: pages, requests: client.requests, retries: client.retries,
                           waitedSeconds: client.waited, resumedAfter: resumedAfter, instrument: instrument)
    }

    /// One page read: its settlements within the asked range, in time order, and how many rows
    /// the server sent.
    package struct Page {
        package var rows: [FundingRate]
        package var count: Int
    }

    /// Reads a page; rows with times outside `wantedMs` are dropped.
    /// - Throws: `InputError` naming the row (`row N`), the field and what is wrong with it.
    package static func page(_ body: [UInt8], name: String, symbol: String,
                             keeping wantedMs: ClosedRange<Int64> = Int64.min...Int64.max) throws -> Page {
        let root: JSONValue
        do { root = try body.withUnsafeBufferPointer { try JSONParser.parse($0) } } catch let e as JSONSyntaxError {
            throw InputError("invalid JSON: \(e.reason) (at byte \(e.offset) of \(body.count))", at: name)
        }
        guard case .array(let items) = root else {
            throw InputError("expected a JSON array of funding rates, found \(root.kindName)", at: name)
        }
        var page = Page(rows: [], count: items.count)
        for (i, item) in items.enumerated() {
            func fail(_ reason: String) -> InputError { InputError(reason, file: name, key: "row \(i + 1)") }
            guard case .object = item else { throw fail("expected an object, found \(item.kindName)") }
            guard case .string(let s)? = item["symbol"], s == symbol else {
                throw fail("\"symbol\" is missing or not \(symbol)")
            }
            guard case .number(let t)? = item["fundingTime"] else { throw fail("\"fundingTime\" must be a number of milliseconds") }
            let timeMs: Int64
            do {
                timeMs = try NetworkNumber.integer(t, "fundingTime", in: 0...(UTCTime.supportedRange.upperBound * 1000 + 999))
            } catch let e as InputError { throw fail(e.reason) }
            func decimal(_ field: String, emptyAllowed: Bool) throws -> Double? {
                guard case .string(let text)? = item[field] else { throw fail("\"\(field)\" must be a decimal string") }
                if emptyAllowed && text.isEmpty { return nil }
                guard case .success(let v) = DecimalParsing.double(text), v.isFinite else {
                    throw fail("\(field) \(Excerpt.quoted(text, limit: 40)) is not a finite number")
                }
                return v
            }
            let rate = try decimal("fundingRate", emptyAllowed: false)!
            let row = FundingRate(timeMs: timeMs, rate: rate, markPrice: try decimal("markPrice", emptyAllowed: true))
            if let problem = row.problem { throw fail(problem) }
            if let last = page.rows.last, timeMs <= last.timeMs {
                throw fail("fundingTime \(UTCTime.isoMs(timeMs)) is not after the previous row's \(UTCTime.isoMs(last.timeMs))")
            }
            if wantedMs.contains(timeMs) { page.rows.append(row) }
        }
        return page
    }
}
