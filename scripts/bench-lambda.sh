#!/usr/bin/env bash
# Cold start, warm path and peak memory of the real Lambda binaries (issue 15, items 2-3):
# builds every function and the floor (bench/floor) natively with the profile that
# `make package` ships (`release`: opt-level "z", fat LTO, one codegen unit), starts
# DynamoDB Local in memory on a free port, and runs bench/src/bin/lambda_bench (the `bench`
# crate), which spawns each binary under a Lambda Runtime API emulator on loopback.
#
#   scripts/bench-lambda.sh [--json PATH] [--cold N] [--warm N] [--login-warm N] [--only fn,fn]
#
# Prints a Markdown section; raw figures go to target/bench-report/lambda.json unless
# --json says otherwise. Bounded: 20 cold runs and 300 warm invocations per binary by
# default, a few minutes on 2 cores once built. Each function's row is compared with the
# floor that makes its DynamoDB round trips (bench/floor's FLOOR_INIT/FLOOR_OPS), counted
# first through a proxy (the table's "calls" column).
set -euo pipefail
cd "$(dirname "$0")/.."
# BENCH_LAMBDA_PROFILE=bench-local (as `make bench` does) builds everything with the
# benchmark's profile instead: the same opt-level "z" without cross-crate LTO and with 16
# codegen units, which shares the dependencies `make bench` has built and links in seconds
# instead of the ~20 minutes that thin-LTO links of the twelve binaries took.
PROFILE=${BENCH_LAMBDA_PROFILE:-release}
TARGET=${CARGO_TARGET_DIR:-target}
FUNCTIONS=(auth transactions categories wallet users tags providers docs sync insights imports rules recurring)
# `--only fn,fn` builds only those functions (and the floor): a fat-LTO link is minutes.
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = --only ] && [ $((i + 1)) -lt ${#args[@]} ]; then
    IFS=, read -r -a FUNCTIONS <<<"${args[$((i + 1))]}"
  fi
done
packages=(-p lambda-floor)
for f in "${FUNCTIONS[@]}"; do packages+=(-p "$f-fn"); done
nice -n 5 cargo build -q --profile "$PROFILE" "${packages[@]}"
# The driver itself (emulator, fixture, counting proxy) is built like `make bench`:
# quicker, optimised. LAMBDA_BENCH_DRIVER_PROFILE=dev takes the test build's instead (no
# second build of every dependency when `bench-local` is not built yet; the driver's own
# time is in function and floor alike, and only the functions' binaries are measured).
DRIVER=${LAMBDA_BENCH_DRIVER_PROFILE:-bench-local}
cargo build -q --profile "$DRIVER" -p bench --bin lambda_bench
DRIVER_DIR=$DRIVER
if [ "$DRIVER" = dev ]; then DRIVER_DIR=debug; fi
PORT=$(scripts/free-port.sh)
DDB_PID=$(scripts/dynamodb-local.sh start "$PORT")
trap 'kill "$DDB_PID" 2>/dev/null || true' EXIT
DYNAMODB_ENDPOINT="http://127.0.0.1:$PORT" RUST_LOG=warn "$TARGET/$DRIVER_DIR/lambda_bench" \
  --bin-dir "$TARGET/$PROFILE" --profile "$PROFILE" --json target/bench-report/lambda.json "$@"
