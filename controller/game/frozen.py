"""Changed copies of the engine's frozen dataclasses, made fast.

The engine makes a new `Table` (and its parts) for every change, several in each step, and
`dataclasses.replace` is most of a step's cost: it reads every field and runs the frozen
`__init__`, which sets each one through `object.__setattr__`. The state classes of the game
have no `__post_init__`, no `InitVar` and no field left out of `__init__`, so a copy of the
instance's `__dict__` with the changes laid over it is an equal object, made several
times faster. mypy checks each call as the `dataclasses.replace` it stands for (field names and
types); at run time an unknown field name is still refused.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from dataclasses import replace as replace
else:
    T = TypeVar("T")
    _FIELDS: dict[type, frozenset[str]] = {}

    def replace(obj: T, /, **changes: Any) -> T:
        """`obj` with `changes`, as `dataclasses.replace` makes it."""
        cls = type(obj)
        names = _FIELDS.get(cls)
        if names is None:
            names = _FIELDS[cls] = frozenset(field.name for field in fields(cls))
        if not names.issuperset(changes):
            unknown = sorted(set(changes) - names)
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
        copy = object.__new__(cls)
        copy.__dict__.update(obj.__dict__)
        copy.__dict__.update(changes)
        return copy
