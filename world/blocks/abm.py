"""Active block modifiers: a mod's action on random ticks of other mods' blocks (Luanti's ABMs).

A block's own ``on_random_tick`` covers the blocks a mod defines; an `Abm` lets a mod act on
blocks it does not own (leaves of the base game decaying, grass spreading): in its
``register_blocks`` hook, ``registry.register_abm(Abm(("base:leaves",), decay))``. Blocks are
named, or picked by group with ``"group:<name>"``. The action runs when a random tick
(`world.ticks.random_ticks`) picks a voxel of one of those blocks, with ``chance`` the probability
it acts on a pick, through the same watchdog and roll-back as every hook (`world.rules.Rules.tick`);
its arguments are chosen by name from ``world, pos, block, state, props``. Its calls share the
tick's budget with the timers and random ticks (`world.ticks.block_ticks`: picks that do not fit are
dropped), and in errors and in the circuit breaker (`world.mods.breaker`) it is named after the
blocks it names: *mod 'leaf_decay' failed in random tick of base:leaves*.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Abm"]


@dataclass(frozen=True)
class Abm:
    """What blocks a mod's random-tick action applies to, and how often it acts."""

    blocks: tuple[str, ...]
    action: Callable[..., Any]
    chance: float = 1.0
    mod: str = ""  # set at registration: errors are the mod's

    def __post_init__(self) -> None:
        if isinstance(self.blocks, str) or not isinstance(self.blocks, tuple) or not self.blocks:
            raise ValueError(
                f"blocks of an Abm must be a non-empty tuple of names, got {self.blocks!r}"
            )
        for name in self.blocks:
            if not isinstance(name, str) or ":" not in name:
                raise ValueError(f"Abm block {name!r} is not 'mod:name' or 'group:name'")
        if not callable(self.action):
            raise ValueError(f"action of an Abm must be callable, got {self.action!r}")
        chance = self.chance
        if isinstance(chance, bool) or not isinstance(chance, int | float):
            raise ValueError(f"chance of an Abm must be a number, got {chance!r}")
        if not (0.0 < chance <= 1.0) or math.isnan(chance):
            raise ValueError(f"chance of an Abm must be in (0, 1], got {chance!r}")

    def matches(self, name: str, groups: tuple[str, ...]) -> bool:
        """Whether a block of that name and groups is one this ABM acts on."""
        return any(
            target == name or (target.startswith("group:") and target[6:] in groups)
            for target in self.blocks
        )
