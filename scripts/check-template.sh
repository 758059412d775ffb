#!/usr/bin/env bash
# Offline checks of template.yaml (part of `make test`, or `make check-template` alone):
#   cfn-lint, `sam validate` (with and without --lint), then scripts/check_template.py (routes against the
#   routers, table against shared/table.json, every function complete and least-privilege).
# Pinned aws-sam-cli and cfn-lint are installed from PyPI into the git-ignored .local/venv
# on first use. Needs no AWS account, credentials or Docker.
set -euo pipefail
cd "$(dirname "$0")/.."

SAM_CLI_VERSION=1.170.0
CFN_LINT_VERSION=1.58.0
VENV=.local/venv
WANT="aws-sam-cli==$SAM_CLI_VERSION cfn-lint==$CFN_LINT_VERSION"

[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
if [ "$(cat "$VENV/.check-template" 2>/dev/null)" != "$WANT" ]; then
  echo "installing $WANT into $VENV"
  # shellcheck disable=SC2086 # WANT is a list of requirement specifiers
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $WANT
  echo "$WANT" > "$VENV/.check-template"
fi

# Nothing here talks to AWS, but the tools want a region; no telemetry.
export AWS_DEFAULT_REGION="${AWS_REGION:-${AWS_DEFAULT_REGION:-eu-west-1}}"
export SAM_CLI_TELEMETRY=0

echo "cfn-lint template.yaml"
"$VENV/bin/cfn-lint" template.yaml
# Plain `sam validate` runs the SAM transform itself (it refuses what `sam build` and
# CloudFormation would, e.g. a !Ref in an event's Path); --lint runs cfn-lint on it.
echo "sam validate"
"$VENV/bin/sam" validate --template template.yaml
echo "sam validate --lint"
"$VENV/bin/sam" validate --lint --template template.yaml
"$VENV/bin/python" scripts/check_template.py
