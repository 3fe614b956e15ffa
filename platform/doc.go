// Package platform is the per-OS adapter for native notifications and dialogs (SPEC §12).
package platform
