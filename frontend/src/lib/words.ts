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
