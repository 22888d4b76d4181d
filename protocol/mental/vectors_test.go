package mental

import (
	"bytes"
	"encoding"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/vectors.txt")

// Test vectors: fixed secrets and fixed randomness (a seeded ChaCha8, whose
// stream Go fixes), the bytes of every value the package sends, pinned in
// testdata/vectors.txt (regenerate with -update, and only with a new
// version: another peer must make and accept these very bytes). Each value
// is also decoded back and checked, so the file is not only what the code
// happens to print.
func TestVectors(t *testing.T) {
	r := rng(2003)
	var out bytes.Buffer
	put := func(name string, v encoding.BinaryMarshaler) {
		b, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s %s\n", name, hex.EncodeToString(b))
	}
	cb, _ := NewCodebook(2, 2)
	var xs []Secret
	var keys []PublicKey
	var proofs []KeyProof
	for i := range 3 {
		x, _ := NewSecret(r)
		p, _ := ProveKey(r, &x, keyCtx(i))
		xs, keys, proofs = append(xs, x), append(keys, x.Public()), append(proofs, p)
		put(fmt.Sprintf("secret.%d", i), &x)
		put(fmt.Sprintf("key.%d", i), &keys[i])
		put(fmt.Sprintf("keyproof.%d", i), &p)
	}
	joint, err := JointKey(keys, proofs, [][]byte{keyCtx(0), keyCtx(1), keyCtx(2)})
	if err != nil {
		t.Fatal(err)
	}
	put("joint", &joint)

	initial := cb.Deck()[:6]
	put("deck.initial", initial)
	step, opening, err := Shuffle(r, &joint, initial, gameCtx)
	if err != nil {
		t.Fatal(err)
	}
	put("shuffle.step", &step)
	put("shuffle.opening", &opening)
	if err := opening.Check(&joint, initial, &step, gameCtx); err != nil {
		t.Fatal(err)
	}

	ct := step.Out[2]
	var shares []Share
	for i := range 3 {
		sh, _ := DecryptShare(r, &xs[i], &ct, gameCtx)
		shares = append(shares, sh)
		put(fmt.Sprintf("share.%d", i), &sh)
	}
	face, err := cb.Reveal(&ct, shares)
	if err != nil {
		t.Fatal(err)
	}
	o := Opening{Face: face, Shares: shares}
	put("opening", &o)
	if err := o.Verify(cb, keys, 0, &ct, gameCtx); err != nil {
		t.Fatal(err)
	}
	sealed, _ := SealOpening(r, &keys[1], gameCtx, &o)
	put("sealed", &sealed)
	if back, err := sealed.OpenOpening(&xs[1], gameCtx); err != nil || back.Face != face {
		t.Fatalf("sealed vector opens to %v, %v", back.Face, err)
	}
	rs, _ := Split(r, &xs[0], 0, 3, 2)
	put("recovery.commit", &rs.Commit)
	put("recovery.sub.1", &rs.Subs[1])
	put("recovery.sub.2", &rs.Subs[2])
	// Party 0's card opened by holders 1 and 2 (threshold 2) without it.
	var rss []RecoveryShare
	for j := 1; j <= 2; j++ {
		e, _ := RecoverShare(r, 0, &rs.Subs[j], &ct, gameCtx)
		rss = append(rss, e)
		put(fmt.Sprintf("recoveryshare.%d", j), &e)
	}
	rec, err := CombineRecovery(0, &rs.Commit, &ct, rss, gameCtx)
	if err != nil {
		t.Fatal(err)
	}
	put("share.0.recovered", &rec)
	if f, err := cb.Reveal(&ct, []Share{rec, shares[1], shares[2]}); err != nil || f != face {
		t.Fatalf("recovered vector opens to %v, %v", f, err)
	}
	fmt.Fprintf(&out, "opened %s\n", face)

	path := filepath.Join("testdata", "vectors.txt")
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("vectors differ from %s (run with -update only for a new version):\n%s", path, out.String())
	}
	// Every line decodes and re-encodes to itself.
	for _, line := range bytes.Split(bytes.TrimSpace(want), []byte("\n")) {
		name, hx, _ := bytes.Cut(line, []byte(" "))
		v := decoderFor(string(name))
		if v == nil {
			continue
		}
		b, _ := hex.DecodeString(string(hx))
		if err := v.UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, _ := v.(encoding.BinaryMarshaler).MarshalBinary()
		if !bytes.Equal(again, b) {
			t.Fatalf("%s does not re-encode to itself", name)
		}
	}
}

func decoderFor(name string) encoding.BinaryUnmarshaler {
	kind, _, _ := bytes.Cut([]byte(name), []byte("."))
	switch string(kind) {
	case "secret":
		return new(Secret)
	case "key", "joint":
		return new(PublicKey)
	case "keyproof":
		return new(KeyProof)
	case "deck":
		return new(Deck)
	case "shuffle":
		if name == "shuffle.step" {
			return new(ShuffleStep)
		}
		return new(ShuffleOpening)
	case "share":
		return new(Share)
	case "recoveryshare":
		return new(RecoveryShare)
	case "opening":
		return new(Opening)
	case "sealed":
		return new(Sealed)
	case "recovery":
		if name == "recovery.commit" {
			return new(RecoveryCommit)
		}
		return new(SubShare)
	}
	return nil
}
