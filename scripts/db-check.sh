#!/usr/bin/env bash
# `npm run db:check`: fails when the Drizzle schema (apps/server/src/platform/db/schema) has changes that no
# migration covers. drizzle-kit generate runs against a temporary copy of the migrations folder (the real one is
# never touched); any new or changed file there means someone edited the schema without `npm run db:generate`.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cp -r apps/server/src/platform/db/migrations "$tmp/migrations"
cat >"$tmp/drizzle.config.ts" <<CONFIG
import base from '$root/apps/server/drizzle.config.ts';
export default { ...base, schema: '$root/apps/server/src/platform/db/schema/index.ts', out: './migrations' };
CONFIG

snapshot() { (cd "$tmp/migrations" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
before="$(snapshot)"
# drizzle-kit takes `out` relative to the working folder, and may exit 0 after an error: run it in the temporary
# folder and require its "nothing to migrate" line or a new migration.
if ! (cd "$tmp" && "$root/node_modules/.bin/drizzle-kit" generate --config ./drizzle.config.ts >"$tmp/log" 2>&1) ||
  grep -qE "Error|ENOENT" "$tmp/log"; then
  cat "$tmp/log" >&2
  echo "db:check: drizzle-kit generate failed" >&2
  exit 1
fi
after="$(snapshot)"

if [ "$before" != "$after" ]; then
  echo "db:check: the schema has changes without a migration. Run npm run db:generate and commit the new file." >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  for f in $(cd "$tmp/migrations" && find . -name '*.sql' -newer "$tmp/drizzle.config.ts"); do
    echo "--- $f" >&2
    cat "$tmp/migrations/$f" >&2
  done
  exit 1
fi
if ! grep -q "No schema changes" "$tmp/log"; then
  cat "$tmp/log" >&2
  echo "db:check: unexpected drizzle-kit output" >&2
  exit 1
fi
echo "db:check: migrations match the schema"
