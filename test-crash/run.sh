#!/usr/bin/env bash
# The crash tier (not part of npm test): real `tyche serve` processes killed with SIGKILL while
# clients write, on SQLite and on PostgreSQL with two processes; afterwards nothing acknowledged
# is missing, nothing is doubled, no promised work is lost.
set -euo pipefail
cd "$(dirname "$0")/.."
npx node --test --test-concurrency=1 --test-timeout=600000 'test-crash/*.test.ts'
