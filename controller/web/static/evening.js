// The players' names and the game to target_score: the names on the seats, the turn and the
// summaries; the totals and a game won; on the remote, a name per seat and the card points
// left in each hand after a round. Loaded before app.js, whose helpers ($, text, ask) it
// uses once the page runs.
"use strict";

let names = {}; // by seat, as the table's state has them
let scoreNow = null; // the standings topic's "score"
let seatCount = 0;

// A seat as the page names it: its player's name, or "Seat 3".
function who(seat) {
  return names[seat] || seatName(seat);
}

// A seat's words on the page: its player's name, and what its light means.
function labelSeat(item) {
  const seat = Number(item.dataset.seat);
  const meaning = item.dataset.meaning;
  text(item.children[1], names[seat] ? _("{name}: {meaning}", { name: names[seat], meaning }) : meaning);
  item.setAttribute("aria-label", _("{name}: {meaning}", { name: who(seat), meaning }));
}

function showNames(kept) {
  if (JSON.stringify(kept) === JSON.stringify(names)) return; // the state comes every second
  names = kept;
  for (const item of document.querySelectorAll("#seats .seat")) labelSeat(item);
  for (const [seat, input] of nameInputs()) {
    if (document.activeElement !== input) input.value = names[seat] || "";
  }
  if (scoreNow) showScore(scoreNow);
}

function nameInputs() {
  return Array.from(document.querySelectorAll("#names input"), (i) => [Number(i.dataset.seat), i]);
}

// The remote's name rows, one per seat of the table (known from its lights).
function buildNames(count) {
  if (count === seatCount) return;
  seatCount = count;
  const box = $("names");
  box.replaceChildren(...Array.from({ length: count }, (unused, i) => {
    const seat = i + 1;
    const row = document.createElement("form");
    row.className = "row name";
    row.innerHTML = `<label for="name-${seat}"></label>`
      + `<input id="name-${seat}" data-seat="${seat}" maxlength="12" autocomplete="off">`
      + `<button type="submit" id="name-save-${seat}"></button>`;
    row.querySelector("label").textContent = seatName(seat);
    row.querySelector("input").placeholder = _("no name");
    row.querySelector("button").textContent = _("Save name");
    row.querySelector("input").value = names[seat] || "";
    row.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = row.querySelector("input").value.trim();
      const done = name ? _("Seat {seat} is {name}.", { seat, name }) : _("Seat {seat} has no name.", { seat });
      ask(row, "/command", { action: "name", seat, name }, done).catch(() => {});
    });
    return row;
  }));
}

function showStandings(standings) {
  scoreNow = standings.score;
  showScore(scoreNow);
}

function showScore(score) {
  const box = $("score-box");
  box.hidden = !score.target || !score.totals.length;
  text($("score-target"), String(score.target));
  const won = score.won === null ? "" : _("{name} wins the game with {total} points!",
    { name: who(score.won), total: score.totals.find((t) => t.seat === score.won).total });
  text($("game-won"), won);
  const table = $("score-table");
  table.replaceChildren();
  const head = table.insertRow();
  for (const title of [_("Player"), _("Total"), _("This round")]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  const round = score.round;
  const ranked = [...score.totals].sort((a, b) => b.total - a.total || a.seat - b.seat);
  for (const entry of ranked) {
    const row = table.insertRow();
    row.insertCell().textContent = who(entry.seat);
    row.insertCell().textContent = String(entry.total);
    let now = "";
    if (round && entry.seat === round.winner) {
      now = _("won: +{points}", { points: round.points.reduce((s, p) => s + p.points, 0) });
    } else if (round) now = round.waiting.includes(entry.seat) ? _("points to enter") : "";
    row.insertCell().textContent = now;
  }
  showPoints(round);
}

// The remote's points rows: one per seat of the round being scored, but its winner's.
function showPoints(round) {
  const box = $("points");
  const open = Boolean(round);
  $("points-title").hidden = !open;
  $("points-help").hidden = !open;
  $("jump-points").hidden = !open;
  if (!open) { box.replaceChildren(); return; }
  text($("points-help"), _("{name} won the round: enter the card points left in each other hand (numbers at "
    + "face value, action cards 20, wilds 50). An entry again corrects it, until the next round starts.",
  { name: who(round.winner) }));
  const seats = [...round.waiting, ...round.points.map((p) => p.seat)].sort((a, b) => a - b);
  if (box.dataset.round !== JSON.stringify([round.winner, seats])) {
    box.dataset.round = JSON.stringify([round.winner, seats]);
    box.replaceChildren(...seats.map((seat) => pointsRow(seat)));
  }
  for (const seat of seats) {
    const entered = round.points.find((p) => p.seat === seat);
    const label = $(`points-label-${seat}`);
    text(label, entered ? `${who(seat)} (${entered.points})` : who(seat));
  }
}

function pointsRow(seat) {
  const row = document.createElement("form");
  row.className = "row points";
  row.innerHTML = `<label for="points-${seat}" id="points-label-${seat}"></label>`
    + `<input id="points-${seat}" type="number" inputmode="numeric" min="0" max="999" step="1" required>`
    + `<button type="submit" id="points-save-${seat}"></button>`;
  row.querySelector("button").textContent = _("Enter");
  row.addEventListener("submit", (e) => {
    e.preventDefault();
    const points = Number(row.querySelector("input").value);
    const done = ngettext("{name}: {n} point.", "{name}: {n} points.", points, { name: who(seat) });
    ask(row, "/command", { action: "points", seat, points }, done).catch(() => {});
  });
  return row;
}
