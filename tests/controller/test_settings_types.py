"""`settings.key` has the type of the values its setting allows, for every setting, and a
setting takes no other type for them: JSON's true is not 1."""

import typing

import pytest

from controller.errors import SettingError
from controller.settings import SETTINGS, Settings


def test_every_setting_is_declared_on_settings_with_the_type_of_its_values():
    hints = {k: v for k, v in typing.get_type_hints(Settings).items() if not k.startswith("_")}
    assert set(hints) == {s.key for s in SETTINGS}
    for spec in SETTINGS:
        kinds = {type(option) for option in spec.options}
        declared = set(typing.get_args(hints[spec.key])) or {hints[spec.key]}
        assert declared == kinds, spec.key
        assert isinstance(getattr(Settings(), spec.key), tuple(kinds))


def test_true_and_false_are_never_a_number_of_a_setting():
    """JSON's true and false are 1 and 0 to Python: a setting that allows 1 or 0 refuses them
    all the same, naming what came (a remote that sends `true` means something else)."""
    numbered = [s for s in SETTINGS if {0, 1} & {o for o in s.options if isinstance(o, int)}]
    assert numbered  # burst caps, penalties, handicaps...
    for spec in numbered:
        for raw in (True, False):
            with pytest.raises(SettingError, match=f"{spec.key} cannot be {str(raw).lower()}"):
                spec.parse(raw)
