/// bt's version, printed by `bt --version` and written into report manifests.
public let btVersion = "0.1.0"
