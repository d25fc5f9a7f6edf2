// SPDX-License-Identifier: GPL-2.0
/* The scenario kinds a file may name in `kind =`. */
#include "kind.h"

const struct scen_kind *const scen_kinds[] = {
	&kind_energy, &kind_placement, &kind_shared, &kind_latency,
	&kind_wakeup, NULL
};
