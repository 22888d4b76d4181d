package protocol

import (
	"errors"
	"fmt"
	"testing"
)

func TestSentence(t *testing.T) {
	full := Refuse(CodeTableFull, "table full", "This table is full.")
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{full, "This table is full."},
		{fmt.Errorf("joining kitchen: %w", full), "This table is full."},
		{errors.New("the journal could not be written"), "The journal could not be written."},
		{errors.New("is it on?"), "Is it on?"},
		{errors.New("élan lost"), "Élan lost."},
	} {
		if got := Sentence(c.err); got != c.want {
			t.Errorf("Sentence(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	if full.Error() != "table full" {
		t.Errorf("Error() = %q", full.Error())
	}
	if !errors.Is(fmt.Errorf("x: %w", full), full) {
		t.Error("a wrapped Refused is not errors.Is itself")
	}
}
