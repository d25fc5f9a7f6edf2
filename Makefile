# emrcu-bench: what does the runtime-modifiable Energy Model series cost, and
# what does it buy?  `make help` lists the targets.
#
# Pipeline (data flows one way):
#   kernel/ -> qemu-runner/ -> bench/ -> scenarios/ -> results/

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD ?= $(TOP)/build
export BUILD

# Variants built by `make kernels` (declared in kernel/variants).
VARIANTS ?= unpatched patched patched-fixed upstream
ifneq ($(PATCHES),)
VARIANTS += custom
export PATCHES PATCHES_BASE
# The reviewer's series is benched as one more column (PREEMPT_NONE).
export NUMERATORS := patched upstream patched-preempt upstream-preempt custom
endif

# The default topology's one declaration (also read by qemu-runner's C code
# and by the scripts): no built binary is needed to know it.
TOPO ?= $(strip $(file < qemu-runner/default.topo))

RUN_ID := $(shell date -u +%Y%m%d-%H%M%S)
QUICK ?= 0
BASELINE ?= quick
export QUICK

.PHONY: help export deps tools tools-host tools-guest pristine kernels check-series check-upstream check-fixes guest-check test check bench \
	aa-repeat gate-control gate-power pd-sweep stress report compare gate clean distclean

# The default of knob $(1) as bench/run-bench.sh declares it (QUICK's, then
# the full bench's, where they differ): make help reads the one place.
bench_default = $(shell sed -n 's/^[[:space:]]*$(1)=$${$(1):-\(.*\)}$$/\1/p' bench/run-bench.sh | paste -sd '|')

help:
	@echo "emrcu-bench targets:"
	@echo "  make deps          install host packages (apt-get, as root; no-op when present)"
	@echo "  make tools         host programs (runner, statistics, scenario driver) and the"
	@echo "                     static guest programs; every target below builds what it runs"
	@echo "  make kernels       build kernel variants: $(VARIANTS)"
	@echo "                     (VARIANTS='...' to choose; PATCHES=<dir> adds variant 'custom')"
	@echo "  make kernel-NAME   build one variant declared in kernel/variants"
	@echo "  make check-series  every prefix of the 17 builds and compiles each changed C file; checkpatch; sparse"
	@echo "  make check-upstream   the same for kernel/upstream (the merged v6.9 design, 23 patches)"
	@echo "  make check-fixes   each fix of kernel/fixes with one line undone: the test that pins it must fail"
	@echo "  make guest-check   boot each variant on TOPO=$(TOPO) (count x capacity-dmips-mhz"
	@echo "                     per cluster): capacities, perf domains, governors, EAS, as JSON"
	@echo "  make test          everything CI runs; ends with 'N passed, N failed'"
	@echo "  make check         the host-only unit tests alone (seconds; no kernel, no guest)"
	@echo "  make bench         em_bench on every variant/preemption/update_hz/mode, then"
	@echo "                     results/runs/<id>/{summary.json,report.md,*.png,*.svg}; latest -> it"
	@echo "                     (QUICK=1: deterministic mode only, fewer boots; then every"
	@echo "                     scenario of scenarios/*.conf, short versions with QUICK=1)"
	@echo "  make bench SCENARIO=NAME   one scenario: results/runs/<id>/scenarios/NAME/"
	@echo "  make bench SCENARIOS='a b' those scenarios after em_bench (SCENARIOS=none: em_bench only)"
	@echo "  make bench STRICT=1        a scenario target missed (scenario exit 3) fails the bench too"
	@echo "  make bench AA=1    A/A calibration: unpatched as columns A/B, gated; stores results/baselines/noise.json"
	@echo "  make gate-control [NOPS=1]   the gate's controls on unpatched (built if missing): A/A flags nothing,"
	@echo "                     em_bench + NOPS instructions per call flagged on every perf domain"
	@echo "  make gate-power [N=3] [REALTIME=1]   detection rate of +1, +2, +4 instructions/call"
	@echo "                     (REALTIME=1: also +2, +5, +10, +20 % per call in realtime mode)"
	@echo "                     beside the A/A false positives (results/runs/<id>-gate-power/gate-power.json)"
	@echo "  make pd-sweep      update cost of one domain with 1, 4, 16 perf domains registered"
	@echo "  make aa-repeat [N=20] [MODES=realtime]   the A/A gate N times: >= 95 % pass or exit 1"
	@echo "                     (results/runs/<id>-aa-repeat/aa-repeat.json; stores no noise file)"
	@echo "  make bench HOST_TIMINGS=1|full   + hyperfine host timings (full: + one nested QUICK bench)"
	@echo "  make stress        em_torture on the debug kernel (DURATION=s; QUICK=1 short;"
	@echo "                     VARIANT=upstream-debug: the merged design)"
	@echo "  make report        re-render results/latest/report.md from its summary.json"
	@echo "  make compare BASE=a.json NEW=b.json   LKP-style comparison; exit 1 on regression"
	@echo "  make gate          results/latest vs results/baselines/\$$(BASELINE).json ($(BASELINE))"
	@echo "  make export        a summary for benchmark trackers: FORMAT=bmf (Bencher Metric Format),"
	@echo "                     SUMMARY=results/latest/summary.json, OUT=results/latest/bmf.json"
	@echo "  make clean         remove build outputs of the variants (keeps pristine tree, ccache)"
	@echo "  make distclean     remove build/ entirely"
	@echo "knobs (make VAR=value, or the environment; default in brackets):"
	@echo "  BUILD=$(BUILD)   where trees, kernels, ccache, logs go"
	@echo "  VARIANTS='$(VARIANTS)'   kernels of make kernels / guest-check"
	@echo "  TOPO=$(TOPO)   guest clusters, count x capacity"
	@echo "  QUICK=$(QUICK)   1: deterministic mode only, fewer boots and passes, short scenarios (QUICK|full below)"
	@echo '  BOOTS [$(call bench_default,BOOTS)]  BOOTS_RT [$(call bench_default,BOOTS_RT)]   boots per configuration (realtime mode)'
	@echo "  MODES [$(call bench_default,MODES)]   em_bench modes"
	@echo "  UPDATE_HZ [$(call bench_default,UPDATE_HZ)]   updater rates   NRUNS [$(call bench_default,NRUNS)]   em_bench passes"
	@echo "  CELL_JOBS [$(call bench_default,CELL_JOBS)]   deterministic em_bench boots run side by side (bench/driver)"
	@echo "  BASELINE=$(BASELINE)   results/baselines/<name>.json the gate compares with"
	@echo "  PATCHES=<dir> [none]  PATCHES_BASE [pristine|patched]   a reviewer's series as variant custom"
	@echo "  SCENARIO / SCENARIOS [all]  STRICT=$(STRICT)  AA=$(AA)   see make bench above"
	@echo "  DURATION [QUICK $(shell sed -n 's/^QUICK_DURATION=//p' stress/run.sh) s, else $(shell sed -n 's/^LONG_DURATION=//p' stress/run.sh) s]   make stress length"
	@echo "  JOBS [$(shell nproc)]   kernel build jobs; V=1 streams the kernel build's output (kbuild V=1)"
	@echo "  CCACHE_DIR [\$$BUILD/ccache]  CCACHE_MAXSIZE [8G]  KERNEL_TARBALL [/usr/src/linux-source-6.1.tar.xz]"

deps:
	@kernel/deps.sh

# Every host program a target runs is built through these prerequisites
# (each sub-make is a no-op when up to date); the scripts only check that
# what they run exists and say "make tools" when it does not.
tools: tools-host tools-guest
tools-host:
	@$(MAKE) -s -C lib
	@$(MAKE) -s -C qemu-runner
	@$(MAKE) -s -C bench/driver
	@$(MAKE) -s -C results
tools-guest: deps
	@$(MAKE) -s -C bench/guest
	@$(MAKE) -s -C scenarios

pristine: deps
	@kernel/pristine.sh

kernels: deps
	@for v in $(VARIANTS); do kernel/variant.sh $$v || exit 1; done

kernel-%: deps
	@kernel/variant.sh $*

check-series: deps
	@kernel/check-series.sh

check-upstream: deps
	@kernel/check-series.sh kernel/upstream

check-fixes: deps tools
	@kernel/tests/mutants.sh

guest-check: deps tools
	@qemu-runner/emrcu-topo --expect '$(TOPO)' >/dev/null || exit 2
	@for v in $(filter-out patched-fixed,$(VARIANTS)); do kernel/variant.sh $$v >&2 || exit 1; done
	@bench/guest-check.sh '$(TOPO)' $(filter-out patched-fixed,$(VARIANTS))

test: deps tools
	@tests/run.sh

# make check: the host-only unit tests (no kernel, no guest), in seconds.
check: deps tools
	@tests/run.sh lib-unit harness runner-unit driver-unit results-unit guest-unit scenarios-unit

# make bench: em_bench (bench/run-bench.sh, which writes RUNDIR/summary.json
# over its runs) into RUNDIR/runs, then the scenarios (scenarios/run-all.sh:
# SCENARIOS, default every scenarios/*.conf; none: em_bench only) into
# RUNDIR/scenarios; summary.json is redone over both when scenarios ran,
# then one report.md.  results/latest moves only when all of it passed; a
# failed part keeps what the others produced.  SCENARIO=NAME runs that
# scenario alone (RUNDIR/scenarios/NAME); AA=1 the A/A calibration.
# A scenario whose runs all ran but missed a target (exit 3) is reported,
# not a failure of the bench, unless STRICT=1.  Before anything builds or
# boots, every scenario file to run is checked (exit 2 on a bad one) and
# run-bench.sh checks the tools, the topology and every variant's patches.
SCENARIO ?=
SCENARIOS ?=
AA ?= 0
STRICT ?= 0
export AA
TARGETS_MISSED = { [ $$r -eq 3 ] && [ "$(STRICT)" != 1 ] && \
	echo "bench: targets missed (FAIL lines in $$d/scenarios/*/table.txt): a finding, not a failed run (STRICT=1 fails it)" && r=0; }
TOPO_CLI = $(filter command line environment,$(origin TOPO))
SCEN_ARGS = QUICK=$(QUICK) $(if $(TOPO_CLI),TOPO='$(TOPO)')
SCEN_NAMES = $(if $(filter none,$(SCENARIOS)),,$(or $(SCENARIOS),$(basename $(notdir $(wildcard scenarios/*.conf)))))
SCEN_CHECK = scenarios/emrcu-scenario check $(if $(filter 1,$(QUICK)),--quick) \
	$(if $(TOPO_CLI),--topo '$(TOPO)') $$(for n in $$scen; do echo scenarios/$$n.conf; done) >/dev/null || exit 2
bench: deps tools
	@d=results/runs/$(RUN_ID); echo "bench: run $$d (QUICK=$(QUICK)$(if $(SCENARIO), SCENARIO=$(SCENARIO)))"; \
	if [ -n "$(SCENARIO)" ]; then \
		scenarios/run.sh $(SCENARIO) $$d/scenarios $(SCEN_ARGS); r=$$?; $(TARGETS_MISSED); exit $$r; \
	fi; \
	scen='$(if $(filter 1,$(AA)),,$(SCEN_NAMES))'; \
	if [ -n "$$scen" ]; then $(SCEN_CHECK); fi; \
	rc=0; RUNDIR=$$d bench/run-bench.sh; r=$$?; [ $$r -eq 2 ] && exit 2; [ $$r -eq 0 ] || rc=1; \
	if [ -n "$$scen" ]; then \
		echo "bench: scenarios ($$scen) into $$d/scenarios"; \
		scenarios/run-all.sh $$d/scenarios $(SCEN_ARGS) SCENARIOS="$$scen"; r=$$?; $(TARGETS_MISSED); [ $$r -eq 0 ] || rc=1; \
	fi; \
	sdirs=$$(ls -d $$d/scenarios/*/*/ 2>/dev/null); \
	if [ -n "$$sdirs" ]; then \
		results/emrcu-summarize -o $$d/summary.json \
			$$(ls -d $$d/runs/*/ 2>/dev/null) $$sdirs >/dev/null || rc=1; \
	fi; \
	if [ -f $$d/summary.json ]; then /usr/bin/python3 results/report.py $$d || rc=1; else rc=1; fi; \
	[ $$rc -eq 0 ] && results/publish.sh $$d || results/publish.sh --failed $$d

# make gate-control: the gate's controls on real guests (unpatched only):
# an A/A (columns A, B: the gate must flag nothing) and a column N
# whose em_bench adds NOPS instructions per em_cpu_energy() call (the gate
# must flag every perf domain's instructions/call); bench/run-bench.sh AA=1
# AA_INJECT_NOPS, results/aa-calibrate.sh.  Stores no noise file.
NOPS ?= 1
GATE_CONTROL_DIR ?= results/runs/$(RUN_ID)-gate-control
gate-control: deps tools
	@echo "gate-control: $(GATE_CONTROL_DIR) (A/A must flag nothing; +$(NOPS) instruction(s) per call must be flagged on every perf domain)"
	@RUNDIR=$(GATE_CONTROL_DIR) AA=1 AA_VARIANTS=unpatched AA_INJECT_NOPS=$(NOPS) \
		QUICK=1 BOOTS=$(or $(BOOTS),1) UPDATE_HZ=0 bench/run-bench.sh

# make gate-power: the gate's detection power (bench/gate-power.sh).
gate-power: deps tools
	@bench/gate-power.sh results/runs/$(RUN_ID)-gate-power $(if $(filter command line,$(origin N)),$(N),3)

# make pd-sweep: update cost against the number of perf domains (bench/pd-sweep.sh).
pd-sweep: deps tools
	@bench/pd-sweep.sh results/runs/$(RUN_ID)-pd-sweep

# make aa-repeat: the A/A gate's false-positive rate (bench/aa-repeat.sh).
N ?= 20
aa-repeat: deps tools
	@bench/aa-repeat.sh results/runs/$(RUN_ID)-aa-repeat $(N)

# make stress: em_torture under KASAN/lockdep/PROVE_RCU/kmemleak (stress/README.md).
DURATION ?=
stress: deps tools
	@stress/run.sh $(if $(filter 1,$(QUICK)),QUICK) $(if $(DURATION),DURATION=$(DURATION)) $(if $(VARIANT),VARIANT=$(VARIANT))

report: deps
	@/usr/bin/python3 results/report.py results/latest

# GNU make exits 2 whenever a recipe fails, so the gate's own code (1:
# regression, 2: bad input) cannot be make's: it is printed as the last
# line, and a CI script that branches on it calls results/emrcu-compare.
GATE_EXIT = rc=$$?; [ $$rc -eq 0 ] || echo "gate exit $$rc ($$([ $$rc -eq 1 ] && echo regression || echo 'bad input')); make exits 2 on any failure: results/emrcu-compare gives the code itself" >&2; exit $$rc
compare: tools-host
	@test -n "$(BASE)" -a -n "$(NEW)" || { echo "usage: make compare BASE=a.json NEW=b.json" >&2; exit 2; }
	@results/emrcu-compare $(BASE) $(NEW); $(GATE_EXIT)

gate: tools-host
	@results/emrcu-compare $(if $(wildcard results/baselines/noise.json),--noise results/baselines/noise.json) \
		--json results/latest/gate.json results/baselines/$(BASELINE).json results/latest/summary.json; $(GATE_EXIT)

# A summary in a tracker's format (results/export.c).
FORMAT ?= bmf
SUMMARY ?= results/latest/summary.json
OUT ?= $(dir $(SUMMARY))$(FORMAT).json
export: tools-host
	@results/emrcu-export --format $(FORMAT) -o $(OUT) $(SUMMARY) && echo "make export: $(OUT)"

clean:
	rm -rf $(addprefix $(BUILD)/,$(shell TOP=$(TOP) && . kernel/env.sh && variant_names) custom)

distclean:
	rm -rf $(BUILD)
