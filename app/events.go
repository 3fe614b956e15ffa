package app

import (
	"encoding/base64"

	"github.com/openworker/desktop/harness"
)

// EventName names an event the app sends to the UI over the Wails event
// bus. Every name is mirrored in frontend/src/lib/events.ts, and
// TestEventsMirroredInTypeScript keeps the two lists equal.
type EventName string

// Events to the UI. The payload type of each is in its comment.
const (
	// EventHarness carries a ChatEvent: one harness.Event of an open chat
	// (docs/stdio-protocol.md names in Event.Type, mirrored as
	// HarnessEventType in TypeScript).
	EventHarness EventName = "harness:event"
	// EventApprovalRequest carries a PendingApproval: show the consent modal.
	EventApprovalRequest EventName = "approval:request"
	// EventApprovalClosed carries an ApprovalClosed: hide that modal.
	EventApprovalClosed EventName = "approval:closed"
	// EventCoworkersChanged carries a CoworkerList after the bundles folder
	// changed on disk or a new folder was chosen.
	EventCoworkersChanged EventName = "coworkers:changed"
	// EventNotice carries a Notice to show as a banner.
	EventNotice EventName = "app:notice"
	// EventBundleDropped carries a BundleDropped: folders dropped on the
	// window, for the Coworkers screen to preview (docs/app.md#adding-a-coworker).
	EventBundleDropped EventName = "coworkers:dropped"
	// EventAgentsDropped carries a BundleDropped: files and folders
	// dropped on the window that are no coworker bundle, for the import
	// of agents and skills to preview (docs/app.md#import-agents).
	EventAgentsDropped EventName = "coworkers:agents-dropped"
	// EventChatChanged carries a journal.Session as the chat list shows
	// it (title, status, attention) when a chat started, was continued,
	// got its title (its first turn started), was renamed, hidden or shown,
	// or a turn of it ended, or it was closed (docs/app.md#chats).
	EventChatChanged EventName = "chat:changed"
	// EventExtensionOpened carries an ExtensionOpened: a .mcpb or .dxt file
	// given on the command line, by a second start or by macOS, to offer
	// for installing (docs/app.md#opening-an-extension).
	EventExtensionOpened EventName = "extension:opened"
)

// BundleDropped is the payload of EventBundleDropped: the absolute paths
// dropped on the window, in the order given.
type BundleDropped struct {
	Paths []string `json:"paths"`
}

// AppEvents lists every EventName, in declaration order.
var AppEvents = []EventName{EventHarness, EventApprovalRequest, EventApprovalClosed, EventCoworkersChanged, EventNotice, EventBundleDropped, EventAgentsDropped, EventChatChanged, EventExtensionOpened,
	EventElicitationAsked, EventElicitationClosed, EventSignIn, EventSignInClosed, EventInboxChanged, EventInboxOpen, EventSchedulesChanged}

// HarnessEvents lists the harness event types a chat receives as
// EventHarness: harness.EventTypes, mirrored in TypeScript.
var HarnessEvents = harness.EventTypes()

// Notice levels.
const (
	NoticeInfo  = "info"
	NoticeWarn  = "warning"
	NoticeError = "error"
)

// Notice is a message for the person, shown as a banner in the window.
// A notice with a Key replaces the banner shown with that key; one with a
// Key and no Message removes it (docs/servers.md#notices).
type Notice struct {
	Level   string `json:"level"` // info | warning | error
	Message string `json:"message"`
	Key     string `json:"key,omitempty"` // e.g. NoticeKeyServers; "" for a notice of its own
}

// NoticeKeyTokensFile keys the banner saying that sign-ins go to the
// encrypted file because there is no OS keychain (docs/mcp.md#without-a-keychain).
const NoticeKeyTokensFile = "tokens-file"

// NoticeKeyServers keys the banner about the servers file in use: each
// load of the file that changes its problem replaces it, and a load
// without a problem removes it.
const NoticeKeyServers = "servers"

// NoticeKeyModel keys the warning about the model in use: nothing answers
// at its local address, or it is not usable. Saving Settings (or an API
// key), a model list or Test connection of the model in use, and a turn
// its model answered check again and replace the warning, or remove it
// once the model answers (docs/app.md#model-picker).
const NoticeKeyModel = "model"

// Emitter sends events to the UI. The Wails implementation is in
// runtime_wails.go; tests use a recording fake. Emit must not block for
// long: it runs on a turn's goroutine.
type Emitter interface {
	Emit(name EventName, payload any)
}

// Notifier raises a native notification (used when the window is not
// focused and a prompt waits, docs/consent.md). It is satisfied by the platform
// adapter; nil means no native notifications.
type Notifier interface {
	Notify(title, body string) error
}

// Dialogs opens native dialogs. The Wails implementation is in
// runtime_wails.go.
type Dialogs interface {
	// ChooseDirectory asks for a folder; "" when the person cancels.
	ChooseDirectory(title, start string) (string, error)
	// ChooseFile asks for a file to open; "" when the person cancels.
	ChooseFile(title, start string) (string, error)
}

// ChatEvent is the payload of EventHarness: the harness event as it is,
// and for the tool.finished of a call that returned images, the images as
// data: URLs in the order of the result's image blocks, so the tool card
// shows them (docs/mcp.md#results). Only PNG and JPEG reach this point
// (docs/limits.md), at most 4 of at most 5 MiB each.
type ChatEvent struct {
	harness.Event
	ImageURLs []ImageURL `json:"image_urls,omitempty"`
}

// ImageURL is one image of a tool result.
type ImageURL struct {
	MIMEType string `json:"mime_type"`
	URL      string `json:"url"` // data:<mime type>;base64,<data>
}

func chatEvent(e harness.Event) ChatEvent {
	c := ChatEvent{Event: e}
	for _, im := range e.Images {
		c.ImageURLs = append(c.ImageURLs, ImageURL{im.MIMEType, "data:" + im.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)})
	}
	return c
}
