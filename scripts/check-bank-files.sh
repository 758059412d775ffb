#!/usr/bin/env bash
# scripts/check-bank-files.sh [DIR]: posts every real bank export of DIR (default
# ../shared/bank-files, the files of docs/BANK-FILES.md's second round; they are data to
# run against and never copied into the project) raw to a running stack at BASE_URL, each
# into a fresh wallet of its currency, and compares what was stored with DIR/expected.json:
# the count, the signed sum and the date range (or an `accept` alternative it names), a
# 4xx with nothing stored for an expected refusal, and nothing created by a second post.
# Only `dateFormat` is set by hand, for the files whose `expected.json` names it.
# Reports each file; exits 1 if any differs. Without DIR it says so and exits 0.
#   scripts/with-stack.sh scripts/check-bank-files.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-../shared/bank-files}
if [ ! -f "$DIR/expected.json" ]; then
  echo "no $DIR/expected.json: nothing to check" >&2
  exit 0
fi
: "${BASE_URL:?set BASE_URL (scripts/with-stack.sh sets it)}"
exec python3 scripts/check_bank_files.py "$DIR"
