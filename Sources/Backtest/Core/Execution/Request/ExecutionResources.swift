/// What an execution request reads beyond its own values, from where the front end keeps it:
/// a symbol's recorded book, stored depth profile, funding rows and instrument settings (the
/// candle store), and depth profile files.
/// The IO layer gives the store's (`StoreExecutionResources`); a run without a store gives none.
public protocol ExecutionResources {
    /// The recorded book of `symbol`, for `depth book`.
    func bookEvents(symbol: String) throws -> [BookEvent]
    /// The profile `bt calibrate` stored for `symbol`, if any.
    func storedDepthProfile(symbol: String) throws -> DepthProfile?
    /// The profile in the JSON file at `path` (`depth_profile`).
    func depthProfile(file path: String) throws -> DepthProfile
    /// The funding rows of `symbol` (a perpetual's) at or after `fromMs` (UTC ms), in time
    /// order; empty when none are stored.
    func funding(symbol: String, fromMs: Int64) throws -> [FundingRate]
    /// The instrument settings stored for `symbol` (a base symbol, without `@TF`): the defaults
    /// of its runs, under the settings a request gives (`ExecutionRequest.instrumentSettings`
    /// names the settings that may be stored); empty when none are.
    func instrumentSettings(symbol: String) throws -> [Setting: ExecutionValue]
}
