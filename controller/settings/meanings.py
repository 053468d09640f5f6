"""What each setting does, and each of its word options, in one line each: the LCD menu shows
the line of the value being chosen, as do the view's help, the web remote and docs/config.md.
Written in English, marked for the catalogs: each is translated where it is shown."""

from __future__ import annotations

from collections.abc import Mapping

from ..catalogs import N_

ABOUT: Mapping[str, str] = {
    "mode": N_("What the table plays."),
    "turn_timer": N_("How long the lit player has to press their button."),
    "surprise_min": N_("The shortest secret limit of a surprise turn."),
    "surprise_max": N_("The longest secret limit of a surprise turn."),
    "timeout_penalty": N_("Cards for a player whose time runs out."),
    "slap_window": N_("How long the others have to hit their buttons after a SLAP."),
    "slap_penalty": N_("Cards for the slowest player of a SLAP race."),
    "picker": N_("How the next player is picked."),
    "jump_in": N_("Whether a player may play an identical card out of turn."),
    "finish": N_("How a round ends."),
    "target_score": N_("The total of card points that wins the game."),
    "hit_ends_turn": N_("Whether the lit player's launcher press ends their turn."),
    "sleep_time": N_("Minutes without a press before the table pauses and goes dark."),
    "launcher_profile": N_("How often the launcher fires, and how many cards."),
    "custom_chance": N_("How often a press fires, on the custom profile."),
    "custom_min": N_("The smallest burst of the custom profile."),
    "custom_max": N_("The largest burst of the custom profile."),
    "burst_cap": N_("The most cards one player gets from hits within 10 s."),
    "jam_time": N_("How long the roller may run with no card out before it stops: a jam."),
    "volume": N_("How loud the buzzer sounds."),
    "brightness": N_("How bright the seat lights shine."),
    # Every seat's handicap_seatN, one line for all.
    "handicap_seat": N_("Extra seconds on every turn of this seat, for younger players."),
    "language": N_("The language of the LCD, its menu and the terminal view."),
}
MEANINGS: Mapping[str, Mapping[str, str]] = {
    "mode": {
        "flash": N_("Random turns and timers; draw by hand, penalties on the LCD."),
        "extreme": N_("The launcher alone: each press a random hit; no turns."),
        "table": N_("Flash and Extreme: random turns, the launcher deals penalties."),
    },
    "turn_timer": {
        "off": N_("No time limit: the lit player takes their time."),
        "surprise": N_("A secret limit each turn, between Surprise min and max."),
    },
    "picker": {
        "classic": N_("Anyone, at random: the same player may come up again and again."),
        "fair": N_("Never 3 times running; the longer you wait, the likelier you are."),
    },
    "jump_in": {
        "off": N_("Only the lit player plays."),
        "on": N_("Hold your button 0.6 s to jump in with an identical card."),
    },
    "finish": {
        "first": N_("The first player out wins, and the round ends."),
        "places": N_("Play on: each player out takes the next place."),  # Weiterspielen
    },
    "target_score": {"0": N_("No score kept: enter no points after a round.")},
    "hit_ends_turn": {
        "off": N_("The timer waits while the cards fly; then press your button."),
        "on": N_("UNO Attack's rule: the turn ends once the cards have landed."),
    },
    "sleep_time": {"off": N_("The table never sleeps.")},
    "launcher_profile": {
        "classic": N_("Fires about 1 press in 3; 1 to 8 cards, mostly 3 to 5."),
        "mild": N_("Fires about 1 press in 4; 1 to 3 cards."),
        "wild": N_("Fires about 1 press in 2; 2 to 12 cards."),
        "ascending": N_("Likelier with every miss: it fires by the 4th press."),
        "custom": N_("Your own chance and burst sizes (Custom launcher)."),
    },
    "burst_cap": {"off": N_("No cap: every burst lands in full.")},
    "volume": {"off": N_("Silent."), "low": N_("Quiet tones."), "high": N_("Full tones.")},
    "language": {
        "en": N_("English."),
        "de": N_("German, on the LCD with its own letters ä ö ü ß."),
        "zh": N_("Chinese in the view; the LCD shows English."),
    },
}
