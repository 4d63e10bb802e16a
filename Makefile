# deckforge: `make print` sets everything up and builds every edition; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
OUT ?= build

.PHONY: print test test-quick test-tools fuzz bench docs golden validate lint clean help

help:
	@echo "make print     create .venv, install, build every edition into $(OUT)/"
	@echo "make test      run the test suite"
	@echo "make test-quick  the quick tests that need nothing outside PyPI (no poppler, node, Chromium)"
	@echo "make fuzz      property-based fuzzing, 10,000 examples a test"
	@echo "make bench     time builds (medians of several runs) against a plain ReportLab floor"
	@echo "make docs      regenerate the generated pages and the template schema, draw the pictures, build the site into site/"
	@echo "make golden    re-render tests/golden/ (only on purpose; review the images)"
	@echo "make validate  check every source and report all problems"
	@echo "make lint      ruff lint, and mypy over src/"
	@echo "make clean     remove $(OUT)/ and .venv/"

# Installing is most of a fresh clone's first `make print`: pip resolves and unpacks the
# dependencies one at a time, uv (an installer made for it) in parallel, in a fraction
# of the time. uv is put into the environment with the pip it comes with; where that
# cannot be done, pip installs everything as before. Like pip, uv is asked to compile the
# dependencies' bytecode: where PYTHONDONTWRITEBYTECODE is set, every process would
# otherwise compile ReportLab and the rest from source again.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	($(BIN)/python -m pip install --quiet uv \
		&& $(BIN)/python -m uv pip install --quiet --compile-bytecode --python $(BIN)/python \
			-e '.[test]') \
		|| $(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

print: $(STAMP)
	$(BIN)/deckforge build --out $(OUT)

test: $(STAMP) test-tools
	$(BIN)/python -m pytest -q

# For working on deckforge without Debian's engines: every test but those that read the
# PDFs back in poppler, pdf.js or Chromium, or measure against FOGRA's data, and those
# that do at length what a first run or an installation does (marked slow); in a
# process per core, each test module's tests (and its fixtures) in one of them.
test-quick: $(STAMP)
	$(BIN)/python -m pytest -q -m "not engines and not slow" -n auto --dist loadscope

# The tests read PDFs back with poppler (pdftotext, pdftoppm, and its GObject binding for
# Evince's search) and pdf.js (the pdfjs-dist npm package, run by node), open the
# preview in a headless Chromium, render CMYK pages to CMYK pixels with MuPDF (the soft
# proofs' reference), make a shop's CMYK profile with Argyll, measure the press model
# against FOGRA's data from icc-profiles-free and draw card suits and game symbols in
# DejaVu Sans (the symbol face, from fonts-dejavu-core); install what is missing where
# this machine can. pdf.js is unpacked into a cache folder, never into the project.
PDFJS_VERSION := 4.10.38
PDFJS_DIR := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/deckforge-tests/pdfjs-dist-$(PDFJS_VERSION)

test-tools:
	@need=""; \
	command -v pdftotext >/dev/null || need="$$need poppler-utils"; \
	command -v chromium >/dev/null || need="$$need chromium"; \
	[ -f /usr/share/color/icc/FOGRA39L.ti3 ] || need="$$need icc-profiles-free"; \
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$$need fonts-dejavu-core"; \
	/usr/bin/python3 -c "import gi; gi.require_version('Poppler', '0.18')" 2>/dev/null \
		|| need="$$need python3-gi gir1.2-poppler-0.18"; \
	command -v node >/dev/null || need="$$need nodejs"; \
	command -v npm >/dev/null || need="$$need npm"; \
	command -v mutool >/dev/null || need="$$need mupdf-tools"; \
	command -v colprof >/dev/null || need="$$need argyll"; \
	if [ -n "$$need" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$need; \
		else \
			echo "the tests need$$need: install them (e.g. sudo apt-get install$$need)"; \
			exit 1; \
		fi; \
	fi
	@if [ ! -f "$(PDFJS_DIR)/package/legacy/build/pdf.mjs" ]; then \
		mkdir -p "$(PDFJS_DIR)" && cd "$(PDFJS_DIR)" \
		&& npm pack --silent pdfjs-dist@$(PDFJS_VERSION) >/dev/null \
		&& tar xzf pdfjs-dist-$(PDFJS_VERSION).tgz && rm pdfjs-dist-$(PDFJS_VERSION).tgz; \
	fi

fuzz: $(STAMP)
	DECKFORGE_FUZZ_EXAMPLES=10000 $(BIN)/python -m pytest -q tests/test_fuzz.py tests/test_fuzz_untrusted.py \
		tests/sources/test_fuzz_xlsx.py tests/templates/test_fuzz_expr.py tests/templates/test_fuzz_templates.py

bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/cards.py
	$(BIN)/python bench/squib.py
	$(BIN)/python bench/serve.py

# The site's pictures are drawn from the PDFs of a build of every edition (make print's)
# and of a starter game built on the way; only docs/readme-cards.png is kept in git.
docs: print
	$(BIN)/python -m deckforge.authoring.docs > docs/reference.md
	$(BIN)/python -m deckforge.authoring.template_docs > docs/templates.md
	$(BIN)/python -m deckforge.cli.docs > docs/reference/cli.md
	$(BIN)/python docs_tools/measured.py > docs/explanation/measured.md
	$(BIN)/python -m deckforge.templates.schema > schemas/template.schema.json
	$(BIN)/python docs_tools/pictures.py --build $(OUT) --docs docs
	$(BIN)/mkdocs build --strict --site-dir site

# The golden renders pin what every shipped file looks like; after a change that is
# meant to change the look, regenerate them and look at what changed before committing.
golden: $(STAMP)
	$(BIN)/python tests/golden_update.py

validate: $(STAMP)
	$(BIN)/deckforge validate

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(OUT) $(VENV) site
