// Where a tool call goes (docs/consent.md#placement): the harness sends
// "on this computer" (native tools, stdio providers, loopback HTTP) or the
// remote host's name, such as "mcp.example.com".
import { PLACEMENT_LOCAL } from "./types";

/** True when the call leaves this computer (a remote host name). */
export function isRemote(placement: string | undefined): boolean {
  return !!placement && placement !== PLACEMENT_LOCAL;
}

/** The placement as a phrase: "on this computer", "on mcp.example.com (a remote host)". */
export function placementText(placement: string | undefined): string {
  if (!placement) return "unknown";
  if (placement === PLACEMENT_LOCAL) return placement;
  return `on ${placement} (a remote host)`;
}
