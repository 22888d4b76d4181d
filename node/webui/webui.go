// Package webui is the page a phone at the table loads: index.html,
// app.js, style.css, the Go runtime's wasm_exec.js and the player itself
// (cmd/bullshit-web, compiled to WebAssembly and committed gzipped as
// assets/app.wasm.gz), all embedded, served by Handler. `go generate
// ./node/webui` rebuilds app.wasm.gz; a test fails when it is stale.
//
// It must never fetch anything from beyond the node that served it: no
// CDN, no remote fonts, no npm. Node does not import it: cmd wires
// Handler into the node's web server.
package webui

//go:generate go run ./internal/gen

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

//go:embed assets
var assets embed.FS

// asset is one file as served.
type asset struct {
	body []byte
	typ  string
	etag string
	gz   bool // body is gzipped
	// zipped is a text file gzipped once at load, for a browser that takes
	// gzip: the page's text is 41 kB plain, 12 kB gzipped, and a phone's
	// download before it can play is held to 1.5 MB.
	zipped []byte
}

var files = map[string]struct{ name, typ string }{
	"/":             {"index.html", "text/html; charset=utf-8"},
	"/index.html":   {"index.html", "text/html; charset=utf-8"},
	"/app.js":       {"app.js", "text/javascript; charset=utf-8"},
	"/style.css":    {"style.css", "text/css; charset=utf-8"},
	"/wasm_exec.js": {"wasm_exec.js", "text/javascript; charset=utf-8"},
	"/app.wasm":     {"app.wasm.gz", "application/wasm"},
}

var (
	loadOnce sync.Once
	loaded   map[string]*asset
	plain    []byte // app.wasm gunzipped, for a browser that doesn't take gzip
	plainTag string
)

func etag(b []byte) string {
	h := sha256.Sum256(b)
	return `"` + hex.EncodeToString(h[:12]) + `"`
}

func load() {
	loaded = map[string]*asset{}
	for path, f := range files {
		b, err := assets.ReadFile("assets/" + f.name)
		if err != nil {
			continue
		}
		b = Strip(f.name, b)
		a := &asset{body: b, typ: f.typ, etag: etag(b), gz: strings.HasSuffix(f.name, ".gz")}
		if !a.gz {
			a.zipped = zipped(f.name, b)
		}
		loaded[path] = a
	}
}

// zipped is text file name (b, as served) gzipped: by zopfli at generate
// time (assets/zipped, 4 % smaller: 600 bytes of a phone's download) when
// that is b's, else by compress/gzip now.
func zipped(name string, b []byte) []byte {
	if z, err := assets.ReadFile("assets/zipped/" + name + ".gz"); err == nil {
		if r, err := gzip.NewReader(bytes.NewReader(z)); err == nil {
			if plain, err := io.ReadAll(r); err == nil && bytes.Equal(plain, b) {
				return z
			}
		}
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(b)
	if zw.Close() != nil {
		return nil
	}
	return z.Bytes()
}

// Texts are the page's text files, by name in assets: what zipped takes
// precompressed.
var Texts = []string{"index.html", "app.js", "style.css", "wasm_exec.js"}

// Strip leaves out of a script or a style sheet the lines that
// are a comment and nothing else (// in JavaScript, /* … */ in CSS): they
// are for whoever reads the source, and were a quarter of what a phone
// downloads of the page's text. A comment after code stays, as does any
// line of a template literal (the page has none that spans lines).
func Strip(name string, b []byte) []byte {
	js, css := strings.HasSuffix(name, ".js"), strings.HasSuffix(name, ".css")
	if !js && !css {
		return b
	}
	var out []byte
	for line := range bytes.Lines(b) {
		t := bytes.TrimSpace(line)
		if (js && bytes.HasPrefix(t, []byte("//"))) ||
			(css && bytes.HasPrefix(t, []byte("/*")) && bytes.HasSuffix(t, []byte("*/")) && bytes.Count(t, []byte("*/")) == 1) {
			continue
		}
		// Its indentation too: a line's leading blanks mean nothing to
		// either language outside a template literal.
		out = append(out, bytes.TrimLeft(line, " \t")...)
	}
	return out
}

// Wasm is the page's WebAssembly, gunzipped.
func Wasm() ([]byte, error) {
	b, err := assets.ReadFile("assets/app.wasm.gz")
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

var plainOnce sync.Once

// Handler serves the page. Every answer carries an ETag of its content
// and Cache-Control: no-cache, so a browser asks again each load and gets
// a 304 until the node is updated.
func Handler() http.Handler {
	loadOnce.Do(load)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		a, ok := loaded[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body, tag := a.body, a.etag
		h := w.Header()
		h.Set("Content-Type", a.typ)
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		switch {
		case a.zipped != nil:
			h.Set("Vary", "Accept-Encoding")
			if acceptsGzip(r) {
				h.Set("Content-Encoding", "gzip")
				body, tag = a.zipped, strings.TrimSuffix(tag, `"`)+`-gz"`
			}
		case a.gz:
			h.Set("Vary", "Accept-Encoding")
			if acceptsGzip(r) {
				h.Set("Content-Encoding", "gzip")
				tag = strings.TrimSuffix(tag, `"`) + `-gz"`
			} else {
				plainOnce.Do(func() {
					plain, _ = Wasm()
					plainTag = etag(plain)
				})
				body, tag = plain, plainTag
			}
		}
		h.Set("ETag", tag)
		h["Date"] = nil // the server's clock is no use to a page that revalidates by ETag: 37 bytes an answer
		if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, tag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		http.ServeContent(w, r, "", zeroTime, bytes.NewReader(body))
	})
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

var zeroTime = time.Time{}
