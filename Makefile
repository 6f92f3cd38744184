# The two commands: `make play` and `make test`. Each bootstraps .venv by itself on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Tests render with Mesa's software GL through EGL; caches go to a throwaway folder.
export XDG_CACHE_HOME ?= $(CURDIR)/.cache
# pytest workers (pytest-xdist; an idle worker takes tests queued on the other): this machine and
# CI have 2 cores. `make test PYTEST_WORKERS=0` runs in one process.
PYTEST_WORKERS ?= 2

.PHONY: play test test-slow pytest lint bench atlas sounds screenshot clean system-deps xvfb

# Mesa's EGL (software GL) is what headless ursina renders through; install it when missing.
system-deps:
	@if ! ldconfig -p 2>/dev/null | grep -q 'libEGL.so.1'; then \
		echo "installing Mesa EGL (software OpenGL) for headless rendering"; \
		apt-get update -qq && apt-get install -y -qq libegl1 libegl-mesa0 libgl1-mesa-dri libgl1; \
	fi

# A virtual X server for the tests that open a real window (they skip, saying so, without it).
xvfb:
	@if ! command -v xvfb-run >/dev/null 2>&1; then \
		echo "installing xvfb (a virtual X server) for the window tests"; \
		(apt-get update -qq && apt-get install -y -qq xvfb xauth) || echo "xvfb not installed: the window tests will skip"; \
	fi

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

play: system-deps $(STAMP)
	$(PY) -m game $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy world game mods bench

# Lint (mostly mypy, ~7 s cold) runs beside pytest rather than before it: the suite ends sooner.
test: system-deps xvfb $(STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=line lint pytest

# The tests marked `slow` (the SIGKILL save test, the wheel install, the never-settling mod
# cascade) are left to `make test-slow`, which CI (.ci/run) runs after `make test`.
pytest: $(STAMP)
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal -m "not slow" $(PYTEST_ARGS)

test-slow: system-deps xvfb $(STAMP)
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal -m slow $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m bench

atlas: $(STAMP)
	$(PY) -m tools.make_atlas

sounds: $(STAMP)
	$(PY) -m tools.make_sounds

clean:
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache build dist *.egg-info
