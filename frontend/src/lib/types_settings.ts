// Types of the Settings screen's sections (docs/app.md#settings) and the
// window's paint timings (docs/app.md#window-size-and-splash), as the Go
// side (app/settings_sections.go, app/window_paint.go) has them.

/** A section whose Save writes its own settings.json fields (Preferences.SaveSection). */
export type SettingsSectionId = "model" | "coworkers" | "servers" | "permissions";

/** Milliseconds since the page's navigation start; 0 when the browser did not say. */
export interface WindowPaint {
  /** index.html parsed (domInteractive): the splash can be painted from then on. */
  html_parsed_ms: number;
  first_paint_ms: number;
  first_contentful_paint_ms: number;
  mounted_ms: number;
}
