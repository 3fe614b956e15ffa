//go:build linux

package app

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/godbus/dbus/v5"
)

// wakeFirstInstance asks the running instance to show its window, the way
// Wails' own single-instance lock does on Linux (a D-Bus call on the session
// bus). Best effort: without a session bus it does nothing.
func wakeFirstInstance(uniqueID string) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return
	}
	defer conn.Close()
	id := "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(uniqueID)
	name, path := "org."+id+".SingleInstance", dbus.ObjectPath("/org/"+id+"/SingleInstance")
	wd, _ := os.Getwd()
	msg, _ := json.Marshal(map[string]any{"Args": os.Args[1:], "WorkingDirectory": wd})
	_ = conn.Object(name, path).Call(name+".SendMessage", 0, string(msg)).Store()
}
