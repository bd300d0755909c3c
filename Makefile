# Two commands: `make run` and `make test`. Both create .venv on first use and are quick afterwards.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DB ?= warlog.duckdb
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-all bench bench-quick clean

# The venv: warlog with its dev tools, and the test system pebbles, a package of its own that warlog finds through
# its entry point like any installed system (docs/adding-a-system.md).
$(STAMP): pyproject.toml tests/plugins/pebbles/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	$(PY) -m pip install -q --disable-pip-version-check -e tests/plugins/pebbles
	touch $(STAMP)

# pebbles is the tests' plug-in (installed in this venv for them): the service leaves it out of its sample games.
run: $(STAMP)
	WARLOG_EXCLUDE_SYSTEMS=pebbles $(VENV)/bin/warlog serve --db $(DB) --host $(HOST) --port $(PORT) --load-samples

CHROMIUM ?= $(or $(WARLOG_CHROMIUM),/usr/bin/chromium)

test: $(STAMP)
	@test -x "$(CHROMIUM)" || { echo "make test: the browser tests (tests/web) need Chromium at $(CHROMIUM)."; \
	  echo "  Install Debian's package: apt-get install -y chromium   (or set WARLOG_CHROMIUM to a Chromium binary)"; \
	  exit 1; }
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache  # the import contracts of pyproject.toml (layers, systems apart)
	$(PY) -m pytest -n 2  # two workers (pytest-xdist): ~15 min on a quiet 2-core machine, ~21 min in CI

test-all: $(STAMP)  # the slow tests too, and new hypothesis examples every run (make test's are fixed)
	HYPOTHESIS_PROFILE=explore $(PY) -m pytest -n 2 -m ''

# Benchmarks (issue 7): every figure into bench/RESULTS.md. bench-quick scales down to finish in under 2 minutes.
BENCH_STAMP := $(VENV)/.bench-stamp

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) bench/run.py

bench-quick: $(BENCH_STAMP)
	$(PY) bench/run.py --quick

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
