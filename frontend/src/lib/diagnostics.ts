import type { DoctorFact, DoctorSection } from "./types_diagnostics";

// Words of the Diagnostics screen (docs/app.md#diagnostics): the report's
// section names and keys as people read them. Pure functions, tested
// without a window.

const titles: Record<string, string> = {
  openworker: "OpenWorker",
  system: "System",
  webview: "Window (webview)",
  notifications: "Notifications",
  keychain: "Keychain",
  path: "Where programs are found (PATH)",
  journal: "Journal",
  providers: "MCP servers",
  model: "Model",
  runtime: "Runtime",
};

/** The title of a report section ("providers" → "MCP servers"). */
export function sectionTitle(name: string): string {
  return titles[name] ?? name;
}

/** A fact's key as shown: a server's line is its name ("provider github" → "github"). */
export function factLabel(section: string, key: string): string {
  if (section === "providers" && key.startsWith("provider ")) return key.slice("provider ".length);
  if (section === "path" && key === "dir") return "folder";
  return key;
}

/** A check's status in words. */
export function statusLabel(status: string): string {
  switch (status) {
    case "ok":
      return "ok";
    case "failed":
      return "failed";
    case "unavailable":
      return "not checked";
    default:
      return status;
  }
}

/** The sections as the screen shows them: the MCP servers and the model first (what usually goes wrong), then the report's order. */
export function screenOrder(sections: DoctorSection[]): DoctorSection[] {
  const first = ["providers", "model"];
  return [...sections.filter((s) => first.includes(s.name)).sort((a, b) => first.indexOf(a.name) - first.indexOf(b.name)),
    ...sections.filter((s) => !first.includes(s.name))];
}

/** The failed checks of the report, each with its section's title. */
export function problems(sections: DoctorSection[]): { section: string; fact: DoctorFact }[] {
  return sections.flatMap((s) => (s.facts ?? []).filter((f) => f.status === "failed").map((fact) => ({ section: sectionTitle(s.name), fact })));
}
