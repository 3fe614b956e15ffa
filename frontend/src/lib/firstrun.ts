// The first-run setup's rules (docs/app.md#first-run): its steps, the
// coworkers it offers and the model it preselects.
import type { CoworkerInfo, CoworkerList } from "./types";

export type SetupStep = "model" | "key" | "test" | "coworker" | "chat";

/** The steps shown in the progress list; "key" belongs to "model". */
export const setupSteps: { step: SetupStep; label: string }[] = [
  { step: "model", label: "Model" },
  { step: "test", label: "Test connection" },
  { step: "coworker", label: "Coworker" },
  { step: "chat", label: "First chat" },
];

/** The progress entry a step counts as. */
export const progressOf = (s: SetupStep): SetupStep => (s === "key" ? "model" : s);

/** starters are the coworkers a first chat can start with: resolved, not still starting. */
export function starters(list: CoworkerList | null): CoworkerInfo[] {
  return (list?.coworkers ?? []).filter((c) => !c.starting);
}

/** The starter preselected: the Device Assistant the app ships, else the first. */
export function defaultStarter(list: CoworkerInfo[]): string {
  return (list.find((c) => c.id === "device-assistant") ?? list[0])?.id ?? "";
}

/** The Ollama model preselected: llama3.2 (the default model) when pulled, else the first. */
export function defaultOllamaModel(models: string[] | null): string {
  const ms = models ?? [];
  return ms.find((m) => m.replace(/:latest$/, "") === "llama3.2") ?? ms[0] ?? "";
}

/** The defaults an empty field means, per provider (Go: model.FromEnv). */
export const keyProviders = [
  { id: "openai" as const, label: "OpenAI-compatible", baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini" },
  { id: "anthropic" as const, label: "Anthropic", baseUrl: "https://api.anthropic.com", model: "claude-sonnet-4-5" },
];
