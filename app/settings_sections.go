package app

import (
	"fmt"
	"strings"
)

// The sections of the Settings screen that save settings.json fields
// (docs/app.md#settings): each Save button saves only its own fields, so
// a half-edited field of another section is never written with it.
const (
	SectionModel       = "model"       // provider, the two providers' base URL and model
	SectionCoworkers   = "coworkers"   // the coworkers folder
	SectionServers     = "servers"     // the servers file
	SectionPermissions = "permissions" // the approval mode
)

// sectionFields copies into cur the fields of s that section owns and
// returns the result; an unknown section is an error naming the known ones.
func sectionFields(section string, cur, s Settings) (Settings, error) {
	switch section {
	case SectionModel:
		cur.Provider = s.Provider
		cur.OpenAI, cur.Anthropic = s.OpenAI, s.Anthropic
		cur.OpenAI.BaseURL = strings.TrimSpace(cur.OpenAI.BaseURL)
		cur.Anthropic.BaseURL = strings.TrimSpace(cur.Anthropic.BaseURL)
	case SectionCoworkers:
		cur.CoworkersDir = s.CoworkersDir
	case SectionServers:
		cur.ServersPath = s.ServersPath
	case SectionPermissions:
		cur.ApprovalMode = s.ApprovalMode
	default:
		return cur, fmt.Errorf("settings section %q: want %q, %q, %q or %q", section,
			SectionModel, SectionCoworkers, SectionServers, SectionPermissions)
	}
	return cur, nil
}

// SaveSection saves the fields of s that section ("model", "coworkers",
// "servers" or "permissions") owns and keeps every other setting as it
// is in use, then applies them as SaveSettings does: new chats use them,
// open chats keep theirs. Nothing is written when the merged settings do
// not validate; the error names the field.
func (pr *Preferences) SaveSection(section string, s Settings) (SettingsView, error) {
	if _, err := sectionFields(section, Settings{}, s); err != nil {
		return SettingsView{}, err
	}
	before, after, err := pr.settings.save(func(cur Settings) (Settings, error) {
		next, _ := sectionFields(section, cur, s)
		if err := next.Validate(); err != nil {
			return cur, err
		}
		return next, nil
	})
	if err != nil {
		return SettingsView{}, err
	}
	pr.applySaved(before, after)
	return pr.view(), nil
}
