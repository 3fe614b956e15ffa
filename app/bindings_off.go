//go:build !bindings

package app

const bindingsBuild = false
