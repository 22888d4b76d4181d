package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A browser player in the end-to-end tests: Debian's Chromium, headless,
// inside one of the test's namespaces, with a profile of its own (its own
// key, as a second phone has), driven from the test through the DevTools
// protocol over chromedp's pipe (file descriptors 3 and 4 pass through
// `ip netns exec`, so no port has to cross namespaces).
type browser struct {
	t    *testing.T
	name string
	ctx  context.Context // a chromedp context: one tab
	dir  string          // where its screenshots go
}

// chromium finds the browser or skips: CI installs Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("BS_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("needs Chromium for the browser test (CI installs it): apt-get install chromium")
	return ""
}

// startBrowser starts Chromium inside host i with a window of w×h and
// returns it ready to drive.
func (l *lan) startBrowser(i int, name string, w, h int) *browser {
	t := l.t
	t.Helper()
	exe := chromium(t)
	wrapper := filepath.Join(t.TempDir(), "chromium-in-"+l.ns(i))
	script := fmt.Sprintf("#!/bin/sh\nexec ip netns exec %s %s \"$@\"\n", l.ns(i), exe)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(wrapper),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(w, h),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("%s: start Chromium in %s: %v", name, l.ns(i), err)
	}
	dir := filepath.Join(os.TempDir(), "bullshit-browser-"+sanitize(t.Name()))
	os.MkdirAll(dir, 0o755)
	return &browser{t: t, name: name, ctx: ctx, dir: dir}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' {
			return '-'
		}
		return r
	}, s)
}

// shot saves a screenshot of the whole page as NAME.png in the test's
// screenshot folder and returns its path.
func (b *browser) shot(name string) string {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(90))
	if err != nil {
		b.t.Errorf("%s: screenshot %s: %v", b.name, name, err)
		return ""
	}
	p := filepath.Join(b.dir, b.name+"-"+name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Error(err)
	}
	b.t.Logf("SCREENSHOT %s", p)
	return p
}

// TestE2EBrowserReachesALANPage checks the harness itself: a browser in one
// namespace opens a page served from another, by its LAN address.
func TestE2EBrowserReachesALANPage(t *testing.T) {
	l := newLAN(t, 2, false)
	chromium(t)
	page := t.TempDir()
	os.WriteFile(filepath.Join(page, "index.html"), []byte(`<!doctype html><title>lan</title><h1 id="x">from host 1</h1>`), 0o644)
	srv := exec.Command("ip", "netns", "exec", l.ns(1), "python3", "-m", "http.server", "8000", "--bind", "10.77.1.1", "--directory", page)
	if err := srv.Start(); err != nil {
		t.Skip("python3 http.server:", err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })

	b := l.startBrowser(2, "phone", 360, 740)
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("http://10.77.1.1:8000/")); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#x")))
	if err != nil {
		t.Fatal(err)
	}
	if got != "from host 1" {
		t.Fatalf("page says %q", got)
	}
	b.shot("lan")
}
