// The Diagnostics screen's shapes (Go: app.DiagnosticsPlan,
// app.DiagnosticsReport, doctor.Section; docs/app.md#diagnostics).

/** An MCP server a run of the diagnostics starts (Go: app.DiagnosticsServer). */
export interface DiagnosticsServer {
  namespace: string;
  /** Names of the coworkers that use it. */
  coworkers: string[] | null;
  /** Why its start may download first ("npx may still be downloading the package"); "" when it only runs what is there. */
  may_download: string;
}

/** What a run would start (Go: app.DiagnosticsPlan). */
export interface DiagnosticsPlan {
  servers: DiagnosticsServer[] | null;
  /** Servers no coworker uses: never started. */
  unused: string[] | null;
}

/** One line of the report (Go: doctor.Fact): a check has a status. */
export interface DoctorFact {
  key: string;
  status?: "ok" | "failed" | "unavailable" | "";
  value: string;
}

/** One part of the report, e.g. "providers" (Go: doctor.Section). */
export interface DoctorSection {
  name: string;
  facts: DoctorFact[] | null;
}

/** A run's report (Go: app.DiagnosticsReport): its text is what Copy and Save take. */
export interface DiagnosticsReport {
  sections: DoctorSection[] | null;
  text: string;
  took_ms: number;
}
