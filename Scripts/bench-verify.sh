#!/usr/bin/env bash
# `bench verify`: verified-and-decoded signed transactions per second on one core, against
# Apple's Python library on the same JWS set and root, in one run.
#
#   Scripts/bench-verify.sh [COUNT]          # default 20000
#
# Until the executable has a `bench verify` subcommand, this builds a throwaway driver package
# (in a temporary directory, or BENCH_WORK_DIR to reuse a build) that depends on this package's
# Benchmarks library, builds it in release mode and runs it pinned to CPU 1. The Python baseline
# (Scripts/bench-verify-python.sh) installs app-store-server-library into its own throwaway venv.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-20000}
work=${BENCH_WORK_DIR:-$(mktemp -d)}
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
mkdir -p "$work/Sources/bench-verify"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "bench-verify",
  dependencies: [.package(path: "$repo")],
  targets: [
    .executableTarget(
      name: "bench-verify",
      dependencies: [.product(name: "Benchmarks", package: "$identity")])
  ],
  swiftLanguageModes: [.v6]
)
SWIFT
cat > "$work/Sources/bench-verify/main.swift" <<'SWIFT'
import Benchmarks

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 20_000 : 20_000
let script = arguments.count > 2 ? arguments[2] : nil
print(try VerifyBenchmark.run(count: count, pythonScript: script).text)
SWIFT
swift build -c release --package-path "$work" >&2
cpu=1
if ! command -v taskset >/dev/null; then
  echo "taskset is missing: the figures are not pinned to one core" >&2
  exec "$work/.build/release/bench-verify" "$count" "$repo/Scripts/bench-verify-python.sh"
fi
exec taskset -c "$cpu" "$work/.build/release/bench-verify" "$count" \
  "$repo/Scripts/bench-verify-python.sh"
