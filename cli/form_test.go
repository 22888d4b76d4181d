package cli

import (
	"fmt"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The form offers every rules key, each with the engine's choices, and
// every choice it offers is one the engine takes and writes back as is.
func TestFormRulesRowsAreTheEngines(t *testing.T) {
	rows := map[string]formRow{}
	for _, r := range ruleRows {
		rows[r.key] = r
	}
	for _, k := range engine.RuleKeys {
		row, ok := rows[k]
		if !ok {
			t.Errorf("rules key %q has no row in the form", k)
			continue
		}
		if len(row.choices) == 0 {
			t.Errorf("%s: no choices", k)
		}
		if row.show != nil && len(row.show) != len(row.choices) {
			t.Errorf("%s: %d choices shown as %d words", k, len(row.choices), len(row.show))
		}
		for _, c := range row.choices {
			r := engine.Standard()
			if err := r.Set(k, c); err != nil {
				t.Errorf("%s=%s: refused: %v", k, c, err)
			} else if got := fmt.Sprint(r.Get(k)); got != c {
				t.Errorf("%s=%s reads back as %s", k, c, got)
			}
		}
	}
	if len(rows) != len(engine.RuleKeys) {
		t.Errorf("the form has %d rules rows for %d keys", len(rows), len(engine.RuleKeys))
	}
}
