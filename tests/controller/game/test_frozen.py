"""The engine's quick copies: the same objects `dataclasses.replace` makes, for every state
class of the game, on which the shortcut's conditions hold."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import pkgutil

import pytest

import controller.game
from controller.game.frozen import replace
from controller.game.state import Table

from .driver import Game


def game_dataclasses() -> list[type]:
    found = []
    for module in pkgutil.iter_modules(controller.game.__path__):
        loaded = importlib.import_module(f"controller.game.{module.name}")
        for _, value in inspect.getmembers(loaded, inspect.isclass):
            if dataclasses.is_dataclass(value) and value.__module__ == loaded.__name__:
                found.append(value)
    return found


@pytest.mark.parametrize("cls", game_dataclasses(), ids=lambda cls: cls.__qualname__)
def test_no_game_dataclass_needs_its_init_to_be_copied(cls):
    """A copy of `__dict__` skips `__init__`: right only while none has work of its own there,
    every field is one of its parameters and nothing else is (an InitVar would be), and no
    cached value sits in the `__dict__` beside the fields."""
    assert not hasattr(cls, "__post_init__")
    fields = [field.name for field in dataclasses.fields(cls)]
    assert list(inspect.signature(cls).parameters) == fields
    assert "__slots__" not in vars(cls)
    assert not any(isinstance(value, functools.cached_property) for value in vars(cls).values())


def played() -> Table:
    game = Game({"turn_timer": 5}, stations=4, seed=3)
    for seat in (1, 2, 3):
        game.tap(f"seat{seat}")
    game.tap("play_pause")
    game.run_until(game.now + 2)
    return game.table


def test_a_quick_copy_equals_the_one_dataclasses_makes_and_leaves_the_original_alone():
    table = played()
    changes = {"seated": frozenset({1, 2}), "last_input": 123.0}
    copy = replace(table, **changes)
    assert copy == dataclasses.replace(table, **changes)
    assert type(copy) is Table
    assert copy is not table and table.seated == frozenset({1, 2, 3})
    assert replace(table) == table


def test_a_quick_copy_is_frozen_too():
    copy = replace(played(), last_input=1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.last_input = 2.0  # type: ignore[misc]


def test_an_unknown_field_is_refused_by_name():
    with pytest.raises(TypeError, match="Table has no field 'seats'"):
        replace(played(), seats=3)  # type: ignore[call-arg]
