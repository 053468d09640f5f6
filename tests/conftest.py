"""Test-wide set-up: `async def` tests run on a fresh event loop each."""

import asyncio
import inspect

import pytest
from hypothesis import settings

# `pytest --hypothesis-profile=thorough` tries thousands of cases where the suite tries 100.
settings.register_profile("thorough", max_examples=2000)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None
