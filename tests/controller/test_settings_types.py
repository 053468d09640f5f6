"""`settings.key` has the type of the values its setting allows, for every setting."""

import typing

from controller.settings import SETTINGS, Settings


def test_every_setting_is_declared_on_settings_with_the_type_of_its_values():
    hints = {k: v for k, v in typing.get_type_hints(Settings).items() if not k.startswith("_")}
    assert set(hints) == {s.key for s in SETTINGS}
    for spec in SETTINGS:
        kinds = {type(option) for option in spec.options}
        declared = set(typing.get_args(hints[spec.key])) or {hints[spec.key]}
        assert declared == kinds, spec.key
        assert isinstance(getattr(Settings(), spec.key), tuple(kinds))
