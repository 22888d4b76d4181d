package webui

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/node/webui/internal/wasmbuild"
)

// The committed app.wasm.gz is what the player's source builds to now: a
// change to cmd/bullshit-web or anything it imports without `go generate
// ./node/webui` fails here.
func TestAppWasmFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the page's wasm")
	}
	want, err := wasmbuild.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Wasm()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("assets/app.wasm.gz is stale (%d bytes committed, %d built): run go generate ./node/webui", len(got), len(want))
	}
	js, err := wasmbuild.ExecJS()
	if err != nil {
		t.Fatal(err)
	}
	if have, _ := assets.ReadFile("assets/wasm_exec.js"); !bytes.Equal(have, js) {
		t.Fatal("assets/wasm_exec.js is not this toolchain's: run go generate ./node/webui")
	}
}

// Each text file is served gzipped by zopfli as generated (assets/zipped):
// a change to the page's text without `go generate ./node/webui` fails
// here (it would be served by compress/gzip, 600 bytes more).
func TestTextZippedFresh(t *testing.T) {
	for _, name := range Texts {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		b = Strip(name, b)
		z, err := assets.ReadFile("assets/zipped/" + name + ".gz")
		if err != nil {
			t.Fatalf("%s: no zopfli gzip of it (%v): run go generate ./node/webui", name, err)
		}
		if got := zipped(name, b); !bytes.Equal(got, z) {
			t.Fatalf("assets/zipped/%s.gz is stale: run go generate ./node/webui", name)
		}
	}
}

// A phone downloads at most 1.5 MB before it can play (issue 14): the
// page and every file it loads, as served to a browser that takes gzip,
// with a kilobyte for the five answers' headers. Byte counts, not time:
// the figures test (cmd/bullshit TestE2EBrowserFigures) reads the same
// from a real browser's wire.
func TestDownloadWithinBudget(t *testing.T) {
	const budget, headers = 1_500_000, 1_000
	total := 0
	var files []string
	for _, path := range []string{"/", "/style.css", "/wasm_exec.js", "/app.js", "/app.wasm"} {
		res := get(t, path, map[string]string{"Accept-Encoding": "gzip, deflate"})
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d, encoding %q: want 200, gzip", path, res.StatusCode, res.Header.Get("Content-Encoding"))
		}
		total += len(b)
		files = append(files, fmt.Sprintf("%s %d", path, len(b)))
	}
	t.Logf("a phone downloads %d bytes before it can play (%s, and %d for headers)", total+headers, strings.Join(files, ", "), headers)
	if total+headers > budget {
		t.Errorf("a phone downloads %d bytes before it can play (%s), over the %d budget: what made app.wasm grow? (the generator compresses it with zopfli)",
			total+headers, strings.Join(files, ", "), budget)
	}
}

func get(t *testing.T, path string, hdr map[string]string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	Handler().ServeHTTP(w, r)
	return w.Result()
}

func TestHandler(t *testing.T) {
	for _, c := range []struct{ path, typ string }{
		{"/", "text/html"}, {"/app.js", "text/javascript"}, {"/style.css", "text/css"},
		{"/wasm_exec.js", "text/javascript"}, {"/app.wasm", "application/wasm"},
	} {
		res := get(t, c.path, nil)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), c.typ) || res.Header.Get("ETag") == "" {
			t.Errorf("%s: %d %q etag %q", c.path, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("ETag"))
		}
		// The same content again is a 304.
		again := get(t, c.path, map[string]string{"If-None-Match": res.Header.Get("ETag")})
		if again.StatusCode != http.StatusNotModified {
			t.Errorf("%s with its ETag: %d, want 304", c.path, again.StatusCode)
		}
	}
	if res := get(t, "/nothing", nil); res.StatusCode != 404 {
		t.Errorf("/nothing: %d", res.StatusCode)
	}
	// gzip to a browser that takes it, the plain wasm to one that doesn't.
	gz := get(t, "/app.wasm", map[string]string{"Accept-Encoding": "gzip, br"})
	plain := get(t, "/app.wasm", nil)
	if gz.Header.Get("Content-Encoding") != "gzip" || plain.Header.Get("Content-Encoding") != "" {
		t.Fatalf("encodings: %q and %q", gz.Header.Get("Content-Encoding"), plain.Header.Get("Content-Encoding"))
	}
	if gz.Header.Get("ETag") == plain.Header.Get("ETag") {
		t.Error("the gzipped and the plain wasm share an ETag")
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := io.ReadAll(zr)
	b, _ := io.ReadAll(plain.Body)
	if !bytes.Equal(a, b) || !bytes.HasPrefix(b, []byte("\x00asm")) {
		t.Fatalf("the gzipped wasm (%d bytes) and the plain one (%d) differ, or aren't wasm", len(a), len(b))
	}
	// The text files too: gzipped when taken, under their own ETag, the
	// same bytes once unzipped.
	for _, path := range []string{"/", "/app.js", "/style.css", "/wasm_exec.js"} {
		gz, plain := get(t, path, map[string]string{"Accept-Encoding": "gzip"}), get(t, path, nil)
		if gz.Header.Get("Content-Encoding") != "gzip" || plain.Header.Get("Content-Encoding") != "" ||
			gz.Header.Get("ETag") == plain.Header.Get("ETag") || gz.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: encodings %q / %q, ETags %s / %s", path, gz.Header.Get("Content-Encoding"), plain.Header.Get("Content-Encoding"),
				gz.Header.Get("ETag"), plain.Header.Get("ETag"))
			continue
		}
		zr, err := gzip.NewReader(gz.Body)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := io.ReadAll(zr)
		b, _ := io.ReadAll(plain.Body)
		if !bytes.Equal(a, b) || len(b) == 0 {
			t.Errorf("%s: gzipped (%d bytes unzipped) and plain (%d) differ", path, len(a), len(b))
		}
		if again := get(t, path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": gz.Header.Get("ETag")}); again.StatusCode != http.StatusNotModified {
			t.Errorf("%s gzipped with its ETag: %d, want 304", path, again.StatusCode)
		}
	}
}
