"""The light scheduler: loaded chunks lit nearest the camera first, in groups, under a budget."""

from __future__ import annotations

import numpy as np

from world import World
from world.base import default_registry
from world.gen.generators import make_generator
from world.light.lighting import Light, LightAnswer, LightInputs, solve_light
from world.stream.lighting import LIGHT_GROUP, LIGHT_GROUP_PAST_BUDGET, LightScheduler


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


class Solver:
    """A stand-in for the chunk worker: keeps the jobs sent, answers when told."""

    def __init__(self, *, takes: bool = True) -> None:
        self.takes = takes
        self.sent: dict[int, LightInputs] = {}
        self.answers: list[tuple[int, LightAnswer | None]] = []

    def send_light(self, job_id: int, inputs: LightInputs) -> bool:
        if self.takes:
            self.sent[job_id] = inputs
        return self.takes

    def take_lights(self) -> list[tuple[int, LightAnswer | None]]:
        answers, self.answers = self.answers, []
        return answers

    def answer(self, *, lose: bool = False) -> None:
        for job_id, inputs in self.sent.items():
            self.answers.append((job_id, None if lose else solve_light(inputs)))
        self.sent.clear()


def everything(world: World) -> set[tuple[int, int, int]]:
    return set(world.chunks) | set(world._air)


def lit_at_once(radius: int) -> Light:
    world, light = loaded(radius)
    LightScheduler(world, light).light_all(everything(world))
    return light


def same_light(light: Light, other: Light) -> None:
    assert light.sky.keys() == other.sky.keys()
    for key in light.sky:
        np.testing.assert_array_equal(light.sky[key], other.sky[key], err_msg=str(key))
        np.testing.assert_array_equal(light.block[key], other.block[key], err_msg=str(key))


def test_with_a_solver_one_job_at_a_time_is_sent_and_its_answer_written_in_a_later_frame() -> None:
    world, light = loaded(1)
    scheduler = LightScheduler(world, light)
    for key in everything(world):
        scheduler.want(key)
    solver = Solver()
    reached: list[set[tuple[int, int, int]]] = []
    frames = 0
    while scheduler.waiting:
        frames += 1
        assert frames < 200, "never all lit"
        scheduler.work((0, 2, 0), 0.0, 1.0, force=True, changed=reached.append, solver=solver)
        assert len(solver.sent) <= 1  # one job out at a time
        assert not scheduler.lit & {key for inputs in solver.sent.values() for key in inputs.fresh}
        solver.answer()
    assert frames > 2 and reached
    assert scheduler.lit == everything(world)
    same_light(light, lit_at_once(1))  # as lit in the frame


def test_a_job_stale_when_answered_is_lit_again_and_a_lost_or_refused_one_is_lit_here() -> None:
    world, light = loaded(1)
    scheduler = LightScheduler(world, light)
    scheduler.want((0, 2, 0))
    solver = Solver()
    scheduler.work((0, 2, 0), 0.0, 1.0, force=True, changed=lambda keys: None, solver=solver)
    (inputs,) = solver.sent.values()
    sent = set(inputs.fresh)
    assert sent and not scheduler.lit
    scheduler.want((0, 2, 0))  # meshed again meanwhile: a chunk out is not queued twice
    assert scheduler.waiting
    edit = next(iter(sent))
    light.update([(edit[0] * 16 + 8, edit[1] * 16 + 8, edit[2] * 16 + 8)])  # relit meanwhile
    solver.answer()
    scheduler.work((0, 2, 0), 0.0, 0.0, force=False, changed=lambda keys: None, solver=solver)
    assert not scheduler.lit & sent and scheduler.waiting  # stale: queued again
    while scheduler.waiting:  # lost answers: solved in the frame
        solver.answer(lose=True)
        scheduler.work((0, 2, 0), 0.0, 1.0, force=True, changed=lambda keys: None, solver=solver)
    refused = Solver(takes=False)
    scheduler.want((1, 2, 1))
    for key in everything(world):
        scheduler.want(key)
    while scheduler.waiting:  # no worker ready: lit in the frame
        scheduler.work((0, 2, 0), 0.0, 1.0, force=True, changed=lambda keys: None, solver=refused)
    assert scheduler.lit == everything(world)
    same_light(light, lit_at_once(1))


def test_with_a_solver_a_job_goes_even_past_the_budget_but_a_small_one() -> None:
    world, light = loaded(2)
    scheduler = LightScheduler(world, light, Clock())
    scheduler.want((0, 2, 0))
    solver = Solver()
    scheduler.work((0, 2, 0), 0.0, 0.0, force=False, changed=lambda keys: None, solver=solver)
    assert len(solver.sent) == 1  # the solver never idles while chunks wait
    ((job),) = scheduler._out.values()
    assert 0 < len(job.keys) <= LIGHT_GROUP_PAST_BUDGET < LIGHT_GROUP
    solver.answer()
    scheduler.work((0, 2, 0), 0.0, 1.0, force=False, changed=lambda keys: None, solver=solver)
    ((job),) = scheduler._out.values()  # with room in the budget, a whole group
    assert LIGHT_GROUP_PAST_BUDGET < len(job.keys) <= LIGHT_GROUP
