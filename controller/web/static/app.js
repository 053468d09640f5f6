// The live view and the remote. Everything comes from one stream (/events): the table's
// state, lights, LCD, turn timer, settings and numbered game events; changes go back as
// same-origin JSON posts, each answered beside the control that sent it. No library, nothing
// from elsewhere.
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
let settingsModel = null;
let settings = {};
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
    text($("link"), "live");
    loadRemote(); // a restart, or an expiry while away, signed this page out
  };
  source.onerror = () => {
    if (!turnedAway) text($("link"), "reconnecting…");
    if (source.readyState === EventSource.CLOSED) { // refused outright: ask why, then again
      source = null;
      loadRemote().then((remote) => {
        if (remote.view_needs_password && !remote.signed_in) {
          text($("link"), "sign in to see the table");
        } else {
          setTimeout(connect, 2000);
        }
      }, () => setTimeout(connect, 2000));
    }
  };
  source.addEventListener("refused", (m) => {
    turnedAway = true;
    text($("link"), `${JSON.parse(m.data).error} (trying again)`);
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
  const phase = { seating: "Seating: press your button to join", turn: "Playing", slap: "SLAP race!",
    notice: "Playing", paused: "Paused", round_over: "Round over", extreme: "Extreme" }[state.phase] || state.phase;
  text($("phase"), `${phase} · mode ${state.mode}${state.asleep ? " · asleep" : ""}`);
  showNames(state.names || {});
  document.body.dataset.phase = state.phase;
  const launcher = {
    none: "No launcher on this table.",
    idle: "Ready.",
    dispensing: `Dealing: ${state.owed} owed.`,
    jam: `JAM: clear the slot, then OK. ${state.owed} owed.`,
    empty: `Empty: refill the hopper, then OK. ${state.owed} owed.`,
  }[state.launcher] || state.launcher;
  launcherText = `${launcher} ${state.cards_dispensed} dealt, ${state.jams} jam${state.jams === 1 ? "" : "s"}.`;
  $("launcher").dataset.state = state.launcher;
  showLauncher();
}

function showLauncher() {
  const down = linkDown ? "Link to the launcher down: cards wait. " : "";
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
    item.dataset.meaning = light.meaning;
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
  const paused = timer.running ? "" : " (paused)";
  text($("turn-text"), left === null ? `${who(timer.seat)}'s turn: time hidden${paused}`
    : `${who(timer.seat)}'s turn: ${Math.ceil(left)} s left${paused}`);
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
    item.textContent = `${who(press.seat)}: ${press.ms} ms${press.tie ? " (tie)" : ""}`;
    return item;
  }));
  for (const seat of event.slowest.filter((s) => !event.order.some((p) => p.seat === s && p.ms !== null))) {
    const item = document.createElement("li");
    item.textContent = `${who(seat)}: no press`;
    list.append(item);
  }
  const slowest = document.createElement("li");
  slowest.textContent = `Slowest: ${event.slowest.map(who).join(", ")} draws ${event.penalty}`;
  slowest.className = "slowest";
  list.append(slowest);
  $("slap-none").hidden = true;
}

function showHit(event) {
  const item = document.createElement("li");
  const hit = event.seat === null ? "A hit" : who(event.seat);
  item.textContent = event.cards ? `${hit}: ${event.cards} card${event.cards > 1 ? "s" : ""}` : `${hit}: nothing`;
  $("hits").prepend(item);
  while ($("hits").children.length > HITS_SHOWN) $("hits").lastChild.remove();
}

function showRound(event) {
  $("round").hidden = false;
  text($("round-winner"), event.winner === null ? "Ended before anyone went out." : `${who(event.winner)} won.`
    + (event.places.length ? ` Places: ${event.places.map(who).join(", ")}.` : ""));
  const head = ["Player", "Turns", "Avg turn s", "Timeouts", "SLAPs lost", "SLAP best ms", "Cards"];
  const rows = event.seats.map((s) => [s.name || `Seat ${s.seat}`, s.turns, s.average_turn ?? "–", s.timeouts,
    s.slaps_lost, s.slap_best_ms ?? "–", s.launcher_cards]);
  const table = $("round-table");
  table.replaceChildren();
  const tr = table.insertRow();
  head.forEach((h) => { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; tr.append(th); });
  rows.forEach((r) => { const row = table.insertRow(); r.forEach((c) => { row.insertCell().textContent = String(c); }); });
}

// -- the remote ----------------------------------------------------------------------

// Each answer shows beside the control that asked: in the answer line of that control's row.
function say(row, message, refused) {
  let answer = row.querySelector(":scope > .answer");
  if (!answer) {
    answer = document.createElement("p");
    answer.className = "answer";
    answer.setAttribute("role", "status");
    answer.setAttribute("aria-live", "polite");
    row.append(answer);
  }
  text(answer, message);
  answer.classList.toggle("refused", Boolean(refused));
}

class Refused extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({ error: `${response.status}` }));
  if (!response.ok) throw new Refused(answer.error || `${response.status}`, response.status);
  return answer;
}

async function loadRemote() {
  const response = await fetch("/remote", { credentials: "same-origin" });
  const remote = await response.json();
  settingsModel = remote;
  $("remote-off").hidden = remote.password_set;
  $("jump").hidden = !remote.signed_in;
  if (remote.signed_in) {
    putSignInBack();
    $("controls").hidden = false;
    if (!$("settings").children.length) buildControls(remote);
  } else if (remote.password_set && (!$("controls").hidden || $("login").hidden)) {
    // Signed out (here, elsewhere, by a restart or an expiry): the form takes the
    // controls' place, and the operator's eyes if they were on them.
    const looking = inView($("controls")) || inView($("remote-title"));
    $("controls").hidden = true;
    putSignInBack();
    $("settings").replaceChildren();
    showSignIn(null, looking);
  }
  return remote;
}

// The sign-in form's home: the top of the page, the first thing a phone shows.
function putSignInBack() {
  $("login").hidden = true;
  $("login").querySelector(".answer")?.remove();
  $("top").prepend($("login"));
}

// The sign-in form right after `place` (a control that was refused for want of it), or at
// the top; focused (and so on a phone's screen) if `looking`.
function showSignIn(place, looking) {
  const form = $("login");
  if (place) place.after(form);
  else $("top").prepend(form);
  form.hidden = false;
  if (looking) {
    $("password").focus({ preventScroll: true });
    form.scrollIntoView({ block: "nearest" });
  }
}

function inView(element) {
  if (element.hidden || !element.getClientRects().length) return false;
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

// A control's request, answered beside it; "sign in first" brings the form there.
async function ask(row, path, body, done) {
  try {
    const answer = await post(path, body);
    // The table was there already, or did less than asked (a dispense cut short): it says.
    say(row, answer.said || done, answer.whole === false);
    return answer;
  } catch (err) {
    say(row, err.message, true);
    if (err.status === 401) showSignIn(row, true);
    throw err;
  }
}

function buildControls(remote) {
  const box = $("settings");
  box.replaceChildren();
  for (const setting of remote.settings) {
    const row = document.createElement("div");
    row.className = "setting";
    const label = document.createElement("label");
    label.htmlFor = `set-${setting.key}`;
    label.textContent = setting.label;
    const select = document.createElement("select");
    select.id = `set-${setting.key}`;
    select.name = setting.key;
    for (const option of setting.options) {
      const item = document.createElement("option");
      item.value = JSON.stringify(option.value);
      item.textContent = option.text;
      select.append(item);
    }
    // What the chosen value does, as the LCD menu says it while a value is chosen.
    const about = document.createElement("p");
    about.className = "about";
    about.id = `about-${setting.key}`;
    select.setAttribute("aria-describedby", about.id);
    select.addEventListener("change", () => {
      explain(setting, select);
      change(setting, select, row);
    });
    row.append(label, select, about);
    box.append(row);
  }
  const dispense = $("dispense");
  $("dispense-box").hidden = !remote.dispense;
  if (remote.dispense) {
    dispense.replaceChildren(...Array.from({ length: remote.dispense.max }, (_, i) => {
      const item = document.createElement("option");
      item.value = String(i + 1);
      item.textContent = `${i + 1} card${i ? "s" : ""}`;
      return item;
    }));
  }
  showSettings(settings);
}

function explain(setting, select) {
  const option = setting.options.find((o) => JSON.stringify(o.value) === select.value);
  text($(`about-${setting.key}`), option ? option.about : setting.about);
}

async function change(setting, select, row) {
  const chosen = `${setting.label}: ${select.selectedOptions[0].textContent}`;
  await ask(row, "/settings", { [setting.key]: JSON.parse(select.value) }, chosen)
    .catch(() => showSettings(settings));
}

function showSettings(values) {
  settings = values;
  for (const [key, value] of Object.entries(values)) {
    const select = $(`set-${key}`);
    if (!select) continue;
    select.value = JSON.stringify(value);
    const setting = settingsModel?.settings?.find((s) => s.key === key);
    if (setting) explain(setting, select);
  }
}

function command(row, action, extra = {}) {
  ask(row, "/command", { action, ...extra }, `Done: ${action.replace("_", " ")}`).catch(() => {});
}

function wire() {
  $("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    const password = $("password").value;
    $("password").value = "";
    try {
      await post("/login", { password });
      await loadRemote();
      say($("actions"), "Signed in.");
      if (source) source.close(); // again, as this session's: its end reaches this page
      connect();
    } catch (err) {
      say($("login"), err.message, true);
    }
  });
  $("logout").addEventListener("click", async () => {
    await post("/logout", {}).catch(() => {});
    await loadRemote();
    say($("login"), "Signed out.");
  });
  for (const button of document.querySelectorAll("button[data-action]")) {
    button.addEventListener("click", () => {
      $("confirm").hidden = true;
      command($("actions"), button.dataset.action);
    });
  }
  $("new-round").addEventListener("click", () => { $("confirm").hidden = false; $("confirm-yes").focus(); });
  $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
  $("deal").addEventListener("click", () => command($("dispense-box"), "dispense", { cards: Number($("dispense").value) }));
}

wire();
loadRemote().then((remote) => {
  if (!remote.view_needs_password || remote.signed_in) connect();
  else text($("link"), "sign in to see the table");
});
