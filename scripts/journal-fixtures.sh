#!/usr/bin/env bash
# Regenerates the journal fixtures harness/journal/testdata/journal-vN.db,
# one per schema version, each written by the OpenWorker that had that
# version (TestFixturesUpgrade in harness/journal/fixtures_test.go
# upgrades every one of them).
#
#   scripts/journal-fixtures.sh        every version from 2 to the newest
#   scripts/journal-fixtures.sh 9      only version 9 (after migration 10 lands, say)
#
# For version N it finds, in `git log -- harness/journal/migrations.go`,
# the last commit whose newest migration was N, checks it out into a
# temporary worktree (/tmp/fx-N.*, removed after), copies
# harness/journal/testdata/fixturegen into it and runs that generator
# against the commit's own journal package, with the build tags since<K>
# for every K <= N (the calls schema K brought). The clock starts at the
# commit's date. The commit of each fixture is recorded in
# harness/journal/testdata/journal-fixtures.txt.
#
# Version 1 was never the newest migration of a commit (the journal's first
# commit already had 2), so journal-v1.db is written differently: with
# version 1's columns in raw SQL, chained as version 1 did
# (TestWriteFixtureV1 in harness/journal/migrations_test.go):
#
#   scripts/journal-fixtures.sh 1
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
. scripts/lib.sh
testdata=harness/journal/testdata
manifest=$testdata/journal-fixtures.txt
wt="" # the temporary worktree of the version being generated
cleanup() {
  if [ -n "$wt" ]; then git -C "$repo" worktree remove --force "$wt"; fi
  wt=""
}
trap cleanup EXIT

# newest_migration COMMIT: the number of entries of the migrations table at
# COMMIT (lines `{N, "what", migrateN},`; a migration's function may live
# in another file, as migrate12 does in elicitations.go).
newest_migration() {
  git show "$1:harness/journal/migrations.go" | grep -cE '^\s*\{[0-9]+, "' || true
}

# commit_of N: the last commit whose newest migration was N.
commit_of() {
  local c
  for c in $(git log --format=%H -- harness/journal/migrations.go); do
    if [ "$(newest_migration "$c")" = "$1" ]; then
      echo "$c"
      return
    fi
  done
}

record() { # record N COMMIT DATE [NOTE]: the line of journal-vN.db in the manifest
  touch "$manifest"
  {
    echo "# fixture, the commit whose journal API wrote it, its date (scripts/journal-fixtures.sh)"
    { grep -v -e "^journal-v$1\.db " -e '^#' "$manifest" || true; echo "journal-v$1.db $2 $3${4:+ $4}"; } | sort -V
  } >"$manifest.new"
  mv "$manifest.new" "$manifest"
}

generate() { # generate N
  local n=$1 commit date tags k
  if [ "$n" = 1 ]; then
    step "journal-v1.db: version 1 columns in raw SQL (TestWriteFixtureV1)"
    go test -count=1 ./harness/journal -run '^TestWriteFixtureV1$' -journal.write-fixture
    record 1 "$(git rev-parse HEAD)" "$(date -u +%Y-%m-%dT%H:%M:%S+00:00)" "TestWriteFixtureV1 (raw SQL)"
    return
  fi
  commit=$(commit_of "$n")
  if [ -z "$commit" ]; then
    echo "no commit has migration $n as its newest" >&2
    exit 2
  fi
  date=$(git show -s --format=%cI "$commit")
  step "journal-v$n.db from $(git show -s --format='%h %s' "$commit" | cut -c1-100)"
  wt=$(mktemp -d "/tmp/fx-$n.XXXXXX")
  rmdir "$wt"
  git worktree add --quiet --detach "$wt" "$commit"
  cp -r "$testdata/fixturegen" "$wt/fixturegen"
  tags=fixturegen
  for k in 3 6 7 8 9 11 12 13; do
    if [ "$k" -le "$n" ]; then tags="$tags,since$k"; fi
  done
  rm -f "$testdata/journal-v$n.db"
  (cd "$wt" && go run -tags "$tags" ./fixturegen -out "$repo/$testdata/journal-v$n.db" -now "$date")
  cleanup
  record "$n" "$commit" "$date"
}

if [ $# -eq 0 ]; then
  newest=$(newest_migration HEAD)
  set -- $(seq 2 "$newest")
fi
for n in "$@"; do
  generate "$n"
done
ls -l "$testdata"/journal-v*.db
