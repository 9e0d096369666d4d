extension Strategy {
    /// The roles of the strategy's short rules (`short_entry`, `short_exit`), as its file names them.
    public var shortRuleRoles: [String] {
        expressions.map(\.role).filter { $0 == SignalRules.Role.shortEntry.rawValue || $0 == SignalRules.Role.shortExit.rawValue }
    }

    /// Refuses to run a strategy with short rules without shorts: they would never trade.
    /// - Parameter label: how the caller named the strategy (a file's path), else its name.
    /// - Throws: `InputError` naming the strategy, its short rules and the `short` setting.
    public func requireShorts(allowed: Bool, named label: String? = nil) throws {
        let roles = shortRuleRoles
        guard allowed || roles.isEmpty else {
            throw InputError("\(label ?? name) has short rules (\(roles.joined(separator: ", "))): they trade only with \(Setting.short.mention)")
        }
    }
}
