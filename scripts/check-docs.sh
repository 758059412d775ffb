#!/usr/bin/env bash
# scripts/check-docs.sh: the docs cannot drift from the code (part of `make test`).
#
# Over README.md and every docs/**/*.md (scripts/check_docs.py does the reading):
#   1. links: every relative link (and #anchor into a .md page) resolves, except the pages
#      announced before they land (EXPECTED_MISSING in check_docs.py: bank files, rules,
#      recurring), which may dangle until they exist.
#   2. tables: a table marked `<!-- check: functions -->`, `<!-- check: routes GROUP -->`,
#      `<!-- check: permissions -->` or `<!-- check: function-config -->` must equal the
#      truth: functions/*/, the routes binary (`cargo run -q -p <its package> --bin routes`,
#      the same list scripts/check_template.py holds template.yaml to) and template.yaml
#      (memory, timeout, policies). A table headed "Function" or "Group" without a marker
#      fails, and a `METHOD /path` in any other table must be a route of the code.
#   3. shell examples: every ```sh / ```bash / ```shell block runs, in page order (README.md
#      first, then docs/ alphabetically) in ONE bash shell, so a page may use the
#      walkthrough's BASE and TOKEN, against a throw-away stack (scripts/with-stack.sh:
#      fresh DynamoDB Local table, local-server on a free port) plus a maildev catcher on
#      free ports (MAIL_TRANSPORT=smtp, as `make run` has). Before running:
#        - the literal http://127.0.0.1:3000 (`make run`'s address) becomes $BASE_URL;
#        - `curl` is a function adding --fail-with-body: any 4xx/5xx answer fails;
#        - `set -euo pipefail`: an unset variable or a failing command fails the block.
#      A block that cannot run here (AWS, SAM, Docker, a long-running `make run`, a value
#      to paste) carries `<!-- no-run: why -->` on the line(s) right before its fence;
#      `<!-- expect: TEXT -->` there makes the block's output contain TEXT.
#      Blocks of ```text, ```console, ```json ... are never run.
#
# The convention for writers is in docs/TESTING.md. Logs: .local/check-docs/.
# Runtime: the local-server build (incremental), then about 15 s.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=.local/check-docs
mkdir -p "$OUT"
# cfn-lint's YAML decoder (for template.yaml's !Ref, !Sub ...) is in the venv that
# scripts/check-template.sh installs.
PY=python3
[ -x .local/venv/bin/python ] && PY=.local/venv/bin/python

echo "== docs: links"
"$PY" scripts/check_docs.py links

echo "== docs: tables against the code"
# The package that holds the routes binary (local today; found, not assumed).
PKG=$(cargo metadata --no-deps --format-version 1 --locked |
  "$PY" -c 'import json, sys
m = json.load(sys.stdin)
print(next(p["name"] for p in m["packages"] for t in p["targets"] if t["name"] == "routes" and "bin" in t["kind"]))')
cargo run -q --locked -p "$PKG" --bin routes >"$OUT/routes.json"
"$PY" scripts/check_docs.py tables --routes "$OUT/routes.json"

echo "== docs: shell examples against a throw-away stack"
"$PY" scripts/check_docs.py blocks --out "$OUT/blocks.sh"

SMTP_PORT=$(scripts/free-port.sh)
MAIL_UI_PORT=$(scripts/free-port.sh)
while [ "$MAIL_UI_PORT" = "$SMTP_PORT" ]; do MAIL_UI_PORT=$(scripts/free-port.sh); done
MAIL_PID=$(scripts/maildev.sh start "$SMTP_PORT" "$MAIL_UI_PORT")
trap 'kill "$MAIL_PID" 2>/dev/null || true' EXIT
export MAIL_TRANSPORT=smtp SMTP_HOST=127.0.0.1 SMTP_PORT MAIL_UI_PORT

if ! scripts/with-stack.sh timeout 180 bash "$OUT/blocks.sh" >"$OUT/blocks.log" 2>&1; then
  echo "check-docs: a shell example failed; the end of $OUT/blocks.log:" >&2
  tail -n 40 "$OUT/blocks.log" >&2
  exit 1
fi
echo "$(tail -n 1 "$OUT/blocks.log") (output: $OUT/blocks.log)"
