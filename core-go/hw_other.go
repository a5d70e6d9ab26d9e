// SPDX-License-Identifier: GPL-3.0-or-later
//go:build !amd64

package main

// No switch is wired on this architecture: every request is cannot_disable.
var godebugOption = map[string]string{}

// hwUsed: not worked out here (null: the library does not say).
func hwUsed() []string { return nil }
