# The engine built as OpenBench and other testing frameworks build one: `make EXE=NAME` (what
# an OpenBench client runs, with -j) leaves the release build at NAME here, NAME.exe on Windows.
# Plain `make` names it agentchess. docs/openbench.md has the rest.

EXE ?= agentchess

ifeq ($(OS),Windows_NT)
OUT := $(EXE).exe
else
OUT := $(EXE)
endif

.PHONY: all
all:
	cargo rustc --release --locked --bin agentchess -- --emit link=$(OUT)
