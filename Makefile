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
VARIANTS ?= unpatched patched patched-fixed
ifneq ($(PATCHES),)
VARIANTS += custom
export PATCHES PATCHES_BASE
endif

.PHONY: help deps pristine kernels check-series test clean distclean

help:
	@echo "emrcu-bench targets:"
	@echo "  make deps          install host packages (apt-get, as root; no-op when present)"
	@echo "  make kernels       build kernel variants: $(VARIANTS)"
	@echo "                     (VARIANTS='...' to choose; PATCHES=<dir> adds variant 'custom')"
	@echo "  make kernel-NAME   build one variant declared in kernel/variants"
	@echo "  make check-series  every prefix of the 17 patches builds; checkpatch; sparse"
	@echo "  make test          everything CI runs; ends with 'N passed, N failed'"
	@echo "  make clean         remove build outputs of the variants (keeps pristine tree, ccache)"
	@echo "  make distclean     remove build/ entirely"

deps:
	@kernel/deps.sh

pristine: deps
	@kernel/pristine.sh

kernels: deps
	@for v in $(VARIANTS); do kernel/variant.sh $$v || exit 1; done

kernel-%: deps
	@kernel/variant.sh $*

check-series: deps
	@kernel/check-series.sh

test: deps
	@tests/run.sh

clean:
	rm -rf $(addprefix $(BUILD)/,$(shell awk '!/^#/ && NF {print $$1}' kernel/variants) custom)

distclean:
	rm -rf $(BUILD)
