"""Mods: the mod contract, low, and the machinery that loads and calls mods above it.

The mod-facing names (what a mod's hooks receive and return) sit at the bottom of this package:
the hook markers and specifications (`mods.hooks`), the world view (`mods.view.ModWorld`), who
acts and what an action did (`mods.outcome`: `Actor`, `Outcome`), what a click tells a placed
block (`mods.context.PlaceContext`), a chunk just generated (`mods.generated`), the registrar
(`mods.registrar.BlockRegistrar`), chat commands and their registrar (`mods.commands`), text
prompts (`mods.text_prompt`), and a mod's call and failure (`mods.calls`). The view reaches the
rules' checks and nested actions through the transaction it belongs to (`mods.view.Session`): it
never imports the actions.

Above them, the host: the loaded mods (`mods.host.Mods`, given the game's content plugins
first), the loader (`mods.loader.load_mods`), a run's registrations (`mods.registration`), the
hook watchdog (`mods.guard`), the circuit breaker (`mods.breaker`) and mods' textures
(`mods.textures`). Imports the layers below it (items, blocks, voxels, ray, physics).
"""

from __future__ import annotations

from world.mods.context import PlaceContext
from world.mods.hooks import hookimpl
from world.mods.host import Mods
from world.mods.loader import load_mods
from world.mods.outcome import Actor, Outcome
from world.mods.registrar import BlockRegistrar
from world.mods.view import ModWorld

__all__ = [
    "Actor",
    "BlockRegistrar",
    "ModWorld",
    "Mods",
    "Outcome",
    "PlaceContext",
    "hookimpl",
    "load_mods",
]
