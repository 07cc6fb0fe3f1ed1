# The two commands a newcomer needs: `make test` and `make bench`. Each sets
# up everything itself (system packages, .venv, the build) on a fresh machine.
#
# PYTHON=X.Y runs them on another CPython (3.12, 3.13): in .venv-X.Y, on the
# wheel that `make wheels` builds for it (scripts/setup.sh). The default,
# 3.11, is the developer's .venv with the editable build.
PYTHON ?= 3.11
export PYTHON
VENV := $(if $(filter 3.11,$(PYTHON)),.venv,.venv-$(PYTHON))
PY := $(VENV)/bin/python
CPP_TEST_DIR := build/cpp-tests-$(PYTHON)

.PHONY: setup setup-compat lint format test test-compat test-cpp test-sanitizers test-python test-full test-wheel wheels cleanroom bench clean

setup:
	bash scripts/setup.sh

# manylinux wheels of envpool_lite for CPython 3.11, 3.12 and 3.13 (or
# WHEEL_PYTHONS) and of the `envpool` module, into dist/
# (scripts/build_wheels.sh; docs/install.md).
WHEEL_PYTHONS ?= 3.11 3.12 3.13
wheels:
	bash scripts/build_wheels.sh $(WHEEL_PYTHONS)

# Each wheel installed into a fresh Debian 12 root with no compiler, then a
# smoke test of every family and one alignment test of each
# (scripts/cleanroom.sh; needs root, and the wheels).
cleanroom:
	bash scripts/cleanroom.sh $(WHEEL_PYTHONS)

# The libraries that import EnvPool by name (TorchRL, Tianshou, rl_games,
# Sample Factory, DI-engine; CleanRL's and PureJaxQL's pins) and the module
# named `envpool` (compat/envpool), each into build/compat/ for the tests
# in tests/test_lib_*.py.
setup-compat: setup
	PY=$(PY) bash scripts/setup_compat.sh

# make test with the long tails (TEST_SCOPE=full, tests/scope.py): the same
# tests with more steps through more episode ends and more seeds of the
# random games. Run it before a family's issue is resolved (docs/ci.md).
test-full:
	$(MAKE) --no-print-directory test TEST_SCOPE=full

# The references' installs (network), the C++ unit tests' build and the
# sanitizers' builds side by side (each target's output printed whole when
# it ends), then the Python suite.
test: setup
	$(MAKE) --no-print-directory -j 2 --output-sync=target test-compat test-cpp test-sanitizers
	$(MAKE) --no-print-directory test-python
test-compat:
	PY=$(PY) bash scripts/setup_compat.sh

# Code habits (CI runs this before `make test`): ruff's lint and format check
# on the Python, mypy on the package, mypy's stubtest (every name of the
# _core.pyi and _testing.pyi stubs is in the built extensions and the other
# way round; pybind11's functions carry no signature it can read),
# clang-format on the C++, and the
# house's layers (scripts/check_layers.py: no import or include cycle, no
# upward arrow, no family reaching into another; docs/architecture.md). The
# versions are pinned in pyproject.toml's [lint] extra.
PY_SOURCES := python tests benchmarks trainers scripts compat
CPP_SOURCES = $(shell git ls-files 'cpp/*.h' 'cpp/*.cc')
lint: setup
	.venv/bin/ruff check $(PY_SOURCES)
	.venv/bin/ruff format --check $(PY_SOURCES)
	.venv/bin/mypy
	.venv/bin/python -m mypy.stubtest envpool_lite._core envpool_lite._testing --allowlist python/envpool_lite/_core_stubtest_allowlist.txt --mypy-config-file pyproject.toml
	.venv/bin/clang-format --dry-run -Werror $(CPP_SOURCES)
	.venv/bin/python scripts/check_layers.py
	@echo "lint: clean"

# Applies the formatters (a reformat goes in its own commit).
format:
	.venv/bin/ruff check --fix $(PY_SOURCES)
	.venv/bin/ruff format $(PY_SOURCES)
	.venv/bin/clang-format -i $(CPP_SOURCES)

# C++ unit tests of the queues and the pool (no Python involved; only the
# two tests are built, not the envs).
test-cpp:
	$(VENV)/bin/cmake -S . -B $(CPP_TEST_DIR) -G Ninja -DCMAKE_MAKE_PROGRAM=$(CURDIR)/$(VENV)/bin/ninja \
		-DENVPOOL_LITE_PYTHON=OFF -DENVPOOL_LITE_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
	$(VENV)/bin/cmake --build $(CPP_TEST_DIR) -j 2 --target test_queues test_pool
	$(VENV)/bin/ctest --test-dir $(CPP_TEST_DIR) --output-on-failure

# The same stress tests under ThreadSanitizer and AddressSanitizer +
# UndefinedBehaviorSanitizer: any report fails the build.
# (The four builds are targets of their own: make -j builds them side by
# side.)
SAN_DIR := build/sanitizers
SAN_CXX := g++ -std=c++20 -O1 -g -fno-omit-frame-pointer -Icpp -pthread
SAN_TESTS := test_queues test_pool
SAN_HEADERS = $(shell git ls-files 'cpp/core/*.h' 'cpp/tests/*.h')
$(SAN_DIR)/%-tsan: cpp/tests/%.cc $(SAN_HEADERS)
	@mkdir -p $(SAN_DIR)
	$(SAN_CXX) -fsanitize=thread $< -o $@
$(SAN_DIR)/%-asan: cpp/tests/%.cc $(SAN_HEADERS)
	@mkdir -p $(SAN_DIR)
	$(SAN_CXX) -fsanitize=address,undefined -fno-sanitize-recover=all $< -o $@
test-sanitizers: $(foreach t,$(SAN_TESTS),$(SAN_DIR)/$(t)-tsan $(SAN_DIR)/$(t)-asan)
	for t in $(SAN_TESTS); do \
		TSAN_OPTIONS="halt_on_error=1 exitcode=66" $(SAN_DIR)/$$t-tsan >/dev/null && \
		echo "$$t: ThreadSanitizer clean" && \
		ASAN_OPTIONS="detect_leaks=1" $(SAN_DIR)/$$t-asan >/dev/null && \
		echo "$$t: AddressSanitizer+UBSan clean" || exit 1; \
	done

# pytest on every core (TEST_JOBS workers, pytest-xdist), then, one at a
# time, the pytest processes that must not share the machine with the rest:
# - the tests marked `alone` (pyproject.toml: they time a wait, or count
#   what the whole machine holds), in the files that mark some;
# - dm_control's pixel tests in a process of their own: in a process that
#   had already run the hundreds of tests before them, a worker thread
#   crashed in them intermittently (2 of 2 full CI runs on 2026-11-24; never
#   in 8 runs of the file alone, loaded or not; docs/reliability.md). Beside
#   the parallel run they gained nothing (Mesa's software renderer draws on
#   every core: the parallel run took as much longer as they saved);
# - the Ray tests on their own: a Ray driver leaves its threads and its own
#   crash-signal handlers behind after ray.shutdown() (they hid the report
#   of faulthandler, pytest's crash traceback); the multi-host ones in a
#   process of their own too (Ray reads the cluster's token at import).
# tests/test_every_id.py is the wheels' (make test-wheel): here every
# family's alignment tests make and step every id.
# Every process runs to its end even when one fails; then the table of each
# family's tests and seconds, held against its budget in docs/ci.md
# (tests/family_seconds.py writes each run's figures into TEST_TIMES,
# scripts/test_times.py sums them). scripts/pytest_backtrace.sh prints
# native backtraces if pytest or a worker crashes.
TEST_JOBS ?= $(shell nproc)
TEST_SCOPE ?= ci
TEST_TIMES = build/test-times/$(PYTHON)$(if $(filter full,$(TEST_SCOPE)),-full)
PYTEST = env ENVPOOL_LITE_TEST_SCOPE=$(TEST_SCOPE) ENVPOOL_LITE_TEST_TIMES=$(TEST_TIMES) PY=$(PY) scripts/pytest_backtrace.sh -q -rs
OWN_PROCESS := tests/dm_control/test_dm_control_pixels.py tests/test_distributed.py tests/test_multihost.py
ALONE_FILES = $(shell grep -l '^@pytest.mark.alone' $(1))
test-python:
	rm -rf $(TEST_TIMES)
	status=0; \
	$(PYTEST) --durations=10 -n $(TEST_JOBS) -m "not alone" tests $(addprefix --ignore=,$(OWN_PROCESS) tests/test_every_id.py) || status=1; \
	$(PYTEST) -m alone $(call ALONE_FILES,tests/test_*.py tests/*/test_*.py) || status=1; \
	for t in $(OWN_PROCESS); do $(PYTEST) $$t || status=1; done; \
	$(PY) scripts/test_times.py $(TEST_TIMES) $(if $(filter full,$(TEST_SCOPE)),--no-budgets) --title "make test$(if $(filter full,$(TEST_SCOPE)),-full) on Python $(PYTHON)"; \
	exit $$status

# CI's run on Python 3.12 and 3.13 (make test-wheel PYTHON=3.12): the wheel
# of make wheels installed as a user installs it (scripts/setup.sh), then
# every family's alignment tests and the API, error and packaging tests
# (make test PYTHON=3.12 runs the whole suite there; WHEEL_SCOPE=sample
# below samples the alignment). highway's (pure C++,
# no upstream library in the wheel) are make test's; on each wheel the
# clean-room run has one (tests/cleanroom_alignment.txt) and test_smoke.py
# makes and steps it.
# WHEEL_SCOPE=sample (CI's runs on 3.12 and 3.13) keeps the API, error,
# extras, render, JAX and smoke tests and tests/test_every_id.py (which
# makes and steps every task id of the wheel) and samples the alignment:
# one test of each family, the clean room's list
# (tests/cleanroom_alignment.txt). The wheels are built from the C++ that
# make test's whole suite checks on 3.11, so the sample keeps CI under its
# hour as families arrive.
WHEEL_SCOPE ?= full
# WHEEL_SHARD=i/n: tests/test_every_id.py makes every n-th id from the i-th
# (CI's 3.12 and 3.13 runs take 0/2 and 1/2: every id once between them).
WHEEL_SHARD ?=
WHEEL_API_TESTS := tests/metaworld/test_metaworld.py tests/test_api.py tests/test_errors.py tests/test_misuse.py tests/test_extras.py \
	tests/test_families.py tests/test_smoke.py tests/test_render.py tests/test_xla.py tests/test_engine.py tests/test_envpool_compat.py \
	tests/test_lib_envpool_alias.py tests/test_every_id.py
WHEEL_TESTS := $(filter-out tests/dm_control/test_dm_control_pixels.py,$(wildcard $(foreach f,atari vizdoom mujoco dm_control \
	gymnasium_robotics box2d procgen minigrid toy_text classic_control,tests/$(f)/test_*.py))) \
	$(WHEEL_API_TESTS)
WHEEL_SAMPLE := $(filter-out tests/test_xla.py tests/metaworld/test_metaworld.py%,$(shell grep -v '^\s*\#' tests/cleanroom_alignment.txt))
quoted = $(foreach t,$(1),'$(t)')
# As in make test: every core, then the `alone` tests one at a time, then
# dm_control's pixel tests in a process of their own (the sample's one test
# beside nothing: too short to gain from it).
WHEEL_RUN = $(if $(filter sample,$(WHEEL_SCOPE)),$(WHEEL_API_TESTS) $(call quoted,$(filter-out tests/dm_control/test_dm_control_pixels.py%,$(WHEEL_SAMPLE))),$(WHEEL_TESTS))
WHEEL_PIXELS = $(if $(filter sample,$(WHEEL_SCOPE)),$(call quoted,$(filter tests/dm_control/test_dm_control_pixels.py%,$(WHEEL_SAMPLE))),tests/dm_control/test_dm_control_pixels.py)
test-wheel: setup setup-compat
	rm -rf $(TEST_TIMES)
	status=0; \
	export ENVPOOL_LITE_EVERY_ID_SHARD=$(WHEEL_SHARD); \
	$(PYTEST) --durations=5 -n $(TEST_JOBS) -m "not alone" $(WHEEL_RUN) || status=1; \
	$(PYTEST) -m alone $(call ALONE_FILES,$(filter-out tests/dm_control/test_dm_control_pixels.py,$(WHEEL_TESTS))) || status=1; \
	$(PYTEST) $(WHEEL_PIXELS) || status=1; \
	$(PY) scripts/test_times.py $(TEST_TIMES) --no-budgets --title "the $(PYTHON) wheel's tests ($(WHEEL_SCOPE))"; \
	exit $$status

# The main job: pure-simulation throughput, side by side with EnvPool and
# the other peers that are installed.
# The peer EnvPool is the test extra's (setup installs it): 1.2.5 on Python
# 3.11 (the last for it), 1.2.7 on 3.12 and newer (make bench PYTHON=3.12).
bench: setup
	$(PY) benchmarks/fps.py $(ARGS)

clean:
	rm -rf build dist .venv .venv-*
