// A game event as a sentence a player reads ("Seat 2 timed out: 2 cards"), for the live view
// and the room screen. `name(seat)` says how a seat is called. An event type this file does
// not know yet reads as its own name, never as key=value.
"use strict";

function cards(n) {
  return `${n} card${n === 1 ? "" : "s"}`;
}

function seatList(seats, name) {
  const names = seats.map(name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

const SENTENCES = {
  seat_claimed: (e, name) => `${name(e.seat)} joined`,
  seat_released: (e, name) => `${name(e.seat)} left their seat`,
  start_refused: () => "Two players are needed to start",
  seating: () => "Seating: press your button to join",
  round_started: (e, name) => `A new round (${e.mode}) for ${seatList(e.seats, name)}`,
  turn_started: (e, name) => `${name(e.seat)}'s turn` + (e.limit === null ? "" : ` (${e.limit} s)`),
  turn_ended: (e, name) => `${name(e.seat)} played in ${e.seconds.toFixed(1)} s`,
  timeout: (e, name) => `${name(e.seat)} timed out` + (e.penalty ? `: ${cards(e.penalty)}` : ""),
  penalty: (e, name) => `${name(e.seat)} draws ${cards(e.cards)}`,
  jump_in: (e, name) => `${name(e.seat)} jumped in on ${name(e.from)}`,
  slap_started: (e, name) => `${name(e.seat)} slapped! Everyone slap`,
  slap_result: (e, name) => `SLAP: ${seatList(e.slowest, name)} ${e.slowest.length > 1 ? "were" : "was"} slowest`
    + (e.penalty ? ` and ${e.slowest.length > 1 ? "draw" : "draws"} ${cards(e.penalty)}` : ""),
  paused: () => "Paused",
  resumed: () => "Play goes on",
  asleep: () => "The table fell asleep",
  woke: () => "The table woke up",
  round_over: (e, name) => (e.winner === null ? "The round ended" : `${name(e.winner)} won the round!`),
  place_taken: (e, name) => `${name(e.seat)} is out in ${ordinal(e.place)} place`,
  player_back: (e, name) => `${name(e.seat)} is back in the round`,
  seat_named: (e, name) => (e.name ? `Seat ${e.seat} is ${e.name}` : `Seat ${e.seat} has no name now`),
  points_entered: (e, name) => `${name(e.seat)}'s hand: ${e.points} points for ${name(e.winner)}`
    + ` (total ${e.total})`,
  game_won: (e, name) => `${name(e.seat)} wins the game with ${e.total} points!`,
  new_game: (e) => `A new game to ${e.target}`,
  standings_reset: () => "The standings start over",
  hit: (e, name) => `${e.seat === null ? "The launcher" : name(e.seat)}: `
    + (e.cards ? `${cards(e.cards)}!` : "lucky, no cards"),
  dispense: (e, name) => `The launcher deals ${cards(e.cards)}` + (e.seat === null ? "" : ` to ${name(e.seat)}`),
  card_out: () => "A card is out",
  launcher_fault: (e) => (e.fault === "jam" ? "The launcher jammed" : "The launcher is empty")
    + `: ${cards(e.owed)} wait`,
  launcher_resumed: (e) => `The launcher goes on: ${cards(e.owed)} to come`,
  button_stuck: (e) => `A button is stuck down (${e.input})`,
  button_freed: (e) => `The stuck button is free (${e.input})`,
  settings_changed: (e) => `Settings changed: ${Object.keys(e.changes).join(", ").replaceAll("_", " ")}`,
};

function sentence(event, name) {
  const say = SENTENCES[event.type];
  return say ? say(event, name) : event.type.replaceAll("_", " ");
}
