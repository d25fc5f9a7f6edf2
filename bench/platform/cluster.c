// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: clusters from the kernel's topology (cpu-map), one CPU
 * class per cluster (rule in model_data.h), one OPP table per cluster.
 */
#include <linux/arch_topology.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/sched/topology.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "emrcu_internal.h"

struct emrcu_cluster emrcu_clusters[NR_CPUS];
int emrcu_nr_clusters;
struct emrcu_cpu emrcu_cpus[NR_CPUS];

int emrcu_class_index(const char *name)
{
	int i;

	for (i = 0; i < EMRCU_NR_CLASSES; i++)
		if (sysfs_streq(name, emrcu_class_data[i].name))
			return i;
	return -EINVAL;
}

/*
 * CPUs share a cluster when cpu-map put them in the same one; without a
 * cpu-map (cluster_id -1) CPUs of equal capacity are grouped.
 */
static bool emrcu_same_cluster(int a, int b)
{
	if (topology_cluster_id(a) >= 0 || topology_cluster_id(b) >= 0)
		return topology_physical_package_id(a) ==
		       topology_physical_package_id(b) &&
		       topology_cluster_id(a) == topology_cluster_id(b);
	return arch_scale_cpu_capacity(a) == arch_scale_cpu_capacity(b);
}

static int emrcu_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The class rule of model_data.h: rank of the cluster's capacity. */
static int emrcu_class_by_rank(unsigned long cap)
{
	unsigned long caps[NR_CPUS];
	int i, n = 0, rank = 0;

	for (i = 0; i < emrcu_nr_clusters; i++)
		caps[n++] = emrcu_clusters[i].capacity;
	sort(caps, n, sizeof(caps[0]), emrcu_cmp_ulong, NULL);
	for (i = 1; i < n; i++)
		if (caps[i] != caps[rank])
			caps[++rank] = caps[i];
	n = rank + 1;		/* distinct capacities */
	for (rank = 0; rank < n && caps[rank] != cap; rank++)
		;
	if (rank == n - 1)
		return EMRCU_CLASS_BIG;
	if (rank == 0)
		return EMRCU_CLASS_LITTLE;
	return EMRCU_CLASS_MID;
}

/* classes= "little,mid,big": one class name per cluster, in cluster order. */
static int emrcu_classes_override(const char *classes)
{
	char buf[16];
	const char *p = classes;
	int i = 0, cls;
	size_t len;

	while (*p) {
		len = strcspn(p, ",");
		if (i >= emrcu_nr_clusters || len >= sizeof(buf)) {
			pr_err(EMRCU_NAME ": classes=%s: more entries than the %d clusters, or an entry too long\n",
			       classes, emrcu_nr_clusters);
			return -EINVAL;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		cls = emrcu_class_index(buf);
		if (cls < 0) {
			pr_err(EMRCU_NAME ": classes=%s: unknown class '%s' (little, mid, big)\n",
			       classes, buf);
			return -EINVAL;
		}
		emrcu_clusters[i++].cls = cls;
		p += len;
		if (*p == ',')
			p++;
	}
	if (i != emrcu_nr_clusters) {
		pr_err(EMRCU_NAME ": classes=%s: %d entries for %d clusters\n",
		       classes, i, emrcu_nr_clusters);
		return -EINVAL;
	}
	return 0;
}

/*
 * OPP table of a cluster: the class's published OPPs (all of them, or
 * max_opps of them evenly spaced, always the lowest and the highest), with
 * frequencies scaled linearly so that the highest is EMRCU_FMAX_KHZ.
 */
static void emrcu_cluster_opps(struct emrcu_cluster *cl)
{
	const struct emrcu_class_data *d = &emrcu_class_data[cl->cls];
	unsigned int n = d->nr_opps, k = n, fmax = d->opps[n - 1].khz;
	unsigned int i, src;

	if (emrcu_max_opps > 0 && emrcu_max_opps < n)
		k = emrcu_max_opps;
	for (i = 0; i < k; i++) {
		src = k == 1 ? n - 1 : (i * (n - 1) + (k - 1) / 2) / (k - 1);
		cl->opp[i].phys_khz = d->opps[src].khz;
		cl->opp[i].uv = d->opps[src].uv;
		cl->opp[i].khz = DIV_ROUND_CLOSEST_ULL((u64)d->opps[src].khz *
						       EMRCU_FMAX_KHZ, fmax);
		cl->freq_table[i].driver_data = i;
		cl->freq_table[i].frequency = cl->opp[i].khz;
		cl->freq_table[i].flags = 0;
	}
	cl->freq_table[k].frequency = CPUFREQ_TABLE_END;
	cl->nr_opps = k;
}

int emrcu_clusters_init(const char *classes)
{
	struct emrcu_cluster *cl;
	int cpu, other, i, ret;

	for_each_possible_cpu(cpu) {
		if (emrcu_cpus[cpu].cl)
			continue;
		cl = &emrcu_clusters[emrcu_nr_clusters];
		cl->id = emrcu_nr_clusters++;
		cl->capacity = arch_scale_cpu_capacity(cpu);
		raw_spin_lock_init(&cl->lock);
		for_each_possible_cpu(other) {
			if (emrcu_cpus[other].cl || !emrcu_same_cluster(cpu, other))
				continue;
			if (arch_scale_cpu_capacity(other) != cl->capacity) {
				pr_err(EMRCU_NAME ": CPU%d (capacity %lu) and CPU%d (capacity %lu) share cluster %d: a perf domain needs one capacity; fix the topology (cpu-map / capacity-dmips-mhz)\n",
				       cpu, cl->capacity, other,
				       arch_scale_cpu_capacity(other), cl->id);
				return -EINVAL;
			}
			cpumask_set_cpu(other, &cl->cpus);
			emrcu_cpus[other].cl = cl;
			cl->nr_cpus++;
		}
	}

	for (i = 0; i < emrcu_nr_clusters; i++)
		emrcu_clusters[i].cls =
			emrcu_class_by_rank(emrcu_clusters[i].capacity);
	if (classes && *classes) {
		ret = emrcu_classes_override(classes);
		if (ret)
			return ret;
	}

	for (i = 0; i < emrcu_nr_clusters; i++) {
		cl = &emrcu_clusters[i];
		emrcu_cluster_opps(cl);
		cl->cur = cl->nr_opps - 1;	/* "bootloader" leaves fmax */
		pr_info(EMRCU_NAME ": cluster%d cpus %*pbl capacity %lu class %s (%s) %d OPPs\n",
			cl->id, cpumask_pr_args(&cl->cpus), cl->capacity,
			emrcu_class_data[cl->cls].name,
			emrcu_class_data[cl->cls].core, cl->nr_opps);
	}
	return 0;
}
