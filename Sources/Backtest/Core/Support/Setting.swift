/// A setting a caller gives the library: an execution option, a data selection, a sweep input, a
/// chart size. `InputError` names the setting a bad value belongs to; a front end maps settings
/// to its own words (the command line to its flags: `feeBps` is `--fee-bps`).
///
/// `name` is the setting's library name, snake_case as in run manifests (`fee_bps`, `sl`).
public enum Setting: String, Sendable, Hashable, CaseIterable {
    // Candles and imports
    case symbol
    case timeframe
    case from
    case to
    case format
    /// The store file.
    case store
    /// Bars and symbols of a generated universe.
    case bars
    case symbolCount = "symbols"
    /// How an import file writes its dates (strftime-style).
    case dateFormat = "date_format"
    /// The IANA time zone of an import file's local times.
    case timeZone = "tz"
    /// A series' trading session hours.
    case session
    /// The column of an import file naming each row's symbol.
    case symbolColumn = "symbol_column"
    /// How an import file lays out its symbols (long, or wide: one close column per symbol).
    case layout
    /// Permission for an import to change bars already stored.
    case update
    /// Leaving out an import file's bad rows instead of refusing the file.
    case skipBadRows = "skip_bad_rows"
    /// Whether an import file stamps each bar at its start or its end.
    case stamp
    /// Text put before every imported symbol.
    case symbolPrefix = "symbol_prefix"
    /// Text put after every imported symbol.
    case symbolSuffix = "symbol_suffix"
    /// An imported symbol stored under another name (`FROM=TO`).
    case rename

    // Execution
    case cash
    /// When a signal decided at a bar's close fills.
    case fill
    case size
    case feeBps = "fee_bps"
    case feeMin = "fee_min"
    /// The fee per unit filled (share, contract, coin).
    case feePerUnit = "fee_per_unit"
    /// The fee rate of maker fills (orders that rested).
    case makerBps = "maker_bps"
    /// The cap on a fill's fee as a share of its notional.
    case feeMax = "fee_max"
    /// The annual borrow fee on a short's notional.
    case borrowBps = "borrow_bps"
    /// The account's leverage (1: a cash account).
    case leverage
    /// How a margin account backs its position: cross or isolated.
    case margin
    /// What is traded: spot, a perpetual or a dated future.
    case instrument
    /// The maintenance margin rate.
    case mmr
    /// The fee of a liquidation, in basis points of its notional.
    case liqFeeBps = "liq_fee_bps"
    /// Units of the underlying in one contract.
    case multiplier
    /// The annual interest on borrowed cash (a leveraged spot long).
    case marginRate = "margin_rate"
    case stopLoss = "sl"
    case takeProfit = "tp"
    /// The trailing stop's distance.
    case trail
    /// What the trailing stop follows: the peak of the highs (the default) or the closes.
    case trailFrom = "trail_from"
    /// The gain that moves the stop to the entry price.
    case breakeven
    /// Bars after the entry bar at which a position leaves.
    case exitAfter = "exit_after"
    /// A limit or stop entry's price (long entries; short entries have their own).
    case entryLimit = "entry_limit"
    case entryStop = "entry_stop"
    case shortEntryLimit = "short_entry_limit"
    case shortEntryStop = "short_entry_stop"
    /// Bars a limit or stop entry works before it expires.
    case orderBars = "order_bars"
    /// Entries a position may take.
    case pyramid
    case tick
    case lot
    case minNotional = "min_notional"
    case maxParticipation = "max_participation"
    case spreadBps = "spread_bps"
    case slippageBps = "slippage_bps"
    /// Bars of the synthetic spread estimate.
    case spreadWindow = "spread_window"
    /// Bars of the synthetic book's volatility and volume.
    case impactWindow = "impact_window"
    /// Y of the square-root law.
    case impact
    /// Seconds of average volume at the synthetic touch.
    case touchSeconds = "touch_seconds"
    /// Refill half-life of taken depth.
    case refillSeconds = "refill_seconds"
    /// A side's power law `A,b`.
    case bidDepth = "bid_depth"
    case askDepth = "ask_depth"
    /// A depth profile file.
    case depthProfile = "depth_profile"
    /// Where fills get their liquidity: a model book, a recorded one, none, or fixed slippage.
    case depth

    // Calibration
    /// Share of the book's time range held out for testing.
    case holdout
    /// Order sizes of the held-out test.
    case sizes

    // Strategies, sweeps and screens
    /// A strategy parameter (`fast=10`).
    case parameter
    /// A swept parameter's values (`fast=5:50:5`).
    case grid
    /// The filter on sweep combinations (`fast<slow`).
    case `where`
    /// The statistic results are ranked by.
    case rank
    /// The statistic a sweep optimises and ranks by (the sweep's name for `rank`).
    case objective
    /// The statistics of a sweep's Pareto front (two or more).
    case objectives
    /// Bars per year, for annualised figures and volatility sizing.
    case periodsPerYear = "periods_per_year"
    /// The number of walk-forward folds.
    case walkForward = "walk_forward"
    /// Which part of a split screen or sweep a process runs (`Shard`).
    case shard
    /// How a sweep picks its combinations (`random`: drawn from the axes; the grid by default).
    case search
    /// How many combinations a search draws.
    case trials
    /// A sweep's cross-validation (`cpcv:N,K`: N groups, K tested per split).
    case cv
    /// Bars purged from the train set beside each test block.
    case purge
    /// Bars embargoed from the train set after each test block, beyond the purge.
    case embargo
    /// How many resamples a run's Monte Carlo draws.
    case monteCarlo = "monte_carlo"
    /// The drawdown a Monte Carlo counts as ruin.
    case ruin
    /// The seed of a random draw (the Mersenne Twister's, 0 to 4294967295).
    case seed

    // Portfolios
    /// The most positions a portfolio holds at once (K).
    case maxPositions = "max_positions"
    /// How a portfolio sizes its positions (`equal`, `inverse-vol`, `rank`).
    case weight
    /// When a portfolio restores its target weights.
    case rebalance
    /// Whether a long/short portfolio keeps its long notional equal to its short notional.
    case neutral
    /// The expression that ranks a portfolio's candidates (per symbol, on the signal bar).
    case portfolioRank = "portfolio_rank"
    /// Whether shorts are allowed (in a portfolio: a long/short book).
    case short
    /// Whether entries are taken while a stop-loss, target or trail expression is not yet defined.
    case allowUnprotected = "allow_unprotected"
    /// A preset of settings reproducing another tool's defaults and rules (`Conventions`).
    case conventions

    // Outputs
    /// The directory a report, sweep or screen is written to.
    case output

    // Signal expressions
    /// The entry rule of an expression strategy.
    case entry
    /// The exit rule.
    case exit
    case shortEntry = "short_entry"
    case shortExit = "short_exit"
    /// How long another symbol's value read with `@` may be carried past its bar's close.
    case maxStale = "max_stale"
    /// A value shown for each symbol of a condition screen.
    case show
    /// The time a condition screen looks at.
    case at

    // Event-level replay
    /// Local time between a replay's strategy steps.
    case every
    /// The price expression of a replay's bid quote.
    case quoteBid = "quote_bid"
    /// The price expression of a replay's ask quote.
    case quoteAsk = "quote_ask"
    /// The quantity of each replayed quote.
    case quoteSize = "quote_size"
    /// The largest position a replayed quoting strategy may reach either way.
    case maxPosition = "max_position"
    /// The latency to the exchange and back (`ENTRY[,RESPONSE]`).
    case latency
    /// A file of recorded order latencies (request, exchange and response times) a replay
    /// interpolates.
    case latencyFile = "latency_file"
    /// How a resting quote's place in the queue moves (`riskaverse`).
    case queue
    /// How resting quotes fill: whole or in parts.
    case fills

    // Text charts
    case chartWidth = "chart_width"
    case chartHeight = "chart_height"
    /// Width and height together.
    case chartSize = "chart_size"

    // Fetching from exchange APIs
    /// The bar interval asked of an exchange.
    case interval
    /// A service's API key.
    case apiKey = "api_key"
    /// The service's base URL (a mirror, a local server).
    case baseURL = "base_url"
    /// Funding rates (of a perpetual future) rather than bars.
    case funding
    /// Tries per request.
    case attempts
    /// Seconds without a byte before a request is retried.
    case timeout
    /// The longest rate-limit wait to sit out.
    case maxWait = "max_wait"

    // Live sessions
    /// The WebSocket stream's URL (a local server in tests).
    case wsURL = "ws_url"
    /// How long a live session runs.
    case duration
    /// The name a live session is journaled under.
    case journal
    /// Seconds without a message after which a stream counts as lost.
    case staleSeconds = "stale_seconds"
    /// The longest wait between reconnection attempts.
    case maxBackoff = "max_backoff"
    /// Bars of history a live session loads before it starts.
    case warmupBars = "warmup_bars"
    /// Dashboard redraws a second.
    case fps

    public var name: String { rawValue }

    /// The setting named inside the library's text (a reason, a help line): each front end
    /// writes it its own way when it words the text (`worded(_:naming:)`), as the command line
    /// does `--depth` and btcore `depth=`. The marker is a control character, which no text a
    /// user typed keeps once escaped for a terminal.
    public var mention: String { Self.marker + rawValue + Self.marker }

    /// `text` with each setting it mentions written as `name` writes it.
    public static func worded(_ text: String, naming name: (Setting) -> String) -> String {
        guard text.contains(marker) else { return text }
        let parts = text.split(separator: Character(marker), omittingEmptySubsequences: false)
        var out = String(parts[0])
        var k = 1
        while k < parts.count {
            // An odd part between two markers is a setting's name.
            if k + 1 < parts.count, let setting = Setting(rawValue: String(parts[k])) {
                out += name(setting) + parts[k + 1]
                k += 2
            } else {
                out += marker + parts[k]
                k += 1
            }
        }
        return out
    }

    private static let marker = "\u{1F}"
}
