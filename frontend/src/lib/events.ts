// Event names, mirrored from Go. AppEvent mirrors app/events.go (AppEvents);
// HarnessEventType mirrors harness/events.go (app.HarnessEvents).
// TestEventsMirroredInTypeScript (app/events_test.go) fails when they differ.

export const AppEvent = {
  Harness: "harness:event",
  ApprovalRequest: "approval:request",
  ApprovalClosed: "approval:closed",
  CoworkersChanged: "coworkers:changed",
  Notice: "app:notice",
  BundleDropped: "coworkers:dropped",
  AgentsDropped: "coworkers:agents-dropped",
  ChatChanged: "chat:changed",
  ExtensionOpened: "extension:opened",
  ElicitationAsked: "elicitation:asked",
  ElicitationClosed: "elicitation:closed",
  SignIn: "signin:request",
  SignInClosed: "signin:closed",
  InboxChanged: "inbox:changed",
  InboxOpen: "inbox:open",
  SchedulesChanged: "schedules:changed",
} as const;
export type AppEventName = (typeof AppEvent)[keyof typeof AppEvent];

export const HarnessEventType = {
  TurnStarted: "turn.started",
  Text: "assistant.delta",
  AssistantMessage: "assistant.message",
  ToolProposed: "tool.proposed",
  ApprovalRequired: "approval.required",
  ApprovalDecided: "approval.decided",
  ToolStarted: "tool.started",
  ToolProgress: "tool.progress",
  ElicitationRequired: "elicitation.required",
  ElicitationAnswered: "elicitation.answered",
  ToolFinished: "tool.finished",
  Warning: "warning",
  TurnFinished: "turn.finished",
  Error: "error",
} as const;
export type HarnessEventName = (typeof HarnessEventType)[keyof typeof HarnessEventType];
