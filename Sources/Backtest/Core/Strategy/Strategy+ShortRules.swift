extension Strategy {
    /// The roles of the strategy's short rules (`short_entry`, `short_exit`), as its file names them.
    public var shortRuleRoles: [String] {
        expressions.map(\.role).filter { $0 == SignalRules.Role.shortEntry.rawValue || $0 == SignalRules.Role.shortExit.rawValue }
    }

    /// Refuses to run a strategy with short rules without shorts: they would never trade.
    /// - Throws: `InputError` naming the strategy, its short rules and the `short` setting.
    public func requireShorts(allowed: Bool) throws {
        let roles = shortRuleRoles
        guard allowed || roles.isEmpty else {
            throw InputError("\(name) has short rules (\(roles.joined(separator: ", "))): they trade only with \(Setting.short.mention)")
        }
    }
}
