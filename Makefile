GO ?= go
BIN := bin/hermes
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/hermes-hooks/hermes/internal/cli.Version=$(VERSION)
# Every binary is built static and stripped: no dynamic loader, fewer pages
# to map, about 2 ms less CPU per start of hermes (docs/performance.md,
# issue 29). Nothing needs cgo: os/user's lookups that /etc/passwd cannot
# answer go to getent(1) (internal/shell).
GOBUILD := CGO_ENABLED=0 $(GO) build -trimpath
# land FILE: put FILE.tmp, the linker's output, at FILE written in 1 MiB
# blocks. The linker writes through a memory map, a page at a time, and a
# binary cached in pages that small starts about 2 ms slower (run-event:
# 12.4 against 10.6 ms of CPU) until the kernel drops it from the cache;
# written in large blocks it starts as a binary read back from disk does
# (docs/performance.md). mv, so that a running copy is not written to.
land = dd if=$(1).tmp of=$(1).new bs=1048576 2>/dev/null && chmod 755 $(1).new && mv -f $(1).new $(1) && rm -f $(1).tmp

.PHONY: build test race demo lint bench bench-guard fuzz docs stress clean install

## install: every binary under cmd/ (gen-docs excepted) into $(PREFIX)/bin, the
## man pages into $(PREFIX)/share/man/man1, and completions for bash, zsh and
## fish where those shells look under $(PREFIX). DESTDIR is prepended, for
## packagers.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
DATADIR ?= $(PREFIX)/share
COMMANDS := $(filter-out gen-docs,$(notdir $(wildcard cmd/*)))

build:
	$(GOBUILD) -ldflags "-s -w $(LDFLAGS)" -o $(BIN).tmp ./cmd/hermes && $(call land,$(BIN))
	$(GOBUILD) -ldflags "-s -w" -o bin/hermes-guard.tmp ./cmd/hermes-guard && $(call land,bin/hermes-guard)

## test: every unit test and end-to-end scenario
test:
	$(GO) test -count=1 -timeout 30m ./...

## race: the packages' tests under the race detector (the engine reads the
## allowlist, inspects hooks and runs smoke tests on several goroutines)
race:
	$(GO) test -race -count=1 ./internal/...

## demo: the tool on a copy of the bundled example home
demo: build
	./scripts/demo.sh $(BIN)

lint:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) mod tidy -diff

BENCHTIME ?= 1s
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

## bench-guard: SPEC §24 item 10's speed bars, paired whole-process runs of
## a trivial hook and of block-rm-rf.sh (bash + jq) bare, through
## hermes-guard and through the floor wrapper (bars: protected/floor 1.15
## for the trivial hook, protected/bare 1.06 for block-rm-rf.sh); and SPEC
## §29 item 3's cost of a firing with 1, 10,000 and 100,000 allowlist entries
bench-guard:
	$(GO) test -run '^$$' -bench 'ProtectedVsBare/trivial' -benchtime 500x -count 5 ./cmd/hermes-guard
	$(GO) test -run '^$$' -bench 'ProtectedVsBare/block-rm-rf' -benchtime 100x -count 3 ./cmd/hermes-guard
	$(GO) test -run '^$$' -bench 'AllowlistSize' -benchtime 20x -count 2 ./cmd/hermes-guard

## stress: the stress and fault-injection suite at the sizes of SPEC §12 and §21
## (8 audit writers x 10,000 lines), §26 (1,000 recorded firings replayed, from-log over
## 100,000); go test runs them reduced
stress:
	HERMES_STRESS=full $(GO) test -count=1 -run 'Stress|RecordReplayProof' -timeout 30m -v ./cmd/hermes/ ./internal/audit/

FUZZTIME ?= 30s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

clean:
	rm -rf bin

## docs: command reference and man pages from the Cobra tree
docs:
	rm -rf docs/reference docs/man
	$(GO) run ./cmd/gen-docs docs/reference docs/man

install:
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" \
		"$(DESTDIR)$(DATADIR)/bash-completion/completions" \
		"$(DESTDIR)$(DATADIR)/zsh/site-functions" \
		"$(DESTDIR)$(DATADIR)/fish/vendor_completions.d"
	for c in $(COMMANDS); do \
		$(GOBUILD) -ldflags "-s -w $(LDFLAGS)" -o "$(DESTDIR)$(BINDIR)/$$c.tmp" ./cmd/$$c && \
		$(call land,"$(DESTDIR)$(BINDIR)/$$c") || exit 1; \
	done
	install -m 644 docs/man/*.1 "$(DESTDIR)$(MANDIR)"
	"$(DESTDIR)$(BINDIR)/hermes" completion bash > "$(DESTDIR)$(DATADIR)/bash-completion/completions/hermes"
	"$(DESTDIR)$(BINDIR)/hermes" completion zsh > "$(DESTDIR)$(DATADIR)/zsh/site-functions/_hermes"
	"$(DESTDIR)$(BINDIR)/hermes" completion fish > "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/hermes.fish"
	@echo "installed $(COMMANDS) into $(DESTDIR)$(BINDIR), man pages into $(DESTDIR)$(MANDIR)"
