// The public library: one import for strategies, the command line and library users.
@_exported import BacktestCore
@_exported import BacktestAnalysis
@_exported import BacktestData
@_exported import BacktestPresentation
@_exported import BacktestJobs
@_exported import BacktestLive
