// Plain words for what the harness records in its own terms
// (docs/app.md#plain-words): a tool's risk, a coworker's id.
import type { CoworkerList } from "./types";

/** riskWords says what a tool's risk (tool.Risk) means to the person: the text, and a longer title. */
export function riskWords(risk: string | undefined): { text: string; title: string } {
  switch (risk) {
    case "read_only":
      return { text: "reads only", title: "Its maker says it only reads: it changes nothing." };
    case "idempotent_write":
      return { text: "changes data", title: "Its maker says it changes data, and running it twice does no more than once." };
    default:
      return { text: "can delete data", title: "It may change, overwrite or delete data: its maker says so, or says nothing against it." };
  }
}

/** coworkerName is a coworker's display name from the loaded list, or its id when it is not there. */
export function coworkerName(list: CoworkerList | null | undefined, id: string): string {
  return list?.coworkers?.find((c) => c.id === id)?.name || id;
}

const needsReconciliation = /;? ?it needs reconciliation$/;

/** settledReason is a stopped call's reason without "it needs reconciliation", for a call that no longer needs it. */
export function settledReason(error: string | undefined): string {
  return (error ?? "").replace(needsReconciliation, "");
}

/** An invocation as far as its reconciliation goes (journal.Invocation). */
export interface Reconcilable {
  status: string;
  risk?: string;
  reconciled?: string;
}

/**
 * askApplied reports whether the person is asked "was it applied?" about a
 * call: its outcome is unknown, nobody recorded one, and it may have changed
 * something (a call that only reads changed nothing either way).
 */
export function askApplied(inv: Reconcilable): boolean {
  return inv.status === "unknown" && !inv.reconciled && inv.risk !== "read_only";
}

/** onlyReadUnknown reports a stopped read-only call nobody recorded: nothing to ask, only to mark as checked. */
export function onlyReadUnknown(inv: Reconcilable): boolean {
  return inv.status === "unknown" && !inv.reconciled && inv.risk === "read_only";
}

/**
 * toolsAsk says when a chat's tool calls ask the person: never with
 * approval bypass; else each asks unless the coworker's manifest answers
 * for it (allow or deny, marked by the tool) or the person saved Always or
 * Never for it (docs/consent.md).
 */
export function toolsAsk(info: { approval_mode: string; tools: { policy?: string }[] | null }): string {
  if (info.approval_mode === "bypass") return "calls run without asking: approval is off for this chat";
  if ((info.tools ?? []).some((t) => t.policy === "allow" || t.policy === "deny")) {
    return "a call asks you first, but for those marked, which the coworker answers itself, and those you chose Always or Never for";
  }
  return "each call asks you first, unless you chose Always or Never for it";
}
