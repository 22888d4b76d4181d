package shamir

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
)

// gfMulSlow is multiplication in GF(2^8) the schoolbook way: a carry-less
// product reduced by the AES polynomial. The masked gfMul must agree with
// it on every pair.
func gfMulSlow(a, b byte) byte {
	var p uint16
	for i := 0; i < 8; i++ {
		if b&(1<<i) != 0 {
			p ^= uint16(a) << i
		}
	}
	for i := 15; i >= 8; i-- {
		if p&(1<<i) != 0 {
			p ^= 0x11b << (i - 8)
		}
	}
	return byte(p)
}

func TestShamirField(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			if got, want := gfMul(byte(a), byte(b)), gfMulSlow(byte(a), byte(b)); got != want {
				t.Fatalf("%d·%d = %d, want %d", a, b, got, want)
			}
		}
		if a > 0 && gfMul(byte(a), gfInv(byte(a))) != 1 {
			t.Fatalf("%d has no inverse", a)
		}
	}
	if gfMul(0x57, 0x83) != 0xc1 { // FIPS-197 §4.2
		t.Fatal("0x57·0x83 is not 0xc1")
	}
}

// Every pair of five shares rebuilds the secret, so does every larger set,
// and a share-pair from another split doesn't.
func TestShamirEveryPair(t *testing.T) {
	secret := []byte("seed+salt: forty bytes of a game secret!")
	shares, err := Split(secret, 5, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range shares {
		if bytes.Equal(shares[i].Y, secret) {
			t.Fatalf("share %d is the secret", i)
		}
		for j := range shares {
			if i == j {
				continue
			}
			got, err := Combine([]Share{shares[i], shares[j]})
			if err != nil || !bytes.Equal(got, secret) {
				t.Fatalf("shares %d and %d gave %q, %v", shares[i].X, shares[j].X, got, err)
			}
		}
	}
	if got, err := Combine(shares); err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("all five gave %q, %v", got, err)
	}
	// Threshold three: any three rebuild.
	three, _ := Split(secret, 5, 3, nil)
	got, err := Combine([]Share{three[4], three[0], three[2]})
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("three of five gave %q, %v", got, err)
	}
	// A share of another split of the same secret doesn't fit.
	other, _ := Split(secret, 5, 2, nil)
	if _, err := Combine([]Share{shares[0], shares[1], other[2]}); !errors.Is(err, ErrShareMismatch) {
		t.Fatalf("a stranger's share: %v", err)
	}
}

// For k = 2 one share says nothing: for a fixed share (x, y) and any
// candidate secret s there is exactly one line f(t) = s + a·t with f(x) = y,
// and Split drawing that a makes that very share. So every secret is
// equally consistent with what a single peer holds.
func TestShamirOneShare(t *testing.T) {
	for x := 1; x <= 5; x++ {
		for _, y := range []byte{0, 1, 0x5a, 0xff} {
			for s := 0; s < 256; s++ {
				lines := 0
				var slope byte
				for a := 0; a < 256; a++ {
					if byte(s)^gfMul(byte(a), byte(x)) == y {
						lines++
						slope = byte(a)
					}
				}
				if lines != 1 {
					t.Fatalf("x=%d y=%d secret=%d: %d lines", x, y, s, lines)
				}
				shares, err := Split([]byte{byte(s)}, 5, 2, bytes.NewReader([]byte{slope}))
				if err != nil {
					t.Fatal(err)
				}
				if got := shares[x-1].Y[0]; got != y {
					t.Fatalf("Split drew slope %d for secret %d but share %d is %d, not %d", slope, s, x, got, y)
				}
			}
		}
	}
}

// Bad input is a clear error, never a wrong secret.
func TestShamirBadInput(t *testing.T) {
	shares, _ := Split([]byte("secret"), 3, 2, nil)
	short := shares[1]
	short.Y = short.Y[:3]
	zero := shares[1]
	zero.X = 0
	k3 := shares[1]
	k3.K = 3
	for _, c := range []struct {
		name   string
		shares []Share
		want   error
	}{
		{"none", nil, ErrTooFewShares},
		{"fewer than k", shares[:1], ErrTooFewShares},
		{"duplicate x", []Share{shares[0], shares[0]}, ErrDuplicateShare},
		{"x = 0", []Share{shares[0], zero}, ErrShareX},
		{"lengths", []Share{shares[0], short}, ErrShareLength},
		{"thresholds", []Share{shares[0], k3}, ErrShareThreshold},
		{"k of 1", []Share{{X: 1, K: 1, Y: []byte{1}}}, ErrShareCount},
		{"empty", []Share{{X: 1, K: 2}, {X: 2, K: 2}}, ErrShareLength},
	} {
		if got, err := Combine(c.shares); !errors.Is(err, c.want) || got != nil {
			t.Errorf("%s: got %q, %v; want %v", c.name, got, err, c.want)
		}
	}
	for _, c := range []struct {
		n, k int
		want error
	}{{1, 2, ErrShareCount}, {3, 1, ErrShareCount}, {2, 3, ErrShareCount}, {256, 2, ErrShareCount}} {
		if _, err := Split([]byte("s"), c.n, c.k, nil); !errors.Is(err, c.want) {
			t.Errorf("Split(n=%d, k=%d): %v", c.n, c.k, err)
		}
	}
	if _, err := Split(nil, 3, 2, nil); !errors.Is(err, ErrEmptySecret) {
		t.Errorf("empty secret: %v", err)
	}
	if _, err := Split([]byte("secret"), 3, 2, bytes.NewReader([]byte{1, 2})); err == nil {
		t.Error("a reader that ran dry went unnoticed")
	}
}

// The seed and salt travel as threshold-2 shares; two peers rebuild them,
// checked against the commitment, and a doctored share is refused.
func TestShamirSeed(t *testing.T) {
	var salt [gamewire.SaltSize]byte
	rand.Read(salt[:])
	const seed = 0xdeadbeefcafef00d
	c := gamewire.Commit(seed, salt)
	shares, err := SplitSeed(seed, salt, 4, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shares {
		b, _ := s.MarshalBinary()
		var back Share
		if err := back.UnmarshalBinary(b); err != nil || back.X != s.X || back.K != 2 || !bytes.Equal(back.Y, s.Y) {
			t.Fatalf("share %d did not survive the wire: %v", s.X, err)
		}
	}
	got, gotSalt, err := RecoverSeed(c, shares[3], shares[1])
	if err != nil || got != seed || gotSalt != salt {
		t.Fatalf("RecoverSeed: %x %x %v", got, gotSalt, err)
	}
	bad := shares[1]
	bad.Y = append([]byte(nil), bad.Y...)
	bad.Y[0] ^= 1
	if _, _, err := RecoverSeed(c, shares[0], bad); !errors.Is(err, gamewire.ErrCommitMismatch) {
		t.Fatalf("a doctored share: %v", err)
	}
	if _, _, err := RecoverSeed(c, shares[0]); !errors.Is(err, ErrTooFewShares) {
		t.Fatalf("one share: %v", err)
	}
	var s Share
	for _, b := range [][]byte{nil, {1, 2}, {0, 2, 3}} {
		if s.UnmarshalBinary(b) == nil {
			t.Errorf("UnmarshalBinary(%v) took it", b)
		}
	}
}

func FuzzShamirCombine(f *testing.F) {
	shares, _ := Split([]byte("fuzz"), 3, 2, rand.Reader)
	a, _ := shares[0].MarshalBinary()
	b, _ := shares[2].MarshalBinary()
	f.Add(a, b)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var s, u Share
		if s.UnmarshalBinary(a) != nil || u.UnmarshalBinary(b) != nil {
			return
		}
		secret, err := Combine([]Share{s, u})
		if err != nil {
			return
		}
		// Whatever two shares give, a split of it recombines to the same.
		again, err := Split(secret, 2, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := Combine(again); err != nil || !bytes.Equal(back, secret) {
			t.Fatalf("%q came back as %q, %v", secret, back, err)
		}
	})
}
