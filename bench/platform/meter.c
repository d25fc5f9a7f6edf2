// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: the true-energy meter.
 *
 * Per cluster, under its raw spinlock, energy is integrated piecewise
 * constant between events: a CPU going busy/idle (sched_switch: next is or
 * is not the idle task), a frequency change, a change of conditions, a read
 * or a reset.  Each piece adds, with the power valid during it:
 *   every busy CPU: busy_uw[profile][cur] * dt (the profile of the task
 *                   running there, model_data.h)
 *   every idle CPU: idle_uw[cur] * dt
 *   the cluster (any CPU busy): shared_uw * dt
 * and, beside the truth, what the Energy Model in effect says of the same
 * busy time: em_uw[cur] * dt per busy CPU (em_uw: the kernel's table, read
 * back after every change the platform makes; emdrv.c).  Over a window
 * whose conditions or EM change, their ratio is the EM's error on the
 * residency that really happened.
 * Energy is kept in fJ (uW * ns); a u64 holds ~5 h of a 1 W CPU.
 */
#include <linux/cpu.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include "emrcu_internal.h"

static struct tracepoint *emrcu_tp_sched_switch;
static struct work_struct emrcu_sync_work[NR_CPUS];

/* Lock held.  Integrate up to @now (clocks of two CPUs may disagree a bit). */
static void emrcu_meter_advance(struct emrcu_cluster *cl, u64 now)
{
	u64 dt;
	int cpu;

	if (now <= cl->last_ns)
		return;
	dt = now - cl->last_ns;
	cl->last_ns = now;
	cl->m.opp_ns[cl->cur] += dt;
	for_each_cpu(cpu, &cl->cpus) {
		struct emrcu_cpu *c = &emrcu_cpus[cpu];
		u64 e;

		if (c->busy) {
			u64 em = (u64)cl->em_uw[cl->cur] * dt;
			int p = c->profile < 0 ? cl->profile : c->profile;

			e = (u64)cl->busy_uw[p][cl->cur] * dt;
			cl->m.profile_busy_ns[p] += dt;
			c->m.busy_fj += e;
			c->m.em_fj += em;
			cl->busy_total_fj += e;
			cl->em_total_fj += em;
			c->m.busy_ns += dt;
			c->m.busy_opp_ns[cl->cur] += dt;
		} else {
			e = (u64)cl->idle_uw[cl->cur] * dt;
		}
		c->m.energy_fj += e;
		cl->total_fj += e;
	}
	if (cl->nr_busy) {
		cl->m.shared_fj += (u64)cl->shared_uw * dt;
		cl->total_fj += (u64)cl->shared_uw * dt;
		cl->m.any_busy_ns += dt;
	}
}

/* The profile @t declares by its name (model_data.h), or -1. */
static int emrcu_task_profile(const struct task_struct *t)
{
	const size_t plen = sizeof(EMRCU_TASK_PROFILE_PREFIX) - 1;
	const char *name;
	int i;

	if (strncmp(t->comm, EMRCU_TASK_PROFILE_PREFIX, plen))
		return -1;
	for (i = 0; i < emrcu_nr_profiles; i++) {
		size_t n = strlen(emrcu_profile_data[i].name);

		name = t->comm + plen;
		if (!strncmp(name, emrcu_profile_data[i].name, n) &&
		    (name[n] == '\0' || name[n] == '.'))
			return i;
	}
	return -1;
}

static void emrcu_probe_sched_switch(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	struct emrcu_cpu *c = &emrcu_cpus[smp_processor_id()];
	struct emrcu_cluster *cl = c->cl;
	bool busy = !is_idle_task(next);
	int profile = busy ? emrcu_task_profile(next) : -1;
	unsigned long flags;

	if (!cl || (busy == READ_ONCE(c->busy) &&
		    profile == READ_ONCE(c->profile)))
		return;
	raw_spin_lock_irqsave(&cl->lock, flags);
	emrcu_meter_advance(cl, local_clock());
	WRITE_ONCE(c->profile, profile);
	if (busy != c->busy) {
		WRITE_ONCE(c->busy, busy);
		c->m.switches++;
		if (busy)
			cl->nr_busy++;
		else
			cl->nr_busy--;
	}
	raw_spin_unlock_irqrestore(&cl->lock, flags);
}

/* The virtual hardware: record the new OPP, account the old one up to now. */
void emrcu_meter_set_opp(struct emrcu_cluster *cl, int idx)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cl->lock, flags);
	emrcu_meter_advance(cl, local_clock());
	if (cl->cur != idx) {
		WRITE_ONCE(cl->cur, idx);
		cl->m.freq_changes++;
	}
	raw_spin_unlock_irqrestore(&cl->lock, flags);
}

/* @cl's true power under @c: account the past with the old, then switch. */
static void emrcu_meter_set_tables(struct emrcu_cluster *cl,
				   const struct emrcu_cond *c)
{
	unsigned long busy[EMRCU_NR_PROFILES][EMRCU_MAX_OPPS];
	unsigned long idle[EMRCU_MAX_OPPS], shared;
	struct emrcu_cond pc = *c;
	unsigned long flags;
	int j;

	for (pc.profile = 0; pc.profile < EMRCU_NR_PROFILES; pc.profile++)
		for (j = 0; j < cl->nr_opps; j++)
			emrcu_power_opp(cl->cls, &cl->opp[j], &pc,
					&busy[pc.profile][j], &idle[j]);
	shared = emrcu_power_shared(cl->cls, c);

	raw_spin_lock_irqsave(&cl->lock, flags);
	emrcu_meter_advance(cl, local_clock());
	memcpy(cl->busy_uw, busy, sizeof(busy));
	memcpy(cl->idle_uw, idle, sizeof(idle));
	cl->profile = c->profile;
	cl->shared_uw = shared;
	WRITE_ONCE(cl->temp_mc, c->temp_mc);
	raw_spin_unlock_irqrestore(&cl->lock, flags);
}

/*
 * New conditions (emrcu_cond_lock held).  Without thermal dynamics every
 * die is at @c's temperature; with them each keeps its own (thermal.c).
 */
void emrcu_meter_set_cond(const struct emrcu_cond *c)
{
	int i;

	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];
		struct emrcu_cond cc = *c;

		if (emrcu_thermal_on)
			cc.temp_mc = READ_ONCE(cl->temp_mc);
		emrcu_meter_set_tables(cl, &cc);
	}
}

/* @cl's die is now at @temp_mc (thermal.c); profile and bin as they are. */
void emrcu_meter_set_cluster_temp(struct emrcu_cluster *cl, int temp_mc)
{
	struct emrcu_cond c;

	mutex_lock(&emrcu_cond_lock);
	emrcu_cond_read(&c);
	c.temp_mc = temp_mc;
	emrcu_meter_set_tables(cl, &c);
	mutex_unlock(&emrcu_cond_lock);
}

/* The Energy Model now in effect for @cl (emdrv.c reads it back). */
void emrcu_meter_set_em(struct emrcu_cluster *cl, const unsigned long *uw)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cl->lock, flags);
	emrcu_meter_advance(cl, local_clock());
	memcpy(cl->em_uw, uw, sizeof(cl->em_uw));
	raw_spin_unlock_irqrestore(&cl->lock, flags);
}

/* The Energy Model in effect for @cl now (per OPP, as EAS reads it). */
void emrcu_em_snapshot(struct emrcu_cluster *cl, unsigned long *uw)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cl->lock, flags);
	memcpy(uw, cl->em_uw, sizeof(cl->em_uw));
	raw_spin_unlock_irqrestore(&cl->lock, flags);
}

/*
 * Since the module loaded (never reset): every joule @cl dissipated, its
 * CPUs' busy energy and the EM in effect's estimate of that busy energy.
 */
void emrcu_meter_total(struct emrcu_cluster *cl, struct emrcu_totals *t)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cl->lock, flags);
	t->now = local_clock();
	emrcu_meter_advance(cl, t->now);
	t->fj = cl->total_fj;
	t->busy_fj = cl->busy_total_fj;
	t->em_fj = cl->em_total_fj;
	raw_spin_unlock_irqrestore(&cl->lock, flags);
}

void emrcu_meter_reset(void)
{
	unsigned long flags;
	int i, cpu;

	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];

		raw_spin_lock_irqsave(&cl->lock, flags);
		emrcu_meter_advance(cl, local_clock());
		memset(&cl->m, 0, sizeof(cl->m));
		cl->m.since_ns = cl->last_ns;
		for_each_cpu(cpu, &cl->cpus)
			memset(&emrcu_cpus[cpu].m, 0, sizeof(emrcu_cpus[cpu].m));
		raw_spin_unlock_irqrestore(&cl->lock, flags);
	}
}

/*
 * Copy every cluster and CPU, integrated up to one common @now, into
 * caller-provided arrays of emrcu_nr_clusters / nr_cpu_ids entries.
 */
void emrcu_meter_snapshot(struct emrcu_cluster *cl_out, struct emrcu_cpu *cpu_out,
			  u64 *now)
{
	unsigned long flags;
	int i, cpu;

	*now = local_clock();
	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];

		raw_spin_lock_irqsave(&cl->lock, flags);
		emrcu_meter_advance(cl, *now);
		memcpy(&cl_out[i], cl, sizeof(*cl));
		for_each_cpu(cpu, &cl->cpus)
			cpu_out[cpu] = emrcu_cpus[cpu];
		raw_spin_unlock_irqrestore(&cl->lock, flags);
	}
}

static void emrcu_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		*(struct tracepoint **)priv = tp;
}

static void emrcu_noop(struct work_struct *work)
{
}

bool emrcu_meter_probing(void)
{
	return emrcu_tp_sched_switch;
}

/*
 * Start integrating now.  With @probe, attach to sched_switch, then run a
 * no-op work item on every online CPU: each one switches at least twice, so
 * every CPU's busy/idle state is right from here on.
 */
int emrcu_meter_start(bool probe)
{
	struct tracepoint *tp = NULL;
	u64 now = local_clock();
	int i, ret;

	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];
		int cpu;

		raw_spin_lock_irq(&cl->lock);
		memset(&cl->m, 0, sizeof(cl->m));
		for_each_cpu(cpu, &cl->cpus) {
			memset(&emrcu_cpus[cpu].m, 0, sizeof(emrcu_cpus[cpu].m));
			emrcu_cpus[cpu].profile = -1;
		}
		cl->last_ns = now;
		cl->m.since_ns = now;
		raw_spin_unlock_irq(&cl->lock);
	}
	if (!probe)
		return 0;

	for_each_kernel_tracepoint(emrcu_find_tp, &tp);
	if (!tp) {
		pr_err(EMRCU_NAME ": meter=1 needs the sched_switch tracepoint (CONFIG_TRACEPOINTS)\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(tp, (void *)emrcu_probe_sched_switch,
					NULL);
	if (ret) {
		pr_err(EMRCU_NAME ": meter: cannot attach to sched_switch: %d\n",
		       ret);
		return ret;
	}
	emrcu_tp_sched_switch = tp;

	cpus_read_lock();
	for_each_online_cpu(i) {
		INIT_WORK(&emrcu_sync_work[i], emrcu_noop);
		queue_work_on(i, system_highpri_wq, &emrcu_sync_work[i]);
	}
	for_each_online_cpu(i)
		flush_work(&emrcu_sync_work[i]);
	cpus_read_unlock();
	return 0;
}

void emrcu_meter_stop(void)
{
	if (!emrcu_tp_sched_switch)
		return;
	tracepoint_probe_unregister(emrcu_tp_sched_switch,
				    (void *)emrcu_probe_sched_switch, NULL);
	tracepoint_synchronize_unregister();
	emrcu_tp_sched_switch = NULL;
}
