"""The player: a `world.physics.movement` body, a facing, a game mode, and the actor the rules see.

Pure: nothing here imports the engine (the game moves the camera to `Player.eye` every frame),
so saves (`game.session`), scripts and tests use a player without a window.

The world has its own record of the player (`world.voxels.players`: where mods, the rules and
the entities' steps see them, and the inventory the world records). `Player.join` enters the
world as `PLAYER_NAME` with the game's inventory; `Player.sync`, once a frame after the physics,
moves the body where the world teleported the player (a mod's or a command's
``teleport``, counted by the record's ``moves``) and tells the world where the body now is,
where it looks and its mode.

The game mode lives here and only here: `Player.creative`. The session restores it from the
save (or the command line) when it attaches the player and writes it back when saving; the
pause menu shows it and changes it through `Player.set_creative`; the rules read it through
`Player.actor`, and the world's record (what mods and pickups see) is given it by `sync`.
"""

from __future__ import annotations

from dataclasses import dataclass

from world.geometry import Vec3
from world.items.inventory import Inventory
from world.mods.outcome import Actor
from world.physics import movement as physics
from world.physics.body import EYE_HEIGHT
from world.physics.movement import Body, FixedStep, look_direction, with_flying
from world.voxels import players
from world.voxels.chunks import World

__all__ = ["PLAYER_NAME", "HeldInput", "Player"]

PLAYER_NAME = "player"


@dataclass
class HeldInput:
    """What is held down this frame: movement keys and mouse buttons."""

    forward: float = 0.0
    strafe: float = 0.0
    jump: bool = False
    sprint: bool = False
    sneak: bool = False
    attack: bool = False
    use: bool = False


class Player:
    """The body moved by fixed physics ticks, a yaw and a pitch (pitch clamped to ±90°).

    ``creative``: the game mode (survival when False); flying needs it.
    """

    def __init__(self, world: World, body: Body, *, creative: bool = False) -> None:
        self.world = world
        self.body = body
        self.creative = creative
        self.yaw = 0.0
        self.pitch = 0.0
        self.clock = FixedStep()
        self.joined: players.Player | None = None  # the world's record of this player (`join`)
        self._moves = 0  # the record's teleports the body has followed

    def join(self, inventory: Inventory) -> players.Player:
        """Enter the world as `PLAYER_NAME`, carrying ``inventory`` (the world records its
        writes from now on: `world.voxels.players.Players.join`)."""
        self.joined = self.world.players.join(
            PLAYER_NAME, self.body.pos, inventory, creative=self.creative
        )
        self._moves = self.joined.moves
        self.sync()
        return self.joined

    def sync(self) -> None:
        """Follow a teleport the world made, then tell the world where the body is, where it
        looks and the mode (module notes); nothing before `join`."""
        joined = self.joined
        if joined is None:
            return
        if joined.moves != self._moves:
            self._moves = joined.moves
            self.teleport(joined.pos)
        self.world.players.follow(joined, self.body.pos, self.direction)
        joined.creative = self.creative

    def look(self, yaw: float, pitch: float) -> None:
        """Face a yaw and a pitch in degrees (pitch > 0 looks down)."""
        self.yaw = yaw % 360.0
        self.pitch = min(max(pitch, -90.0), 90.0)

    def turn(self, dyaw: float, dpitch: float) -> None:
        """Turn by the given degrees (mouse look)."""
        self.look(self.yaw + dyaw, self.pitch + dpitch)

    def set_flying(self, flying: bool) -> bool:
        """Start or stop flying; only creative players fly. Returns whether they now fly."""
        self.body = with_flying(self.body, flying and self.creative)
        return self.body.flying

    def set_creative(self, creative: bool) -> None:
        """Switch the game mode; survival ends a flight."""
        self.creative = creative
        self.set_flying(self.body.flying)

    def teleport(self, feet: Vec3) -> None:
        """Put the feet at a position, at rest."""
        self.body = Body(pos=feet, flying=self.body.flying)
        self.clock.previous = None

    def update(self, dt: float, held: HeldInput) -> None:
        """Run the physics ticks this frame's time allows."""
        steering = physics.Controls(
            forward=held.forward,
            strafe=held.strafe,
            yaw=self.yaw,
            jump=held.jump,
            descend=held.sneak,
            sprint=held.sprint,
        )
        self.body = self.clock.advance(self.world, self.body, steering, dt)

    @property
    def eye(self) -> Vec3:
        """Where the camera is: between the last two physics ticks, at eye height."""
        x, y, z = self.clock.render_pos(self.body)
        return (x, y + EYE_HEIGHT, z)

    @property
    def direction(self) -> Vec3:
        """The unit view vector."""
        return look_direction(self.yaw, self.pitch)

    def actor(self, selected: int | None) -> Actor:
        """The player as `world.rules` sees them, holding the block id ``selected``."""
        return Actor.at(PLAYER_NAME, self.body.pos, creative=self.creative, selected=selected)
