"""The light scheduler: loaded chunks lit nearest the camera first, in groups, under a budget."""

from __future__ import annotations

from world import World
from world.base import default_registry
from world.gen.generators import make_generator
from world.light.lighting import Light
from world.stream.lighting import LIGHT_GROUP, LightScheduler


class Clock:
    """Fake seconds, standing still."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def loaded(radius: int) -> tuple[World, Light]:
    registry = default_registry()
    world = World(registry, make_generator("terrain", 3, registry))
    for cx in range(-radius, radius + 1):
        for cz in range(-radius, radius + 1):
            for cy in range(0, 6):
                world.chunk(cx, cy, cz)
    return world, Light(world)


def test_chunks_are_lit_nearest_the_camera_first_and_a_job_takes_at_most_a_group() -> None:
    world, light = loaded(4)
    scheduler = LightScheduler(world, light)
    scheduler.want((3, 3, 3))
    scheduler.want((-3, 3, -3))
    reached: list[list[tuple[int, int, int]]] = []
    done = scheduler.work((-3, 3, -3), 0.0, 0.0, force=True, changed=reached.append)
    assert done == 1 and len(scheduler.lit) <= LIGHT_GROUP
    assert all(abs(cx + 3) <= 1 and abs(cz + 3) <= 1 for cx, _, cz in scheduler.lit)
    assert reached and scheduler.waiting


def test_without_room_in_the_budget_nothing_is_lit_unless_forced() -> None:
    world, light = loaded(2)
    clock = Clock()
    scheduler = LightScheduler(world, light, clock)
    scheduler.want((0, 2, 0))
    assert scheduler.work((0, 2, 0), 0.0, 0.0, force=False, changed=lambda keys: None) == 0
    assert not scheduler.lit and scheduler.waiting


def test_everything_waiting_is_lit_at_once_at_the_start_and_a_forgotten_chunk_goes() -> None:
    world, light = loaded(1)
    scheduler = LightScheduler(world, light)
    scheduler.light_all([(0, 2, 0)])
    assert (0, 2, 0) in scheduler.lit and not scheduler.waiting
    scheduler.forget((0, 2, 0))
    assert (0, 2, 0) not in scheduler.lit
