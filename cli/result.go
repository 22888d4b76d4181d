package cli

import (
	"fmt"
	"sort"
	"strings"
	"time"

	bkey "charm.land/bubbles/v2/key"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// waitingView is the waiting room: the seats, who is a bot, and the host's
// start key.
func (t *tableModel) waitingView() string {
	e := t.env
	st, w := e.st, e.w
	ts := t.u.Table
	taken := 0
	for _, s := range ts.Seats {
		if s.Name != "" || s.Bot != "" {
			taken++
		}
	}
	top := []string{
		st.titleBar(t.title(""), "waiting for players", w), st.ruleLine(w),
		fmt.Sprintf("  Seats  %d of %d taken", taken, len(ts.Seats)), "",
	}
	for i, s := range ts.Seats {
		name, what := s.Name, ""
		switch {
		case s.Bot != "":
			what = st.r(st.faint, "bot · "+s.Bot)
		case name == "":
			name, what = "·", st.r(st.faint, "free seat")
		case !s.Connected:
			what = st.r(st.warn, "away")
		}
		if i == ts.You {
			name += " (you)"
		}
		if s.Name != "" && s.Name == ts.Host && s.Bot == "" {
			what = strings.TrimSpace(what + " host")
		}
		top = append(top, fmt.Sprintf("   %2d  %s %s", i+1, fit(name, 18), what))
	}
	top = append(top, "")
	addr := ts.Addr
	if addr == "" && t.isHost() && len(e.cfg.Addrs) > 0 {
		addr = e.cfg.Addrs[0]
	}
	if ts.Words != "" {
		top = append(top, wrap("  ", "Lobbies show this table with its host's words: "+ts.Words+
			". A table of the same name with other words is not this one.", w)...)
	}
	if addr != "" {
		top = append(top, "  Others find this table in their lobby, or press A there and type:")
		for _, part := range chop(addr, w-6) {
			top = append(top, "    "+st.r(st.bold, part))
		}
	} else {
		top = append(top, "  Others on this network find this table in their lobby.")
	}
	if ts.Web != "" {
		top = append(top, wrap("  Phones: ", "open "+ts.Web+" in a browser on this network (W shows a QR code).", w)...)
	}
	if ts.Code != "" {
		// The host's own screen: others can't sit down without it.
		top = append(top, "  Join code: "+st.r(st.bold, ts.Code)+"  (tell the players; it is never advertised)")
	}
	if len(ts.Watchers) > 0 {
		names := make([]string, len(ts.Watchers))
		for i, n := range ts.Watchers {
			if names[i] = n; n == "" {
				names[i] = "someone"
			}
		}
		top = append(top, wrap("  Watching: ", strings.Join(names, ", "), w)...)
	}
	top = append(top, wrap("  Rules: ", t.tableSummary(), w)...)
	km := tableKeys
	keys := []bkey.Binding{as(km.Start, "start the game (empty seats get bots)")}
	if !t.isHost() {
		host := ts.Host
		if host == "" {
			host = "the host"
		}
		keys = []bkey.Binding{note(fmt.Sprintf("Waiting for %s to start the game.", host))}
	}
	if ts.Web != "" {
		keys = append(keys, as(km.Web, "QR for phones"))
	}
	keys = append(keys, appKeys.Rules, km.Leave)
	bottom := []string{st.ruleLine(w), t.statusLine(w), st.keyBar(w, keys...)}
	if ev := t.eveningBlock(w, e.h-len(top)-len(bottom)-1); len(ev) > 0 {
		top = append(top, "")
		top = append(top, ev...)
	}
	return screen(top, bottom, w, e.h)
}

// eveningBlock is the table's running score in at most room lines: a
// line a player (most points first) under a heading that says how points
// are scored, or, short of room, the points in a wrapped line or two.
// Nothing before the evening's first game ends.
func (t *tableModel) eveningBlock(w, room int) []string {
	st := t.env.st
	ev := t.u.Table.Evening
	if ev.Games == 0 || room < 2 {
		return nil
	}
	lines := eveningOrder(ev)
	mine := ""
	if me := t.me(); me >= 0 && me < len(t.u.Table.Seats) {
		mine = table.SeatKey(me, t.u.Table.Seats[me])
	}
	name := func(l table.EveningLine) string {
		if l.Key == mine {
			return "You"
		}
		if l.Bot != "" {
			return l.Name + " " + st.r(st.faint, "bot")
		}
		return l.Name
	}
	head := fmt.Sprintf("The evening · %s · ", plural(ev.Games, "game")) + shortPointsRule(len(t.u.Table.Seats))
	out := wrap("  ", head, w)
	out[0] = st.r(st.bold, out[0])
	if len(out)+len(lines) <= room {
		nameW := max(10, min(18, w-50))
		for _, l := range lines {
			line := fmt.Sprintf("    %s %s %s %s", fit(name(l), nameW), fit(points(l.Halves, "pt"), 9), fit(plural(l.Wins, "win"), 7), eveningPlaces(l, ev.Games))
			if l.Key == mine {
				line = st.r(st.turn, line)
			}
			out = append(out, line)
		}
		return out
	}
	var parts []string
	for _, l := range lines {
		n := l.Name
		if l.Key == mine {
			n = "You"
		}
		parts = append(parts, n+" "+l.Points())
	}
	out = append(out, wrap("    ", joinDots(parts), w)...)
	if len(out) > room {
		out = out[:room]
	}
	return out
}

func joinDots(ps []string) string {
	s := ""
	for i, p := range ps {
		if i > 0 {
			s += " · "
		}
		s += p
	}
	return s
}

// resultView is the result sheet: place, player, cards left, sneaks
// (revealed now), caught, calls, and the fairness audit.
func (t *tableModel) resultView() string {
	e := t.env
	st, w := e.st, e.w
	v := t.v()
	top := []string{st.titleBar(t.title("game over"), "", w), st.ruleLine(w)}
	if v == nil {
		top = append(top, "", "  The game ended before the deal.")
		return screen(top, t.resultKeys(w), w, e.h)
	}
	top = append(top, t.resultHead(v)...)
	top = append(top, "")
	rated := t.showRatings()
	top = append(top, t.resultTable(v, rated)...)
	if rated {
		if why := t.unrated(t.name); why != "" {
			top = append(top, wrap("  ", why, w)...)
		}
	}
	var news []string
	if t.closed {
		news = append(news, "  The table has closed.")
	} else if t.status != "" {
		news = append(news, "  "+t.status)
	}
	if l := t.sharedLine(); l != "" {
		news = append(news, wrap("  ", l, w)...)
	}
	bottom := t.resultKeys(w)
	// The evening goes between the seats and the news, in the room left.
	room := e.h - len(top) - len(bottom) - 1
	if len(news) > 0 {
		room -= len(news) + 1
	}
	if ev := t.eveningBlock(w, room); len(ev) > 0 {
		top = append(top, "")
		top = append(top, ev...)
	}
	if len(news) > 0 {
		top = append(top, "")
		top = append(top, news...)
	}
	return screen(top, bottom, w, e.h)
}

// resultHead is the top of the result sheet: how the game went, who won,
// the call that ended it, and what the audit found wrong.
func (t *tableModel) resultHead(v *engine.View) []string {
	st, w := t.env.st, t.env.w
	var lines []string
	early := v.Phase != engine.PhaseOver
	head := fmt.Sprintf("Game over · %d plays", v.No)
	if early {
		head = fmt.Sprintf("Game ended early after %d plays", v.No)
	}
	if d := t.end - t.start; d > 0 {
		head += " · " + minutes(d)
	}
	switch {
	case t.audit == nil:
		head += " · checking the deal…"
	case t.audit.Verified:
		head += " · " + st.r(st.good, "deal verified ✔")
	default:
		head += " · " + st.r(st.shout, "deal NOT verified ✘")
	}
	lines = append(lines, "  "+head)
	switch {
	case early:
		lines = append(lines, "  The host ended the game before anyone won.")
	case v.Winner != nil && *v.Winner == t.me():
		lines = append(lines, "  "+st.r(st.good, "You win!"))
	case v.Winner != nil:
		lines = append(lines, "  "+st.r(st.bold, t.name(*v.Winner)+" wins."))
	default:
		lines = append(lines, "  Nobody won outright: first place is shared.")
	}
	if len(t.lastCall) > 0 {
		// The call that ended the game, as the table showed it.
		// One line each (the shout, the cards, the verdict, the pile),
		// as the reveal panel showed them, under its heading.
		for i, l := range t.lastCall {
			head := "             "
			if i == 0 {
				head = "  Last call: "
			}
			lines = append(lines, wrap(head, l, w)...)
		}
	}
	if t.audit != nil && !t.audit.Verified {
		for _, p := range t.audit.Problems {
			lines = append(lines, wrap("  ✘ ", p, w)...)
		}
	}
	if t.audit != nil {
		// What the audit saw that is no fault of the host's: at a blind
		// table, a node named for what it didn't do or did falsely.
		for _, n := range t.audit.Notes {
			lines = append(lines, wrap("  · ", n, w)...)
		}
	}
	return lines
}

// resultTable is the result sheet's table: a header, then a row per seat
// in order of place.
func (t *tableModel) resultTable(v *engine.View, rated bool) []string {
	st, w := t.env.st, t.env.w
	var lines []string
	nameW := max(10, min(20, w-62))
	head := fmt.Sprintf("  %-6s %s %-11s %-8s %-7s %s", "Place", fit("Player", nameW), "Cards left", "Sneaked", "Caught", "Calls right/made")
	leftW, leftHead := 11, "Cards left"
	if rated {
		// The rating takes the room of "Cards left" on a narrow screen.
		if w < 90 {
			leftW, leftHead = 5, "Left"
		}
		nameW = max(8, min(20, w-57-leftW))
		head = fmt.Sprintf("  %-6s %s %s %-8s %-7s %-18s%s", "Place", fit("Player", nameW), fit(leftHead, leftW), "Sneaked", "Caught", "Calls right/made", "Rating")
	}
	lines = append(lines, st.r(st.bold, head))
	order := make([]int, seats(v))
	for i := range order {
		order[i] = i
	}
	place := func(s int) int {
		if s < len(v.Places) {
			return v.Places[s]
		}
		return 0
	}
	placeText := func(s int) string {
		if p := place(s); p > 0 {
			return Ordinal(p)
		}
		return "–"
	}
	sort.SliceStable(order, func(i, j int) bool { return place(order[i]) < place(order[j]) })
	for _, s := range order {
		name := t.name(s)
		if info := node0(t.u.Table.Seats, s); info.Bot != "" {
			name += " " + st.r(st.faint, "bot")
		}
		left := v.Hands[s].String()
		if v.Final != nil && s < len(v.Final.Hands) {
			left = fmt.Sprint(len(v.Final.Hands[s]))
		}
		var sneaks, caught, calls string
		if s < len(v.Stats) {
			x := v.Stats[s]
			sneaks = fmt.Sprint(x.Sneaks)
			if x.Sneaks < 0 {
				sneaks = "?"
			}
			caught = fmt.Sprint(x.Caught)
			calls = fmt.Sprintf("%d/%d", x.Right, x.Calls)
		}
		line := fmt.Sprintf("  %s %s %-11s %-8s %-7s %s", fit(placeText(s), 6), fit(name, nameW), left, sneaks, caught, calls)
		if rated {
			line = fmt.Sprintf("  %s %s %s %-8s %-7s %-18s%s", fit(placeText(s), 6), fit(name, nameW), fit(left, leftW), sneaks, caught, calls, t.ratingCell(s))
		}
		if s == t.me() {
			line = st.r(st.turn, line)
		}
		lines = append(lines, line)
	}
	return lines
}

func (t *tableModel) resultKeys(w int) []string {
	st := t.env.st
	km := tableKeys
	var keys []bkey.Binding
	if t.isHost() && !t.closed {
		keys = append(keys, km.Again)
	}
	if t.v() != nil {
		keys = append(keys, km.Share)
	}
	keys = append(keys, appKeys.Rules, km.Lobby, as(km.Leave, "quit"))
	return []string{st.ruleLine(w), st.keyBar(w, keys...)}
}

// minutes is a game's length as a player says it.
func minutes(d time.Duration) string {
	m := int(d.Round(time.Minute).Minutes())
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case m == 1:
		return "1 min"
	}
	return fmt.Sprintf("%d min", m)
}

// chop cuts s into pieces of at most w columns: an address has no spaces
// to wrap at, and must be read whole.
func chop(s string, w int) []string {
	w = max(w, 8)
	var out []string
	r := []rune(s)
	for len(r) > w {
		out = append(out, string(r[:w]))
		r = r[w:]
	}
	return append(out, string(r))
}
