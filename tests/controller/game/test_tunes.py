"""Every sound the rules ask for is a tune the buzzer can play."""

import re
from pathlib import Path

from gpiozero.tones import Tone

import controller.game
from controller.shell.tunes import TUNES


def test_every_sound_the_engine_names_has_a_tune():
    source = "".join(p.read_text() for p in Path(controller.game.__file__).parent.glob("*.py"))
    named = set(re.findall(r'Sound\("([a-z_]+)"\)', source))
    assert named >= {"slap", "slap_in", "slap_over", "jump_in", "fanfare", "wake", "timeout"}
    assert named <= set(TUNES)


def test_every_note_is_a_tone_and_every_tune_is_short():
    for name, tune in TUNES.items():
        for note, seconds in tune:
            assert note is None or Tone(note).frequency > 0
            assert 0 < seconds <= 0.5
        # In whole milliseconds: a float sum's last bit differs between Python versions.
        assert sum(round(seconds * 1000) for _, seconds in tune) <= 1200, name
