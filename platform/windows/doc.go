// Package windows is the Windows platform adapter: MessageBoxW dialogs and toast notifications.
package windows
