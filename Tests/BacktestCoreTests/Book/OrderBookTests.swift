import Testing
@testable import BacktestCore

@Suite("OrderBook")
struct OrderBookTests {
    /// asks 100 x 5, 100.5 x 10, 101 x 20; bids 99.5 x 4, 99 x 6, 98 x 10 (inserted out of order).
    static func sample() -> OrderBook {
        OrderBook(
            bids: [BookLevel(price: 99, quantity: 6), BookLevel(price: 99.5, quantity: 4), BookLevel(price: 98, quantity: 10)],
            asks: [BookLevel(price: 101, quantity: 20), BookLevel(price: 100, quantity: 5), BookLevel(price: 100.5, quantity: 10)])
    }

    @Test("sides are sorted: bids descending, asks ascending")
    func sorted() {
        let book = Self.sample()
        #expect(book.bids.map(\.price) == [99.5, 99, 98])
        #expect(book.asks.map(\.price) == [100, 100.5, 101])
        #expect(book.bestBid == 99.5 && book.bestAsk == 100 && book.mid == 99.75)
    }

    @Test("set updates, inserts in order, and quantity 0 removes a level")
    func updates() {
        var book = Self.sample()
        book.set(.sell, price: 100.5, quantity: 3)
        #expect(book.asks == [BookLevel(price: 100, quantity: 5), BookLevel(price: 100.5, quantity: 3), BookLevel(price: 101, quantity: 20)])
        book.set(.sell, price: 100.25, quantity: 1)
        #expect(book.asks.map(\.price) == [100, 100.25, 100.5, 101])
        book.set(.buy, price: 99.75, quantity: 2)
        #expect(book.bids.map(\.price) == [99.75, 99.5, 99, 98])
        book.set(.sell, price: 100, quantity: 0)
        #expect(book.bestAsk == 100.25)
        book.set(.buy, price: 97, quantity: 0)  // removing a missing level is a no-op
        #expect(book.bids.count == 4)
    }

    @Test("a market buy walks the asks to a VWAP")
    func buyVWAP() {
        let f = Self.sample().fill(marketBuy: 12)
        // 5 x 100 + 7 x 100.5 = 1203.5 over 12
        #expect(f.quantityFilled == 12)
        #expect(abs(f.vwap - 1203.5 / 12) < 1e-12)
        #expect(f.levelsWalked == 2 && f.worstPrice == 100.5 && !f.isPartial)
        #expect(f.depthAvailable == 35)
    }

    @Test("a market sell walks the bids to a VWAP")
    func sellVWAP() {
        let f = Self.sample().fill(marketSell: 5)
        // 4 x 99.5 + 1 x 99 = 497 over 5
        #expect(abs(f.vwap - 99.4) < 1e-12)
        #expect(f.quantityFilled == 5)
    }

    @Test("an order larger than the book fills partially")
    func partial() {
        let f = Self.sample().fill(marketBuy: 40)
        // 5 x 100 + 10 x 100.5 + 20 x 101 = 3525 for 35
        #expect(f.quantityFilled == 35 && f.isPartial)
        #expect(abs(f.vwap - 3525.0 / 35) < 1e-12)
        #expect(OrderBook().fill(marketSell: 1).quantityFilled == 0)
        #expect(OrderBook().fill(marketSell: 1).vwap.isNaN)
    }

    @Test("a notional limit stops the walk inside a level")
    func notionalLimit() {
        let f = Self.sample().fill(marketBuy: 12, notionalLimit: 1000)
        // 5 at 100 = 500, then 500 / 100.5 at 100.5
        #expect(abs(f.notional - 1000) < 1e-9)
        #expect(abs(f.quantityFilled - (5 + 500 / 100.5)) < 1e-12)
    }

    @Test("take removes the liquidity it used")
    func take() {
        var book = Self.sample()
        let f = book.take(.buy, quantity: 12)
        #expect(f.quantityFilled == 12)
        #expect(book.asks == [BookLevel(price: 100.5, quantity: 3), BookLevel(price: 101, quantity: 20)])
        let g = book.take(.sell, quantity: 4)
        #expect(g.vwap == 99.5)
        #expect(book.bestBid == 99)
    }

    @Test("recorded events: snapshot replaces, update patches")
    func events() {
        var book = Self.sample()
        book.apply(BookEvent(timeMs: 0, kind: .snapshot, bids: [BookLevel(price: 10, quantity: 1)],
                             asks: [BookLevel(price: 11, quantity: 2)]))
        #expect(book.bids == [BookLevel(price: 10, quantity: 1)] && book.asks == [BookLevel(price: 11, quantity: 2)])
        book.apply(BookEvent(timeMs: 1, kind: .update, bids: [BookLevel(price: 10, quantity: 0), BookLevel(price: 9.5, quantity: 3)],
                             asks: [BookLevel(price: 10.5, quantity: 1)]))
        #expect(book.bids == [BookLevel(price: 9.5, quantity: 3)])
        #expect(book.asks.map(\.price) == [10.5, 11])
    }
}
