#!/usr/bin/env bash
# Type-checks, as a package outside bt would see the library (public declarations only: no
# -package-name), examples/swift/tour.swift and the Strategies target's sources (built on
# Backtest's public API by rule). A declaration they need cannot become `package` by accident;
# everything else the library's targets share with bt alone is `package`. Run by make test.
#   scripts/check-public-api.sh [BUILD_DIR]     # default .build/debug, after swift build
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/.build/debug}
[ -d "$build/Modules" ] || { echo "check-public-api: no $build/Modules (swift build first)" >&2; exit 2; }
includes=(-I "$build/Modules")
# The system-library modules' maps (GSL, SQLite, zlib, libcrypto) that the modules import.
for t in CGSL CSQLite CZlib CCrypto CCallgrind CWebSockets; do
  for d in "$repo/Sources/$t" "$repo/Sources/$t/include"; do [ -f "$d/module.modulemap" ] && includes+=(-I "$d"); done
done
# Strategies as an outside module of its own name, so bt's built Strategies module is not in the way.
swiftc -typecheck -swift-version 6 -module-name StrategiesOutside "${includes[@]}" "$repo"/Sources/Strategies/*.swift
swiftc -typecheck -swift-version 6 "${includes[@]}" "$repo/examples/swift/tour.swift"
echo "check-public-api: Sources/Strategies and examples/swift/tour.swift type-check against the public API"
