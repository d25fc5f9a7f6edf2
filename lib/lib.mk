# lib/lib.mk: included by every Makefile whose programs link the library.
#   CFLAGS += $(LIBEMRCU_CFLAGS)
#   host:  link $(LIBEMRCU) $(LIBEMRCU_LIBS)
#   guest: link $(LIBEMRCU_GUEST) $(LIBEMRCU_LIBS) (static, aarch64)
EMRCU_LIB_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD ?= $(abspath $(EMRCU_LIB_DIR)/../build)
LIBEMRCU := $(BUILD)/lib/host/libemrcu.a
LIBEMRCU_GUEST := $(BUILD)/lib/guest/libemrcu.a
LIBEMRCU_CFLAGS := -I$(EMRCU_LIB_DIR)/include
LIBEMRCU_LIBS := -ljson-c
# Unit tests: CFLAGS += $(CHECK_CFLAGS); link $(LIBCHECK) $(LIBEMRCU) $(CHECK_LIBS)
LIBCHECK := $(BUILD)/lib/host/libcheck.a
CHECK_CFLAGS := -I$(EMRCU_LIB_DIR)/tests
CHECK_LIBS := -lcmocka $(LIBEMRCU_LIBS) -lm

# (this rule must not become the includer's default goal)
emrcu_lib_goal := $(.DEFAULT_GOAL)
$(LIBEMRCU) $(LIBEMRCU_GUEST) $(LIBCHECK): $(wildcard $(EMRCU_LIB_DIR)/*.c \
		$(EMRCU_LIB_DIR)/include/emrcu/*.h $(EMRCU_LIB_DIR)/tests/check.[ch])
	@$(MAKE) -s -C $(EMRCU_LIB_DIR) $@
.DEFAULT_GOAL := $(emrcu_lib_goal)
