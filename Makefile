# The two commands a newcomer needs: `make test` and `make bench`. Each sets
# up everything itself (system packages, .venv, the build) on a fresh machine.
PY := .venv/bin/python
CPP_TEST_DIR := build/cpp-tests

.PHONY: setup test test-cpp test-python bench clean

setup:
	bash scripts/setup.sh

test: setup test-cpp test-python

# C++ unit tests of the queues and the pool (no Python involved).
test-cpp:
	.venv/bin/cmake -S . -B $(CPP_TEST_DIR) -G Ninja -DCMAKE_MAKE_PROGRAM=$(CURDIR)/.venv/bin/ninja \
		-DENVPOOL_LITE_PYTHON=OFF -DENVPOOL_LITE_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
	.venv/bin/cmake --build $(CPP_TEST_DIR) -j 2
	.venv/bin/ctest --test-dir $(CPP_TEST_DIR) --output-on-failure

test-python:
	$(PY) -m pytest -q tests

# The main job: pure-simulation throughput, side by side with EnvPool and
# the other peers that are installed.
bench: setup
	$(PY) -m pip install -q envpool || echo "note: EnvPool could not be installed; the benchmark runs without it"
	$(PY) benchmarks/fps.py $(ARGS)

clean:
	rm -rf build .venv
