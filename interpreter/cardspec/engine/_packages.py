"""Packages that were one module: their face (``__init__``) re-exports names of their parts, and setting one of
those names on the face sets it in every part that holds it, as it did in the one module.

``monkeypatch.setattr(cardspec.engine.melds, "_sets", counted)`` (a test counting the card sets listed)
reaches ``melds_in``, which reads ``_sets`` among the globals of its own part; so does a setting such as
``cardspec.players.solve.CACHE_STATES``. Reading a name on the face costs nothing more; only setting and
deleting one go through ``_OneNamespace``.
"""
from __future__ import annotations

import sys
from types import ModuleType

_MISSING = object()


class _OneNamespace(ModuleType):
    """A package's module object whose names are also its parts' names (module doc)."""

    def __setattr__(self, name, value):
        _forward(self, name, value)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        _forward(self, name, _MISSING)
        super().__delattr__(name)


def _forward(face, name, value):
    """Set ``name`` to ``value`` (``_MISSING``: delete it) in each loaded part of ``face`` that holds the same
    object as the face under that name (a part's own, different object of that name is left alone)."""
    old = face.__dict__.get(name, _MISSING)
    if old is _MISSING or isinstance(old, ModuleType):   # a new name, or a part itself (set by the import system)
        return
    prefix = face.__name__ + "."
    for module_name, part in list(sys.modules.items()):
        if module_name.startswith(prefix) and part is not None and part.__dict__.get(name, _MISSING) is old:
            if value is _MISSING:
                delattr(part, name)
            else:
                setattr(part, name, value)


def one_namespace(package: str) -> None:
    """Make the loaded package ``package`` (a dotted name) set the names it re-exports in its parts too."""
    sys.modules[package].__class__ = _OneNamespace
