/// The planner: which symbols get which target weight on a row (`PortfolioRules`).
extension PortfolioSimulation {
    /// Fills `orders` with the row's orders.
    mutating func plan(_ r: Int, _ t: Int64) {
        orders.removeAll(keepingCapacity: true)
        switch mode {
        case .table(let table):
            while tableCursor < table.count && table[tableCursor].row < r { tableCursor += 1 }
            while tableCursor < table.count && table[tableCursor].row == r {
                let o = table[tableCursor]
                tableCursor += 1
                advance(o.symbol, to: t)
                // No bar: ignored, as vectorbt ignores an order without a price.
                guard hasBar(o.symbol, t) else { continue }
                orders.append(PendingOrder(symbol: o.symbol, bar: state[o.symbol].cursor, weight: o.target, reason: o.reason))
            }
        case .signals:
            sendRemainders(t)
            if shortEvents != nil { planBook(r, t) } else { planSignals(r, t) }
        case .rotation:
            sendRemainders(t)
            if rebalanceRow[r] {
                planRotation(r, t)
            } else if rules.neutral {
                // A stop, liquidation or time exit between rebalance dates changes a leg: the
                // book is balanced again at the symbols' next bars, as a signal book is.
                balanceRotation(r, t)
            }
        }
        guard !orders.isEmpty else { return }
        // Recorded in symbol order (executed in value order).
        let start = plannedOrders.count
        for o in orders { plannedOrders.append(PortfolioOrder(row: r, symbol: o.symbol, target: o.weight, reason: o.reason)) }
        if orders.count > 1 { plannedOrders[start...].sort { $0.symbol < $1.symbol } }
    }

    /// Exits that filled only partly are sent again at their symbol's next bar.
    private mutating func sendRemainders(_ t: Int64) {
        for j in active where ledgers[j].closing && hasBar(j, t) {
            orders.append(PendingOrder(symbol: j, bar: state[j].cursor, weight: 0, reason: .remainder))
        }
    }

    // MARK: - Signals

    /// Exits first (their slots free), then entries competing for the free slots by rank, then
    /// the rebalance of the other held symbols; weights last, over the book after the row.
    private mutating func planSignals(_ r: Int, _ t: Int64) {
        for e in exits.range(r) {
            let j = Int(exits.symbol[e])
            if entryPrices != nil, working[j] != nil, ledgers[j].quantity == 0 {
                // An exit signal while flat cancels the working entry (and frees its slot).
                working[j] = nil
                release(j)
                continue
            }
            guard state[j].held, !ledgers[j].closing else { continue }
            release(j)
            orders.append(PendingOrder(symbol: j, bar: Int(exits.bar[e]) + (nextOpen ? 1 : 0), weight: 0, reason: .exit))
        }
        if exitRules != nil {
            // Exit rules that read the position fired at the symbol's last close (or this one).
            for j in active where ruleExits[j] && hasBar(j, t) {
                ruleExits[j] = false
                guard state[j].held, !ledgers[j].closing else { continue }
                release(j)
                orders.append(PendingOrder(symbol: j, bar: state[j].cursor, weight: 0, reason: .exit))
            }
        }
        let range = entries.range(r)
        if !range.isEmpty {
            candidates.removeAll(keepingCapacity: true)
            for e in range {
                let j = Int(entries.symbol[e]), k = Int(entries.bar[e])
                if entryPrices != nil, let w = working[j], ledgers[j].quantity == 0 {
                    // A new entry signal replaces the working entry: its prices, from its own bar.
                    place(j, signalBar: k, weight: w.weight)
                    continue
                }
                if !stack.isEmpty, state[j].held, ledgers[j].quantity > 0, !ledgers[j].closing, stack[j] < config.entries.pyramid {
                    // `--pyramid`: an entry signal on a held position adds a weight to its target.
                    stack[j] += 1
                    advance(j, to: t)
                    orders.append(PendingOrder(symbol: j, bar: k + (nextOpen ? 1 : 0), weight: 0, reason: .rebalance))
                    continue
                }
                guard !state[j].held, ledgers[j].quantity == 0 else { continue }  // held, or still closing
                var c = Candidate(symbol: j, bar: k + (nextOpen ? 1 : 0), rank: ranks[j]?[k] ?? .nan, sigma: .nan)
                if let volatility {
                    c.sigma = volatility[j][k]
                    // Inverse-vol cannot size a symbol without a volatility: it is not a candidate.
                    guard c.sigma.isFinite && c.sigma > 0 else { state[j].skipped += 1; skippedEntries += 1; continue }
                }
                if !config.allowUnprotected, let exit = ledgers[j].exits.undefinedExit(at: k) {
                    // An exit still in its warm-up: not a candidate, so it takes no slot.
                    ledgers[j].exits.countUnprotected(exit)
                    continue
                }
                candidates.append(c)
            }
            let admitted = admit(free: max(0, slots - heldCount), t)  // sorts `candidates`: read them after
            for c in candidates.prefix(admitted) {
                orders.append(PendingOrder(symbol: c.symbol, bar: c.bar, weight: 0, reason: .entry))
            }
        }
        if rebalanceRow[r] {
            for o in orders { chosen[o.symbol] = true }
            for j in active where state[j].held && hasBar(j, t) && !chosen[j] {
                orders.append(PendingOrder(symbol: j, bar: state[j].cursor, weight: 0, reason: .rebalance))
            }
            for o in orders { chosen[o.symbol] = false }
        }
        if orders.contains(where: { $0.reason == .entry || $0.reason == .rebalance }) { assignWeights(t) }
    }

    /// Weights of the row's entries and rebalances over the book after the row: the held
    /// symbols (those entering included).
    private mutating func assignWeights(_ t: Int64) {
        let k = Double(slots)
        switch rules.weighting {
        case .equal:
            let w = 1.0 / k
            for i in orders.indices where orders[i].reason != .exit && orders[i].reason != .remainder { orders[i].weight = w }
            return
        case .rank, .inverseVolatility:
            candidates.removeAll(keepingCapacity: true)
            for j in active where state[j].held { candidates.append(member(j, t)) }
            for o in orders where o.reason == .entry && !state[o.symbol].inActive { candidates.append(member(o.symbol, t)) }
        }
        if rules.weighting == .rank {
            sortByRank(&candidates)
            for (i, c) in candidates.enumerated() { weightOf[c.symbol] = Self.rankWeight(i, slots: slots) }
        } else {
            var sum = 0.0, valid = 0
            for c in candidates where c.sigma.isFinite && c.sigma > 0 { sum += 1 / c.sigma; valid += 1 }
            for c in candidates where c.sigma.isFinite && c.sigma > 0 {
                weightOf[c.symbol] = (1 / c.sigma) / sum * (Double(valid) / k)
            }
        }
        for i in orders.indices where orders[i].reason == .entry || orders[i].reason == .rebalance {
            orders[i].weight = weightOf[orders[i].symbol]
        }
        for c in candidates { weightOf[c.symbol] = .nan }
        // A member without a volatility (warm-up) keeps its position: no order.
        orders.removeAll { $0.weight.isNaN }
    }

    /// Symbol `j` as a member of the book, with its rank and volatility at its decision bar.
    func member(_ j: Int, _ t: Int64) -> Candidate {
        let d = decisionBar(j, hasBar: hasBar(j, t))
        return Candidate(symbol: j, bar: state[j].cursor, rank: d >= 0 ? ranks[j]?[d] ?? .nan : .nan,
                         sigma: d >= 0 ? volatility?[j][d] ?? .nan : .nan)
    }

    /// `(K - i) / (K (K + 1) / 2)`: the weight of the i-th best of K.
    static func rankWeight(_ i: Int, slots k: Int) -> Double {
        Double(k - i) / (Double(k) * (Double(k) + 1) / 2)  // in doubles: K may be up to Int.max
    }

    // MARK: - Rotation

    /// The top K symbols by rank (at their last bar before the row) with a bar on the row are
    /// held at their weights; held symbols not among them are sold. A held symbol without a bar
    /// keeps its position and its slot. A long/short book (`config.allowShort`) also holds the
    /// K lowest-ranked of the rest short, lowest first, weighed as the long leg mirrored; a
    /// symbol that changes sides is reversed; a neutral one is then balanced (`balance`).
    private mutating func planRotation(_ r: Int, _ t: Int64) {
        var stuck = 0, stuckShorts = 0
        for j in active where state[j].held && !hasBar(j, t) {
            if state[j].short { stuckShorts += 1 } else { stuck += 1 }
        }
        candidates.removeAll(keepingCapacity: true)
        for j in 0..<candles.count where !ledgers[j].closing {
            advance(j, to: t)
            guard hasBar(j, t) else { continue }
            let d = decisionBar(j, hasBar: true)
            guard d >= 0, let rank = ranks[j]?[d], !rank.isNaN else { continue }
            var sigma = Double.nan
            if let volatility {
                sigma = volatility[j][d]
                guard sigma.isFinite && sigma > 0 else { continue }
            }
            candidates.append(Candidate(symbol: j, bar: state[j].cursor, rank: rank, sigma: sigma))
        }
        sortByRank(&candidates)
        let n = min(candidates.count, max(0, slots - stuck))
        let shorts = config.allowShort ? Array(candidates.suffix(min(candidates.count - n, max(0, slots - stuckShorts))).reversed()) : []
        for c in candidates.prefix(n) { chosen[c.symbol] = true }
        for c in shorts { chosen[c.symbol] = true }
        for j in active where state[j].held && hasBar(j, t) && !chosen[j] {
            release(j)
            orders.append(PendingOrder(symbol: j, bar: state[j].cursor, weight: 0, reason: .exit))
        }
        rotationLeg(Array(candidates.prefix(n)), short: false)
        rotationLeg(shorts, short: true)
        if rules.neutral { balanceRotation(r, t) }
    }

    /// A neutral rotation's book balanced (`balance`), each leg's rank or inverse-volatility
    /// weights scaled to its m/K.
    private mutating func balanceRotation(_ r: Int, _ t: Int64) {
        balance(r, t)
        if rules.weighting != .equal && !orders.isEmpty { assignBookWeights(t) }
    }

    /// The orders of one leg of a rotation, `leg` best first (a short leg lowest rank first):
    /// held on that side, a rebalance; else an entry (a reversal when held on the other side).
    private mutating func rotationLeg(_ leg: [Candidate], short: Bool) {
        var sum = 0.0
        if rules.weighting == .inverseVolatility { for c in leg { sum += 1 / c.sigma } }
        let k = Double(slots), n = leg.count
        for (i, c) in leg.enumerated() {
            chosen[c.symbol] = false
            let w: Double
            switch rules.weighting {
            case .equal: w = 1.0 / k
            case .rank: w = Self.rankWeight(i, slots: slots)
            case .inverseVolatility: w = (1 / c.sigma) / sum * (Double(n) / k)
            }
            let reason: PortfolioOrder.Reason = state[c.symbol].held && state[c.symbol].short == short ? .rebalance : .entry
            if reason == .entry {
                release(c.symbol)
                hold(c.symbol, short: short)
            }
            orders.append(PendingOrder(symbol: c.symbol, bar: c.bar, weight: short ? -w : w, reason: reason))
        }
    }

    // MARK: - Slots

    /// The candidates that get the `free` slots: all when they fit, else the best by rank
    /// (`candidates` sorted), the rest counted as entries without a slot; each admitted one books
    /// a slot of its side. Returns how many lead `candidates`.
    mutating func admit(free: Int, _ t: Int64, short: Bool = false) -> Int {
        if candidates.count > free { sortByRank(&candidates) }
        for c in candidates.dropFirst(free) {
            state[c.symbol].skipped += 1
            skippedEntries += 1
        }
        let n = min(free, candidates.count)
        for c in candidates.prefix(n) {
            advance(c.symbol, to: t)
            hold(c.symbol, short: short)
        }
        return n
    }

    /// Books a slot for `j` (a short one when `short`: `--short` books K of each side).
    mutating func hold(_ j: Int, short: Bool = false) {
        guard !state[j].held else { return }
        state[j].held = true
        state[j].short = short
        if short { heldShorts += 1 } else { heldCount += 1 }
    }

    /// Frees `j`'s slot.
    mutating func release(_ j: Int) {
        guard state[j].held else { return }
        state[j].held = false
        if state[j].short { heldShorts -= 1 } else { heldCount -= 1 }
    }

    /// Highest rank first, NaN last, ties by symbol.
    func sortByRank(_ items: inout [Candidate]) {
        func before(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.rank.isNaN != b.rank.isNaN { return b.rank.isNaN }
            if !a.rank.isNaN && a.rank != b.rank { return a.rank > b.rank }
            return a.symbol < b.symbol
        }
        if items.count <= 32 {
            // Insertion sort: no allocation for the usual handful of candidates.
            for i in 1..<max(1, items.count) {
                let x = items[i]
                var k = i
                while k > 0 && before(x, items[k - 1]) { items[k] = items[k - 1]; k -= 1 }
                items[k] = x
            }
        } else {
            items.sort(by: before)
        }
    }
}
