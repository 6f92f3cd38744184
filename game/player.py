"""The player: a `world.physics` body, a facing, and the camera that follows them."""

from __future__ import annotations

from dataclasses import dataclass

from ursina import camera

from world.chunks import World
from world.outcome import Actor
from world.physics import (
    EYE_HEIGHT,
    Body,
    Controls,
    FixedStep,
    Vec3,
    look_direction,
    with_flying,
)

__all__ = ["HeldInput", "Player"]

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
    """The body moved by fixed physics ticks, a yaw and a pitch (pitch clamped to ±90°)."""

    def __init__(self, world: World, body: Body, *, creative: bool) -> None:
        self.world = world
        self.body = body
        self.creative = creative
        self.yaw = 0.0
        self.pitch = 0.0
        self.clock = FixedStep()

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

    def teleport(self, feet: Vec3) -> None:
        """Put the feet at a position, at rest."""
        self.body = Body(pos=feet, flying=self.body.flying)
        self.clock.previous = None

    def update(self, dt: float, held: HeldInput) -> None:
        """Run the physics ticks this frame's time allows."""
        controls = Controls(
            forward=held.forward,
            strafe=held.strafe,
            yaw=self.yaw,
            jump=held.jump,
            descend=held.sneak,
            sprint=held.sprint,
        )
        self.body = self.clock.advance(self.world, self.body, controls, dt)

    @property
    def eye(self) -> Vec3:
        """Where the camera is: between the last two physics ticks, at eye height."""
        x, y, z = self.clock.render_pos(self.body)
        return (x, y + EYE_HEIGHT, z)

    @property
    def direction(self) -> Vec3:
        """The unit view vector."""
        return look_direction(self.yaw, self.pitch)

    def sync_camera(self) -> None:
        """Put the camera at the eye, facing the view."""
        camera.position = self.eye
        camera.rotation = (self.pitch, self.yaw, 0.0)

    def actor(self, selected: int | None) -> Actor:
        """The player as `world.rules` sees them."""
        return Actor.at(PLAYER_NAME, self.body.pos, creative=self.creative, selected=selected)
