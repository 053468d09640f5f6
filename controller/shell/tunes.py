"""The table's sounds: each a short tune of (note, seconds), note None for a rest."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hardware.patterns import Note

TUNES: Mapping[str, Sequence[Note]] = {
    "join": (("C5", 0.06), ("E5", 0.06), ("G5", 0.1)),
    "leave": (("G5", 0.06), ("E5", 0.06), ("C5", 0.1)),
    "refuse": (("C4", 0.15), (None, 0.05), ("C4", 0.15)),
    "start": (("C5", 0.1), ("E5", 0.1), ("G5", 0.1), ("C6", 0.25)),
    "turn": (("A5", 0.05),),
    "again": (("A5", 0.05), (None, 0.05), ("A5", 0.05)),  # the same seat once more
    "tick": (("E6", 0.03),),
    "timeout": (("A3", 0.25), ("F3", 0.45)),
    "pause": (("E5", 0.08), ("A4", 0.12)),
    "resume": (("A4", 0.08), ("E5", 0.12)),
    # A siren short enough that the first racer's click is heard.
    "slap": (("E6", 0.06), ("B5", 0.06), ("E6", 0.06), ("B5", 0.06)),
    "slap_in": (("G6", 0.025),),
    "slap_over": (("G4", 0.12), ("E4", 0.12), ("C4", 0.3)),
    "jump_in": (("C5", 0.05), ("G5", 0.05), ("C6", 0.1)),
    "fanfare": (
        ("G4", 0.1),
        ("C5", 0.1),
        ("E5", 0.1),
        ("G5", 0.22),
        (None, 0.05),
        ("E5", 0.1),
        ("G5", 0.45),
    ),
    "round_ended": (("G4", 0.12), ("C4", 0.3)),
    # A place taken while the round plays on: a short rise, not the round's fanfare.
    "place": (("E5", 0.08), ("G5", 0.08), ("E6", 0.2)),
    # A hand's card points entered; a game won to target_score: a longer fanfare.
    "points": (("C6", 0.05),),
    "game_won": (
        ("C5", 0.1),
        ("E5", 0.1),
        ("G5", 0.1),
        ("C6", 0.3),
        (None, 0.08),
        ("G5", 0.1),
        ("C6", 0.42),
    ),
    "wake": (("G4", 0.06), ("C5", 0.1)),
    # The launcher's chime before it fires (or not): the same length, quicker notes with
    # every miss on the ascending profile.
    "chime0": (("C6", 0.15), ("E6", 0.15), ("G6", 0.25)),
    "chime1": tuple((note, 0.1) for note in ("C6", "E6", "G6", "E6", "G6")),
    "chime2": tuple((note, 0.07) for note in ("C6", "E6", "G6", "E6") * 2),
    "chime3": tuple((note, 0.05) for note in ("C6", "G6") * 6),
    "fire": (("C7", 0.04), ("G6", 0.04)),
    "alarm": (("A5", 0.2), ("D5", 0.2)) * 3,
}
