// The sections of Settings, in the order of its navigation list
// (docs/app.md#settings). To add one: a FooSection.svelte in this folder
// that takes { form } (the shared SettingsForm), and one entry here.
import type { Component } from "svelte";
import type { SettingsForm } from "../../lib/settingsform.svelte";
import ModelSection from "./ModelSection.svelte";
import CoworkersSection from "./CoworkersSection.svelte";
import ServersSection from "./ServersSection.svelte";
import ExtensionsSection from "./ExtensionsSection.svelte";
import PermissionsSection from "./PermissionsSection.svelte";
import NotificationsSection from "./NotificationsSection.svelte";
import AppearanceSection from "./AppearanceSection.svelte";
import AboutSection from "./AboutSection.svelte";
import LimitsSection from "./LimitsSection.svelte";
import BackgroundSection from "./BackgroundSection.svelte";

export interface SectionEntry {
  id: string;
  label: string;
  /** One line under the heading: what the section holds. */
  hint: string;
  /** null: the screen draws it itself (Diagnostics, which needs the screen's Copy). */
  component: Component<{ form: SettingsForm }> | null;
}

export const sections: ReadonlyArray<SectionEntry> = [
  { id: "model", label: "Model", hint: "Where chats send their requests, and the API keys.", component: ModelSection },
  { id: "coworkers", label: "Coworkers", hint: "The folder your coworkers are read from.", component: CoworkersSection },
  { id: "servers", label: "Servers", hint: "The MCP servers that give coworkers their tools.", component: ServersSection },
  { id: "extensions", label: "Extensions", hint: "Installed .mcpb extensions.", component: ExtensionsSection },
  { id: "permissions", label: "Permissions", hint: "When tools ask you first, and your saved answers.", component: PermissionsSection },
  { id: "limits", label: "Limits", hint: "Default budgets of coworkers whose manifest sets none.", component: LimitsSection },
  { id: "background", label: "Background", hint: "Keep running with the window closed, start at login, and how long a run on its own waits for an answer.", component: BackgroundSection },
  { id: "notifications", label: "Notifications", hint: "When the app tells you something while you are elsewhere.", component: NotificationsSection },
  { id: "appearance", label: "Appearance", hint: "Colours and keyboard shortcuts.", component: AppearanceSection },
  { id: "diagnostics", label: "Diagnostics", hint: "A report for a bug, and where the app keeps its files.", component: null },
  { id: "about", label: "About", hint: "This version and updates.", component: AboutSection },
];

/** sectionOf is the entry of id, the first one for an unknown id. */
export function sectionOf(id: string): SectionEntry {
  return sections.find((s) => s.id === id) ?? sections[0];
}
