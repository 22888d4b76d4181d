//go:build !unix

package mental

import "testing"

// cpuClock has no process CPU clock to read here (js/wasm): ns/op is the
// figure.
func cpuClock(b *testing.B) func() { return func() {} }
