package cli

import "github.com/openworker/desktop/harness/settings"

// WithAppSettings says that this binary is the desktop app's, whose files
// are in configDir ("" for the default, harness.ConfigDir; the product's
// main.go passes OPENWORKER_CONFIG_DIR). `doctor` then checks the app's
// journal and the providers of its servers file by default, and reports
// its keychain and model settings (doctor.AppHooks); `servers import
// --write` writes the app's servers file and makes the app use it
// (settings.ImportTarget, settings.UseServersFile;
// docs/servers.md#import). Without it, doctor uses harness.DefaultDBPath
// and no servers file, and `servers import --write` needs --to.
func WithAppSettings(configDir string) Option {
	return func(c *config) { c.app, c.appDir = true, configDir }
}

// serversHome is where `openworker servers import` writes for the app
// (docs/servers.md#import): current is the servers file the app uses now
// ("" for none), dest the product servers.json to write (current itself
// when it is in the product's form), and use, called after a write, makes
// the app use dest.
type serversHome struct {
	current, dest string
	use           func(dest string) error
}

// appServersHome is the app's serversHome, read from its settings.
func (c *config) appServersHome() (serversHome, error) {
	current, dest, err := settings.ImportTarget(c.appDir)
	if err != nil {
		return serversHome{}, err
	}
	return serversHome{current: current, dest: dest, use: func(d string) error { return settings.UseServersFile(c.appDir, d) }}, nil
}
