extension ExecutionSetting {
    /// Every execution setting, in the order front ends list them: the account and costs, the
    /// orders and exits (docs/design/orders.md), the instrument's rules, the liquidity model and
    /// its knobs, then the bars per year. Defaults are read from the library's own types, so
    /// they are written once.
    public static let all: [ExecutionSetting] = {
        let config = ExecutionConfig()
        let model = SyntheticDepth()
        func number(_ v: Double) -> Default { .value(NumberText.shortest(v)) }
        return [
            ExecutionSetting(.cash, .number, valueName: "AMOUNT", help: "Initial cash", default: number(config.initialCash)),
            ExecutionSetting(.fill, .text, valueName: "WHEN",
                             help: "When a signal at a bar's close fills: next-open (the next bar's open) or close (that same close)",
                             default: .value(config.fill.rawValue)),
            ExecutionSetting(.short, .flag, help: "Allow shorts: exits reverse into a short, entries reverse back",
                             field: "allow_short"),
            ExecutionSetting(.size, .text, valueName: "SIZE", help: "Order size: N% of equity, Nu units, N$ cash, risk:N% or vol:N%",
                             default: .value(config.sizing.text)),
            ExecutionSetting(.feeBps, .number, valueName: "BPS", help: "Fee in basis points of notional", default: number(config.feeBps)),
            ExecutionSetting(.feeMin, .number, valueName: "AMOUNT", help: "Minimum fee per order", default: number(config.feeMin)),
            ExecutionSetting(.stopLoss, .text, valueName: "PCT|EXPR",
                             help: "Stop-loss distance from the entry price: 5%, or a price distance like '2 * atr(14)'"),
            ExecutionSetting(.takeProfit, .repeatedText, valueName: "PCT[@SHARE]",
                             help: "Take-profit distance from the entry price (10%, or an expression); repeat with @SHARE to scale out: 5%@50%"),
            ExecutionSetting(.trail, .text, valueName: "PCT|EXPR",
                             help: "Trailing stop below the peak since entry: 5%, or a price distance like '3 * atr(22)'"),
            ExecutionSetting(.breakeven, .text, valueName: "PCT", help: "Move the stop to the entry price once the trade has gained PCT"),
            ExecutionSetting(.exitAfter, .text, valueName: "N", help: "Leave at the open N bars after the entry bar"),
            ExecutionSetting(.entryLimit, .text, valueName: "EXPR",
                             help: "Enter with a limit order at this price (read at the signal bar), e.g. 'close * 0.99'"),
            ExecutionSetting(.entryStop, .text, valueName: "EXPR", help: "Enter with a stop order at this price (with \(Setting.entryLimit.mention): a stop-limit)"),
            ExecutionSetting(.shortEntryLimit, .text, valueName: "EXPR", help: "Short entries' limit price (with \(Setting.short.mention) and \(Setting.entryLimit.mention))"),
            ExecutionSetting(.shortEntryStop, .text, valueName: "EXPR", help: "Short entries' stop price (with \(Setting.short.mention) and \(Setting.entryStop.mention))"),
            ExecutionSetting(.orderBars, .text, valueName: "N", help: "Bars a limit or stop entry works before it expires",
                             default: .value(String(config.entries.orderBars))),
            ExecutionSetting(.pyramid, .text, valueName: "N", help: "Allow up to N entries per position",
                             default: .value(String(config.entries.pyramid))),
            ExecutionSetting(.tick, .number, valueName: "PRICE", help: "Price increment (synthetic book levels, stop prices)"),
            ExecutionSetting(.lot, .number, valueName: "QTY", help: "Quantity increment; order sizes round down to it"),
            ExecutionSetting(.minNotional, .number, valueName: "AMOUNT", help: "Reject opening orders below this notional"),
            ExecutionSetting(.maxParticipation, .number, valueName: "SHARE",
                             help: "Cap an order at this share of the fill bar's volume; 0 = off",
                             default: number(config.maxParticipation ?? 0)),
            ExecutionSetting(.depth, .text, valueName: "MODEL",
                             help: "Liquidity: synthetic (a model book), book (recorded L2), none, or fixed (\(Setting.slippageBps.mention))",
                             default: .value(config.depth.name)),
            ExecutionSetting(.slippageBps, .number, valueName: "BPS", help: "Fixed slippage per fill instead of a book (depth fixed)"),
            ExecutionSetting(.spreadBps, .number, valueName: "BPS", help: "Synthetic book spread",
                             default: .described("the profile's, else estimated from the bars")),
            ExecutionSetting(.depthProfile, .text, valueName: "FILE",
                             help: "Calibrated depth profile (JSON of 'bt calibrate') for the synthetic book"),
            ExecutionSetting(.bidDepth, .text, valueName: "A,B", help: "Bid side of a calibrated book: Q(x) = A x^B units within x bps"),
            ExecutionSetting(.askDepth, .text, valueName: "A,B", help: "Ask side of a calibrated book: Q(x) = A x^B units within x bps"),
            ExecutionSetting(.refillSeconds, .number, valueName: "S", help: "Half-life of taken synthetic depth",
                             default: .described("the profile's, else \(NumberText.shortest(SyntheticDepth.defaultRefillHalfLifeSeconds))")),
            ExecutionSetting(.spreadWindow, .wholeNumber, valueName: "N", help: "Bars before a fill for the spread estimate",
                             default: .value(String(model.spreadWindow))),
            ExecutionSetting(.impact, .number, valueName: "Y", help: "Square-root law prefactor: cost = s/2 + Y sigma sqrt(Q/V)",
                             default: number(model.impact)),
            ExecutionSetting(.touchSeconds, .number, valueName: "S", help: "Seconds of average volume resting at the synthetic touch",
                             default: number(model.touchSeconds)),
            ExecutionSetting(.impactWindow, .wholeNumber, valueName: "N", help: "Bars before a fill for sigma and mean volume",
                             default: .value(String(model.impactWindow))),
            ExecutionSetting(.periodsPerYear, .number, valueName: "N", help: "Bars per year for annualising and \(Setting.size.mention) vol:",
                             default: .described("inferred from bar times")),
        ]
    }()
}
