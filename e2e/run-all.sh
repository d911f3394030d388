#!/usr/bin/env bash
# `npm run test:e2e` (after the build): the end-to-end suite as three Playwright runs side by side, each with a
# server of its own (port, launcher port = port + 9, fresh data folder), so no run sees another's state:
#   chromium        the files that make their own users, E2E_WORKERS (default 2) at a time, on port E2E_PORT (8190)
#   shared-state-1  the files that change what every user sees, group 1, one at a time, on port E2E_PORT - 10
#   shared-state-2  the same, group 2, on port E2E_PORT - 20
# (the groups: SHARED_STATE_GROUPS in e2e/playwright.config.ts). The runs spend most of their time waiting for
# pages and jobs (a whole run used under half a core), so side by side they take about as long as the longest run
# alone. Each run's output goes to test-results/e2e-logs/<project>.log and is printed when the run ends; the exit
# status is non-zero when any run failed. Arguments are passed to every run (e.g. --reporter=list,json).
set -uo pipefail
cd "$(dirname "$0")/.."
PORT="${E2E_PORT:-8190}"
LOGS=test-results/e2e-logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
unset E2E_DATA_DIR # each run's config makes a fresh data folder of its own
export E2E_SHARED_GROUPS=1 # the config defines the shared-state-1/2 projects only then

PIDS=()
NAMES=()
run() {
  local project="$1" port="$2" workers="$3"
  shift 3
  E2E_PORT="$port" E2E_WORKERS="$workers" npx --no -- playwright test -c e2e/playwright.config.ts --project="$project" "$@" \
    >"$LOGS/$project.log" 2>&1 &
  PIDS+=($!)
  NAMES+=("$project")
  echo "e2e: --project=$project on port $port started (log: $LOGS/$project.log)"
}
stop_all() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done; }
trap 'stop_all; exit 130' INT TERM

START=$SECONDS
run chromium "$PORT" "${E2E_WORKERS:-2}" "$@"
run shared-state-1 "$((PORT - 10))" 1 "$@"
run shared-state-2 "$((PORT - 20))" 1 "$@"

FAILED=()
LEFT=${#PIDS[@]}
while [ "$LEFT" -gt 0 ]; do
  # the next run to end, whichever it is, so a finished run's log is printed at once
  wait -n -p DONE "${PIDS[@]}"
  RC=$?
  for i in "${!PIDS[@]}"; do
    if [ "${PIDS[$i]}" = "$DONE" ]; then
      NAME="${NAMES[$i]}"
      echo "===== e2e --project=$NAME: exit $RC after $((SECONDS - START)) s ====="
      cat "$LOGS/$NAME.log"
      [ "$RC" = 0 ] || FAILED+=("$NAME")
      unset "PIDS[$i]"
    fi
  done
  LEFT=${#PIDS[@]}
done
if [ ${#FAILED[@]} -gt 0 ]; then
  # a failed run's summary again at the very end, where a CI log that keeps only its tail still shows it
  for NAME in "${FAILED[@]}"; do
    echo "===== e2e --project=$NAME failed: its failures and the end of its log ====="
    grep -E "✘|Error:|Timeout|exceeded" "$LOGS/$NAME.log" | head -n 40
    tail -n 40 "$LOGS/$NAME.log"
  done
  echo "e2e: FAILED: ${FAILED[*]}" >&2
  exit 1
fi
echo "e2e: all runs passed in $((SECONDS - START)) s"
