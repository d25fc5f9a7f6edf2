// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: /sys/kernel/debug/emrcu_platform/
 *
 *   temperature  rw  SoC temperature, m°C (range-checked)
 *   profile      rw  workload profile name (nominal, memory, fp)
 *   bin          rw  chip-bin voltage offset, mV (range-checked)
 *   params       r   every model constant, OPP table and cluster (JSON)
 *   power        r   true power tables under the current conditions (JSON)
 *   meter        rw  true energy per CPU and cluster, and the EM in
 *                    effect's estimate of the busy part (JSON); write 0:
 *                    reset it, the thermal and the driver statistics
 *   em_update    rw  write 1: push the truth at each die's temperature into
 *                    every CPU perf domain (em_dev_update_perf_domain(): an
 *                    oracle); write "mean": at each die's time-weighted mean
 *                    temperature of the last window (the best static
 *                    table); write "avg T:P:B:W ...": the truth's mean
 *                    over conditions (m°C:profile:bin mV:weight), the best
 *                    static table of a stepped scenario; -EOPNOTSUPP
 *                    without the series
 *   thermal      rw  thermal=1: the dies, sensors and window statistics
 *                    (JSON); write "reset": every die at ambient
 *   heat         w   external heat schedule "MS:MW ...", from now
 *   driver       r   the EM driver (drv=): mode, model, update statistics
 *                    of the window (JSON)
 *
 * With thermal=1, `temperature` sets the ambient temperature and resets
 * every die to it.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/energy_model.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "emrcu_internal.h"

static struct dentry *emrcu_dir;

static void emrcu_json_cpus(struct seq_file *s, const struct cpumask *mask)
{
	const char *sep = "";
	int cpu;

	seq_putc(s, '[');
	for_each_cpu(cpu, mask) {
		seq_printf(s, "%s%d", sep, cpu);
		sep = ",";
	}
	seq_putc(s, ']');
}

static void emrcu_json_opps(struct seq_file *s, const struct emrcu_opp *opp,
			    int n)
{
	int i;

	seq_puts(s, "[");
	for (i = 0; i < n; i++)
		seq_printf(s, "%s{\"khz\":%u,\"phys_khz\":%u,\"uv\":%u}",
			   i ? "," : "", opp[i].khz, opp[i].phys_khz, opp[i].uv);
	seq_puts(s, "]");
}

static void emrcu_json_u64s(struct seq_file *s, const u64 *v, int n)
{
	int i;

	seq_putc(s, '[');
	for (i = 0; i < n; i++)
		seq_printf(s, "%s%llu", i ? "," : "", v[i]);
	seq_putc(s, ']');
}

static void emrcu_json_ulongs(struct seq_file *s, const unsigned long *v, int n)
{
	int i;

	seq_putc(s, '[');
	for (i = 0; i < n; i++)
		seq_printf(s, "%s%lu", i ? "," : "", v[i]);
	seq_putc(s, ']');
}

/* fJ as a decimal number of uJ with pJ resolution. */
static void emrcu_json_uj(struct seq_file *s, const char *key, u64 fj)
{
	u32 rem;
	u64 uj = div_u64_rem(fj, 1000000000, &rem);

	seq_printf(s, "\"%s\":%llu.%06u", key, uj, rem / 1000);
}

static int emrcu_write_cond(const struct emrcu_cond *c)
{
	int ret = emrcu_cond_check(c);

	if (ret)
		return ret;
	WRITE_ONCE(emrcu_cond.temp_mc, c->temp_mc);
	WRITE_ONCE(emrcu_cond.profile, c->profile);
	WRITE_ONCE(emrcu_cond.bin_mv, c->bin_mv);
	emrcu_meter_set_cond(c);
	return 0;
}

static int emrcu_write_ambient(int mc)
{
	if (mc < EMRCU_TEMP_MIN_MC || mc > EMRCU_TEMP_MAX_MC)
		return -ERANGE;
	WRITE_ONCE(emrcu_ambient_mc, mc);
	mutex_lock(&emrcu_cond_lock);
	WRITE_ONCE(emrcu_cond.temp_mc, mc);
	mutex_unlock(&emrcu_cond_lock);
	emrcu_thermal_reset();
	return 0;
}

/* ---- temperature, bin: one integer each ---- */

static int emrcu_temp_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "%d\n", READ_ONCE(emrcu_cond.temp_mc));
	return 0;
}

static int emrcu_bin_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "%d\n", READ_ONCE(emrcu_cond.bin_mv));
	return 0;
}

static ssize_t emrcu_int_write(const char __user *ubuf, size_t len,
			       bool is_temp)
{
	struct emrcu_cond c;
	int val, ret;

	ret = kstrtoint_from_user(ubuf, len, 0, &val);
	if (ret)
		return ret;
	if (is_temp && emrcu_thermal_on) {
		ret = emrcu_write_ambient(val);
		return ret ? ret : len;
	}
	mutex_lock(&emrcu_cond_lock);
	c = emrcu_cond;
	if (is_temp)
		c.temp_mc = val;
	else
		c.bin_mv = val;
	ret = emrcu_write_cond(&c);
	mutex_unlock(&emrcu_cond_lock);
	return ret ? ret : len;
}

static ssize_t emrcu_temp_write(struct file *f, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return emrcu_int_write(ubuf, len, true);
}

static ssize_t emrcu_bin_write(struct file *f, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	return emrcu_int_write(ubuf, len, false);
}

/* ---- profile ---- */

static int emrcu_profile_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "%s\n",
		   emrcu_profile_data[READ_ONCE(emrcu_cond.profile)].name);
	return 0;
}

static ssize_t emrcu_profile_write(struct file *f, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct emrcu_cond c;
	char buf[32];
	int idx, ret;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	idx = emrcu_profile_index(buf);
	if (idx < 0)
		return idx;
	mutex_lock(&emrcu_cond_lock);
	c = emrcu_cond;
	c.profile = idx;
	ret = emrcu_write_cond(&c);
	mutex_unlock(&emrcu_cond_lock);
	return ret ? ret : len;
}

/* ---- params: every constant, as data ---- */

static int emrcu_params_show(struct seq_file *s, void *unused)
{
	int i, j;

	seq_printf(s, "{\"fmax_khz\":%d,\"temp_nominal_mc\":%d,\"temp_range_mc\":[%d,%d],",
		   EMRCU_FMAX_KHZ, EMRCU_TEMP_NOMINAL_MC, EMRCU_TEMP_MIN_MC,
		   EMRCU_TEMP_MAX_MC);
	seq_printf(s, "\"bin_nominal_mv\":%d,\"bin_range_mv\":[%d,%d],",
		   EMRCU_BIN_NOMINAL_MV, EMRCU_BIN_MIN_MV, EMRCU_BIN_MAX_MV);
	seq_printf(s, "\"transition_latency_ns\":%d,\"transition_delay_us\":%d,",
		   EMRCU_TRANSITION_LATENCY_NS, EMRCU_TRANSITION_DELAY_US);
	seq_printf(s, "\"max_opps\":%d,\"meter\":%s,\"runtime_em\":%s,",
		   emrcu_max_opps, emrcu_meter_probing() ? "true" : "false",
		   EMRCU_RUNTIME_EM ? "true" : "false");
	seq_puts(s, "\"model\":\"busy=C*V^2*f_phys*dyn_pct+leak; leak=leak_uw_per_v*V*2^((T-T_nom)/leak_double); idle=leak*idle_leak_pct; shared=shared_uw*shared_pct while any CPU of the cluster is busy; V=uv+bin\",");
	seq_puts(s, "\"class_rule\":\"rank of capacity among clusters: lowest little, highest big, others mid; one capacity: big; classes= overrides\",");

	seq_puts(s, "\"classes\":[");
	for (i = 0; i < EMRCU_NR_CLASSES; i++) {
		const struct emrcu_class_data *d = &emrcu_class_data[i];

		seq_printf(s, "%s{\"name\":\"%s\",\"core\":\"%s\",\"dyn_coeff_uw_per_mhz_v2\":%u,",
			   i ? "," : "", d->name, d->core, d->dyn_coeff);
		seq_printf(s, "\"leak_uw_per_v\":%u,\"leak_double_mc\":%u,\"idle_leak_pct\":%u,\"shared_uw\":%u,",
			   d->leak_uw_per_v, d->leak_double_mc,
			   d->idle_leak_pct, d->shared_uw);
		seq_printf(s, "\"source\":\"%s\",\"published_opps\":[", d->source);
		for (j = 0; j < d->nr_opps; j++)
			seq_printf(s, "%s{\"khz\":%u,\"uv\":%u}", j ? "," : "",
				   d->opps[j].khz, d->opps[j].uv);
		seq_puts(s, "]}");
	}
	seq_puts(s, "],\"profiles\":[");
	for (i = 0; i < emrcu_nr_profiles; i++) {
		const struct emrcu_profile_data *p = &emrcu_profile_data[i];

		seq_printf(s, "%s{\"name\":\"%s\",\"dyn_pct\":[%u,%u,%u],\"shared_pct\":%u}",
			   i ? "," : "", p->name, p->dyn_pct[0], p->dyn_pct[1],
			   p->dyn_pct[2], p->shared_pct);
	}
	seq_puts(s, "],\"clusters\":[");
	for (i = 0; i < emrcu_nr_clusters; i++) {
		const struct emrcu_cluster *cl = &emrcu_clusters[i];

		seq_printf(s, "%s{\"id\":%d,\"cpus\":", i ? "," : "", cl->id);
		emrcu_json_cpus(s, &cl->cpus);
		seq_printf(s, ",\"capacity\":%lu,\"class\":\"%s\",\"opps\":",
			   cl->capacity, emrcu_class_data[cl->cls].name);
		emrcu_json_opps(s, cl->opp, cl->nr_opps);
		seq_puts(s, "}");
	}
	seq_printf(s, "],\"test_pd_range\":{\"khz\":[%d,%d],\"uv\":[%d,%d],\"class\":\"%s\"},\"test_pds\":[",
		   EMRCU_TEST_PD_MIN_KHZ, EMRCU_TEST_PD_MAX_KHZ,
		   EMRCU_TEST_PD_MIN_UV, EMRCU_TEST_PD_MAX_UV,
		   emrcu_class_data[EMRCU_TEST_PD_CLASS].name);
	for (i = 0; i < emrcu_nr_tpds; i++) {
		seq_printf(s, "%s{\"name\":\"%s\",\"opps\":", i ? "," : "",
			   dev_name(emrcu_test_pds[i].dev));
		emrcu_json_opps(s, emrcu_test_pds[i].opp,
				emrcu_test_pds[i].nr_opps);
		seq_puts(s, "}");
	}
	seq_puts(s, "]}\n");
	return 0;
}

/* ---- power: the true power tables now ---- */

/* ,"em_inefficient_khz":[...],"cpufreq_inefficient_khz":[...] (null: no EM) */
static void emrcu_json_marks(struct seq_file *s, struct emrcu_cluster *cl)
{
	unsigned long marks[2];
	int i, j;

	if (emrcu_em_marks(cl, &marks[0], &marks[1])) {
		seq_puts(s, ",\"em_inefficient_khz\":null,\"cpufreq_inefficient_khz\":null");
		return;
	}
	for (i = 0; i < 2; i++) {
		bool first = true;

		seq_printf(s, ",\"%s_inefficient_khz\":[", i ? "cpufreq" : "em");
		for (j = 0; j < cl->nr_opps; j++) {
			if (!(marks[i] & BIT(j)))
				continue;
			seq_printf(s, "%s%u", first ? "" : ",", cl->opp[j].khz);
			first = false;
		}
		seq_putc(s, ']');
	}
}

static int emrcu_power_show(struct seq_file *s, void *unused)
{
	unsigned long v[EMRCU_MAX_OPPS], idle[EMRCU_MAX_OPPS];
	struct emrcu_cond c;
	int i, j;

	emrcu_cond_read(&c);
	seq_printf(s, "{\"temp_mc\":%d,\"profile\":\"%s\",\"bin_mv\":%d,\"clusters\":[",
		   c.temp_mc, emrcu_profile_data[c.profile].name, c.bin_mv);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		const struct emrcu_cluster *cl = &emrcu_clusters[i];

		seq_printf(s, "%s{\"id\":%d,\"class\":\"%s\",\"temp_mc\":%d,\"khz\":[",
			   i ? "," : "", cl->id, emrcu_class_data[cl->cls].name,
			   READ_ONCE(cl->temp_mc));
		c.temp_mc = READ_ONCE(cl->temp_mc);
		for (j = 0; j < cl->nr_opps; j++)
			seq_printf(s, "%s%u", j ? "," : "", cl->opp[j].khz);
		seq_puts(s, "],\"busy_uw\":");
		for (j = 0; j < cl->nr_opps; j++)
			emrcu_power_opp(cl->cls, &cl->opp[j], &c, &v[j], &idle[j]);
		emrcu_json_ulongs(s, v, cl->nr_opps);
		seq_puts(s, ",\"leak_uw\":");
		for (j = 0; j < cl->nr_opps; j++)
			v[j] = emrcu_power_leak(cl->cls, &cl->opp[j], &c);
		emrcu_json_ulongs(s, v, cl->nr_opps);
		seq_puts(s, ",\"idle_uw\":");
		emrcu_json_ulongs(s, idle, cl->nr_opps);
		seq_puts(s, ",\"nominal_busy_uw\":");
		for (j = 0; j < cl->nr_opps; j++)
			v[j] = emrcu_power_busy(cl->cls, &cl->opp[j],
						&emrcu_cond_nominal);
		emrcu_json_ulongs(s, v, cl->nr_opps);
		seq_printf(s, ",\"shared_uw\":%lu,\"em_uw\":",
			   emrcu_power_shared(cl->cls, &c));
		emrcu_em_snapshot(&emrcu_clusters[i], v);
		emrcu_json_ulongs(s, v, cl->nr_opps);
		emrcu_json_marks(s, &emrcu_clusters[i]);
		seq_putc(s, '}');
	}
	seq_puts(s, "]}\n");
	return 0;
}

/* ---- meter ---- */

struct emrcu_snap {
	struct emrcu_cluster cl[NR_CPUS];
	struct emrcu_cpu cpu[NR_CPUS];
};

static int emrcu_meter_show(struct seq_file *s, void *unused)
{
	struct emrcu_snap *sn = kzalloc(sizeof(*sn), GFP_KERNEL);
	struct emrcu_cond c;
	u64 now, total = 0, cpus_fj, busy_fj, em_fj;
	bool first = true;
	int i, j, cpu;

	if (!sn)
		return -ENOMEM;
	emrcu_cond_read(&c);
	emrcu_meter_snapshot(sn->cl, sn->cpu, &now);
	seq_printf(s, "{\"now_ns\":%llu,\"meter\":%s,\"temp_mc\":%d,\"profile\":\"%s\",\"bin_mv\":%d,\"cpus\":[",
		   now, emrcu_meter_probing() ? "true" : "false", c.temp_mc,
		   emrcu_profile_data[c.profile].name, c.bin_mv);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		for_each_cpu(cpu, &sn->cl[i].cpus) {
			const struct emrcu_cpu_meter *m = &sn->cpu[cpu].m;

			seq_printf(s, "%s{\"cpu\":%d,\"cluster\":%d,",
				   first ? "" : ",", cpu, i);
			first = false;
			emrcu_json_uj(s, "energy_uj", m->energy_fj);
			seq_putc(s, ',');
			emrcu_json_uj(s, "busy_uj", m->busy_fj);
			seq_putc(s, ',');
			emrcu_json_uj(s, "em_uj", m->em_fj);
			seq_printf(s, ",\"busy_ns\":%llu,\"switches\":%llu,\"busy\":%s,\"busy_opp_ns\":",
				   m->busy_ns, m->switches,
				   sn->cpu[cpu].busy ? "true" : "false");
			emrcu_json_u64s(s, m->busy_opp_ns, sn->cl[i].nr_opps);
			seq_putc(s, '}');
		}
	}
	seq_puts(s, "],\"clusters\":[");
	for (i = 0; i < emrcu_nr_clusters; i++) {
		const struct emrcu_cluster *cl = &sn->cl[i];

		cpus_fj = 0;
		busy_fj = 0;
		em_fj = 0;
		for_each_cpu(cpu, &cl->cpus) {
			cpus_fj += sn->cpu[cpu].m.energy_fj;
			busy_fj += sn->cpu[cpu].m.busy_fj;
			em_fj += sn->cpu[cpu].m.em_fj;
		}
		total += cpus_fj + cl->m.shared_fj;
		seq_printf(s, "%s{\"id\":%d,\"class\":\"%s\",\"temp_mc\":%d,",
			   i ? "," : "", cl->id, emrcu_class_data[cl->cls].name,
			   cl->temp_mc);
		emrcu_json_uj(s, "busy_uj", busy_fj);
		seq_putc(s, ',');
		emrcu_json_uj(s, "em_uj", em_fj);
		seq_putc(s, ',');
		emrcu_json_uj(s, "energy_uj", cpus_fj + cl->m.shared_fj);
		seq_putc(s, ',');
		emrcu_json_uj(s, "cpus_uj", cpus_fj);
		seq_putc(s, ',');
		emrcu_json_uj(s, "shared_uj", cl->m.shared_fj);
		seq_printf(s, ",\"since_ns\":%llu,\"any_busy_ns\":%llu,\"freq_changes\":%llu,\"cur_khz\":%u,\"opp_khz\":[",
			   cl->m.since_ns, cl->m.any_busy_ns, cl->m.freq_changes,
			   cl->opp[cl->cur].khz);
		for (j = 0; j < cl->nr_opps; j++)
			seq_printf(s, "%s%u", j ? "," : "", cl->opp[j].khz);
		seq_puts(s, "],\"opp_ns\":");
		emrcu_json_u64s(s, cl->m.opp_ns, cl->nr_opps);
		seq_puts(s, ",\"profile_busy_ns\":{");
		for (j = 0; j < emrcu_nr_profiles; j++)
			seq_printf(s, "%s\"%s\":%llu", j ? "," : "",
				   emrcu_profile_data[j].name,
				   cl->m.profile_busy_ns[j]);
		seq_puts(s, "}}");
	}
	seq_puts(s, "],");
	emrcu_json_uj(s, "total_uj", total);
	seq_puts(s, "}\n");
	kfree(sn);
	return 0;
}

static ssize_t emrcu_meter_write(struct file *f, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	int val, ret;

	ret = kstrtoint_from_user(ubuf, len, 0, &val);
	if (ret)
		return ret;
	if (val != 0)
		return -EINVAL;
	emrcu_meter_reset();
	emrcu_thermal_reset_stats();
	emrcu_drv_reset_stats();
	return len;
}

/* ---- em_update: the truth, pushed once (oracle; best static table) ---- */

static int emrcu_em_updates, emrcu_em_update_rc;

static int emrcu_em_update_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "{\"supported\":%s,\"updates\":%d,\"last_rc\":%d}\n",
		   EMRCU_RUNTIME_EM ? "true" : "false",
		   READ_ONCE(emrcu_em_updates), READ_ONCE(emrcu_em_update_rc));
	return 0;
}

/*
 * "avg T:P:B:W ...": the truth's mean over conditions (m°C, profile name,
 * bin mV) each weighted by W (e.g. ms), at most EMRCU_MEAN_MAX_CONDS.
 */
static int emrcu_em_update_avg(char *spec)
{
	struct emrcu_cond *c;
	unsigned int *w;
	char *tok, *f[4];
	int n = 0, k, ret = 0;

	c = kcalloc(EMRCU_MEAN_MAX_CONDS, sizeof(*c), GFP_KERNEL);
	w = kcalloc(EMRCU_MEAN_MAX_CONDS, sizeof(*w), GFP_KERNEL);
	if (!c || !w) {
		ret = -ENOMEM;
		goto out;
	}
	spec = strim(spec);
	while ((tok = strsep(&spec, " ")) != NULL) {
		if (!*tok)
			continue;
		if (n == EMRCU_MEAN_MAX_CONDS) {
			ret = -E2BIG;
			goto out;
		}
		for (k = 0; k < 4; k++) {
			f[k] = strsep(&tok, ":");
			if (!f[k]) {
				ret = -EINVAL;
				goto out;
			}
		}
		c[n].profile = emrcu_profile_index(f[1]);
		if (tok || kstrtoint(f[0], 10, &c[n].temp_mc) ||
		    kstrtoint(f[2], 10, &c[n].bin_mv) ||
		    kstrtouint(f[3], 10, &w[n]) || emrcu_cond_check(&c[n])) {
			ret = -EINVAL;
			goto out;
		}
		n++;
	}
	ret = n ? emrcu_em_push_mean(c, w, n) : -EINVAL;
out:
	kfree(c);
	kfree(w);
	return ret;
}

static ssize_t emrcu_em_update_write(struct file *f, const char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	int temp[NR_CPUS], i, ret;
	struct emrcu_thermal_stats st;
	bool mean;
	char *buf;

	if (!len || len > PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (!strncmp(buf, "avg ", 4)) {
		ret = emrcu_em_update_avg(buf + 4);
		goto done;
	}
	mean = sysfs_streq(buf, "mean");
	if ((!mean && !sysfs_streq(buf, "1")) || (mean && !emrcu_thermal_on)) {
		kfree(buf);
		return -EINVAL;
	}
	for (i = 0; i < emrcu_nr_clusters; i++) {
		if (mean) {
			emrcu_thermal_stats(i, &st);
			temp[i] = st.mean_mc;
		} else {
			temp[i] = READ_ONCE(emrcu_clusters[i].temp_mc);
		}
	}
	ret = emrcu_em_push_truth(temp, mean ? "mean" : "now");
done:
	kfree(buf);
	WRITE_ONCE(emrcu_em_updates, emrcu_em_updates + 1);
	WRITE_ONCE(emrcu_em_update_rc, ret);
	return ret ? ret : len;
}

/* ---- thermal, heat, driver ---- */

static int emrcu_thermal_show(struct seq_file *s, void *unused)
{
	struct emrcu_thermal_stats st = { 0 };
	int i;

	seq_printf(s, "{\"on\":%s,\"ambient_mc\":%d,\"tick_ms\":%d,\"apply_mc\":%d,",
		   emrcu_thermal_on ? "true" : "false", READ_ONCE(emrcu_ambient_mc),
		   EMRCU_THERMAL_TICK_MS, EMRCU_TEMP_APPLY_MC);
	seq_printf(s, "\"sensor\":{\"lag_ms\":%d,\"quant_mc\":%d,\"noise_mc\":%d},\"clusters\":[",
		   emrcu_sensor_lag_ms, emrcu_sensor_quant_mc,
		   emrcu_sensor_noise_mc);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		const struct emrcu_class_data *d =
			&emrcu_class_data[emrcu_clusters[i].cls];

		if (emrcu_thermal_on)
			emrcu_thermal_stats(i, &st);
		seq_printf(s, "%s{\"id\":%d,\"r_self_mc_per_w\":%u,\"r_ext_mc_per_w\":%u,\"tau_ms\":%u,",
			   i ? "," : "", i, d->r_self_mc_per_w,
			   d->r_ext_mc_per_w, d->tau_ms);
		seq_printf(s, "\"temp_mc\":%d,\"sensor_mc\":%d,\"mean_mc\":%d,\"min_mc\":%d,\"max_mc\":%d,\"sensor_abs_err_mc\":%d,\"sensor_reads\":%llu,",
			   st.now_mc, st.sensor_mc, st.mean_mc, st.min_mc,
			   st.max_mc, st.sens_err_mean_mc, st.sens_reads);
		emrcu_json_uj(s, "tick_busy_uj", st.tick_busy_fj);
		seq_putc(s, ',');
		emrcu_json_uj(s, "tick_em_uj", st.tick_em_fj);
		seq_putc(s, ',');
		emrcu_json_uj(s, "tick_abs_err_uj", st.tick_abs_err_fj);
		seq_putc(s, '}');
	}
	seq_printf(s, "],\"ext_mw\":%u}\n", st.ext_mw);
	return 0;
}

static ssize_t emrcu_thermal_write(struct file *f, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char buf[8];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (!emrcu_thermal_on || !sysfs_streq(buf, "reset"))
		return -EINVAL;
	emrcu_thermal_reset();
	return len;
}

static int emrcu_heat_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "{\"max_points\":%d,\"max_mw\":%d}\n",
		   EMRCU_HEAT_MAX_POINTS, EMRCU_EXT_HEAT_MAX_MW);
	return 0;
}

/* "MS:MW MS:MW ...": the external power from MS milliseconds on. */
static ssize_t emrcu_heat_write(struct file *f, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	unsigned int t_ms[EMRCU_HEAT_MAX_POINTS], mw[EMRCU_HEAT_MAX_POINTS];
	char *buf, *p, *tok;
	int n = 0, ret = 0;

	if (!emrcu_thermal_on)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, min_t(size_t, len, 512));
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = strim(buf);
	while ((tok = strsep(&p, " \t")) != NULL) {
		char *v;

		if (!*tok)
			continue;
		v = strchr(tok, ':');
		if (!v || n == EMRCU_HEAT_MAX_POINTS) {
			ret = -EINVAL;
			break;
		}
		*v++ = '\0';
		ret = kstrtouint(tok, 10, &t_ms[n]);
		if (!ret)
			ret = kstrtouint(v, 10, &mw[n]);
		if (ret)
			break;
		n++;
	}
	if (!ret)
		ret = emrcu_thermal_set_heat(t_ms, mw, n);
	kfree(buf);
	return ret ? ret : len;
}

static const char emrcu_drv_model_meter[] =
	"dynamic power at nominal bin and profile, x a per-cluster scale from the energy counter";

static int emrcu_driver_show(struct seq_file *s, void *unused)
{
	struct emrcu_drv_stats st;
	int i;

	emrcu_drv_stats(&st);
	seq_printf(s, "{\"mode\":\"%s\",\"period_ms\":%d,\"leak_pct\":%d,\"cal_mc\":{\"first\":%d,\"step\":%d,\"points\":%d},",
		   emrcu_drv_modes[emrcu_drv_mode], emrcu_drv_period_ms,
		   emrcu_drv_leak_pct, EMRCU_DRV_CAL_FIRST_MC,
		   EMRCU_DRV_CAL_STEP_MC, EMRCU_DRV_CAL_POINTS);
	seq_printf(s, "\"model\":\"%s; leakage piecewise linear in T through the truth at the calibration points, x leak_pct/100; temperature from the sensor (thermal=1) or as set\",\"em_source\":\"%s\",\"scale_ppm\":[",
		   emrcu_drv_mode == EMRCU_DRV_METER ? emrcu_drv_model_meter :
		   "dynamic power as the truth's (profile hint, bin)",
		   emrcu_em_source());
	for (i = 0; i < emrcu_nr_clusters; i++)
		seq_printf(s, "%s%u", i ? "," : "", emrcu_drv_scale_ppm(i));
	seq_puts(s, "],");
	seq_printf(s, "\"updates\":%llu,\"failed\":%llu,\"update_ns_sum\":%llu,\"update_ns_min\":%llu,\"update_ns_max\":%llu,",
		   st.updates, st.failed, st.update_ns_sum, st.update_ns_min,
		   st.update_ns_max);
	seq_printf(s, "\"iters\":%llu,\"iter_ns_sum\":%llu,\"iter_ns_min\":%llu,\"first_ns\":%llu,\"last_ns\":%llu,\"last_rc\":%d}\n",
		   st.iters, st.iter_ns_sum, st.iter_ns_min, st.first_ns,
		   st.last_ns, st.last_rc);
	return 0;
}

#define EMRCU_RW_FOPS(name, show_fn, write_fn)				\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return single_open(file, show_fn, inode->i_private);		\
}									\
static const struct file_operations name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = name##_open,						\
	.read = seq_read,						\
	.write = write_fn,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

EMRCU_RW_FOPS(emrcu_temp, emrcu_temp_show, emrcu_temp_write);
EMRCU_RW_FOPS(emrcu_bin, emrcu_bin_show, emrcu_bin_write);
EMRCU_RW_FOPS(emrcu_profile, emrcu_profile_show, emrcu_profile_write);
EMRCU_RW_FOPS(emrcu_meter, emrcu_meter_show, emrcu_meter_write);
EMRCU_RW_FOPS(emrcu_em_update, emrcu_em_update_show, emrcu_em_update_write);
EMRCU_RW_FOPS(emrcu_thermal, emrcu_thermal_show, emrcu_thermal_write);
EMRCU_RW_FOPS(emrcu_heat, emrcu_heat_show, emrcu_heat_write);
DEFINE_SHOW_ATTRIBUTE(emrcu_driver);
DEFINE_SHOW_ATTRIBUTE(emrcu_params);
DEFINE_SHOW_ATTRIBUTE(emrcu_power);

int emrcu_debugfs_init(void)
{
	emrcu_dir = debugfs_create_dir(EMRCU_NAME, NULL);
	if (IS_ERR(emrcu_dir))
		return PTR_ERR(emrcu_dir);
	debugfs_create_file("temperature", 0644, emrcu_dir, NULL,
			    &emrcu_temp_fops);
	debugfs_create_file("profile", 0644, emrcu_dir, NULL,
			    &emrcu_profile_fops);
	debugfs_create_file("bin", 0644, emrcu_dir, NULL, &emrcu_bin_fops);
	debugfs_create_file("params", 0444, emrcu_dir, NULL,
			    &emrcu_params_fops);
	debugfs_create_file("power", 0444, emrcu_dir, NULL,
			    &emrcu_power_fops);
	debugfs_create_file("meter", 0644, emrcu_dir, NULL,
			    &emrcu_meter_fops);
	debugfs_create_file("em_update", 0644, emrcu_dir, NULL,
			    &emrcu_em_update_fops);
	debugfs_create_file("thermal", 0644, emrcu_dir, NULL,
			    &emrcu_thermal_fops);
	debugfs_create_file("heat", 0644, emrcu_dir, NULL, &emrcu_heat_fops);
	debugfs_create_file("driver", 0444, emrcu_dir, NULL,
			    &emrcu_driver_fops);
	return 0;
}

void emrcu_debugfs_exit(void)
{
	debugfs_remove_recursive(emrcu_dir);
}
