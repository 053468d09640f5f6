// A game event as a sentence a player reads ("Seat 2 timed out: 2 cards"), for the live view
// and the room screen, in the page's language (words.js). `name(seat)` says how a seat is
// called. An event type this file does not know yet reads as its own name, never as
// key=value.
"use strict";

let settingLabels = {}; // a setting's label by its key, as the table's /remote gives them

// A seat with no name: "Seat 3".
function seatName(seat) {
  return _("Seat {seat}", { seat });
}

// A mode of play by its name in the page's language.
function modeName(mode) {
  return { flash: _("Flash"), extreme: _("Extreme"), table: _("Table") }[mode] || mode;
}

// A button of the table by its input's name ("seat2", "play_pause").
function inputName(input) {
  const seat = /^seat(\d+)$/.exec(input);
  if (seat) return seatName(Number(seat[1]));
  return { play_pause: _("Play/Pause"), "encoder.push": _("Encoder"), slap: "SLAP", launcher: _("Launcher") }[input]
    || input;
}

function cards(n) {
  return ngettext("{n} card", "{n} cards", n);
}

function seatList(seats, name) {
  const names = seats.map(name);
  if (names.length < 2) return names.join("");
  return _("{names} and {last}", { names: names.slice(0, -1).join(_(", ")), last: names[names.length - 1] });
}

// The labels of the settings the table offers (from its /remote), for "Settings changed".
function nameSettings(settings) {
  settingLabels = Object.fromEntries(settings.map((s) => [s.key, s.label]));
}

function slapResult(e, name) {
  const fields = { names: seatList(e.slowest, name), cards: cards(e.penalty) };
  if (e.slowest.length > 1) {
    return e.penalty ? _("SLAP: {names} were slowest and draw {cards}", fields)
      : _("SLAP: {names} were slowest", fields);
  }
  return e.penalty ? _("SLAP: {names} was slowest and draws {cards}", fields) : _("SLAP: {names} was slowest", fields);
}

function hit(e, name) {
  if (e.seat === null) return e.cards ? _("The launcher: {cards}!", { cards: cards(e.cards) }) : _("The launcher: lucky, no cards");
  const fields = { name: name(e.seat), cards: cards(e.cards) };
  return e.cards ? _("{name}: {cards}!", fields) : _("{name}: lucky, no cards", fields);
}

const SENTENCES = {
  seat_claimed: (e, name) => _("{name} joined", { name: name(e.seat) }),
  seat_released: (e, name) => _("{name} left their seat", { name: name(e.seat) }),
  start_refused: () => _("Two players are needed to start"),
  seating: () => _("Seating: press your button to join"),
  round_started: (e, name) => _("A new round ({mode}) for {names}", { mode: modeName(e.mode), names: seatList(e.seats, name) }),
  turn_started: (e, name) => (e.limit === null ? _("{name}'s turn", { name: name(e.seat) })
    : _("{name}'s turn ({seconds} s)", { name: name(e.seat), seconds: e.limit })),
  turn_ended: (e, name) => _("{name} played in {seconds} s", { name: name(e.seat), seconds: decimal(e.seconds, 1, true) }),
  timeout: (e, name) => (e.penalty ? _("{name} timed out: {cards}", { name: name(e.seat), cards: cards(e.penalty) })
    : _("{name} timed out", { name: name(e.seat) })),
  penalty: (e, name) => _("{name} draws {cards}", { name: name(e.seat), cards: cards(e.cards) }),
  jump_in: (e, name) => _("{name} jumped in on {other}", { name: name(e.seat), other: name(e.from) }),
  slap_started: (e, name) => _("{name} slapped! Everyone slap", { name: name(e.seat) }),
  slap_result: slapResult,
  paused: () => _("Paused"),
  resumed: () => _("Play goes on"),
  asleep: () => _("The table fell asleep"),
  woke: () => _("The table woke up"),
  round_over: (e, name) => (e.winner === null ? _("The round ended") : _("{name} won the round!", { name: name(e.winner) })),
  place_taken: (e, name) => _("{name} is out: place {place}", { name: name(e.seat), place: e.place }),
  player_back: (e, name) => _("{name} is back in the round", { name: name(e.seat) }),
  seat_named: (e) => (e.name ? _("Seat {seat} is {name}", { seat: e.seat, name: e.name })
    : _("Seat {seat} has no name now", { seat: e.seat })),
  points_entered: (e, name) => ngettext("{name}'s hand: {n} point for {winner} (total {total})",
    "{name}'s hand: {n} points for {winner} (total {total})", e.points,
    { name: name(e.seat), winner: name(e.winner), total: e.total }),
  game_won: (e, name) => _("{name} wins the game with {total} points!", { name: name(e.seat), total: e.total }),
  new_game: (e) => _("A new game to {target}", { target: e.target }),
  standings_reset: () => _("The standings start over"),
  hit,
  dispense: (e, name) => (e.seat === null ? _("The launcher deals {cards}", { cards: cards(e.cards) })
    : _("The launcher deals {cards} to {name}", { cards: cards(e.cards), name: name(e.seat) })),
  card_out: () => _("A card is out"),
  launcher_fault: (e) => (e.fault === "jam" ? _("The launcher jammed: {cards} wait", { cards: cards(e.owed) })
    : _("The launcher is empty: {cards} wait", { cards: cards(e.owed) })),
  launcher_resumed: (e) => _("The launcher goes on: {cards} to come", { cards: cards(e.owed) }),
  button_stuck: (e) => _("A button is stuck down ({button})", { button: inputName(e.input) }),
  button_freed: (e) => _("The stuck button is free ({button})", { button: inputName(e.input) }),
  settings_changed: (e) => _("Settings changed: {settings}", { settings: Object.keys(e.changes)
    .map((key) => settingLabels[key] || key.replaceAll("_", " ")).join(_(", ")) }),
};

function sentence(event, name) {
  const say = SENTENCES[event.type];
  return say ? say(event, name) : event.type.replaceAll("_", " ");
}
