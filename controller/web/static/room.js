// The room screen: the table for a TV or a tablet across the room, from the same stream as
// the live view (/events). The seats sit around a circle as they sit at the table, seen from
// above: seat 1 at the bottom, the others clockwise. Nothing here sends anything.
"use strict";

const $ = (id) => document.getElementById(id);
const EVENTS_SHOWN = 6;
const QUIET = new Set(["card_out"]); // too many to read from the sofa

let state = null;
let board = null;
let timer = null; // the latest timer message, and when it came (performance.now())
let lastId = "";
let lastSeq = 0;
let offlineSince = null;
let winner = null; // the last round's, said in the middle while its round is over
let score = null; // the game to target_score, from the standings: totals and a game won
let frame = 0; // the countdown's next animation frame, while one is asked for
let news = ""; // the latest event's sentence: what a notice is about

// A seat as the room calls it: its player's name, or "Seat 3".
function who(seat) {
  return (state && state.names && state.names[seat]) || seatName(seat);
}

function totalOf(seat) {
  const found = score && score.target ? score.totals.find((t) => t.seat === seat) : null;
  return found ? found.total : null;
}

function text(el, value) {
  if (el.textContent !== value) el.textContent = value;
}

function connect() {
  const source = new EventSource(lastId ? `/events?since=${encodeURIComponent(lastId)}` : "/events");
  source.onopen = () => online(true);
  source.onerror = () => {
    online(false);
    if (source.readyState !== EventSource.CLOSED) return; // it connects again by itself
    // Refused outright: the table may want its viewers signed in (on its own page).
    fetch("/remote", { credentials: "same-origin" }).then((r) => r.json()).then((remote) => {
      if (remote.view_needs_password && !remote.signed_in) {
        text($("offline"), _("sign in on the table's page to see it here"));
      }
    }, () => {}).finally(() => setTimeout(connect, 2000));
  };
  source.addEventListener("refused", (m) => text($("offline"), JSON.parse(m.data).error));
  source.addEventListener("state", (m) => { state = JSON.parse(m.data); show(); });
  source.addEventListener("board", (m) => { board = JSON.parse(m.data); show(); });
  source.addEventListener("timer", (m) => { timer = { ...JSON.parse(m.data || "null"), at: performance.now() }; showCentre(); });
  source.addEventListener("standings", (m) => { showStandings(JSON.parse(m.data)); show(); });
  source.addEventListener("reset", () => { $("events").replaceChildren(); lastSeq = 0; });
  source.addEventListener("game", (m) => { lastId = m.lastEventId; showEvent(JSON.parse(m.data)); });
}

// Offline: everything greyed, and since when (the first failure, in the screen's own time).
function online(up) {
  if (up) {
    offlineSince = null;
  } else if (offlineSince === null) {
    offlineSince = new Date();
  }
  document.body.dataset.link = up ? "live" : "offline";
  const offline = $("offline");
  offline.hidden = up;
  if (!up) {
    const at = offlineSince.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
    text(offline, _("table offline since {time}", { time: at }));
  }
}

function show() {
  if (!state || !board) return;
  showSeats();
  showAlarm();
  showCentre();
}

function showSeats() {
  const list = $("seats");
  const count = board.lights.length;
  while (list.children.length > count) list.lastChild.remove();
  board.lights.forEach((light, i) => {
    let item = list.children[i];
    if (!item) {
      item = document.createElement("li");
      item.id = `seat-${light.seat}`;
      item.innerHTML = '<span class="name"></span><span class="light"></span><span class="total"></span>';
      list.append(item);
    }
    // Seat 1 at the bottom (90° in the page's coordinates, y downwards), then clockwise.
    const angle = (90 + (360 * i) / count) * (Math.PI / 180);
    item.style.left = `${50 + 40 * Math.cos(angle)}%`;
    item.style.top = `${50 + 40 * Math.sin(angle)}%`;
    item.className = `seat ${light.pattern}`;
    item.dataset.pattern = light.pattern;
    item.dataset.seated = state.seats.includes(light.seat) ? "yes" : "no";
    text(item.children[0], who(light.seat));
    text(item.children[1], translated(light.meaning));
    const total = totalOf(light.seat);
    text(item.children[2], total === null ? "" : ngettext("{n} point", "{n} points", total));
  });
}

function showAlarm() {
  const alarm = $("alarm");
  let message = "";
  const owed = { owed: state.owed };
  if (state.launcher === "jam") message = _("Launcher jammed: clear the slot, then OK ({owed} to come)", owed);
  else if (state.launcher === "empty") message = _("Launcher empty: refill the hopper, then OK ({owed} to come)", owed);
  else if (board.launcher_link === false) message = _("Launcher unplugged: its cards wait");
  alarm.hidden = !message;
  text(alarm, message);
}

function showCentre() {
  if (!state) return;
  const over = state.phase === "round_over";
  const seat = over ? winner : timer && timer.seat !== undefined ? timer.seat : state.seat;
  text($("who"), seat === null || seat === undefined ? "" : who(seat));
  let count = "";
  if (timer && timer.seat !== undefined && timer.left !== null) {
    const elapsed = timer.running ? (performance.now() - timer.at) / 1000 : 0;
    count = String(Math.ceil(Math.max(timer.left - elapsed, 0)));
    $("count").dataset.warning = timer.warning || timer.left - elapsed <= 2 ? "yes" : "no";
    if (timer.running && timer.left - elapsed > 0 && !frame) {
      frame = requestAnimationFrame(() => { frame = 0; showCentre(); }); // one frame asked at a time
    }
  }
  text($("count"), count);
  // A notice (a timeout, a SLAP's result, the launcher's news) reads as the event that
  // brought it, in the screen's language (the LCD may show another).
  const gameWon = over && score && score.won !== null && score.won === winner;
  const phases = { seating: _("Press your button to join"), slap: "SLAP!", paused: _("Paused"),
    round_over: _("Round over"), extreme: _("Press the launcher"), turn: "" };
  text($("what"), gameWon ? _("wins the game: {total} points!", { total: totalOf(winner) })
    : over && winner !== null ? _("won the round!")
      : state.phase === "notice" ? news : phases[state.phase] ?? state.phase);
}

function showEvent(event) {
  if (event.seq <= lastSeq) return; // a repeat after a reconnection
  lastSeq = event.seq;
  if (event.type === "slap_result") showSlap(event);
  if (event.type === "round_over") { winner = event.winner; showCentre(); }
  if (event.type === "round_started") winner = null;
  if (QUIET.has(event.type)) return;
  const item = document.createElement("li");
  news = sentence(event, who);
  item.textContent = news;
  const events = $("events");
  events.prepend(item);
  while (events.children.length > EVENTS_SHOWN) events.lastChild.remove();
  showCentre();
}

function showSlap(event) {
  const rows = event.order.map((press) => [press.seat,
    press.tie ? _("{ms} ms (tie)", { ms: press.ms }) : _("{ms} ms", { ms: press.ms })]);
  for (const seat of event.slowest) {
    if (!event.order.some((p) => p.seat === seat)) rows.push([seat, _("no press")]);
  }
  $("slap").replaceChildren(...rows.map(([seat, time], i) => {
    const item = document.createElement("li");
    item.innerHTML = '<span><span class="rank"></span> <span class="who"></span></span><span class="time"></span>';
    item.querySelector(".rank").textContent = `${i + 1}.`;
    item.querySelector(".who").textContent = who(seat);
    item.querySelector(".time").textContent = time;
    item.classList.toggle("slowest", event.slowest.includes(seat));
    return item;
  }));
  $("slap-box").hidden = false;
}

// The evening's standings, the leader first: the highest total in the game to target_score
// (when it is kept), then most wins, then the better average place.
function showStandings(standings) {
  score = standings.score;
  const total = (s) => totalOf(s.seat) ?? -1;
  const seats = [...standings.seats].sort((a, b) => total(b) - total(a) || b.wins - a.wins
    || (a.average_place ?? Infinity) - (b.average_place ?? Infinity) || a.seat - b.seat);
  const scored = Boolean(score && score.target);
  $("standings-box").hidden = !seats.length;
  const table = $("standings");
  table.replaceChildren();
  const head = table.insertRow();
  const titles = [_("Player"), ...(scored ? [_("Points")] : []), _("Wins"), _("Rounds"), _("Timeouts"), _("Best SLAP")];
  for (const title of titles) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  for (const s of seats) {
    const row = table.insertRow();
    const best = s.slap_best_ms === null ? "–" : _("{ms} ms", { ms: s.slap_best_ms });
    const points = scored ? [totalOf(s.seat) ?? 0] : [];
    for (const value of [who(s.seat), ...points, s.wins, s.rounds, s.timeouts, best]) {
      row.insertCell().textContent = String(value);
    }
  }
}

wordsReady.then(() => {
  // The settings' labels in the screen's language, for "Settings changed".
  fetch(`/remote?lang=${language}`, { credentials: "same-origin" }).then((r) => r.json())
    .then((remote) => nameSettings(remote.settings), () => {});
  connect();
});
