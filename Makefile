# knightgui — one venv in .venv, made on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
export QT_QPA_PLATFORM ?= offscreen

.PHONY: run test lint slow stress bench install install-test bundle bundle-test install-desktop clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# no warm-up here: the window opens at once and compiles the engine in the background, the
# features a newcomer meets first first (`knightgui warmup` compiles everything up front)
$(VENV)/.stamp-run: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e .
	@touch $@

$(VENV)/.stamp-test: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e '.[test]'
	@touch $@

install: $(VENV)/.stamp-run
install-test: $(VENV)/.stamp-test

## make run: install and open the window
run: install
	QT_QPA_PLATFORM= $(BIN)/knightgui

## make test: install with test extras and run the fast suite headless, on TEST_WORKERS
## processes (pytest-xdist): many tests wait on a subprocess, a cluster or a signal, so
## more workers than cores keeps both cores busy. The engine is compiled (or loaded from the
## cache, a few seconds) once first, so the workers do not each compile the same kernels.
TEST_WORKERS ?= 4
test: install-test
	$(BIN)/knightgui warmup -q
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

## make lint: ruff (style and likely bugs) and mypy (types) over the whole tree
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/mypy

$(VENV)/.stamp-docs: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e '.[docs]'
	@touch $@

## make docs: the documentation site in build/site (mkdocs-material), built in strict mode:
## a broken link, a missing image or a page left out of the nav fails it
.PHONY: docs
docs: $(VENV)/.stamp-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --config-file mkdocs.yml

## make slow: the long reproductions of the literature (Phadke's tables, huge boards)
slow: install-test
	$(BIN)/python -m pytest -q -m slow --timeout=3600

## make stress: the fast suite once with numba's bounds checking on (kernels compiled afresh
## into build/numba-boundscheck: an index outside an array raises IndexError instead of
## reading stray memory), then the long versions of the robustness tests (10,000 hostile
## inputs per entry point, 1,000 solves, 100 random cancels, a 10-minute enumeration, a Dask
## worker killed at three moments of a study)
stress: install-test
	NUMBA_BOUNDSCHECK=1 KNIGHTGUI_CACHE_DIR=$(CURDIR)/build/numba-boundscheck \
		$(BIN)/python -m pytest -q -m "not slow" -p no:cacheprovider --timeout=3600
	KNIGHTGUI_STRESS=1 $(BIN)/python -m pytest -q -s -m "not slow" --timeout=3600 \
		tests/robustness tests/gui/test_faults.py tests/gui/test_load.py tests/gui/test_hostile_fields.py

## make bench: every benchmark; figures and ratios on stdout. A benchmark that misses a target
## or fails exits non-zero: the others still run, and the last line names each one
bench: install
	@failed=""; for f in bench/*.py; do case $$f in */_*) continue;; esac; echo "== $$f"; \
		$(BIN)/python $$f || failed="$$failed $$f"; done; \
	if [ -n "$$failed" ]; then echo "missed a target or failed:$$failed"; exit 1; fi; \
	echo "every benchmark met its targets"

$(VENV)/.stamp-bundle: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e '.[bundle]'
	@touch $@

## make bundle: the double-clickable app in dist/knightgui/ (PyInstaller, packaging/README.md)
bundle: $(VENV)/.stamp-bundle
	PYTHON=$(BIN)/python packaging/build.sh

## make bundle-test: build, then run the bundled binary headless (version, tour, window,
## published counts), and the engine's tests on the compiled kernels the bundle ships
bundle-test: bundle install-test
	packaging/bundle_test.sh
	KNIGHTGUI_KERNELS=aot PYTHONPATH=$(CURDIR)/build/aot $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup -p no:cacheprovider \
		tests/core tests/cli tests/robustness

## make install-desktop: menu entry and icon for this user; runs the bundle if built, else the venv
install-desktop:
	@test -x dist/knightgui/knightgui || $(MAKE) install
	packaging/install_desktop.sh

clean:
	rm -rf build dist *.egg-info .pytest_cache
