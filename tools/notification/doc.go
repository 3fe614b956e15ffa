// Package notification provides the reference notification tools: notification.show and notification.confirm (SPEC §11).
package notification
