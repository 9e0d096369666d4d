/// One side of an order book: an ordered map from price to resting quantity, iterated best
/// price first (highest first when `descending`, as for bids; lowest first otherwise).
///
/// An AVL tree whose nodes live in one contiguous array linked by `Int32` indexes, with a free
/// list for removed nodes, so there is no allocation per level and the type has value semantics
/// through the array's copy-on-write: copying is O(1), the first mutation of a shared copy is
/// O(n). Nodes keep a parent index, so in-order iteration needs no stack, and removal relinks
/// nodes instead of moving keys, so a level's index is stable while it exists; the best level's
/// index is cached.
///
/// - Complexity: lookup, insert, update and removal O(log n) worst case; `first` O(1);
///   iterating k levels from the best O(k + log n); building from sorted levels O(n).
/// - Invariant: in-order prices strictly ordered by side; every quantity finite and > 0; each
///   node's height is 1 + the larger child height and child heights differ by at most 1; parent
///   links match child links; `best` is the leftmost node; `count` nodes are reachable and the
///   rest of `nodes` is on the free list. Checked by `checkInvariants()` in debug builds only.
struct PriceLevels: Sendable {
    struct Node: Sendable {
        var price: Double
        var quantity: Double
        var left: Int32
        var right: Int32
        var parent: Int32
        var height: Int8
    }

    private static let none: Int32 = -1

    /// True when the best price is the highest (bids).
    let descending: Bool
    private(set) var count = 0
    private var nodes: [Node] = []
    private var root = none
    private var best = none
    /// Head of the list of released nodes, chained through `left`.
    private var free = none

    init(descending: Bool) {
        self.descending = descending
    }

    /// Levels already in side order with distinct prices.
    /// - Complexity: O(n).
    init(descending: Bool, sorted levels: [BookLevel]) {
        self.descending = descending
        precondition(levels.count < Int(Int32.max), "too many price levels")
        nodes = [Node](unsafeUninitializedCapacity: levels.count) { buffer, initialized in
            levels.withUnsafeBufferPointer { levels in
                if !levels.isEmpty { _ = Self.build(levels, into: buffer, 0, Int32(levels.count), parent: Self.none) }
            }
            initialized = levels.count
        }
        count = levels.count
        root = levels.isEmpty ? Self.none : Int32(levels.count / 2)
        best = levels.isEmpty ? Self.none : 0
    }

    var isEmpty: Bool { count == 0 }

    /// The best level.
    /// - Complexity: O(1).
    var first: BookLevel? {
        best < 0 ? nil : level(best)
    }

    /// The quantity resting at `price`, or nil when there is no such level.
    /// - Complexity: O(log n).
    func quantity(at price: Double) -> Double? {
        let i = index(of: price)
        return i < 0 ? nil : nodes[Int(i)].quantity
    }

    /// Sets the quantity at `price`; a quantity of 0 (or less) removes the level, and removing an
    /// absent level does nothing.
    /// - Returns: the quantity the level held before, nil when there was none (one search for
    ///   both, where `quantity(at:)` then `set` search twice).
    /// - Complexity: O(log n).
    @discardableResult
    mutating func set(_ price: Double, quantity: Double) -> Double? {
        let i = index(of: price)
        let previous = i >= 0 ? nodes[Int(i)].quantity : nil
        if quantity > 0 {
            if i >= 0 {
                nodes[Int(i)].quantity = quantity
            } else {
                precondition(count < Int(Int32.max) - 1, "too many price levels")
                var added = Self.none
                root = insert(price, quantity, into: root, added: &added)
                nodes[Int(root)].parent = Self.none
                if best < 0 || before(price, nodes[Int(best)].price) { best = added }
                count += 1
            }
        } else if i >= 0 {
            if i == best { best = successor(i) }
            root = remove(price, from: root)
            if root >= 0 { nodes[Int(root)].parent = Self.none }
            count -= 1
        }
        return previous
    }

    /// Removes the best level.
    /// - Complexity: O(log n).
    mutating func removeFirst() {
        precondition(best >= 0, "removeFirst from empty price levels")
        set(nodes[Int(best)].price, quantity: 0)
    }

    /// Removes every level.
    mutating func removeAll(keepingCapacity keep: Bool = false) {
        nodes.removeAll(keepingCapacity: keep)
        count = 0
        root = Self.none
        best = Self.none
        free = Self.none
    }

    // MARK: - Search

    @inline(__always)
    private func before(_ a: Double, _ b: Double) -> Bool {
        descending ? a > b : a < b
    }

    @inline(__always)
    private func level(_ i: Int32) -> BookLevel {
        let n = nodes[Int(i)]
        return BookLevel(price: n.price, quantity: n.quantity)
    }

    /// The node at `price`, or `none`. A finger search from the best level: it climbs the left
    /// spine while the price is not before the parent (every node before a spine node's parent
    /// is in that spine node's subtree), then descends, so a price k levels from the touch, where
    /// a live book's updates land, costs O(log k) rather than the depth of the tree.
    private func index(of price: Double) -> Int32 {
        nodes.withUnsafeBufferPointer { nodes in
            var i = best
            guard i >= 0, !before(price, nodes[Int(i)].price) else { return Self.none }
            while case let up = nodes[Int(i)].parent, up >= 0, !before(price, nodes[Int(up)].price) { i = up }
            while i >= 0 {
                let p = nodes[Int(i)].price
                if price == p { return i }
                i = before(price, p) ? nodes[Int(i)].left : nodes[Int(i)].right
            }
            return Self.none
        }
    }

    /// The next node in side order, or `none`. Amortised O(1) over a full walk, O(log n) worst case.
    fileprivate func successor(_ i: Int32) -> Int32 {
        nodes.withUnsafeBufferPointer { Self.successor(i, in: $0) }
    }

    @inline(__always)
    private static func successor(_ i: Int32, in nodes: UnsafeBufferPointer<Node>) -> Int32 {
        var r = nodes[Int(i)].right
        if r >= 0 {
            while nodes[Int(r)].left >= 0 { r = nodes[Int(r)].left }
            return r
        }
        var child = i, p = nodes[Int(i)].parent
        while p >= 0 && nodes[Int(p)].right == child {
            child = p
            p = nodes[Int(p)].parent
        }
        return p
    }

    /// Calls `body` on each level from the best outward; faster than the iterator in hot loops.
    /// - Complexity: O(n).
    func forEach(_ body: (BookLevel) throws -> Void) rethrows {
        try nodes.withUnsafeBufferPointer { nodes in
            var i = best
            while i >= 0 {
                try body(BookLevel(price: nodes[Int(i)].price, quantity: nodes[Int(i)].quantity))
                i = Self.successor(i, in: nodes)
            }
        }
    }

    /// Calls `body` on each level from the best outward while it returns true.
    /// - Complexity: O(k + log n) for the k levels visited.
    func visit(_ body: (BookLevel) throws -> Bool) rethrows {
        try nodes.withUnsafeBufferPointer { nodes in
            var i = best
            while i >= 0 {
                guard try body(BookLevel(price: nodes[Int(i)].price, quantity: nodes[Int(i)].quantity)) else { return }
                i = Self.successor(i, in: nodes)
            }
        }
    }

    // MARK: - Tree maintenance

    /// Writes sorted levels `lo..<hi` (not empty) as a balanced subtree rooted at the middle
    /// index; returns its height. Ranges of up to 3 levels are written without recursing.
    private static func build(_ levels: UnsafeBufferPointer<BookLevel>, into nodes: UnsafeMutableBufferPointer<Node>,
                              _ lo: Int32, _ hi: Int32, parent: Int32) -> Int8 {
        let mid = lo + (hi - lo) / 2
        func write(_ i: Int32, left: Int32, right: Int32, parent: Int32, height: Int8) {
            let level = levels[Int(i)]
            (nodes.baseAddress! + Int(i)).initialize(to: Node(
                price: level.price, quantity: level.quantity, left: left, right: right, parent: parent, height: height))
        }
        switch hi - lo {
        case 1:
            write(mid, left: none, right: none, parent: parent, height: 1)
            return 1
        case 2:
            write(lo, left: none, right: none, parent: mid, height: 1)
            write(mid, left: lo, right: none, parent: parent, height: 2)
            return 2
        case 3:
            write(lo, left: none, right: none, parent: mid, height: 1)
            write(mid, left: lo, right: hi - 1, parent: parent, height: 2)
            write(hi - 1, left: none, right: none, parent: mid, height: 1)
            return 2
        default:
            let left = build(levels, into: nodes, lo, mid, parent: mid)
            let right = build(levels, into: nodes, mid + 1, hi, parent: mid)
            let height = Swift.max(left, right) + 1
            write(mid, left: lo + (mid - lo) / 2, right: mid + 1 + (hi - mid - 1) / 2, parent: parent, height: height)
            return height
        }
    }

    @inline(__always)
    private func height(_ i: Int32) -> Int8 {
        i < 0 ? 0 : nodes[Int(i)].height
    }

    @inline(__always)
    private mutating func updateHeight(_ i: Int32) {
        nodes[Int(i)].height = Swift.max(height(nodes[Int(i)].left), height(nodes[Int(i)].right)) + 1
    }

    @inline(__always)
    private mutating func setLeft(_ i: Int32, _ child: Int32) {
        nodes[Int(i)].left = child
        if child >= 0 { nodes[Int(child)].parent = i }
    }

    @inline(__always)
    private mutating func setRight(_ i: Int32, _ child: Int32) {
        nodes[Int(i)].right = child
        if child >= 0 { nodes[Int(child)].parent = i }
    }

    /// The caller links the returned subtree root to its parent.
    private mutating func rotateRight(_ i: Int32) -> Int32 {
        let l = nodes[Int(i)].left
        setLeft(i, nodes[Int(l)].right)
        setRight(l, i)
        updateHeight(i)
        updateHeight(l)
        return l
    }

    private mutating func rotateLeft(_ i: Int32) -> Int32 {
        let r = nodes[Int(i)].right
        setRight(i, nodes[Int(r)].left)
        setLeft(r, i)
        updateHeight(i)
        updateHeight(r)
        return r
    }

    /// Restores the AVL balance at `i` after one of its subtrees changed height by at most 1.
    private mutating func rebalance(_ i: Int32) -> Int32 {
        updateHeight(i)
        let l = nodes[Int(i)].left, r = nodes[Int(i)].right
        let balance = Int(height(l)) - Int(height(r))
        if balance > 1 {
            if height(nodes[Int(l)].left) < height(nodes[Int(l)].right) { setLeft(i, rotateLeft(l)) }
            return rotateRight(i)
        }
        if balance < -1 {
            if height(nodes[Int(r)].right) < height(nodes[Int(r)].left) { setRight(i, rotateRight(r)) }
            return rotateLeft(i)
        }
        return i
    }

    /// Inserts a price known to be absent; `added` receives the new node's index.
    private mutating func insert(_ price: Double, _ quantity: Double, into i: Int32, added: inout Int32) -> Int32 {
        guard i >= 0 else {
            added = allocate(price, quantity)
            return added
        }
        if before(price, nodes[Int(i)].price) {
            setLeft(i, insert(price, quantity, into: nodes[Int(i)].left, added: &added))
        } else {
            setRight(i, insert(price, quantity, into: nodes[Int(i)].right, added: &added))
        }
        return rebalance(i)
    }

    /// Removes a price known to be present. A node with two children is replaced by its
    /// successor node (relinked, not copied), so the indexes of other levels do not change.
    private mutating func remove(_ price: Double, from i: Int32) -> Int32 {
        let p = nodes[Int(i)].price
        if before(price, p) {
            setLeft(i, remove(price, from: nodes[Int(i)].left))
        } else if before(p, price) {
            setRight(i, remove(price, from: nodes[Int(i)].right))
        } else {
            let l = nodes[Int(i)].left, r = nodes[Int(i)].right
            release(i)
            if l < 0 { return r }
            if r < 0 { return l }
            var next = Self.none
            let rest = detachFirst(r, into: &next)
            setLeft(next, l)
            setRight(next, rest)
            return rebalance(next)
        }
        return rebalance(i)
    }

    /// Unlinks the leftmost node of subtree `i` into `first`; returns the subtree's new root.
    private mutating func detachFirst(_ i: Int32, into first: inout Int32) -> Int32 {
        let l = nodes[Int(i)].left
        guard l >= 0 else {
            first = i
            return nodes[Int(i)].right
        }
        setLeft(i, detachFirst(l, into: &first))
        return rebalance(i)
    }

    private mutating func allocate(_ price: Double, _ quantity: Double) -> Int32 {
        let node = Node(price: price, quantity: quantity, left: Self.none, right: Self.none, parent: Self.none, height: 1)
        if free >= 0 {
            let i = free
            free = nodes[Int(i)].left
            nodes[Int(i)] = node
            return i
        }
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    private mutating func release(_ i: Int32) {
        nodes[Int(i)] = Node(price: .nan, quantity: 0, left: free, right: Self.none, parent: Self.none, height: 0)
        free = i
    }

    // MARK: - Invariants

    /// Traps when a tree invariant is broken. Compiled out of release builds.
    /// - Complexity: O(n).
    @inline(__always)
    func checkInvariants() {
        #if DEBUG
        var seen = [Bool](repeating: false, count: nodes.count)
        func check(_ i: Int32, parent: Int32) -> (height: Int8, size: Int) {
            guard i >= 0 else { return (0, 0) }
            let n = nodes[Int(i)]
            precondition(!seen[Int(i)], "price level node \(i) reachable twice")
            seen[Int(i)] = true
            precondition(n.parent == parent, "price level node \(i) has parent \(n.parent), expected \(parent)")
            precondition(n.quantity > 0 && n.quantity.isFinite, "book level with quantity \(n.quantity)")
            if n.left >= 0 { precondition(before(nodes[Int(n.left)].price, n.price), "price levels out of order") }
            if n.right >= 0 { precondition(before(n.price, nodes[Int(n.right)].price), "price levels out of order") }
            let l = check(n.left, parent: i), r = check(n.right, parent: i)
            precondition(abs(Int(l.height) - Int(r.height)) <= 1, "price level tree unbalanced at node \(i)")
            precondition(n.height == Swift.max(l.height, r.height) + 1, "stale height at price level node \(i)")
            return (n.height, l.size + r.size + 1)
        }
        precondition(check(root, parent: Self.none).size == count, "price level count \(count) does not match the tree")
        var i = free, released = 0
        while i >= 0 {
            precondition(!seen[Int(i)], "price level node \(i) both in the tree and free")
            seen[Int(i)] = true
            released += 1
            i = nodes[Int(i)].left
        }
        precondition(count + released == nodes.count, "price level nodes leaked")
        var leftmost = root
        while leftmost >= 0 && nodes[Int(leftmost)].left >= 0 { leftmost = nodes[Int(leftmost)].left }
        precondition(best == leftmost, "cached best price level is stale")
        var walked = 0, previous: Double? = nil
        for level in self {
            if let previous { precondition(before(previous, level.price), "price levels iterate out of order") }
            previous = level.price
            walked += 1
        }
        precondition(walked == count, "price level iteration visits \(walked) of \(count)")
        #endif
    }
}

// MARK: - Sequence

extension PriceLevels: Sequence {
    /// Levels from the best price outward; holds a copy of the levels, so mutating the original
    /// while iterating is safe (and copies its storage).
    struct Iterator: IteratorProtocol {
        fileprivate let levels: PriceLevels
        fileprivate var current: Int32

        mutating func next() -> BookLevel? {
            guard current >= 0 else { return nil }
            let level = levels.level(current)
            current = levels.successor(current)
            return level
        }
    }

    /// - Complexity: O(1); a full walk is O(n).
    func makeIterator() -> Iterator {
        Iterator(levels: self, current: best)
    }

    var underestimatedCount: Int { count }
}

extension PriceLevels: Equatable {
    /// Same side and the same levels in the same order, whatever the tree shapes.
    static func == (lhs: PriceLevels, rhs: PriceLevels) -> Bool {
        lhs.descending == rhs.descending && lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension PriceLevels: CustomStringConvertible {
    var description: String { "\(Array(self))" }
}
