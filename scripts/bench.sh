#!/usr/bin/env bash
# `make bench`: builds the benchmark optimised, starts DynamoDB Local in memory on a free
# port, and prints each endpoint's p50 next to the raw SDK calls it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --profile bench-local -p local --bin bench
PORT=$(scripts/free-port.sh)
DDB_PID=$(scripts/dynamodb-local.sh start "$PORT")
trap 'kill "$DDB_PID" 2>/dev/null || true' EXIT
DYNAMODB_ENDPOINT="http://127.0.0.1:$PORT" RUST_LOG=warn target/bench-local/bench
