#!/usr/bin/env bash
# Installs what tests/browser needs, only when missing: Debian's `chromium` (the browser a
# test tool would download cannot be fetched here) and the pinned npm packages (`npm ci`).
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  echo "== installing Debian's chromium" >&2
  # Package lists are missing on a fresh machine (no candidate) or may be stale (a 404 on
  # download): refresh them then.
  if ! apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    $SUDO apt-get update -q >&2
  fi
  if ! $SUDO apt-get install -y -q chromium >&2; then
    $SUDO apt-get update -q >&2
    $SUDO apt-get install -y -q chromium >&2
  fi
fi

pinned=$(node -p 'require("./package-lock.json").packages["node_modules/playwright-core"].version')
installed=$(node -p 'try { require("./node_modules/playwright-core/package.json").version } catch { "" }')
if [ "$pinned" != "$installed" ]; then
  echo "== npm ci in tests/browser (playwright-core $pinned)" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
