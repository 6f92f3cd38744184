"""The players in a world as data: who they are, where they stand and look, what they carry.

Contract
--------
- A `Player` is a record the world holds (``world.players``): ``name``, ``pos`` (the centre of
  the feet), ``look`` (a unit direction), ``eye_height``, ``creative`` and ``inventory`` (a
  `world.items.inventory.Inventory`). The game joins its player when a world opens and moves
  ``pos``/``look`` every frame from the body it simulates (`Players.follow`: not an action, not
  recorded); mods see players through `world.mods.objects.PlayerRef`.
- One path for every change. The inventory's slots record every write through the world's
  journal (`world.items.inventory.Slots`): a write inside an action is undone with it, and any
  write marks the players unsaved (``Players.modified``), whoever made it. `Players.teleport`
  (a mod's, a command's) is recorded the same way and counts ``moves``, so the game moves the
  body it simulates to where the world put the player.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from world.blocks.registry import BlockRegistry
from world.geometry import Vec3
from world.items.inventory import STACK_MAX, Inventory, ItemStack, Slots
from world.voxels.entities import checked_vec3
from world.voxels.journal import Journal

__all__ = ["EYE", "MAX_PLAYERS", "Player", "Players"]

EYE = 1.62  # blocks from the feet to the eye (Minecraft's)
MAX_PLAYERS = 64


@dataclass(eq=False)
class Player:
    """One player's record (module notes). Write it through `Players`."""

    name: str
    pos: Vec3
    inventory: Inventory
    look: Vec3 = (0.0, 0.0, -1.0)
    eye_height: float = EYE
    creative: bool = False
    moves: int = 0  # teleports by the world so far (the game follows each)

    @property
    def eye(self) -> Vec3:
        """Where the player's eye is."""
        x, y, z = self.pos
        return x, y + self.eye_height, z

    @property
    def held(self) -> ItemStack | None:
        """The stack in the selected hotbar slot."""
        return self.inventory.current


class Players:
    """The players of one world, by name (module notes)."""

    def __init__(self, journal: Journal, registry: BlockRegistry | None = None) -> None:
        self._journal = journal
        # Items that stack to fewer than 64 (tools: 1), kept by every joined inventory.
        self._limits = (
            {}
            if registry is None
            else {n: i.stack_max for n, i in registry.items.items() if i.stack_max < STACK_MAX}
        )
        self._players: dict[str, Player] = {}
        self.modified = False

    def __iter__(self) -> Iterator[Player]:
        return iter(list(self._players.values()))

    def __len__(self) -> int:
        return len(self._players)

    def __contains__(self, name: object) -> bool:
        return name in self._players

    def get(self, name: str) -> Player | None:
        """The player of that name, or None."""
        return self._players.get(name)

    def join(
        self,
        name: str,
        pos: Vec3,
        inventory: Inventory | None = None,
        *,
        creative: bool = False,
    ) -> Player:
        """A player enters the world (the game's, when it opens one); their inventory's writes
        are recorded from now on."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a non-empty string, got {name!r}")
        if name in self._players:
            raise ValueError(f"a player named {name!r} is in the world already")
        if len(self._players) >= MAX_PLAYERS:
            raise ValueError(f"the world holds {MAX_PLAYERS} players already")
        if inventory is not None and not isinstance(inventory, Inventory):
            raise ValueError(f"inventory must be an Inventory, got {type(inventory).__name__}")
        player = Player(
            name,
            checked_vec3(pos, "pos", in_world=True),
            inventory if inventory is not None else Inventory(),
        )
        player.creative = bool(creative)
        player.inventory.limits.update(self._limits)
        player.inventory.record_with(self._recorded)
        self._players[name] = player
        return player

    def leave(self, name: str) -> None:
        """A player leaves: their inventory is no longer recorded."""
        player = self._players.pop(name, None)
        if player is not None:
            player.inventory.record_with(None)

    def follow(self, player: Player, pos: Vec3, look: Vec3 | None = None) -> None:
        """Where the game's body is now (every frame; not an action, not recorded)."""
        new_pos = checked_vec3(
            pos, "pos", in_world=True
        )  # both checked before either is set: a bad one changes nothing
        player.look = player.look if look is None else checked_vec3(look, "look", in_world=True)
        player.pos = new_pos

    def teleport(self, player: Player, pos: Vec3) -> None:
        """Move a player (a mod's or a command's: recorded, and the game follows)."""
        new = checked_vec3(pos, "pos", in_world=True)
        self._journal.record(("undo", self._unteleport, (player, player.pos, player.moves)))
        player.pos = new
        player.moves += 1
        self.modified = True

    def _recorded(self, slots: Slots, index: int, old: ItemStack | None) -> None:
        self._journal.record(("undo", _restore_slot, (slots, index, old)))
        self.modified = True

    @staticmethod
    def _unteleport(state: tuple[Player, Vec3, int]) -> None:
        player, pos, moves = state
        player.pos, player.moves = pos, moves


def _restore_slot(state: tuple[Slots, int, ItemStack | None]) -> None:
    slots, index, old = state
    slots.restore(index, old)
