/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu_em_table.h - a new Energy Model table for the merged design's API
 * (kernel/upstream: em_table_alloc() ... em_dev_update_perf_domain()),
 * built the way its drivers build one: ahead of the update, outside the
 * framework's lock.  Shared by the bench modules (em_bench, emrcu_platform);
 * their Kbuild defines EMRCU_EM_TABLE_API when the variant's header has
 * em_table_alloc().
 */
#ifndef _EMRCU_EM_TABLE_H
#define _EMRCU_EM_TABLE_H

#ifdef EMRCU_EM_TABLE_API
#include <linux/energy_model.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

/*
 * A table for @dev's perf domain with @power (@n values, one per state, in
 * ascending order): frequencies and performance copied from the table in
 * effect, costs and inefficiencies computed by em_dev_compute_costs().  The
 * copied flags are cleared first: em_dev_compute_costs() only ever sets
 * EM_PERF_STATE_INEFFICIENT, so a state the new powers make efficient would
 * keep the old table's mark.  The caller owns one reference
 * (em_table_free()); NULL on a domain of another size or no memory.
 */
static inline struct em_perf_table *
emrcu_em_table_build(struct device *dev, const unsigned long *power, int n)
{
	struct em_perf_domain *pd = em_pd_get(dev);
	struct em_perf_table *t;
	int i;

	if (!pd || n != pd->nr_perf_states)
		return NULL;
	t = em_table_alloc(pd);
	if (!t)
		return NULL;
	rcu_read_lock();
	memcpy(t->state, em_perf_state_from_pd(pd), n * sizeof(t->state[0]));
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		t->state[i].power = power[i];
		t->state[i].flags = 0;
	}
	if (em_dev_compute_costs(dev, t->state, n)) {
		em_table_free(t);
		return NULL;
	}
	return t;
}
#endif /* EMRCU_EM_TABLE_API */

#endif /* _EMRCU_EM_TABLE_H */
