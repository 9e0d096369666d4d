import BacktestCore
import BacktestData

/// One trade of Binance's `<symbol>@trade` stream.
package struct StreamTrade: Equatable, Sendable {
    /// `t`: the trade id (consecutive per symbol).
    package var id: Int64
    /// `E`: the event time, UTC ms.
    package var eventMs: Int64
    /// `T`: the trade time, UTC ms: what bars are built on.
    package var timeMs: Int64
    package var price: Double
    package var quantity: Double
    /// `m`: the buyer was the maker (the taker sold).
    package var buyerIsMaker: Bool

    package init(id: Int64, eventMs: Int64, timeMs: Int64, price: Double, quantity: Double, buyerIsMaker: Bool) {
        self.id = id; self.eventMs = eventMs; self.timeMs = timeMs; self.price = price; self.quantity = quantity
        self.buyerIsMaker = buyerIsMaker
    }

    /// The print bt stores (the taker's side from `m`).
    package var print: TradePrint {
        TradePrint(timeMs: timeMs, price: price, quantity: quantity, side: buyerIsMaker ? .sell : .buy)
    }
}

/// One diff of Binance's `<symbol>@depth@100ms` stream: absolute quantities at the levels that
/// changed between update ids `firstId` (`U`) and `lastId` (`u`), quantity 0 removing a level.
package struct DepthDiff: Equatable, Sendable {
    /// `E`: the event time, UTC ms.
    package var eventMs: Int64
    /// `U`
    package var firstId: Int64
    /// `u`
    package var lastId: Int64
    package var bids: [BookLevel]
    package var asks: [BookLevel]
    /// `pu`: the futures market's `u` of the previous diff (its diffs' ids are not consecutive);
    /// nil on spot.
    package var previousId: Int64?

    package init(eventMs: Int64, firstId: Int64, lastId: Int64, bids: [BookLevel], asks: [BookLevel], previousId: Int64? = nil) {
        self.eventMs = eventMs; self.firstId = firstId; self.lastId = lastId; self.bids = bids; self.asks = asks
        self.previousId = previousId
    }
}

/// One update of Binance's USD-M `<symbol>@markPrice@1s` stream (`markPriceUpdate`): the mark
/// price and the funding rate the next settlement, at `nextFundingMs`, is to pay.
package struct MarkPriceUpdate: Equatable, Sendable {
    /// `E`: the event time, UTC ms.
    package var eventMs: Int64
    /// `p`: the mark price.
    package var markPrice: Double
    /// `r`: the funding rate as a fraction (within ±`FundingRate.largestRate`).
    package var rate: Double
    /// `T`: the next funding time, UTC ms.
    package var nextFundingMs: Int64

    package init(eventMs: Int64, markPrice: Double, rate: Double, nextFundingMs: Int64) {
        self.eventMs = eventMs; self.markPrice = markPrice; self.rate = rate; self.nextFundingMs = nextFundingMs
    }
}

/// The REST depth snapshot (`GET /api/v3/depth?symbol=...&limit=1000`).
package struct DepthSnapshot: Equatable, Sendable {
    package var lastUpdateId: Int64
    package var bids: [BookLevel]
    package var asks: [BookLevel]

    package init(lastUpdateId: Int64, bids: [BookLevel], asks: [BookLevel]) {
        self.lastUpdateId = lastUpdateId; self.bids = bids; self.asks = asks
    }
}

/// A message of Binance's combined stream (`{"stream": ..., "data": {...}}`) or of a single
/// stream (the event object itself).
package enum StreamMessage: Equatable, Sendable {
    case trade(StreamTrade)
    case depth(DepthDiff)
    case mark(MarkPriceUpdate)
}

/// Why a frame was skipped. Nothing in a frame traps: every field is checked before use.
package enum FrameRejection: Error, Equatable, Sendable {
    /// Not JSON, or JSON of another shape; the reason says where.
    case malformed(String)
    /// A well-formed event of another symbol (`s`).
    case foreignSymbol(String)
    /// An event type bt does not read (`e`), or the subscription's `{"result": null, "id": 1}`.
    case ignored(String)
    /// A field out of range: a negative or non-numeric quantity, a price outside the prices bt
    /// supports, an id or time beyond 2^53.
    case badNumber(field: String, text: String)
    /// A time (`field`, UTC ms) ahead of the exchange's clock (`clockMs`) by more than any
    /// exchange's frame is: judged by the session against the clock (`ExchangeClock`), never by
    /// the parser.
    case futureTime(field: String, timeMs: Int64, clockMs: Int64)

    /// One line for warnings.
    package var reason: String {
        switch self {
        case .malformed(let r): "malformed frame: " + r
        case .foreignSymbol(let s): "an event of another symbol (\(Excerpt.quoted(s)))"
        case .ignored(let e): "an event bt does not read (\(e))"
        case .badNumber(let field, let text): "\(field) \(Excerpt.quoted(text)) is out of range"
        case .futureTime(let field, let t, let clock):
            "\(field) \(UTCTime.describe(floorDiv(t, 1000))) is ahead of the exchange's clock (\(UTCTime.describe(floorDiv(clock, 1000))))"
        }
    }
}

/// Reads Binance's trade, depth and (USD-M) mark price frames and REST depth snapshots from raw bytes, without
/// building a JSON tree: one pass over the bytes, numbers read in place (`DecimalParsing`),
/// unknown keys skipped. Any input either parses or throws a `FrameRejection`.
///
/// Ranges: ids and times are whole numbers in 0...2^53 (times within bt's supported range);
/// prices within `ParsedCandles.priceRange`, the prices bt stores and trades at; quantities
/// within `quantityRange` (a depth level's 0 removes it); at most `maxLevels` levels a side. A
/// number outside them is the frame's `badNumber`, so it is skipped and counted, never made into
/// a bar or a book level the store would then refuse.
/// - Complexity: O(frame length).
package struct BinanceFrameParser: Sendable {
    /// The symbol the session follows, upper case (`BTCUSDT`).
    package let symbol: [UInt8]
    package static let maxLevels = 5_000
    /// A trade's quantity, or a book level's other than 0: from 1e-12 (below any exchange's lot
    /// size; Binance's smallest step is 1e-8) to 1e15 (more than the whole supply of the coins
    /// with the most units, traded at once), so a bar's summed volume and a fill's notional
    /// (quantity times a price of at most 1e12) stay ordinary numbers the store accepts.
    package static let quantityRange: ClosedRange<Double> = 1e-12...1e15
    /// The latest supported time, UTC ms.
    static let lastMs = UTCTime.supportedRange.upperBound * 1000 + 999

    package init(symbol: String) {
        self.symbol = Array(symbol.uppercased().utf8)
    }

    /// Parses one stream frame.
    package func message(_ bytes: UnsafeRawBufferPointer) throws -> StreamMessage {
        var s = FrameScanner(bytes.assumingMemoryBound(to: UInt8.self))
        var fields = EventFields()
        try s.expect(UInt8(ascii: "{"))
        // A combined stream wraps the event in "data"; a single stream sends it bare.
        try s.members { s, key in
            if key.equals("data") {
                try s.expect(UInt8(ascii: "{"))
                try s.members { s, key in try fields.read(key, &s) }
            } else if key.equals("stream") {
                try s.skipValue(depth: 1)
            } else {
                try fields.read(key, &s)
            }
        }
        try s.end()
        return try fields.message(symbol: symbol)
    }

    /// Parses a REST depth snapshot.
    package func snapshot(_ bytes: UnsafeRawBufferPointer) throws -> DepthSnapshot {
        var s = FrameScanner(bytes.assumingMemoryBound(to: UInt8.self))
        var id: Int64?
        var bids: [BookLevel]?, asks: [BookLevel]?
        try s.expect(UInt8(ascii: "{"))
        try s.members { s, key in
            if key.equals("lastUpdateId") { id = try s.integer("lastUpdateId") }
            else if key.equals("bids") { bids = try s.levels("bids") }
            else if key.equals("asks") { asks = try s.levels("asks") }
            else { try s.skipValue(depth: 1) }
        }
        try s.end()
        guard let id else { throw FrameRejection.malformed("no \"lastUpdateId\"") }
        guard let bids, let asks else { throw FrameRejection.malformed("no \"bids\" or \"asks\"") }
        return DepthSnapshot(lastUpdateId: id, bids: bids, asks: asks)
    }
}

/// The fields of one event, as read.
private struct EventFields {
    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>
    var type: Bytes?
    var symbol: Bytes?
    var eventMs: Int64?, timeMs: Int64?, tradeId: Int64?, firstId: Int64?, lastId: Int64?, previousId: Int64?
    /// A trade's (or mark update's) price, a trade's quantity and a mark update's rate as sent,
    /// read as numbers only for the event that has them.
    var priceText: Bytes?, quantityText: Bytes?, rateText: Bytes?
    var buyerIsMaker: Bool?
    var bids: [BookLevel]?, asks: [BookLevel]?
    var result = false

    mutating func read(_ key: Key, _ s: inout FrameScanner) throws {
        guard key.count == 1 else {
            if key.equals("pu") { previousId = try s.integer("pu"); return }
            if key.equals("result") || key.equals("id") { result = true }
            return try s.skipValue(depth: 2)
        }
        switch key.first {
        case UInt8(ascii: "e"): type = try s.rawString()
        case UInt8(ascii: "s"): symbol = try s.rawString()
        case UInt8(ascii: "E"): eventMs = try s.time("E")
        case UInt8(ascii: "T"): timeMs = try s.time("T")
        case UInt8(ascii: "t"): tradeId = try s.integer("t")
        case UInt8(ascii: "U"): firstId = try s.integer("U")
        case UInt8(ascii: "u"): lastId = try s.integer("u")
        case UInt8(ascii: "p"): priceText = try s.rawString()
        case UInt8(ascii: "q"): quantityText = try s.rawString()
        case UInt8(ascii: "r"): rateText = try s.rawString()
        case UInt8(ascii: "m"): buyerIsMaker = try s.bool()
        case UInt8(ascii: "b"): bids = try s.levels("b")
        case UInt8(ascii: "a"): asks = try s.levels("a")
        default: try s.skipValue(depth: 2)
        }
    }

    static func text(_ bytes: Bytes?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    func message(symbol expected: [UInt8]) throws -> StreamMessage {
        guard let type else {
            if result { throw FrameRejection.ignored("a reply to a request") }
            throw FrameRejection.malformed("no event type \"e\"")
        }
        let isTrade = type.elementsEqual("trade".utf8), isDepth = !isTrade && type.elementsEqual("depthUpdate".utf8)
        let isMark = !isTrade && !isDepth && type.elementsEqual("markPriceUpdate".utf8)
        guard isTrade || isDepth || isMark else { throw FrameRejection.ignored(Excerpt.quoted(String(decoding: type, as: UTF8.self))) }
        guard let symbol else { throw FrameRejection.malformed("no symbol \"s\"") }
        guard symbol.elementsEqual(expected) else { throw FrameRejection.foreignSymbol(String(decoding: symbol, as: UTF8.self)) }
        guard let eventMs else { throw FrameRejection.malformed("no event time \"E\"") }
        if isTrade {
            guard let tradeId, let timeMs else { throw FrameRejection.malformed("a trade without \"t\" or \"T\"") }
            guard let priceText, let quantityText else { throw FrameRejection.malformed("a trade without \"p\" or \"q\"") }
            guard let price = FrameScanner.decimal(priceText), ParsedCandles.priceRange.contains(price) else {
                throw FrameRejection.badNumber(field: "price", text: Self.text(priceText))
            }
            guard let quantity = FrameScanner.decimal(quantityText), BinanceFrameParser.quantityRange.contains(quantity) else {
                throw FrameRejection.badNumber(field: "quantity", text: Self.text(quantityText))
            }
            return .trade(StreamTrade(id: tradeId, eventMs: eventMs, timeMs: timeMs, price: price, quantity: quantity,
                                      buyerIsMaker: buyerIsMaker ?? false))
        }
        if isMark { return .mark(try mark(eventMs: eventMs)) }
        guard let firstId, let lastId else { throw FrameRejection.malformed("a depth update without \"U\" or \"u\"") }
        guard firstId <= lastId else { throw FrameRejection.malformed("a depth update with U \(firstId) after u \(lastId)") }
        return .depth(DepthDiff(eventMs: eventMs, firstId: firstId, lastId: lastId, bids: bids ?? [], asks: asks ?? [],
                                previousId: previousId))
    }

    /// A mark price update: the mark within `ParsedCandles.priceRange`, the rate a finite
    /// fraction within ±`FundingRate.largestRate`, the next funding time a time after 0.
    private func mark(eventMs: Int64) throws -> MarkPriceUpdate {
        guard let priceText, let rateText, let timeMs else { throw FrameRejection.malformed("a mark price update without \"p\", \"r\" or \"T\"") }
        guard let mark = FrameScanner.decimal(priceText), ParsedCandles.priceRange.contains(mark) else {
            throw FrameRejection.badNumber(field: "mark price", text: Self.text(priceText))
        }
        guard let rate = FrameScanner.decimal(rateText), Swift.abs(rate) <= FundingRate.largestRate else {
            throw FrameRejection.badNumber(field: "funding rate", text: Self.text(rateText))
        }
        guard timeMs > 0 else { throw FrameRejection.badNumber(field: "T", text: String(timeMs)) }
        return MarkPriceUpdate(eventMs: eventMs, markPrice: mark, rate: rate, nextFundingMs: timeMs)
    }
}

/// A key as read: the bytes between the quotes (no escapes: Binance's keys have none; a key
/// with an escape never equals a known one).
private struct Key {
    var bytes: UnsafeBufferPointer<UInt8>.SubSequence
    var count: Int { bytes.count }
    var first: UInt8? { bytes.first }
    func equals(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { bytes.elementsEqual($0) }
    }
}

/// A cursor over one frame's bytes.
private struct FrameScanner {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    mutating func space() {
        while i < b.count, b[i] == 32 || b[i] == 9 || b[i] == 10 || b[i] == 13 { i += 1 }
    }

    func fail(_ what: String) -> FrameRejection { .malformed("\(what) at byte \(i)") }

    mutating func expect(_ c: UInt8) throws {
        space()
        guard i < b.count, b[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
        i += 1
    }

    mutating func end() throws {
        space()
        guard i == b.count else { throw fail("text after the object") }
    }

    /// Reads the members of an object whose `{` was read, calling `body` with each key, the
    /// cursor on its value, which `body` must read.
    mutating func members(_ body: (inout FrameScanner, Key) throws -> Void) throws {
        space()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            let key = Key(bytes: try rawString())
            try expect(UInt8(ascii: ":"))
            space()
            try body(&self, key)
            space()
            guard i < b.count else { throw fail("unexpected end") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return }
            throw fail("expected ',' or '}'")
        }
    }

    /// A string's bytes without its quotes; escapes are skipped over, not decoded.
    mutating func rawString() throws -> UnsafeBufferPointer<UInt8>.SubSequence {
        space()
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        i += 1
        let start = i
        while i < b.count, b[i] != UInt8(ascii: "\"") {
            if b[i] == UInt8(ascii: "\\") { i += 1 }
            else if b[i] < 0x20 { throw fail("a control character in a string") }
            i += 1
        }
        guard i < b.count else { throw fail("an unterminated string") }
        let text = b[start..<i]
        i += 1
        return text
    }

    mutating func bool() throws -> Bool {
        space()
        if match("true") { return true }
        if match("false") { return false }
        throw fail("expected true or false")
    }

    private mutating func match(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        let same = word.withUTF8Buffer { w in (0..<n).allSatisfy { b[i + $0] == w[$0] } }
        if same { i += n }
        return same
    }

    /// A whole number in 0...2^53 (a JSON number, or a string of digits).
    mutating func integer(_ field: String) throws -> Int64 {
        space()
        let quoted = i < b.count && b[i] == UInt8(ascii: "\"")
        if quoted { i += 1 }
        let start = i
        var v: Int64 = 0
        while i < b.count, b[i] &- 48 < 10 {
            v = v &* 10 &+ Int64(b[i] &- 48)
            i += 1
            guard i - start <= 16 else {
                // Quoted whole (the message cuts it to `Excerpt.limit`), not at its 17th digit.
                while i < b.count, b[i] &- 48 < 10 { i += 1 }
                throw FrameRejection.badNumber(field: field, text: String(decoding: b[start..<i], as: UTF8.self))
            }
        }
        guard i > start, v <= (1 << 53) else {
            let end = i > start ? i : min(b.count, i + 1)
            throw FrameRejection.badNumber(field: field, text: String(decoding: b[start..<end], as: UTF8.self))
        }
        if quoted {
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected '\"'") }
            i += 1
        } else if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            throw FrameRejection.badNumber(field: field, text: "a fraction")
        }
        return v
    }

    /// A time in UTC ms within bt's supported range.
    mutating func time(_ field: String) throws -> Int64 {
        let v = try integer(field)
        guard v <= BinanceFrameParser.lastMs else { throw FrameRejection.badNumber(field: field, text: String(v)) }
        return v
    }

    /// A decimal string's value, nil when it is not a number.
    static func decimal(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        if case .success(let v) = DecimalParsing.double(UnsafeBufferPointer(rebasing: text)) { return v }
        return nil
    }

    /// `[["price", "qty"], ...]`: prices within `ParsedCandles.priceRange`, quantities 0 or
    /// within `BinanceFrameParser.quantityRange`.
    mutating func levels(_ field: String) throws -> [BookLevel] {
        try expect(UInt8(ascii: "["))
        var out: [BookLevel] = []
        out.reserveCapacity(8)
        space()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return out }
        while true {
            guard out.count < BinanceFrameParser.maxLevels else { throw fail("more than \(BinanceFrameParser.maxLevels) levels") }
            try expect(UInt8(ascii: "["))
            let p = try rawString()
            try expect(UInt8(ascii: ","))
            let q = try rawString()
            // Binance has sent extra fields in level arrays before; they are skipped.
            space()
            while i < b.count, b[i] == UInt8(ascii: ",") { i += 1; try skipValue(depth: 3) ; space() }
            try expect(UInt8(ascii: "]"))
            guard let price = FrameScanner.decimal(p), ParsedCandles.priceRange.contains(price) else {
                throw FrameRejection.badNumber(field: "\(field) price", text: String(decoding: p, as: UTF8.self))
            }
            guard let quantity = FrameScanner.decimal(q), quantity == 0 || BinanceFrameParser.quantityRange.contains(quantity) else {
                throw FrameRejection.badNumber(field: "\(field) quantity", text: String(decoding: q, as: UTF8.self))
            }
            out.append(BookLevel(price: price, quantity: quantity))
            space()
            guard i < b.count else { throw fail("unexpected end") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return out }
            throw fail("expected ',' or ']'")
        }
    }

    /// Skips one JSON value of any kind (nested at most 32 deep).
    mutating func skipValue(depth: Int) throws {
        guard depth < 32 else { throw fail("nested too deeply") }
        space()
        guard i < b.count else { throw fail("unexpected end") }
        switch b[i] {
        case UInt8(ascii: "\""): _ = try rawString()
        case UInt8(ascii: "{"):
            i += 1
            try members { s, _ in try s.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            i += 1
            space()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                space()
                guard i < b.count else { throw fail("unexpected end") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return }
                throw fail("expected ',' or ']'")
            }
        default:
            // A number or a literal: up to the next delimiter.
            let start = i
            scan: while i < b.count {
                switch b[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 32, 9, 10, 13: break scan
                default: i += 1
                }
            }
            guard i > start else { throw fail("expected a value") }
        }
    }
}
