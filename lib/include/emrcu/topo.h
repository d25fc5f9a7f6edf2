/*
 * emrcu/topo.h - CPU topology specs: "COUNTxCAPACITY+COUNTxCAPACITY+...".
 *
 * Each '+'-separated term is one cluster of COUNT CPUs whose cpu nodes get
 * capacity-dmips-mhz = CAPACITY.  Clusters may have unequal sizes.  CPUs are
 * numbered in order: cluster0 takes cpu0..cpu(COUNT0-1), and so on.
 *
 * What a capacity means: arch_topology multiplies capacity-dmips-mhz by the
 * cluster's maximum cpufreq frequency and scales the biggest product to 1024.
 * The platform module gives every cluster the same fmax, so the final
 * cpu_capacity is CAPACITY * 1024 / max(CAPACITY) (topo_final_capacity()).
 */
#ifndef EMRCU_LIB_TOPO_H
#define EMRCU_LIB_TOPO_H

#include <stddef.h>

/*
 * The default topology (a little/mid/big box) is declared in one place,
 * qemu-runner/default.topo, which scripts read as it is and the Makefiles
 * of the programs that use it pass in as -DTOPO_DEFAULT (qemu-runner/topo.mk).
 */

#define TOPO_MAX_CPUS 16	/* CONFIG_NR_CPUS of kernel/config/guest.config */
#define TOPO_MAX_CAPACITY 1024	/* SCHED_CAPACITY_SCALE */
#define TOPO_MAX_CLUSTERS TOPO_MAX_CPUS

struct topo_cluster {
	int ncpus;
	int capacity;		/* capacity-dmips-mhz */
};

struct topo {
	int nclusters;
	int ncpus;
	struct topo_cluster c[TOPO_MAX_CLUSTERS];
};

/* 0 on success; -1 with a one-line reason in err. */
int topo_parse(const char *spec, struct topo *t, char *err, size_t errlen);
/* Canonical spec ("4x160+2x512+2x1024") into out. */
void topo_format(const struct topo *t, char *out, size_t outlen);
/* Cluster index of logical CPU cpu. */
int topo_cpu_cluster(const struct topo *t, int cpu);
/* cpu_capacity once every cluster has the same fmax (biggest = 1024). */
int topo_final_capacity(const struct topo *t, int cluster);

#endif
