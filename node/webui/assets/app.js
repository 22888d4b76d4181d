// The page of a phone at the table. The Go half (cmd/bullshit-web, as
// app.wasm) holds the player: its key, the connection, its record, the
// audit; this half only draws its state and sends taps back as moves.
//
// Stable hooks for browser tests (chromedp):
//   #nick #code #sit #watch #joinerr       the join form
//   #table #seats [data-seat=N] .turn      the table; a seat, whose turn
//   #rank #next #pile #last #moved          the centre
//   #bar #left #reveal #assist #hint #refusal #news
//   #hand [data-card=ID] .picked            the hand, a card (engine card number)
//   #claimrank (select) #claim-less #claim-more #claimn #preview
//   #play #call #pass #give [data-quads=RANK] #doubt #believe #skip #sort
//   #sheet #verified (.ok when this phone's audit passed) #problems #notes #rows
//   #evening #everows #ratings #nextgame    the sheet's evening and last lines
//   #about (#aboutname …)                  the join page's table, from /table
//   #leave #rulesbtn #rulespanel #rulestext #under #keys
//   #helpbtn #helppanel #helptext #helpclose  the help screen, from /help
//   #renamebtn #renamebox #newnick #renameok #renameerr  rename, in the waiting room
//   #paused                                "Paused by the host.", while the host has paused the game
//   #shuffling                             a blind deal running: "Shuffling…" (and whom it waits for)
//   #coming                                "N cards come to your hand": a pile on its way to us, at a blind table
//   body[data-blind] "1" while this phone is a party of a blind game (the host sees no card)
//   body[data-status] joining|seated|following|closed; body[data-phase]
//   body[data-record] events in this phone's own record of the deal,
//   body[data-restored] how many of them came back from its storage after a reload
//   window.bullshitTimes                   the page's milestones, below
// Keys on a desktop: C claim (or hand over), S sneak one more under the
// claim, B BULLSHIT!, G let it go, O sort, D doubt, V believe, K skip,
// I how to play this table, ? help (the buttons and keys).
"use strict";

const $ = (s) => document.querySelector(s);
const el = (tag, attrs, text) => {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  return e;
};

let st = null;          // the last state
let stAt = 0;           // performance.now() when it came
let picked = new Set(); // card ids
let under = 0;          // cards put under the claim (sneak) or, negative, claimed over (count lies)
let rank = -1;          // the rank chosen where it is free
let pickedFor = "";     // the play and rank the cards of the rank were picked for ("" none)
let soonest = false;
let was = {};           // what we could do before, for the buzz
let buzzed2 = false;
let drawnFrom = {};     // what each part of the page was last drawn from, as JSON
let ticker = 0;         // the countdown's and the reveal's next look (setTimeout), 0 for none
let drain = "";         // the countdown bar's animation (style.css), one of two names
const hints = JSON.parse(localStorage.getItem("bullshit.hints") || "{}");
const hintText = {
  claim: "Your move: tap cards to pick them, then Claim. You may lie.",
  window: "Someone played: BULLSHIT! calls it a lie, Let it go believes it. The bar is the time left.",
  handover: "You caught a sneak: pick a card to hand over (one is picked for you), then Hand over.",
};

// window.bullshitTimes is the page's own log of its milestones, for the
// browser tests' figures (cmd/bullshit/browser_figures_e2e_test.go), as
// {ev, t, play} with t from performance.now() (ms since the navigation
// began): "ready" the player loaded and the form usable; "table" the first
// state drawn (the waiting room or the table); "call" a BULLSHIT! of ours
// leaving (the tap); "verdict" the first state with its cards turned up,
// drawn; "lost" another's call settled the play first; "shuffling" a blind
// deal began to be said. Nothing reads it.
window.bullshitTimes = [];
let calledAt = null;    // our BULLSHIT! awaiting its verdict: {t, play}
function mark(ev, t, play) { window.bullshitTimes.push({ ev, t, play: play || 0 }); }

// buzz vibrates after the page is drawn, not in the middle of it:
// navigator.vibrate asks the browser's process and, without a tap on the
// page yet, logs a warning first (1–7 ms in a state's drawing, measured).
function buzz(ms) { if (navigator.vibrate) setTimeout(() => navigator.vibrate(ms)); }

// about draws which table this is, from the node's /table, before one
// sits: its name, host, the host's three words, the preset and the seats.
async function about() {
  try {
    const r = await fetch("/table", { cache: "no-store" });
    if (!r.ok) { $("#about").hidden = false; setText("#aboutname", "No table here now"); setText("#abouthost", await r.text()); return; }
    const a = await r.json();
    setText("#aboutname", a.name);
    setText("#abouthost", "hosted by " + a.host);
    setText("#aboutwords", a.words);
    setText("#aboutseats", `${a.preset} · ${a.taken} of ${a.seats} seats taken · ${a.phase === "waiting" ? "waiting for players" : "game on: watch"}${a.code ? " · needs a join code" : ""}`);
    $("#about").hidden = false;
  } catch (e) { /* the form works without it */ }
}

function start() {
  mark("ready", performance.now());
  about();
  $("#me").textContent = "…" + bullshit.me().slice(-6);
  $("#nick").value = bullshit.nick();
  const go = (watch) => {
    const nick = $("#nick").value.trim();
    if (!nick) { $("#joinerr").textContent = "Type your name first."; return; }
    $("#joinerr").textContent = "Joining…";
    $("#sit").disabled = $("#watch").disabled = true;
    bullshit.join(location.origin, nick, $("#code").value.trim(), watch);
  };
  $("#leave").onclick = () => {
    if (!confirm(st && st.blind ? "Leave the table? The host plays your seat blind, a card a turn, until you come back." : "Leave the table? A bot plays your seat until you come back.")) return;
    sessionStorage.removeItem("bullshit.seated");
    bullshit.leave();
    setTimeout(() => location.reload(), 300);
  };
  $("#rulesbtn").onclick = rules;
  $("#rulesclose").onclick = () => { $("#rulespanel").hidden = true; };
  $("#helpbtn").onclick = help;
  $("#helpclose").onclick = () => { $("#helppanel").hidden = true; };
  // Rename: this player sits on at its seat under the new name (the
  // host checks it as a newcomer's); a refusal keeps the seat and the name.
  $("#renamebtn").onclick = () => {
    const b = $("#renamebox");
    b.hidden = !b.hidden;
    $("#newnick").value = bullshit.nick();
    setText("#renameerr", "");
    if (!b.hidden) $("#newnick").focus();
  };
  $("#renamecancel").onclick = () => { $("#renamebox").hidden = true; };
  const rename = () => {
    const why = bullshit.rename($("#newnick").value);
    setText("#renameerr", why || "Renaming…");
    $("#renameok").disabled = !why;
  };
  $("#renameok").onclick = rename;
  $("#newnick").onkeydown = (e) => { if (e.key === "Enter") rename(); };
  bullshit.onRenamed = (why) => {
    $("#renameok").disabled = false;
    setText("#renameerr", why);
    if (!why) $("#renamebox").hidden = true;
  };
  $("#sit").onclick = () => go(false);
  $("#watch").onclick = () => go(true);
  $("#nick").onkeydown = (e) => { if (e.key === "Enter") go(false); };
  bullshit.onError = (text) => {
    if (!st) {
      $("#joinerr").textContent = text;
      $("#sit").disabled = $("#watch").disabled = false;
    } else {
      $("#refusal").textContent = text;
    }
  };
  bullshit.onState = (json) => { const s = JSON.parse(json); if (s) show(s); };
  // A reload is the same player: sit again at once where we sat.
  if (sessionStorage.getItem("bullshit.seated") && bullshit.nick()) {
    const w = sessionStorage.getItem("bullshit.seated") === "watch";
    bullshit.join(location.origin, bullshit.nick(), sessionStorage.getItem("bullshit.code") || "", w);
  }
  $("#sit").addEventListener("click", () => { sessionStorage.setItem("bullshit.seated", "sit"); sessionStorage.setItem("bullshit.code", $("#code").value.trim()); });
  $("#watch").addEventListener("click", () => sessionStorage.setItem("bullshit.seated", "watch"));
  wire();
}

function wire() {
  $("#play").onclick = play;
  $("#give").onclick = () => send({ kind: "give", cards: [...picked] });
  $("#call").onclick = () => send({ kind: "call" });
  $("#pass").onclick = () => send({ kind: "pass" });
  $("#doubt").onclick = () => send({ kind: "doubt" });
  $("#believe").onclick = () => send({ kind: "believe" });
  $("#skip").onclick = () => send({ kind: "skip" });
  $("#sort").onclick = () => { soonest = !soonest; bullshit.soonest(soonest); };
  $("#claimrank").onchange = () => { rank = +$("#claimrank").value; drawPlay(); };
  $("#claim-less").onclick = () => { under++; drawPlay(); };
  $("#claim-more").onclick = () => { under--; drawPlay(); };
  document.addEventListener("keydown", (e) => {
    if (!st || e.target.tagName === "INPUT" || e.metaKey || e.ctrlKey || e.altKey) return;
    const m = st.moves || {};
    switch (e.key.toLowerCase()) {
      case "c": if (m.give) $("#give").click(); else if (m.play) play(); break;
      case "h": if (m.give) $("#give").click(); break;
      case "s": if (m.sneak) { under = under >= Math.min(m.sneak, picked.size - 1) ? 0 : under + 1; drawPlay(); } break;
      case "b": if (m.call) send({ kind: "call" }); break;
      case "g": if (m.call) send({ kind: "pass" }); break;
      case "o": $("#sort").click(); break;
      case "d": if (m.judge) send({ kind: "doubt" }); break;
      case "v": if (m.judge) send({ kind: "believe" }); break;
      case "k": if (m.judge) send({ kind: "skip" }); break;
      case "i": rules(); break;
      case "?": help(); break;
      default: return;
    }
    e.preventDefault();
  });
}

// rules shows how to play this table, from the node's /rules: the
// terminal's rules screen, written from the table's own rules keys
// (again: closes it).
async function rules() {
  const p = $("#rulespanel");
  if (!p.hidden) { p.hidden = true; return; }
  // Wrapped to the columns the panel holds: a phone's are fewer.
  const m = el("span", {}, "0123456789");
  $("#rulestext").replaceChildren(m);
  p.hidden = false;
  const cols = Math.floor($("#rulestext").clientWidth / (m.getBoundingClientRect().width / 10)) || 60;
  window.rulesWidth = cols;
  const q = new URLSearchParams({ preset: st.preset || "standard", seats: (st.seats || []).length, w: cols });
  for (const kv of st.rules || []) q.append("r", kv);
  try {
    const r = await fetch("/rules?" + q, { cache: "no-store" });
    $("#rulestext").textContent = await r.text();
  } catch (e) { $("#rulestext").textContent = "The rules can't be fetched now: " + e.message; }
  p.hidden = false;
  p.scrollIntoView({ behavior: "smooth" });
}

// help shows the page's buttons and keys, from the node's /help: the
// terminal's help's words for the keys the two share (again: closes it).
async function help() {
  const p = $("#helppanel");
  if (!p.hidden) { p.hidden = true; return; }
  const m = el("span", {}, "0123456789");
  $("#helptext").replaceChildren(m);
  p.hidden = false;
  const cols = Math.floor($("#helptext").clientWidth / (m.getBoundingClientRect().width / 10)) || 60;
  window.helpWidth = cols;
  try {
    const r = await fetch("/help?w=" + cols, { cache: "no-store" });
    $("#helptext").textContent = await r.text();
  } catch (e) { $("#helptext").textContent = "The help can't be fetched now: " + e.message; }
  p.scrollIntoView({ behavior: "smooth" });
}

function send(m) {
  const t = performance.now();
  const why = bullshit.move(JSON.stringify(Object.assign({ cards: [], claim: 0, rank: -1 }, m)));
  setText("#refusal", why || "");
  if (!why && m.kind === "call" && st) { calledAt = { t, play: st.play }; mark("call", t, st.play); }
  // A move sent is a move made: its buttons go until the host's next state
  // says what we may do, so a double tap can't send it twice. They are
  // disabled and made invisible where they stand (#actions.sent), not
  // taken out: the bar keeps its height, so the tap's own frame repaints
  // it and lays nothing out while the answer is on its way; the next
  // state lays the buttons out as it says, in the frame that draws it.
  if (!why) {
    for (const id of moveButtons) $(id).disabled = true;
    $("#actions").classList.add("sent");
  }
  // The cards stay picked: the next state takes those played from the
  // hand, and a move the host refuses keeps them to send again.
  if (!why && (m.kind === "play" || m.kind === "give" || m.kind === "quads")) under = 0;
  if (st && st.hint && hintText[st.hint] && !hints[st.hint]) { hints[st.hint] = true; localStorage.setItem("bullshit.hints", JSON.stringify(hints)); }
}

function claimOf() {
  const k = picked.size;
  return k ? k - under : 0;
}

function play() {
  const m = st.moves;
  if (!picked.size) { $("#refusal").textContent = "Pick the cards to put down first."; return; }
  if (st.reveal && st.reveal.length) { $("#refusal").textContent = "Wait: the cards are still being shown."; return; }
  send({ kind: "play", cards: [...picked], claim: claimOf(), rank: m.choose ? rank : -1 });
}

// moving is set once the page is on its way to another node (moveTo).
let moving = false;

// moveTo follows the table to the node that hosts it now, after the host
// changed: the page's own address is the old host's, dead, and a reload
// there would find nothing. The new node is another origin, with storage
// of its own, so what this player is goes with the page in the address's
// fragment, which the browser never sends: its key, its name, how it sat
// (and the join code), its record of the deal. The page there takes them
// in (carried, below) and sits again at once.
function moveTo(s) {
  const to = (s.node || "").replace(/\/+$/, "");
  if (moving || s.status !== "seated" || !to || to === location.origin || !/^https?:\/\/[^/?#]+$/.test(to)) return false;
  moving = true;
  bullshit.save();
  const carry = {
    at: Date.now(), key: localStorage.getItem("bullshit.key") || "", nick: bullshit.nick(),
    seated: s.watching ? "watch" : "sit", code: sessionStorage.getItem("bullshit.code") || "",
    record: sessionStorage.getItem("bullshit.record") || "",
    deck: sessionStorage.getItem("bullshit.deck") || "",
  };
  location.replace(to + "/#carry=" + encodeURIComponent(JSON.stringify(carry)));
  return true;
}

function show(s) {
  if (moveTo(s)) return;
  const prev = st;
  st = s; stAt = performance.now();
  document.body.dataset.status = s.status;
  document.body.dataset.phase = s.phase || "";
  document.body.dataset.record = s.record || 0;
  document.body.dataset.restored = s.restored || 0;
  document.body.dataset.blind = s.blind ? "1" : "";
  $("#join").hidden = true;
  $("#table").hidden = false;
  $("#title").textContent = [s.table, s.preset, s.play ? "play " + s.play : ""].filter(Boolean).join(" · ");
  // Rename is for the waiting room: once dealt, the table's names stay.
  $("#paused").hidden = !s.paused;
  $("#renamebtn").hidden = s.phase !== "waiting" || s.status !== "seated";
  if ($("#renamebtn").hidden) $("#renamebox").hidden = true;
  $("#status").textContent = s.status === "following" ? "Lost the host: finding the table…" : s.status === "closed" ? "the table is over" : s.watching ? "watching" : "";
  // The hand we hold decides what stays picked.
  const ids = new Set((s.hand || []).map((c) => c.id));
  for (const id of [...picked]) if (!ids.has(id)) picked.delete(id);
  const m = s.moves || {};
  if (m.give && !(prev && prev.moves && prev.moves.give)) { picked = new Set(m.giveAuto || []); }
  // Our turn to play: the cards of the rank called are picked for us (the
  // terminal's assist), as many as a claim may hold.
  // Once a play and rank: what we pick after is ours.
  // (At a blind table the turn can come before the hand, or before a
  // pile's cards reach it: picked once they are all there.)
  const turn = m.play && (s.hand || []).length && !s.coming ? s.play + ":" + s.rank : "";
  if (turn && turn !== pickedFor) picked = new Set((s.hand || []).filter((c) => c.match).slice(0, m.cap || 4).map((c) => c.id));
  if (turn || !m.play) pickedFor = turn;
  if (m.choose && !(m.ranks || []).some((r) => r.rank === rank)) rank = m.ranks[0].rank;
  // Only the parts whose state changed are drawn again.
  if (fresh("seats", [s.seats, s.phase, s.blind])) drawSeats(s);
  drawCentre(s);
  if (fresh("hand", [s.hand, s.watching, soonest, [...picked]])) drawHand(s);
  drawActions(s); drawPlay();
  if (fresh("news", s.news)) drawNews(s);
  if (fresh("sheet", s.sheet)) drawSheet(s);
  drawTimers(s);
  if (!prev) mark("table", performance.now(), s.play);
  if (s.shuffling && !(prev && prev.shuffling)) mark("shuffling", performance.now(), 0);
  if (calledAt && (s.reveal || []).some((l) => l.startsWith("Turned up"))) {
    mark((s.reveal[0] || "").startsWith("You:") ? "verdict" : "lost", performance.now(), calledAt.play);
    calledAt = null;
  }
  const mine = !!(m.play || m.call || m.give || m.judge);
  if (mine && !(was.play || was.call || was.give || was.judge)) { buzz(80); buzzed2 = false; }
  was = m;
}

// fresh reports whether v differs from what the part was last drawn from.
function fresh(part, v) {
  const k = JSON.stringify(v);
  if (drawnFrom[part] === k) return false;
  drawnFrom[part] = k;
  return true;
}

// setText writes a text only when it differs: a write is a new text node
// and a layout, even of the same words.
function setText(sel, text) {
  const e = $(sel);
  if (e.textContent !== text) e.textContent = text;
}

function drawSeats(s) {
  const box = $("#seats");
  box.replaceChildren();
  for (const p of s.seats || []) {
    const d = el("div", { class: "seat", "data-seat": p.no });
    if (p.turn) d.classList.add("turn");
    if (p.you) d.classList.add("you");
    if (!p.connected) d.classList.add("away");
    if (!p.name && !p.bot) {
      d.classList.add("free");
      d.append(el("b", {}, "·"), el("span", { class: "small" }, "free seat"));
      box.append(d);
      continue;
    }
    d.append(el("b", {}, p.name + (p.you ? " (you)" : "")));
    // At a blind table a bot runs on a laptop's node (which one, said),
    // and a phone's seat given away is the host's to play blind.
    const who = p.bot ? "bot" + (p.runBy ? " · on " + p.runBy + "'s" : "") : p.covered ? (s.blind ? "away · host plays blind" : "away · bot plays") : !p.connected ? "away" : p.web ? "browser" : s.phase === "waiting" ? "ready" : "";
    if (who) d.append(el("span", { class: "small" }, who + " "));
    if (p.cards) d.append(el("span", {}, p.cards + " cards"));
    if (p.lastCard) d.append(el("div", { class: "lastcard" }, "their last!"));
    if (p.out) d.append(el("div", { class: "small" }, "out · " + p.out));
    box.append(d);
  }
}

function drawCentre(s) {
  // No rank is called before the deal or after the end: "free" is a
  // rank a player may name, only while there is a play to make.
  setText("#rank", s.rank ? s.rank.toUpperCase() : s.sheet || s.shuffling || s.phase !== "playing" ? "–" : "free");
  setText("#next", s.next ? "then " + s.next : "");
  setText("#pile", (s.pile || "0") + " cards");
  const l = s.last;
  setText("#last", l ? l.text + (l.shown && l.shown.length ? ": " + l.shown.map((c) => c.label).join(" ") : "") : s.phase === "waiting" ? "Waiting for the host to deal…" : "");
  setText("#moved", l ? l.moved : "");
  $("#shuffling").hidden = !s.shuffling;
  setText("#shuffling", s.shuffling || "");
  $("#coming").hidden = !s.coming;
  setText("#coming", s.coming ? `${s.coming} ${s.coming === 1 ? "card comes" : "cards come"} to your hand…` : "");
  setText("#assist", s.assist || "");
  const h = s.hint && !hints[s.hint] ? hintText[s.hint] : "";
  $("#hint").hidden = !h;
  setText("#hint", h);
  setText("#refusal", s.refusal || "");
}

function drawHand(s) {
  const box = $("#hand");
  box.replaceChildren();
  $("#handlabel").textContent = s.watching ? "Watching" : "Your hand · " + (s.hand || []).length;
  $("#sort").textContent = soonest ? "soonest asked first" : "calling order";
  for (const c of s.hand || []) {
    const b = el("button", { class: "card", "data-card": c.id, "aria-pressed": picked.has(c.id) }, c.label);
    if (c.red) b.classList.add("red");
    if (c.match) b.classList.add("match");
    if (picked.has(c.id)) b.classList.add("picked");
    b.onclick = () => {
      if (picked.has(c.id)) picked.delete(c.id); else picked.add(c.id);
      b.classList.toggle("picked");
      b.setAttribute("aria-pressed", picked.has(c.id));
      under = Math.max(0, Math.min(under, picked.size - 1));
      drawPlay();
    };
    box.append(b);
  }
}

// moveButtons are the buttons a sent move disables until the next state.
const moveButtons = ["#play", "#give", "#call", "#pass", "#doubt", "#believe", "#skip"];

function drawActions(s) {
  const m = s.moves || {};
  $("#actions").classList.remove("sent");
  for (const id of moveButtons) $(id).disabled = false; // #play's own rule follows in drawPlay
  $("#play").hidden = !m.play;
  $("#give").hidden = !m.give;
  setText("#give", m.give ? "Hand over " + m.give : "Hand over");
  $("#call").hidden = $("#pass").hidden = !m.call;
  $("#doubt").hidden = $("#believe").hidden = $("#skip").hidden = !m.judge;
  const q = $("#quads");
  q.replaceChildren();
  for (const r of m.quads || []) {
    const b = el("button", { class: "big", "data-quads": r.rank }, "Lay out four " + r.many);
    b.onclick = () => {
      const four = (st.hand || []).filter((c) => c.rank === r.rank).slice(0, 4).map((c) => c.id);
      send({ kind: "quads", cards: four });
    };
    q.append(b);
  }
  const sel = $("#claimrank");
  $("#rankpick").hidden = !m.choose;
  if (m.choose) {
    sel.replaceChildren(...(m.ranks || []).map((r) => el("option", { value: r.rank }, r.many)));
    sel.value = rank;
  }
}

function drawPlay() {
  if (!st) return;
  const m = st.moves || {};
  const on = !!m.play;
  $("#playbar").hidden = !on;
  if (!on) return;
  const k = picked.size;
  const canUnder = m.sneak > 0 || m.countLies;
  $("#claimctl").hidden = !canUnder || !k;
  if (m.countLies) under = Math.max(Math.min(under, k - 1), k - m.cap);
  else under = Math.max(0, Math.min(under, m.sneak, k - 1));
  $("#claimn").textContent = claimOf();
  const p = JSON.parse(bullshit.preview(JSON.stringify({ kind: "play", cards: [...picked], claim: claimOf(), rank: m.choose ? rank : -1 })) || "{}");
  $("#play").textContent = k ? p.label || m.verb : m.verb || "Claim";
  setText("#under", canUnder && k ? p.under || (m.countLies ? "− + change the count you claim" : "− slips cards under the claim, unclaimed") : "");
  $("#play").disabled = !k || !!p.problem || $("#actions").classList.contains("sent");
  $("#preview").textContent = [p.problem, p.shows].filter(Boolean).join(" ");
}

function drawNews(s) {
  const box = $("#news");
  box.replaceChildren(...(s.news || []).map((n) => el("li", {}, n)));
}

function drawSheet(s) {
  const sh = s.sheet;
  $("#sheet").hidden = !sh;
  if (!sh) return;
  const v = $("#verified");
  v.classList.toggle("ok", !!sh.verified);
  const early = sh.early ? `ended early after ${sh.plays} plays; ` : "";
  v.textContent = sh.verified ? early + "deal verified ✔ (checked in this browser)" : sh.checked ? early + "deal NOT verified ✘ (checked in this browser)" : "Checking the deal in this browser…";
  $("#problems").replaceChildren(...(sh.problems || []).map((p) => el("li", {}, p)));
  $("#notes").replaceChildren(...(sh.notes || []).map((p) => el("li", {}, "Note: " + p)));
  $("#rows tbody").replaceChildren(...(sh.rows || []).map((r) => {
    const tr = el("tr", r.you ? { class: "you" } : {});
    for (const x of [r.place || "–", r.name, r.cards, r.sneaked, r.caught, r.calls]) tr.append(el("td", {}, String(x)));
    return tr;
  }));
  const ev = sh.evening;
  $("#evening").hidden = !ev;
  if (ev) {
    setText("#evehead", `The evening · ${ev.games} ${ev.games === 1 ? "game" : "games"}`);
    setText("#everule", ev.rule);
    $("#everows tbody").replaceChildren(...ev.lines.map((l) => {
      const tr = el("tr", l.you ? { class: "you" } : {});
      for (const x of [l.you ? "You" : l.name + (l.bot ? " (bot)" : ""), l.points + (l.points === "1" ? " pt" : " pts"), l.wins + (l.wins === 1 ? " win" : " wins"), l.games + (l.games === 1 ? " game" : " games")]) tr.append(el("td", {}, x));
      return tr;
    }));
  }
  setText("#ratings", sh.ratings || "");
  setText("#nextgame", sh.next || "");
  $("#sheet").scrollIntoView({ behavior: "smooth" });
}

// The countdown and the reveal run on the page's clock between states.
// The bar shrinks by one animation for each state, which the browser runs
// off the page's thread; the seconds and the reveal are looked at when
// they next change (every tenth of a second, the reveal's end), and
// nothing runs while neither shows: the page's thread is free for the
// host's next message.
function drawTimers(s) {
  $("#bar").hidden = !s.leftMS;
  if (s.leftMS) {
    // A CSS animation, restarted by switching between two names of the
    // same keyframes and started part way through by a negative delay: a
    // style written, nothing computed now (element.animate() resolves
    // the page's style at once, after all of a state's other changes).
    const whole = Math.max(s.windowMS || 0, s.leftMS);
    drain = drain === "drainA" ? "drainB" : "drainA";
    $("#fill").style.animation = `${drain} ${whole}ms linear ${s.leftMS - whole}ms forwards${s.paused ? " paused" : ""}`;
  }
  tick();
}

function tick() {
  clearTimeout(ticker);
  ticker = 0;
  if (!st) return;
  const gone = st.paused ? 0 : performance.now() - stAt; // a paused table's clocks stand still
  const left = st.leftMS ? Math.max(0, st.leftMS - gone) : 0;
  if (st.leftMS) {
    setText("#left", (left / 1000).toFixed(1) + " s");
    $("#bar").classList.toggle("low", left < 2000);
    if (left < 2000 && left > 0 && !buzzed2 && st.moves && (st.moves.call || st.moves.give)) { buzz([60, 60, 60]); buzzed2 = true; }
  }
  const r = $("#reveal");
  const showing = !!(st.reveal && st.reveal.length && gone < st.revealMS);
  r.hidden = !showing;
  if (showing && r.dataset.n !== String(st.reveal.length) + st.play) {
    r.dataset.n = String(st.reveal.length) + st.play;
    r.replaceChildren(...st.reveal.map((line) => el("div", {}, line)));
  }
  // The seconds shown change as left passes x.x5 s (toFixed rounds).
  const next = Math.min(left > 0 ? Math.min(left, (left + 50) % 100) : Infinity, showing ? st.revealMS - gone : Infinity);
  if (next < Infinity) ticker = setTimeout(tick, next + 1);
}

// carried takes in what a page that followed the table here brought in
// the fragment (moveTo), before the player starts and reads its key, and
// clears it from the address. A key is taken only on an origin that has
// none yet, or fresh from a move (two minutes): a link made up to plant
// a key someone knows, opened later, does not replace a player's own.
(function carried() {
  const m = /^#carry=(.+)$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  let c = null;
  try { c = JSON.parse(decodeURIComponent(m[1])); } catch (e) { return; }
  if (!c || typeof c.key !== "string" || !/^[0-9a-f]{64}$/.test(c.key)) return;
  const mine = localStorage.getItem("bullshit.key");
  if (mine && mine !== c.key && !(Math.abs(Date.now() - (+c.at || 0)) < 120000)) return;
  localStorage.setItem("bullshit.key", c.key);
  if (typeof c.nick === "string" && c.nick) localStorage.setItem("bullshit.nick", c.nick);
  sessionStorage.setItem("bullshit.seated", c.seated === "watch" ? "watch" : "sit");
  sessionStorage.setItem("bullshit.code", typeof c.code === "string" ? c.code : "");
  if (typeof c.record === "string" && c.record) sessionStorage.setItem("bullshit.record", c.record);
  if (typeof c.deck === "string" && c.deck) sessionStorage.setItem("bullshit.deck", c.deck);
})();

window.bullshitReady = start;
(async () => {
  const go = new Go();
  let res;
  try {
    res = await WebAssembly.instantiateStreaming(fetch("/app.wasm"), go.importObject);
  } catch (e) {
    const buf = await (await fetch("/app.wasm")).arrayBuffer();
    res = await WebAssembly.instantiate(buf, go.importObject);
  }
  go.run(res.instance);
})();
