#!/usr/bin/env bash
# The browser and end-to-end tier (not part of npm test): real `tyche serve` processes driven by
# playwright-core and Debian's chromium. Screenshots are kept in test-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || true)}"
if [ -z "$CHROMIUM_PATH" ]; then
  echo "chromium is not installed: apt-get install -y chromium (.ci/run does this)" >&2
  exit 1
fi
mkdir -p test-artifacts
npx node --test --test-concurrency=1 --test-timeout=180000 'test-e2e/*.test.ts'
