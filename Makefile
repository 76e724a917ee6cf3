# Thin front door: `make run` and `make test` do the whole set-up on a fresh Debian 12 machine.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps configure build run test clean

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job: the demo scene, a frame loop, then the default built-in scene (uniform, 10^6 circles x 10^6
# segments) through the grid, then the kernel benchmarks against the textbook quadratic loop.
run: build
	$(BUILD)/examples/demo
	$(BUILD)/examples/frame_loop
	$(BUILD)/tools/hitscan/hitscan --scene uniform --mode closest --repeat 5
	$(BUILD)/bench/hitscan_bench --benchmark_filter='BM_(Kernel|SeedQuadratic)/.*65536$$'

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
