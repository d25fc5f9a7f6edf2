// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-guest-platform: self-test of emrcu_platform through its debugfs.
 *
 *   emrcu-guest-platform [--name NAME]
 *
 * Checks (each can fail; exit 1 if one does):
 *   em_is_model_at_nominal  every CPU perf domain's EM power equals the
 *                           model's nominal busy power, state by state
 *   writes_validated        out-of-range / malformed writes are refused,
 *                           valid ones read back
 *   leakage_calibration     big top OPP: busy power 70 °C / 25 °C within
 *                           [CAL_LO, CAL_HI]; every cluster hotter = more,
 *                           colder = less
 *   profile_memory          memory profile lowers big's top-OPP power
 *   meter_consistent        after a reset and a pinned busy spin: residency
 *                           sums to the elapsed time, the spinning CPU was
 *                           busy, its energy is within busy-power bounds
 *   em_update               runtime EM kernels accept it, others refuse
 *                           with EOPNOTSUPP
 * Leaves the platform at nominal conditions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cputopo.h"
#include "emrcu/em.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"

#define P "/sys/kernel/debug/emrcu_platform"
#define MAXV 64

/* Calibration target of model_data.h: +18..20 % on big at 70 °C. */
#define CAL_HOT_MC 70000
#define CAL_LO 1.18
#define CAL_HI 1.20
#define SPIN_S 0.3		/* meter check: pinned busy time */
#define RESIDENCY_TOL 0.01	/* sum(opp_ns) vs elapsed */
#define BUSY_MIN_FRAC 0.95	/* busy_ns of the spinning CPU vs SPIN_S */

static struct json *params, *power, *meter;
static int nr_checks, nr_failed;

static void check(const char *name, int ok, const char *detail)
{
	printf("%s{\"name\":\"%s\",\"pass\":%s,\"detail\":", nr_checks++ ? "," : "",
	       name, ok ? "true" : "false");
	json_fput_str(stdout, detail);
	putchar('}');
	if (!ok)
		nr_failed++;
}

/* Write @val to debugfs file @f: 0, or the errno. */
static int put(const char *f, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), P "/%s", f);
	return -sysfs_write(path, val, 0);
}

/* Parse debugfs JSON file @f into *@j (replacing it): 0, or -1. */
static int get(const char *f, struct json **j)
{
	char path[128], *text;

	snprintf(path, sizeof(path), P "/%s", f);
	text = read_file(path, NULL);
	json_free(*j);
	*j = text ? json_parse(text, strlen(text), NULL) : NULL;
	free(text);
	return *j ? 0 : -1;
}

static int nr_clusters(void)
{
	return (int)json_len(json_get(params, "clusters"));
}

/* The member of array @a whose @key is @id, or NULL. */
static const struct json *find_id(const struct json *a, const char *key, int id)
{
	int64_t v;
	size_t i;

	for (i = 0; i < json_len(a); i++)
		if (!json_int64(json_get(json_at(a, i), key), &v) && v == id)
			return json_at(a, i);
	return NULL;
}

/* Up to MAXV numbers of array @a into @v: how many, or -1. */
static int nums(const struct json *a, double *v)
{
	size_t i;

	if (json_kind(a) != JSON_ARRAY)
		return -1;
	for (i = 0; i < json_len(a) && i < MAXV; i++)
		if (json_num(json_at(a, i), &v[i]))
			return -1;
	return (int)i;
}

/* Array @key of cluster @id in @j (params or power). */
static int cluster_nums(const struct json *j, int id, const char *key, double *v)
{
	return nums(json_get(find_id(json_get(j, "clusters"), "id", id), key), v);
}

static int cluster_is(const struct json *j, int id, const char *cls)
{
	const char *c = json_str(json_get(find_id(json_get(j, "clusters"), "id", id),
					  "class"));

	return c && !strcmp(c, cls);
}

static void check_em_nominal(void)
{
	static struct em_pd pds[EM_MAX_PDS];
	double cpus[MAXV], nom[MAXV];
	char detail[256] = "";
	int i, j, k, n, npd, ok = 1;

	npd = em_read(EM_DEBUGFS, pds, EM_MAX_PDS);
	n = nr_clusters();
	for (i = 0; i < n && ok; i++) {
		char want[32];
		int m;

		if (cluster_nums(params, i, "cpus", cpus) < 1 ||
		    (m = cluster_nums(power, i, "nominal_busy_uw", nom)) < 1) {
			snprintf(detail, sizeof(detail), "cluster %d: no data", i);
			ok = 0;
			break;
		}
		snprintf(want, sizeof(want), "cpu%d", (int)cpus[0]);
		for (j = 0; j < npd && strcmp(pds[j].name, want); j++)
			;
		if (j == npd || pds[j].nr_read != m) {
			snprintf(detail, sizeof(detail), "cluster %d: no PD %s with %d states",
				 i, want, m);
			ok = 0;
			break;
		}
		for (k = 0; k < m; k++) {
			if ((double)pds[j].ps[k].power != nom[k]) {
				snprintf(detail, sizeof(detail), "%s state %d: EM %lu uW, model %.0f uW",
					 want, k, pds[j].ps[k].power, nom[k]);
				ok = 0;
				break;
			}
		}
	}
	if (ok)
		snprintf(detail, sizeof(detail), "%d clusters, every state equal", n);
	check("em_is_model_at_nominal", ok && n > 0, detail);
}

static void check_writes(void)
{
	static const struct { const char *f, *v; int ok; } cases[] = {
		{ "temperature", "200000", 0 }, { "temperature", "-50000", 0 },
		{ "temperature", "abc", 0 }, { "temperature", "45000", 1 },
		{ "bin", "60", 0 }, { "bin", "-20", 1 },
		{ "profile", "bogus", 0 }, { "profile", "fp", 1 },
		{ "meter", "5", 0 }, { "meter", "0", 1 },
	};
	char detail[256] = "all as expected", buf[64], path[128];
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = put(cases[i].f, cases[i].v);

		if ((err == 0) != cases[i].ok) {
			snprintf(detail, sizeof(detail), "%s=%s: %s", cases[i].f,
				 cases[i].v, err ? strerror(err) : "accepted");
			ok = 0;
			break;
		}
		if (!cases[i].ok || !strcmp(cases[i].f, "meter"))
			continue;
		snprintf(path, sizeof(path), P "/%s", cases[i].f);
		if (read_text(path, buf, sizeof(buf)) < 0 || strcmp(buf, cases[i].v)) {
			snprintf(detail, sizeof(detail), "%s reads back '%s', wrote %s",
				 cases[i].f, buf, cases[i].v);
			ok = 0;
			break;
		}
	}
	put("temperature", "25000");
	put("bin", "0");
	put("profile", "nominal");
	check("writes_validated", ok, detail);
}

static void check_calibration(void)
{
	double hot[MAXV], nom[MAXV], cold[MAXV], ratio = 0;
	char detail[256], t[16];
	int i, m, n = nr_clusters(), ok = 1, big = -1;

	snprintf(t, sizeof(t), "%d", CAL_HOT_MC);
	if (put("temperature", t) || get("power", &power)) {
		check("leakage_calibration", 0, "cannot set temperature");
		return;
	}
	for (i = 0; i < n; i++) {
		m = cluster_nums(power, i, "busy_uw", hot);
		if (m < 1 || cluster_nums(power, i, "nominal_busy_uw", nom) != m) {
			ok = 0;
			continue;
		}
		if (hot[m - 1] <= nom[m - 1] || hot[0] <= nom[0])
			ok = 0;
		if (cluster_is(power, i, "big") && big < 0) {
			big = i;
			ratio = hot[m - 1] / nom[m - 1];
		}
	}
	put("temperature", "0");
	get("power", &power);
	for (i = 0; i < n; i++) {
		m = cluster_nums(power, i, "busy_uw", cold);
		if (m < 1 || cluster_nums(power, i, "nominal_busy_uw", nom) != m ||
		    cold[m - 1] >= nom[m - 1])
			ok = 0;
	}
	put("temperature", "25000");
	get("power", &power);
	if (big >= 0 && (ratio < CAL_LO || ratio > CAL_HI))
		ok = 0;
	snprintf(detail, sizeof(detail),
		 "big cluster %d top OPP %d/25 C = %.4f (want %.2f..%.2f); hotter>nominal>colder: %s",
		 big, CAL_HOT_MC / 1000, ratio, CAL_LO, CAL_HI, ok ? "yes" : "no");
	check("leakage_calibration", ok, detail);
}

static void check_profile(void)
{
	double mem[MAXV], nom[MAXV];
	char detail[160];
	int i, m = 0, n = nr_clusters(), big = -1, ok;

	for (i = 0; i < n && big < 0; i++)
		if (cluster_is(params, i, "big"))
			big = i;
	if (big < 0) {
		check("profile_memory", 1, "no big cluster: skipped");
		return;
	}
	ok = !put("profile", "memory") && !get("power", &power);
	if (ok) {
		m = cluster_nums(power, big, "busy_uw", mem);
		ok = m > 0 && cluster_nums(power, big, "nominal_busy_uw", nom) == m &&
		     mem[m - 1] < nom[m - 1];
	}
	put("profile", "nominal");
	get("power", &power);
	snprintf(detail, sizeof(detail), "big top OPP: memory %.0f uW, nominal %.0f uW",
		 m > 0 ? mem[m - 1] : -1.0, m > 0 ? nom[m - 1] : -1.0);
	check("profile_memory", ok, detail);
}

static void check_meter(const struct topo *t)
{
	double opp_ns[MAXV], busy_uw[MAXV], cpus[MAXV];
	double since, now, sum = 0, busy_ns = -1, energy = -1, pmin = 1e18, pmax = 0;
	char detail[320];
	const struct json *p;
	int cpu, cl = -1, i, m, n = nr_clusters(), ok;
	cpu_set_t set;
	double end;

	for (cpu = EMRCU_MAX_CPUS - 1; cpu >= 0 && !(t->online & (1ULL << cpu)); cpu--)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set) || put("meter", "0")) {
		check("meter_consistent", 0, "cannot pin or reset");
		return;
	}
	for (end = now_s() + SPIN_S; now_s() < end;)
		;
	ok = !get("meter", &meter);
	CPU_ZERO(&set);
	for (i = 0; i < EMRCU_MAX_CPUS; i++)
		if (t->online & (1ULL << i))
			CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);

	for (i = 0; i < n && cl < 0; i++) {
		int k, c = cluster_nums(params, i, "cpus", cpus);

		for (k = 0; k < c; k++)
			if ((int)cpus[k] == cpu)
				cl = i;
	}
	p = find_id(json_get(meter, "cpus"), "cpu", cpu);
	ok &= cl >= 0 && p && !json_num(json_get(p, "busy_ns"), &busy_ns) &&
	      !json_num(json_get(p, "energy_uj"), &energy) &&
	      !json_num(json_get(meter, "now_ns"), &now);
	if (ok) {
		p = find_id(json_get(meter, "clusters"), "id", cl);
		ok = p && !json_num(json_get(p, "since_ns"), &since);
		m = ok ? nums(json_get(p, "opp_ns"), opp_ns) : -1;
		ok &= m > 0 && cluster_nums(power, cl, "busy_uw", busy_uw) == m;
		for (i = 0; ok && i < m; i++) {
			sum += opp_ns[i];
			pmin = busy_uw[i] < pmin ? busy_uw[i] : pmin;
			pmax = busy_uw[i] > pmax ? busy_uw[i] : pmax;
		}
	}
	if (ok) {
		double elapsed = now - since;

		/* uW * ns = fJ; energy is in uJ = 1e9 fJ */
		ok = elapsed > 0 && sum > elapsed * (1 - RESIDENCY_TOL) &&
		     sum < elapsed * (1 + RESIDENCY_TOL) &&
		     busy_ns >= SPIN_S * 1e9 * BUSY_MIN_FRAC &&
		     energy >= busy_ns * pmin / 1e9 &&
		     energy <= elapsed * pmax / 1e9;
		snprintf(detail, sizeof(detail),
			 "cpu%d cluster %d: residency %.0f ns / elapsed %.0f ns, busy %.0f ns (spin %.0f ms), energy %.3f uJ in [%.3f, %.3f]",
			 cpu, cl, sum, elapsed, busy_ns, SPIN_S * 1e3, energy,
			 busy_ns * pmin / 1e9, elapsed * pmax / 1e9);
	} else {
		snprintf(detail, sizeof(detail), "meter output not as expected (cpu%d)", cpu);
	}
	check("meter_consistent", ok, detail);
}

static void check_em_update(void)
{
	struct json *upd = NULL;
	int64_t rc = -1;
	int runtime = 0, err = put("em_update", "1");
	char detail[320], *text;
	int ok;

	json_boolean(json_get(params, "runtime_em"), &runtime);
	get("em_update", &upd);
	json_int64(json_get(upd, "last_rc"), &rc);
	if (runtime)
		ok = !err && rc == 0;
	else
		ok = err == EOPNOTSUPP;
	text = upd ? json_text(upd, 0) : NULL;
	snprintf(detail, sizeof(detail), "runtime_em %s: write %s; %s",
		 runtime ? "yes" : "no", err ? strerror(err) : "ok", text ? text : "");
	free(text);
	json_free(upd);
	check("em_update", ok, detail);
}

int main(int argc, char **argv)
{
	const char *name = "platform-check.json";
	struct topo t;

	if (argc == 3 && !strcmp(argv[1], "--name")) {
		name = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--name NAME]\n", argv[0]);
		return 2;
	}
	if (topo_read(&t) || get("params", &params) || get("power", &power)) {
		fprintf(stderr, "emrcu-guest-platform: %s not readable (module loaded?)\n", P);
		return 2;
	}
	result_begin(stdout, name);
	printf("{\"checks\":[");
	check_em_nominal();
	check_writes();
	check_profile();
	check_meter(&t);
	check_em_update();
	check_calibration();
	printf("],\"pass\":%s}", nr_failed ? "false" : "true");
	result_end(stdout, name);
	return nr_failed ? 1 : 0;
}
