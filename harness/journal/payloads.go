package journal

import (
	"strconv"
	"time"
)

// Payloads built from the values written, for the call path (two commits
// per tool call), so that no statement reads a row back. They must list
// exactly the columns the table has at SchemaVersion(), with the values
// SQLite stores: TestPayloadColumns compares these lists with the schema,
// and every test of BeginInvocation, RefuseInvocation and FinishInvocation
// ends with Verify, which recomputes each payload from the stored row. A
// migration that adds a column to invocations or approvals must add it
// here (or Verify fails in those tests).

// invocationColumns and approvalColumns are the columns of the tables at
// the current schema version, in table order.
var (
	invocationColumns = []string{"id", "session_id", "turn_id", "call_id", "tool", "alias", "provider", "remote_name",
		"risk", "descriptor_digest", "arguments", "status", "result", "result_digest", "error_code", "error", "effect",
		"reconciled", "reconciled_by", "reconciled_at", "duration_ms", "created_at", "started_at", "finished_at", "owner",
		"placement", "handle", "origin", "ui_uri", "ui_size", "ui_digest"}
	approvalColumns = []string{"id", "session_id", "turn_id", "invocation_id", "call_id", "tool", "decision", "scope",
		"source", "reason", "identity", "created_at"}
)

// newPayload returns the non-NULL fields (value ok) sorted for the chain.
func newPayload(fs ...optField) rowPayload {
	p := make(rowPayload, 0, len(fs))
	for _, f := range fs {
		if f.ok {
			p = append(p, field{f.col, f.val})
		}
	}
	sortFields(p)
	return p
}

type optField struct {
	col, val string
	ok       bool // false: NULL, left out of the payload
}

func col(name, val string) optField { return optField{name, val, true} }

// nullable is NULL when val is "" (stored through nullString or nullTime).
func nullable(name, val string) optField { return optField{name, val, val != ""} }

func timeOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// invocationPayload is the payload of a row inserted by insertInvocation.
func invocationPayload(inv Invocation, status, effect, started, finished, owner string) rowPayload {
	return newPayload(
		col("id", inv.ID), col("session_id", inv.SessionID), nullable("turn_id", inv.TurnID), col("call_id", inv.CallID),
		col("tool", inv.Tool), col("alias", inv.Alias), col("provider", inv.Provider), col("remote_name", inv.RemoteName),
		col("risk", inv.Risk), col("descriptor_digest", inv.DescriptorDigest), col("arguments", string(inv.Arguments)),
		col("status", status), col("result_digest", ""), col("error_code", inv.ErrorCode), col("error", inv.Error),
		col("effect", effect), col("reconciled", ""), col("reconciled_by", ""), col("duration_ms", "0"),
		col("created_at", formatTime(inv.CreatedAt)), nullable("started_at", started), nullable("finished_at", finished),
		col("owner", owner), nullable("placement", inv.Placement), nullable("origin", inv.Origin),
	)
}

// finishedPayload is the payload of an executing row p after
// FinishInvocation's update.
func finishedPayload(p rowPayload, status string, result []byte, digest, code, msg, effect string, dur int64, finished string) rowPayload {
	p = p.set("status", status, "result_digest", digest, "error_code", code, "error", msg, "effect", effect,
		"duration_ms", strconv.FormatInt(dur, 10), "finished_at", finished)
	if len(result) > 0 {
		return p.set("result", string(result))
	}
	return p.without("result")
}

// approvalPayload is the payload of a row inserted by insertApproval.
func approvalPayload(a *Approval) rowPayload {
	return newPayload(
		col("id", strconv.FormatInt(a.ID, 10)), col("session_id", a.SessionID), nullable("turn_id", a.TurnID),
		col("invocation_id", a.InvocationID), col("call_id", a.CallID), col("tool", a.Tool), col("decision", a.Decision),
		col("scope", a.Scope), col("source", a.Source), col("reason", a.Reason), col("identity", a.Identity),
		col("created_at", formatTime(a.CreatedAt)),
	)
}
