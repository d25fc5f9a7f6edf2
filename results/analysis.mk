# results/analysis.mk: included by the Makefiles of programs that judge
# (scenarios/): every statistic and noise rule a verdict uses lives in
# results/ (stats.h, signtest.h, rng.h) and is linked from here, so that the
# gate and the scenario verdicts apply one rule.
#   CFLAGS += $(ANALYSIS_CFLAGS); link $(LIBANALYSIS) -lm
EMRCU_RESULTS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
LIBANALYSIS := $(EMRCU_RESULTS_DIR)/obj/libanalysis.a
ANALYSIS_CFLAGS := -I$(EMRCU_RESULTS_DIR)

emrcu_analysis_goal := $(.DEFAULT_GOAL)
$(LIBANALYSIS): $(wildcard $(EMRCU_RESULTS_DIR)/rng.[ch] $(EMRCU_RESULTS_DIR)/stats.[ch] \
		$(EMRCU_RESULTS_DIR)/bootstrap.c $(EMRCU_RESULTS_DIR)/signtest.[ch])
	@$(MAKE) -s -C $(EMRCU_RESULTS_DIR) obj/libanalysis.a
.DEFAULT_GOAL := $(emrcu_analysis_goal)
