import Testing
import TestSupport
@testable import BacktestCore


/// The array book `OrderBook` used before the trees: the reference for contents, order and fills.
struct ReferenceSide {
    var levels: [BookLevel] = []
    let descending: Bool

    func index(_ price: Double) -> Int {
        levels.firstIndex { descending ? $0.price <= price : $0.price >= price } ?? levels.count
    }

    mutating func set(_ price: Double, quantity: Double) {
        let i = index(price)
        let found = i < levels.count && levels[i].price == price
        switch (found, quantity > 0) {
        case (true, true): levels[i].quantity = quantity
        case (true, false): levels.remove(at: i)
        case (false, true): levels.insert(BookLevel(price: price, quantity: quantity), at: i)
        case (false, false): break
        }
    }

    mutating func consume(_ quantity: Double) {
        var left = quantity, emptied = 0
        while emptied < levels.count && left > 0 {
            if levels[emptied].quantity <= left * (1 + 1e-12) {
                left -= levels[emptied].quantity
                emptied += 1
            } else {
                levels[emptied].quantity -= left
                left = 0
            }
        }
        levels.removeFirst(emptied)
    }

    func walk(_ quantity: Double, notionalLimit: Double) -> BookFill {
        var filled = 0.0, notional = 0.0, walked = 0, available = 0.0, worst = Double.nan
        for level in levels {
            available += level.quantity
            let room = quantity - filled
            guard room > 0, notional < notionalLimit else { continue }
            let take = min(room, level.quantity, (notionalLimit - notional) / level.price)
            guard take > 0 else { continue }
            filled += take
            notional += take * level.price
            worst = level.price
            walked += 1
        }
        return BookFill(quantityAsked: quantity, quantityFilled: filled, notional: notional,
                        levelsWalked: walked, worstPrice: worst, depthAvailable: available)
    }
}

@Suite("PriceLevels")
struct PriceLevelsTests {
    static func expectSame(_ tree: PriceLevels, _ reference: ReferenceSide, step: Int) {
        tree.checkInvariants()
        #expect(Array(tree) == reference.levels, "step \(step)")
        #expect(tree.count == reference.levels.count && tree.isEmpty == reference.levels.isEmpty)
        #expect(tree.first == reference.levels.first)
    }

    @Test("random sets and removals agree with a sorted array, best first", arguments: [true, false])
    func randomAgainstReference(descending: Bool) {
        var rng = SplitMix64(seed: descending ? 42 : 7)
        var tree = PriceLevels(descending: descending)
        var reference = ReferenceSide(descending: descending)
        for step in 0..<6000 {
            // A grid of 400 ticks, so sets hit existing levels, absent levels and fresh ones;
            // the drift makes the book grow, then shrink.
            let price = Double(Int.random(in: 0..<400, using: &rng)) * 0.25 + 100
            let removeShare = step < 3000 ? 0.3 : 0.7
            let quantity = Double.random(in: 0..<1, using: &rng) < removeShare ? 0 : Double.random(in: 0.01...50, using: &rng)
            switch Int.random(in: 0..<20, using: &rng) {
            case 0 where !reference.levels.isEmpty:
                tree.removeFirst()
                reference.levels.removeFirst()
            default:
                tree.set(price, quantity: quantity)
                reference.set(price, quantity: quantity)
                #expect(tree.quantity(at: price) == (quantity > 0 ? quantity : nil))
            }
            Self.expectSame(tree, reference, step: step)
        }
    }

    @Test("removing an absent level changes nothing")
    func absentRemoval() {
        var empty = PriceLevels(descending: false)
        empty.set(100, quantity: 0)
        empty.checkInvariants()
        #expect(empty.isEmpty && empty.first == nil)
        var tree = PriceLevels(descending: true, sorted: [BookLevel(price: 3, quantity: 1), BookLevel(price: 1, quantity: 2)])
        let before = tree
        tree.set(2, quantity: 0)
        tree.set(0.5, quantity: 0)
        tree.set(4, quantity: -1)
        tree.checkInvariants()
        #expect(tree == before && tree.count == 2)
    }

    @Test("quantity 0 (or less) removes a level, including the best and the root")
    func zeroRemoves() {
        var tree = PriceLevels(descending: false, sorted: (1...7).map { BookLevel(price: Double($0), quantity: 1) })
        tree.set(4, quantity: 0)  // the root of the built tree, which has two children
        tree.set(1, quantity: 0)  // the best level
        tree.set(7, quantity: -3)
        tree.checkInvariants()
        #expect(Array(tree).map(\.price) == [2, 3, 5, 6])
        #expect(tree.first == BookLevel(price: 2, quantity: 1))
        #expect(tree.quantity(at: 4) == nil)
    }

    @Test("a tree built from sorted levels holds them in order", arguments: [0, 1, 2, 3, 10, 33, 64])
    func sortedBuild(count: Int) {
        let asks = (0..<count).map { BookLevel(price: 100 + Double($0), quantity: Double($0 + 1)) }
        let tree = PriceLevels(descending: false, sorted: asks)
        tree.checkInvariants()
        #expect(Array(tree) == asks && tree.count == count)
        var drained = tree
        var prices: [Double] = []
        while let best = drained.first {
            prices.append(best.price)
            drained.removeFirst()
            drained.checkInvariants()
        }
        #expect(prices == asks.map(\.price))
        #expect(Array(tree) == asks)  // the copy was not touched
    }

    @Test("equal contents compare equal whatever the insertion order")
    func equality() {
        var a = PriceLevels(descending: true), b = PriceLevels(descending: true)
        for p in [5.0, 1, 4, 2, 3] { a.set(p, quantity: p) }
        for p in [1.0, 2, 3, 4, 5, 6] { b.set(p, quantity: p) }
        #expect(a != b)
        b.set(6, quantity: 0)
        #expect(a == b)
        b.set(3, quantity: 3.5)
        #expect(a != b)
        #expect(PriceLevels(descending: true) != PriceLevels(descending: false))
    }

    /// Bit-for-bit equal fills (NaN worst prices compare equal).
    static func same(_ a: BookFill, _ b: BookFill) -> Bool {
        let bits = { (f: BookFill) in
            [f.quantityAsked, f.quantityFilled, f.notional, f.worstPrice, f.depthAvailable].map(\.bitPattern)
        }
        return a.levelsWalked == b.levelsWalked && bits(a) == bits(b)
    }

    @Test("random book updates, takes and fills match the array book exactly")
    func bookAgainstReference() {
        var rng = SplitMix64(seed: 2024)
        var book = OrderBook()
        var bids = ReferenceSide(descending: true), asks = ReferenceSide(descending: false)
        for step in 0..<3000 {
            let quantity = Double.random(in: 0..<1, using: &rng) < 0.3 ? 0 : Double.random(in: 0.5...20, using: &rng)
            let size = Double.random(in: 0...12, using: &rng)
            let limit = Bool.random(using: &rng) ? Double.infinity : Double.random(in: 0...5000, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                let f = book.take(.buy, quantity: size, notionalLimit: limit)
                #expect(Self.same(f, asks.walk(size, notionalLimit: limit)), "step \(step)")
                asks.consume(f.quantityFilled)
            case 1:
                let f = book.take(.sell, quantity: size, notionalLimit: limit)
                #expect(Self.same(f, bids.walk(size, notionalLimit: limit)), "step \(step)")
                bids.consume(f.quantityFilled)
            case 2:
                book.remove(.sell, quantity: size)
                asks.consume(size)
            case 3...6:
                let price = Double(Int.random(in: 1...200, using: &rng)) * 0.5
                book.set(.buy, price: price, quantity: quantity)
                bids.set(price, quantity: quantity)
            default:
                let price = Double(Int.random(in: 101...300, using: &rng)) * 0.5
                book.set(.sell, price: price, quantity: quantity)
                asks.set(price, quantity: quantity)
            }
            #expect(book.bids == bids.levels && book.asks == asks.levels, "step \(step)")
            #expect(book.bestBid == bids.levels.first?.price && book.bestAsk == asks.levels.first?.price)
            #expect(Self.same(book.fill(marketBuy: size), asks.walk(size, notionalLimit: .infinity)))
        }
    }

    @Test("a snapshot replaces a large book; duplicate prices sum and quantity 0 is dropped")
    func snapshotReplaces() {
        var book = OrderBook()
        for k in 0..<500 {
            book.set(.buy, price: 1000 - Double(k), quantity: 1)
            book.set(.sell, price: 1001 + Double(k), quantity: 1)
        }
        book.apply(BookEvent(timeMs: 0, kind: .snapshot,
                             bids: [BookLevel(price: 9, quantity: 1), BookLevel(price: 10, quantity: 2), BookLevel(price: 9, quantity: 0.5),
                                    BookLevel(price: 8, quantity: 0)],
                             asks: [BookLevel(price: 12, quantity: 1), BookLevel(price: 11, quantity: 3)]))
        book.checkInvariants()
        #expect(book.bids == [BookLevel(price: 10, quantity: 2), BookLevel(price: 9, quantity: 1.5)])
        #expect(book.asks == [BookLevel(price: 11, quantity: 3), BookLevel(price: 12, quantity: 1)])
        #expect(book == OrderBook(bids: [BookLevel(price: 9, quantity: 1.5), BookLevel(price: 10, quantity: 2)],
                                  asks: [BookLevel(price: 12, quantity: 1), BookLevel(price: 11, quantity: 3)]))
        book.apply(BookEvent(timeMs: 1, kind: .snapshot, bids: [], asks: []))
        #expect(book.isEmpty && book == OrderBook())
    }

    @Test("a book from levels already in side order equals one built level by level; any other input takes the slow path")
    func sortedSnapshotsBuildInLinearTime() {
        var rng = SplitMix64(seed: 5)
        for round in 0..<400 {
            let n = Int(rng.next() % 300)
            var bids = (0..<n).map { BookLevel(price: 1000 - Double($0) * 0.5, quantity: 1 + Double(rng.next() % 100)) }
            var asks = (0..<n).map { BookLevel(price: 1001 + Double($0) * 0.5, quantity: 1 + Double(rng.next() % 100)) }
            // Now and then out of order, a repeated price, a zero or NaN quantity.
            if n > 2, round % 2 == 1 {
                let i = 1 + Int(rng.next() % UInt64(n - 1))
                switch rng.next() % 5 {
                case 0: bids.swapAt(i, i - 1)
                case 1: asks[i].price = asks[i - 1].price
                case 2: bids[i].quantity = 0
                case 3: asks[i].quantity = .nan
                default: asks.swapAt(i, i - 1)
                }
            }
            var expected = OrderBook()
            for l in bids where l.quantity > 0 { expected.set(.buy, price: l.price, quantity: (expected.bidLevels.quantity(at: l.price) ?? 0) + l.quantity) }
            for l in asks where l.quantity > 0 { expected.set(.sell, price: l.price, quantity: (expected.askLevels.quantity(at: l.price) ?? 0) + l.quantity) }
            let book = OrderBook(bids: bids, asks: asks)
            book.checkInvariants()
            #expect(book.bids == expected.bids && book.asks == expected.asks, "round \(round)")
        }
    }

    @Test("a copied book is independent of the original")
    func copies() {
        let original = OrderBookTests.sample()
        var copy = original
        _ = copy.take(.buy, quantity: 12)
        copy.set(.buy, price: 99.75, quantity: 1)
        #expect(original == OrderBookTests.sample())
        #expect(original.asks.map(\.price) == [100, 100.5, 101])
        #expect(copy.asks.map(\.price) == [100.5, 101] && copy.bestBid == 99.75)
    }
}
