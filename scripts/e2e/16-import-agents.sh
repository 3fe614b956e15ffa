# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables are the sourcing script's
# A block of scripts/app-e2e.sh, sourced by it in file-name order: it uses
# the helpers and variables defined there (start_e2e_app, click, wait_state,
# state, fail, $tmp, $shots, $root, ...).
# --- import of agents and skills (issue 35) ---
# In its own HOME and coworkers folder, with a scripted model that records
# what each request offered (-record): a published Claude Code subagent
# (api-designer: tools Read, Write, Edit, Bash, Glob, Grep) and a published Agent Skill
# folder (skill-creator) are dropped on the window (the e2e hook's POST
# /drop, as Wails' OnFileDrop does); the preview shows both, and writes
# nothing, and says Bash is not granted, and why; Return imports them. In
# the dark theme. A chat with api-designer offers the files tools its
# Claude Code tools map to, and no shell; a chat with skill-creator
# offers skills.load and skills.read and lists the skill by its
# description in the system prompt, without its body (docs/app.md#import-agents).
echo "app-e2e: import of agents and skills"
# Where things are, in window coordinates: x of Start chat on the first
# and the second card of the Coworkers grid (y varies: scanned).
IA_CARD1_X=314 IA_CARD2_X=648
ia="$tmp/import-agents"
pub="$root/harness/agentimport/testdata/published"
ia_agent="$pub/voltagent-claude-code-subagents/agents/api-designer.md"
ia_skill="$pub/anthropics-skills/skill-creator"
mkdir -p "$ia/home" "$ia/config" "$ia/data" "$ia/bundles"
cat >"$ia/script.json" <<'JSON'
[
  {"text": "I design APIs."},
  {"text": "I make skills."}
]
JSON
ia_rec="$ia/requests.jsonl"
"$tmp/scriptmodel" -script "$ia/script.json" -addr 127.0.0.1:0 -record "$ia_rec" >"$ia/model.out" 2>>"$tmp/model.log" &
pids+=($!)
for _ in $(seq 50); do grep -q '^listening ' "$ia/model.out" 2>/dev/null && break; sleep 0.1; done
ia_model="$(sed -n 's/^listening //p' "$ia/model.out")"
[ -n "$ia_model" ] || fail "import of agents: the scripted model did not start"
stop_shown_app
(
  in_app_env "$ia" OPENAI_API_KEY="scripted-test-key" OPENWORKER_COWORKERS="$ia/bundles" OPENWORKER_E2E_ADDR="$hook" \
    "$tmp/openworker" --base-url "$ia_model" --model scripted >"$ia/app.log" 2>&1
) &
pids+=($!)
wait_state '"list_loads":[1-9]' "the app did not start for the import block (app log: $(tail -n 5 "$ia/app.log"))"
sleep 1.5
for _ in 1 2 3; do click 1208 103; sleep 0.3; done # the start's notices go
xdotool key ctrl+comma
sleep 1
click 304 378 # Settings → Appearance (its navigation list)
sleep 1
for _ in 1 2 3; do # Appearance: Dark (its radio; a press that comes with the motion can be dropped: again)
  click 611 175
  for _ in $(seq 10); do state | grep -q '"theme":"dark"' && break 2; sleep 0.2; done
done
wait_state '"theme":"dark"' "Dark did not switch the theme (import block)"
click 60 69 # Coworkers
sleep 0.8
# ia_recorded N: the JSON of the Nth model request (from 1).
ia_recorded() { for _ in $(seq 150); do [ "$(wc -l <"$ia_rec" 2>/dev/null || echo 0)" -ge "$1" ] && break; sleep 0.2; done; sed -n "${1}p" "$ia_rec"; }
ia_chats() { state | grep -o '"session_id"' | wc -l || true; } # none yet: grep fails

# The drop: a subagent file and a skill folder, together.
curl -fsS -X POST -d "{\"paths\":[\"$ia_agent\",\"$ia_skill\"]}" "http://$hook/drop" || fail "POST /drop of the agent and the skill failed"
wait_state '"import 2"' "the drop of a subagent and a skill was not previewed as 2 coworkers"
sleep 1.2
import -window root "$shots/import-agents-preview.png"
[ -z "$(ls -A "$ia/bundles")" ] || fail "the preview wrote into the coworkers folder: $(ls -A "$ia/bundles")"
# Tab from the dialog reaches its controls and shows the focus ring.
xdotool key Tab
sleep 0.4
import -window root "$shots/import-agents-focus.png"
xdotool key shift+Tab # back to the dialog: Return there is Import
sleep 0.3
xdotool key Return
for _ in $(seq 100); do [ -f "$ia/bundles/api-designer/coworker/manifest.md" ] && [ -f "$ia/bundles/skill-creator/coworker/skills/skill-creator/SKILL.md" ] && break; sleep 0.2; done
[ -f "$ia/bundles/api-designer/coworker/manifest.md" ] || fail "Import did not make api-designer: $(ls -A "$ia/bundles")"
[ -f "$ia/bundles/skill-creator/coworker/skills/skill-creator/SKILL.md" ] || fail "Import did not make skill-creator with its skill: $(find "$ia/bundles" -maxdepth 4)"
grep -q '"Bash\|shell' "$ia/bundles/api-designer/coworker/tools.json" && fail "api-designer was given a shell"
for t in files.file_read files.file_write files.file_edit files.files_search; do
  grep -q "\"$t\"" "$ia/bundles/api-designer/coworker/tools.json" || fail "api-designer was not given $t: $(cat "$ia/bundles/api-designer/coworker/tools.json")"
done
compgen -G "$ia/bundles/.import-*" >/dev/null && fail "the import left a hidden folder: $(ls -A "$ia/bundles")"
sleep 1.5
import -window root "$shots/import-agents-imported.png"

# ia_start_chat X: Start chat of the card in column X (its y is scanned).
ia_start_chat() {
  local before
  before="$(ia_chats)"
  for y in $(seq 150 12 760); do
    click "$1" "$y"
    for _ in $(seq 5); do [ "$(ia_chats)" -gt "$before" ] && return 0; sleep 0.2; done
  done
  fail "Start chat in column $1 opened no chat: $(state)"
}
# The cards in name order: api-designer first, skill-creator beside it.
ia_start_chat "$IA_CARD1_X"
sleep 1
xdotool type --delay 20 "Who are you?"
xdotool key Return
first="$(ia_recorded 1)"
echo "$first" | grep -q '"files__file_read"' || fail "api-designer's chat did not offer files__file_read: $first"
echo "$first" | grep -q '"files__files_search"' || fail "api-designer's chat did not offer files__files_search: $first"
echo "$first" | grep -q 'senior API designer' || fail "api-designer's chat was not told its instructions: $first"
sleep 1
import -window root "$shots/import-agents-chat.png"

click 60 69 # Coworkers
sleep 1.2
ia_start_chat "$IA_CARD2_X"
sleep 1
xdotool type --delay 20 "What can you do?"
xdotool key Return
second="$(ia_recorded 2)"
for t in skills__load skills__read; do echo "$second" | grep -q "\"$t\"" || fail "skill-creator's chat did not offer $t: $second"; done
skill_desc="$(sed -n 's/^description: //p' "$ia_skill/SKILL.md" | cut -c1-40)"
echo "$second" | grep -qF "$skill_desc" || fail "the system prompt does not list the skill by its description ($skill_desc): $second"
# (sed -n 1p, not grep -m1: a reader that stops early makes the writer die
# of SIGPIPE, which pipefail turns into the block's exit 141.)
skill_body="$(sed -n '/^---$/,/^---$/!p' "$ia_skill/SKILL.md" | grep -v '^\s*$\|^#' | sed -n 1p | cut -c1-40)"
echo "$second" | grep -qF "$skill_body" && fail "the skill's body was in the first request ($skill_body)"
sleep 1
import -window root "$shots/import-agents-skill-chat.png"
stop_shown_app
start_e2e_app "when started again after the import of agents"
sleep 1
# --- end import of agents and skills (issue 35) ---
