// Where a tool call goes (docs/consent.md#placement): the harness sends
// "on this computer" (native tools, stdio providers, loopback HTTP), the
// same with a sandboxed provider's sandbox in words after it
// ("on this computer (sandboxed: …)", docs/sandbox.md#in-words), or the
// remote host's name, such as "mcp.example.com".
import { PLACEMENT_LOCAL } from "./types";

/** True for "on this computer", with or without a sandbox after it. */
export function isLocal(placement: string | undefined): boolean {
  return !!placement && (placement === PLACEMENT_LOCAL || placement.startsWith(PLACEMENT_LOCAL + " ("));
}

/** True when the call leaves this computer (a remote host name). */
export function isRemote(placement: string | undefined): boolean {
  return !!placement && !isLocal(placement);
}

/** The placement as a phrase: "on this computer", "on this computer (sandboxed: …)", "on mcp.example.com (a remote host)". */
export function placementText(placement: string | undefined): string {
  if (!placement) return "unknown";
  if (isLocal(placement)) return placement;
  return `on ${placement} (a remote host)`;
}

/** Where a call runs, for the consent dialog's Runs row: "on this
 * computer" for every local call (a sandbox's words are the Access row's,
 * not repeated here), otherwise as placementText. */
export function runsText(placement: string | undefined): string {
  return isLocal(placement) ? PLACEMENT_LOCAL : placementText(placement);
}
