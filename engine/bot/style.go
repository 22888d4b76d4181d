package bot

// A Style is how a bot likes to play; its level is how well it does it.
type Style struct {
	Name string
	// Sneak is how often it slips extra cards under a play (V14) when it
	// may; Most is how many at most (0: all the table allows).
	Sneak float64
	Most  int
	// Reckless is how often it sneaks without checking whether the hand's
	// and the pile's counts would show it.
	Reckless float64
	// Pad is how often it adds a wrong card to a true claim.
	Pad float64
	// Two is how often a bluff is two cards rather than one.
	Two float64
	// Eager shifts how readily it calls: above 0 it calls on thinner
	// evidence, below 0 it wants more.
	Eager float64
}

// The site's styles (cautious, bold, caller) and the simulation's sneakers
// (honest, careful, sometimes, always), after seed 002.
var styles = map[string]Style{
	"cautious":  {Name: "cautious", Sneak: 0.25, Most: 1, Pad: 0, Two: 0.1, Eager: -0.03},
	"bold":      {Name: "bold", Sneak: 0.6, Most: 2, Reckless: 0.25, Pad: 0.12, Two: 0.3, Eager: 0},
	"caller":    {Name: "caller", Sneak: 0, Pad: 0, Two: 0.05, Eager: 0.1},
	"honest":    {Name: "honest", Sneak: 0, Pad: 0, Two: 0.1},
	"careful":   {Name: "careful", Sneak: 1, Most: 0, Pad: 0, Two: 0.1},
	"sometimes": {Name: "sometimes", Sneak: 0.3, Most: 1, Reckless: 1, Two: 0.1},
	"always":    {Name: "always", Sneak: 1, Most: 0, Reckless: 1, Two: 0.1},
}
