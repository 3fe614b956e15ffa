// The Settings screen's shared state (docs/app.md#settings): the view the
// Go side answered, the form the sections edit, and each section's save
// status. Each section saves only its own fields (api.saveSection); what
// the other sections have unsaved stays in the form.
import { api } from "./api";
import { app } from "./state.svelte";
import type { Settings, SettingsView } from "./types";
import type { SettingsSectionId } from "./types_settings";

/** The settings.json fields each section owns (app/settings_sections.go). */
export const sectionFields: Record<SettingsSectionId, ReadonlyArray<keyof Settings>> = {
  model: ["provider", "openai", "anthropic"],
  coworkers: ["coworkers_dir"],
  servers: ["servers_path"],
  permissions: ["approval_mode"],
};

/** A section's last save: shown in its reserved status line, never above the content. */
export interface SaveStatus {
  level: "info" | "error";
  text: string;
}

export class SettingsForm {
  view = $state<SettingsView | null>(null);
  form = $state<Settings | null>(null);
  saving = $state<SettingsSectionId | "">("");
  status = $state<Partial<Record<SettingsSectionId, SaveStatus>>>({});
  /** "Import MCP servers…" is open (the Servers section or Alt+M). */
  importing = $state(false);
  /** "Give tools to…" is open for these servers. */
  giving = $state<{ namespaces: string[]; title: string } | null>(null);

  /**
   * load takes a view from the Go side. With no section the whole form is
   * replaced (the first load); with one, only that section's fields are, so
   * the other sections keep their unsaved edits.
   */
  load(v: SettingsView, section?: SettingsSectionId) {
    this.view = v;
    const fresh = structuredClone($state.snapshot(v.settings)) as Settings;
    if (!section || !this.form) {
      this.form = fresh;
      return;
    }
    const f = this.form as unknown as Record<string, unknown>;
    for (const k of sectionFields[section]) f[k] = fresh[k];
  }

  /** dirty is true when the section's fields differ from the saved ones. */
  dirty(section: SettingsSectionId): boolean {
    if (!this.form || !this.view) return false;
    const a = $state.snapshot(this.form) as Settings, b = this.view.settings;
    return sectionFields[section].some((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  }

  /** save writes the section's fields; its status line says how it went. */
  async save(section: SettingsSectionId): Promise<boolean> {
    if (!this.form) return false;
    this.saving = section;
    this.status[section] = undefined;
    try {
      this.load(await api.saveSection(section, $state.snapshot(this.form) as Settings), section);
      app.info = await api.info();
      this.status[section] = { level: "info", text: "Saved. New chats use it; open chats keep theirs." };
      return true;
    } catch (e) {
      this.status[section] = { level: "error", text: (e as Error).message };
      return false;
    } finally {
      this.saving = "";
    }
  }
}
