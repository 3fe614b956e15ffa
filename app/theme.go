package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/settings"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/windows"
)

// The themes a person can choose (docs/app.md#theme; settings.ThemeSystem, …).
const (
	ThemeSystem = settings.ThemeSystem
	ThemeLight  = settings.ThemeLight
	ThemeDark   = settings.ThemeDark
)

func checkTheme(t string) error { return settings.CheckTheme(t) }

// SetTheme saves theme ("system", "light" or "dark"; "" is "system") in settings.json at
// once and keeps every other saved field as it is on disk, so flags given
// for this run (--coworkers, --model, ...) are not written. An unknown theme
// or a settings file that cannot be read is an error naming it, and
// nothing is written.
func (pr *Preferences) SetTheme(theme string) error {
	if err := checkTheme(theme); err != nil {
		return err
	}
	if err := pr.settings.update(func(s *Settings) { s.Theme = theme }); err != nil {
		return fmt.Errorf("the theme was not saved: %w", err)
	}
	return nil
}

// windowBackground is the window's colour before the page paints: the
// page background of the theme (frontend/src/app.css --bg), so a dark
// theme does not flash white. "system" takes the light one; the page then
// follows the OS.
func windowBackground(theme string) *options.RGBA {
	if theme == ThemeDark {
		return &options.RGBA{R: 0x14, G: 0x17, B: 0x1f, A: 255}
	}
	return &options.RGBA{R: 246, G: 247, B: 249, A: 255}
}

// windowsTheme is the title bar's theme on Windows for theme.
func windowsTheme(theme string) windows.Theme {
	switch theme {
	case ThemeDark:
		return windows.Dark
	case ThemeLight:
		return windows.Light
	}
	return windows.SystemDefault
}
