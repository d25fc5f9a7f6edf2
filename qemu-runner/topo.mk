# qemu-runner/topo.mk — the default topology (qemu-runner/default.topo, its
# one declaration) as -DTOPO_DEFAULT for every C file that includes topo.h.
# Include it with QR set to the qemu-runner directory; objects that depend
# on it list $(TOPO_FILE) as a prerequisite.
TOPO_FILE := $(QR)/default.topo
TOPO_DEFAULT_SPEC := $(strip $(file < $(TOPO_FILE)))
ifeq ($(TOPO_DEFAULT_SPEC),)
$(error $(TOPO_FILE) is missing or empty)
endif
CFLAGS += -DTOPO_DEFAULT='"$(TOPO_DEFAULT_SPEC)"'
