/// Where an order executes: the symbol's own bar, the row it is recorded under (the bar itself
/// for one symbol, the portfolio clock's row for many), the reference price before depth, and
/// the millisecond whose book it takes.
struct FillPoint {
    var bar: Int
    var row: Int
    var reference: Double
    var timeMs: Int64
    /// The fill is a maker's: an order that rested, filled at its own price inside the bar
    /// (`FeeSchedule`); false for every fill at the open or of a market order.
    var maker = false
}

/// What the execution core hands to its driver: every fill, finished round trip and rejection,
/// with the symbol (an index into the driver's symbols) and its own bar.
protocol ExecutionRecorder {
    mutating func record(fill: Fill, symbol: Int, bar: Int)
    mutating func record(trade: Trade, symbol: Int, entryBar: Int, exitBar: Int, entries: Int, exits: Int)
    mutating func record(rejection: RejectedOrder, symbol: Int, bar: Int)
}

/// A position's round trip: every fill that opened or added to it (the entries) and every fill
/// that reduced it (the exits), from flat to flat.
struct RoundTrip {
    var side: PositionSide
    /// An inverse contract's trip (`ContractValue`): its notionals are Σ quantity / price, the
    /// coins per unit of the multiplier, and its prices their harmonic means. (Beside `side`, in
    /// its padding: the trip, copied on the fill path, stays the size it was.)
    var inverse = false
    var entryRow: Int
    var entryBar: Int
    var entryTime: Int64
    /// Units entered, their notional and the entry fees.
    var quantity = 0.0
    var notional = 0.0
    var fees = 0.0
    /// Quantity-weighted mean slippage of the entries, in bps.
    var entrySlippage = 0.0
    var exitQuantity = 0.0
    var exitNotional = 0.0
    var exitFees = 0.0
    var exitSlippageWeighted = 0.0
    var entries = 0
    var exits = 0

    init(side: PositionSide, entryRow: Int, entryBar: Int, entryTime: Int64, inverse: Bool = false) {
        self.side = side; self.entryRow = entryRow; self.entryBar = entryBar; self.entryTime = entryTime
        self.inverse = inverse
    }

    /// The average entry fill price (inverse: the harmonic mean, quantity / Σ quantity / price).
    var entryPrice: Double { inverse ? quantity / notional : notional / quantity }

    mutating func addEntry(quantity q: Double, notional: Double, fee: Double, slippage: Double) {
        entrySlippage = entries == 0 ? slippage : (entrySlippage * quantity + slippage * q) / (quantity + q)
        quantity += q
        self.notional += notional
        fees += fee
        entries += 1
    }

    mutating func addExit(quantity q: Double, notional: Double, fee: Double, slippage: Double) {
        exitQuantity += q
        exitNotional += notional
        exitFees += fee
        exitSlippageWeighted += slippage * q
        exits += 1
    }

    /// The trade, exited at `exitRow`; a still-open one (`markPrice` given) has its rest marked
    /// at that price. The notionals here are quantity × price (inverse: quantity / price); in cash
    /// they are `multiplier` times that (a contract's units of the underlying; kept out of the trip, which is copied
    /// on the fill path).
    func trade(exitRow: Int, exitTime: Int64, markPrice: Double?, kind: ExitKind, multiplier: Double = 1,
               charges: TripCharges = TripCharges()) -> Trade {
        var exitQuantity = self.exitQuantity, exitNotional = self.exitNotional
        if let markPrice {
            let rest = quantity - self.exitQuantity
            exitQuantity += rest
            exitNotional += inverse ? rest / markPrice : rest * markPrice
        }
        let exitPrice = exitQuantity > 0 ? (inverse ? exitQuantity / exitNotional : exitNotional / exitQuantity) : .nan
        let fees = self.fees + exitFees
        // Inverse: a long is the coin's short of the quote (`ContractValue`), so the signs turn.
        let gross = ((side == .long) != inverse ? exitNotional - notional : notional - exitNotional) * multiplier
        let pnl = gross - fees - charges.borrow - charges.interest - charges.funding
        let exitSlippage = self.exitQuantity > 0 ? exitSlippageWeighted / self.exitQuantity : 0
        let slippage = self.exitQuantity > 0 ? (entrySlippage + exitSlippage) / 2 : entrySlippage
        return Trade(side: side, entryIndex: entryRow, exitIndex: exitRow, entryTime: entryTime, exitTime: exitTime,
                     quantity: quantity, entryPrice: entryPrice, exitPrice: exitPrice, slippageBps: slippage,
                     fees: fees, borrow: charges.borrow, interest: charges.interest, funding: charges.funding, pnl: pnl, returnFraction: pnl / (notional * multiplier), isOpen: markPrice != nil, exitKind: kind)
    }
}

/// What holding a round trip cost beyond its fills, in cash (kept beside the trip, not in it:
/// the fill path copies the trip, and these change only on a position's bars).
struct TripCharges {
    /// Borrow fees charged while the position was a short (`PositionLedger.chargeBorrow`).
    var borrow = 0.0
    /// Margin interest charged while cash was below 0 (`PositionLedger.chargeInterest`).
    var interest = 0.0
    /// Funding paid, net of funding received (`PositionLedger.chargeFunding`).
    var funding = 0.0
}
