#!/usr/bin/env bash
# scripts/bench-import.sh: the import against its raw floor and a 20,000-row import job
# (the section "Import against the raw floor" of BENCHMARKS.md) through a server that
# `make run` started, as a newcomer starts it: the API on http://127.0.0.1:3000 and its
# DynamoDB Local on 127.0.0.1:8000 (data in .local/data). Start `make run` in another
# terminal first. BASE_URL and DYNAMODB_ENDPOINT point elsewhere (`make run` with PORT or
# DDB_PORT set). It registers a user of its own (one of `make run`'s 20 registrations an
# hour per address) and deletes it with its 26,000 transactions afterwards; the floor
# goes into a table of its own without indexes, deleted afterwards. Prints the section
# and writes it, with the machine and the commit, to docs/bench/import-make-run.md
# (BENCH_IMPORT_OUT elsewhere). About 2 minutes with `make run`'s debug build, more on a
# busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_URL=${BASE_URL:-http://127.0.0.1:3000}
DYNAMODB_ENDPOINT=${DYNAMODB_ENDPOINT:-http://127.0.0.1:8000}
OUT=${BENCH_IMPORT_OUT:-docs/bench/import-make-run.md}
TARGET=${CARGO_TARGET_DIR:-target}

if ! curl -s -o /dev/null "$BASE_URL/"; then
  echo "no server at $BASE_URL: start \`make run\` first (in another terminal)" >&2
  exit 1
fi
if ! curl -s -o /dev/null "$DYNAMODB_ENDPOINT"; then
  echo "no DynamoDB Local at $DYNAMODB_ENDPOINT (the one \`make run\` started?)" >&2
  exit 1
fi
cargo build -q --profile bench-local -p bench --bin bench
started=$(date +%s)
section=$(BENCH_BASE_URL="$BASE_URL" DYNAMODB_ENDPOINT="$DYNAMODB_ENDPOINT" RUST_LOG=warn \
  "$TARGET/bench-local/bench")
{
  echo "# Import against the raw floor through \`make run\`"
  echo
  echo "Written by \`scripts/bench-import.sh\` on $(date -u +%Y-%m-%d) at commit" \
    "\`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`, in $(( $(date +%s) - started )) s," \
    "against the server \`make run\` started (its debug build, \`cargo run -p local\`) at $BASE_URL" \
    "and its DynamoDB Local at $DYNAMODB_ENDPOINT (data on disk in .local/data)."
  echo
  echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
  echo
  echo "$section" | sed '1s/^## .*/## Figures/'
} > "$OUT"
echo "$section"
echo "wrote $OUT" >&2
