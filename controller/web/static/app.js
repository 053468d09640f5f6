// The live view. Everything comes from one stream (/events): the table's state, lights, LCD,
// turn timer, settings and numbered game events; the remote (remote.js) sends changes back.
// No library, nothing from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const EVENTS_SHOWN = 30;
const HITS_SHOWN = 5;
let lastSeq = 0;
let lastId = ""; // the last game event's id (the daemon's boot and its seq), to resume from
let turnedAway = false; // the table said "too many viewers": its stream comes back later
let source = null;
let timer = null; // the latest timer message, and when it came (performance.now())
let frame = 0; // the bar's next animation frame, while one is asked for
let launcherText = "";
let linkDown = false;

function text(el, value) {
  if (el.textContent !== value) el.textContent = value;
}

function connect() {
  const url = lastId ? `/events?since=${encodeURIComponent(lastId)}` : "/events";
  source = new EventSource(url);
  source.onopen = () => {
    turnedAway = false;
    text($("link"), _("live"));
    loadRemote(); // a restart, or an expiry while away, signed this page out
  };
  source.onerror = () => {
    if (!turnedAway) text($("link"), _("reconnecting…"));
    if (source.readyState === EventSource.CLOSED) { // refused outright: ask why, then again
      source = null;
      loadRemote().then((remote) => {
        if (remote.view_needs_password && !remote.signed_in) {
          text($("link"), _("sign in to see the table"));
        } else {
          setTimeout(connect, 2000);
        }
      }, () => setTimeout(connect, 2000));
    }
  };
  source.addEventListener("refused", (m) => {
    turnedAway = true;
    text($("link"), _("{reason} (trying again)", { reason: JSON.parse(m.data).error }));
  });
  source.addEventListener("signed_out", () => loadRemote());
  source.addEventListener("state", (m) => showState(JSON.parse(m.data)));
  source.addEventListener("board", (m) => showBoard(JSON.parse(m.data)));
  source.addEventListener("timer", (m) => { timer = { ...JSON.parse(m.data || "null"), at: performance.now() }; showTimer(); });
  source.addEventListener("settings", (m) => showSettings(JSON.parse(m.data)));
  source.addEventListener("standings", (m) => showStandings(JSON.parse(m.data)));
  source.addEventListener("reset", () => { $("events").replaceChildren(); $("hits").replaceChildren(); lastSeq = 0; });
  source.addEventListener("game", (m) => { lastId = m.lastEventId; showEvent(JSON.parse(m.data)); });
}

function showState(state) {
  const phase = { seating: _("Seating: press your button to join"), turn: _("Playing"), slap: _("SLAP race!"),
    notice: _("Playing"), paused: _("Paused"), round_over: _("Round over"), extreme: modeName("extreme") }[state.phase]
    || state.phase;
  const mode = modeName(state.mode);
  text($("phase"), state.asleep ? _("{phase} · mode {mode} · asleep", { phase, mode })
    : _("{phase} · mode {mode}", { phase, mode }));
  showNames(state.names || {});
  document.body.dataset.phase = state.phase;
  const owed = { owed: state.owed };
  const launcher = {
    none: _("No launcher on this table."),
    idle: _("Ready."),
    dispensing: _("Dealing: {owed} owed.", owed),
    jam: _("JAM: clear the slot, then OK. {owed} owed.", owed),
    empty: _("Empty: refill the hopper, then OK. {owed} owed.", owed),
  }[state.launcher] || state.launcher;
  const counts = ngettext("{dealt} dealt, {n} jam.", "{dealt} dealt, {n} jams.", state.jams,
    { dealt: state.cards_dispensed });
  launcherText = _("{launcher} {counts}", { launcher, counts });
  $("launcher").dataset.state = state.launcher;
  showLauncher();
}

function showLauncher() {
  const down = linkDown ? _("Link to the launcher down: cards wait.") + " " : "";
  text($("launcher"), down + launcherText);
  $("launcher").dataset.link = linkDown ? "down" : "up";
}

function showBoard(board) {
  const list = $("seats");
  while (list.children.length > board.lights.length) list.lastChild.remove();
  board.lights.forEach((light, i) => {
    let item = list.children[i];
    if (!item) {
      item = document.createElement("li");
      item.id = `seat-${light.seat}`;
      item.innerHTML = '<span class="marks"></span><span class="words"></span>';
      list.append(item);
    }
    item.className = `seat ${light.pattern}`;
    item.dataset.pattern = light.pattern;
    text(item.children[0], light.label);
    item.dataset.seat = light.seat;
    item.dataset.meaning = translated(light.meaning);
    labelSeat(item);
  });
  buildNames(board.lights.length);
  text($("lcd"), board.lcd.join("\n"));
  linkDown = board.launcher_link === false;
  showLauncher();
}

function showTimer() {
  const box = $("turn");
  if (!timer || timer.seat === undefined) { box.hidden = true; return; }
  box.hidden = false;
  const elapsed = timer.running ? (performance.now() - timer.at) / 1000 : 0;
  const left = timer.left === null ? null : Math.max(timer.left - elapsed, 0);
  const fields = { name: who(timer.seat), seconds: Math.ceil(left) };
  let turn;
  if (timer.running) {
    turn = left === null ? _("{name}'s turn: time hidden", fields) : _("{name}'s turn: {seconds} s left", fields);
  } else {
    turn = left === null ? _("{name}'s turn: time hidden (paused)", fields)
      : _("{name}'s turn: {seconds} s left (paused)", fields);
  }
  text($("turn-text"), turn);
  const bar = $("bar");
  const warning = timer.warning || (left !== null && left <= 2);
  bar.classList.toggle("warning", warning);
  bar.dataset.warning = warning ? "yes" : "no";
  if (left !== null && timer.limit) {
    $("bar-fill").style.width = `${(100 * left) / timer.limit}%`;
    bar.setAttribute("aria-valuemax", String(timer.limit));
    bar.setAttribute("aria-valuenow", left.toFixed(1));
  }
  if (timer.running && left && !frame) {
    frame = requestAnimationFrame(() => { frame = 0; showTimer(); }); // one frame asked at a time
  }
}

function showEvent(event) {
  if (event.seq <= lastSeq) return; // a repeat after a reconnection
  lastSeq = event.seq;
  const item = document.createElement("li");
  item.textContent = sentence(event, who);
  const events = $("events");
  events.prepend(item);
  while (events.children.length > EVENTS_SHOWN) events.lastChild.remove();
  if (event.type === "slap_result") showSlap(event);
  if (event.type === "hit") showHit(event);
  if (event.type === "round_over") showRound(event);
}

function showSlap(event) {
  const list = $("slap");
  list.replaceChildren(...event.order.map((press) => {
    const item = document.createElement("li");
    const fields = { name: who(press.seat), ms: press.ms };
    item.textContent = press.tie ? _("{name}: {ms} ms (tie)", fields) : _("{name}: {ms} ms", fields);
    return item;
  }));
  for (const seat of event.slowest.filter((s) => !event.order.some((p) => p.seat === s && p.ms !== null))) {
    const item = document.createElement("li");
    item.textContent = _("{name}: no press", { name: who(seat) });
    list.append(item);
  }
  const slowest = document.createElement("li");
  const fields = { names: seatList(event.slowest, who), cards: cards(event.penalty) };
  slowest.textContent = event.slowest.length > 1 ? _("Slowest: {names} draw {cards}", fields)
    : _("Slowest: {names} draws {cards}", fields);
  slowest.className = "slowest";
  list.append(slowest);
  $("slap-none").hidden = true;
}

function showHit(event) {
  const item = document.createElement("li");
  const hit = event.seat === null ? _("A hit") : who(event.seat);
  item.textContent = event.cards ? ngettext("{name}: {n} card", "{name}: {n} cards", event.cards, { name: hit })
    : _("{name}: nothing", { name: hit });
  $("hits").prepend(item);
  while ($("hits").children.length > HITS_SHOWN) $("hits").lastChild.remove();
}

function showRound(event) {
  $("round").hidden = false;
  let winner = _("Ended before anyone went out.");
  if (event.winner !== null) {
    const fields = { name: who(event.winner), places: event.places.map(who).join(_(", ")) };
    winner = event.places.length ? _("{name} won. Places: {places}.", fields) : _("{name} won.", fields);
  }
  text($("round-winner"), winner);
  const head = [_("Player"), _("Turns"), _("Avg turn s"), _("Timeouts"), _("SLAPs lost"), _("SLAP best ms"),
    _("Cards")];
  const rows = event.seats.map((s) => [s.name || seatName(s.seat), s.turns, s.average_turn == null ? "–" : decimal(s.average_turn, 3), s.timeouts,
    s.slaps_lost, s.slap_best_ms ?? "–", s.launcher_cards]);
  const table = $("round-table");
  table.replaceChildren();
  const tr = table.insertRow();
  head.forEach((h) => { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; tr.append(th); });
  rows.forEach((r) => { const row = table.insertRow(); r.forEach((c) => { row.insertCell().textContent = String(c); }); });
}

wordsReady.then(() => {
  offerLanguages($("language"));
  wire();
  loadRemote().then((remote) => {
    if (!remote.view_needs_password || remote.signed_in) connect();
    else text($("link"), _("sign in to see the table"));
  });
});
