#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""report.py RUNDIR - RUNDIR/summary.json -> RUNDIR/report.md + PNG plots.

Formatting and plotting only: every number in the report is read from
summary.json (computed by emrcu-summarize); the plots show the raw samples
of summary-samples.json with the medians and confidence intervals that
summary.json holds.  No statistics are computed here.
"""
import glob
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMA = "emrcu/summary/1"


class ReportError(Exception):
    pass


# ---------------------------------------------------------------- loading

def load(rundir):
    path = os.path.join(rundir, "summary.json")
    try:
        with open(path) as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: {e}")
    if s.get("schema") != SCHEMA or not isinstance(s.get("figures"), list):
        raise ReportError(f"{path}: not a {SCHEMA} file")
    return s


class Samples:
    """Raw samples of a figure, from the file its samples_file names."""

    def __init__(self, rundir):
        self.rundir = rundir
        self.files = {}

    def of(self, fig):
        name, sid = fig.get("samples_file"), fig.get("samples_id")
        if not name or not sid:
            return None
        if name not in self.files:
            try:
                with open(os.path.join(self.rundir, name)) as f:
                    self.files[name] = json.load(f).get("samples", {})
            except (OSError, ValueError):
                self.files[name] = {}
        return self.files[name].get(sid)


# ------------------------------------------------------------- formatting

def num(v):
    if v is None:
        return "–"
    a = abs(v)
    if a != 0 and (a >= 1e7 or a < 1e-3):
        return f"{v:.4g}"
    if a >= 1000:
        return f"{v:.1f}"
    if a >= 10:
        return f"{v:.2f}"
    return f"{v:.4f}"


def ci(f):
    s = f"[{num(f.get('ci_low'))}, {num(f.get('ci_high'))}]"
    if f.get("ci_short"):
        s += f" (n too small: {100 * f.get('ci_coverage', 0):.1f} % coverage)"
    if f.get("ci_widened"):
        s += " (widened)"
    return s


def spread(f):
    """Half the trimmed (5-95 %) range over the median: robust to the few
    passes a vCPU switch contaminates, which dominate a standard deviation."""
    lo, hi, med = f.get("trim_low"), f.get("trim_high"), f.get("median")
    if lo is None or hi is None or not med:
        sp = f.get("spread_pct")
        return "–" if sp is None else f"±{sp:.2f} % (sd)"
    return f"±{100 * (hi - lo) / 2 / abs(med):.2f} %"


def value(f):
    """median [CI] — the one cell format of every table."""
    return f"{num(f['median'])} {ci(f)}"


def pd_label(f):
    c = f.get("cluster", -1)
    s = "all" if c < 0 else f"pd{c}"
    if f.get("opps"):
        s += f" ({f['opps']} OPPs)"
    return s


def hz(f):
    v = f.get("update_hz", 0)
    return "no updater" if not v else f"{v:g} Hz"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out + [""]


def safe(s):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", str(s))


def save(fig, rundir, name, dpi=150):
    """NAME.png for the report, and NAME.svg beside it (vector: zoomable,
    and diffable between runs)."""
    path = os.path.join(rundir, name)
    fig.savefig(path, dpi=dpi)
    fig.savefig(os.path.splitext(path)[0] + ".svg")
    plt.close(fig)


def by_name(figs, *names):
    return [f for f in figs if f["name"] in names and not f.get("scenario")]


# ------------------------------------------------------------------ plots

def plot_hot_path(figs, samples, rundir):
    """Per (mode, preempt): one panel per cluster, samples per variant."""
    made = []
    hot = by_name(figs, "hot_path_ns_per_call")
    groups = sorted({(f["mode"], f["preempt"]) for f in hot})
    for mode, preempt in groups:
        g = [f for f in hot if f["mode"] == mode and f["preempt"] == preempt]
        clusters = sorted({f["cluster"] for f in g})
        fig, axes = plt.subplots(1, len(clusters), squeeze=False,
                                 figsize=(4.5 * len(clusters), 4))
        for ax, c in zip(axes[0], clusters):
            cf = sorted((f for f in g if f["cluster"] == c),
                        key=lambda f: (f["variant"], f["update_hz"]))
            labels = []
            for i, f in enumerate(cf):
                xs = samples.of(f) or []
                k = len(xs)
                # deterministic horizontal spread (no random jitter)
                off = [0.3 * ((j % 21) / 20 - 0.5) for j in range(k)]
                ax.plot([i + o for o in off], xs, ".", ms=3, alpha=0.5,
                        color="tab:blue" if f["update_hz"] == 0 else "tab:orange")
                ax.errorbar([i + 0.25], [f["median"]],
                            yerr=[[f["median"] - f["ci_low"]],
                                  [f["ci_high"] - f["median"]]],
                            fmt="D", color="black", ms=4, capsize=4)
                lab = f["variant"]
                if f["update_hz"]:
                    lab += f"\n@{f['update_hz']:g} Hz"
                labels.append(f"{lab}\nn={f['n']}")
            # Contaminated passes (a vCPU switch inside the pass) are orders
            # of magnitude slower; show the bulk and say how many were cut.
            tops = [f.get("trim_high") or f["median"] for f in cf]
            lows = [f.get("trim_low") or f["median"] for f in cf]
            if tops:
                span = max(tops) - min(lows)
                top = max(tops) + max(span, 0.02 * max(tops))
                bot = max(0, min(lows) - max(span, 0.02 * max(tops)))
                cut = sum(1 for f in cf for x in (samples.of(f) or [])
                          if x > top or x < bot)
                ax.set_ylim(bot, top)
                if cut:
                    ax.text(0.02, 0.98, f"{cut} passes outside the axis",
                            transform=ax.transAxes, va="top", fontsize=7)
            ax.set_xticks(range(len(cf)))
            ax.set_xticklabels(labels, fontsize=8)
            ax.set_title(pd_label(cf[0]) if cf else f"pd{c}", fontsize=10)
            ax.set_ylabel("ns per em_cpu_energy() call")
            ax.grid(axis="y", alpha=0.3)
        fig.suptitle(f"hot path, {mode} mode, preempt={preempt} "
                     "(dots: passes; diamond: median, 95 % CI)", fontsize=10)
        fig.tight_layout()
        name = f"hot_path_{safe(mode)}_{safe(preempt)}.png"
        save(fig, rundir, name)
        made.append((mode, preempt, name, g))
    return made


def plot_ecdf(figs, samples, rundir):
    """Realtime mode: the hot path's distribution as an ECDF per variant and
    rate, one panel per cluster; a strip of dots hides the tail, the ECDF
    shows it (log x: host noise spans orders of magnitude)."""
    made = []
    hot = [f for f in by_name(figs, "hot_path_ns_per_call") if f["mode"] == "realtime"]
    for preempt in sorted({f["preempt"] for f in hot}):
        g = [f for f in hot if f["preempt"] == preempt]
        clusters = sorted({f["cluster"] for f in g})
        fig, axes = plt.subplots(1, len(clusters), squeeze=False,
                                 figsize=(4.5 * len(clusters), 3.8))
        drawn = []
        for ax, c in zip(axes[0], clusters):
            for f in sorted((f for f in g if f["cluster"] == c),
                            key=lambda f: (f["variant"], f["update_hz"])):
                xs = sorted(samples.of(f) or [])
                if not xs:
                    continue
                ax.step(xs, [(i + 1) / len(xs) for i in range(len(xs))], where="post",
                        label=f"{f['variant']}" + (f" @{f['update_hz']:g} Hz" if f["update_hz"] else ""))
                drawn.append(f)
            ax.set_xscale("log")
            ax.set_xlabel("ns per call (pass median)")
            ax.set_ylabel("fraction of passes ≤ x")
            ax.set_title(f"pd{c}", fontsize=10)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=6)
        fig.suptitle(f"hot path, realtime mode, preempt={preempt}: ECDF of every timed pass",
                     fontsize=10)
        fig.tight_layout()
        if drawn:
            name = f"hot_path_ecdf_realtime_{safe(preempt)}.png"
            save(fig, rundir, name)
            made.append(("realtime", preempt, name, drawn))
        else:
            plt.close(fig)
    return made


def plot_ratio(figs, rundir):
    """The headline: patched ÷ unpatched hot-path median per cluster and
    updater rate, with its CI, one plot per mode and preemption model."""
    made = []
    ratios = by_name(figs, "hot_path_ratio")
    for mode, preempt in sorted({(r["mode"], r["preempt"]) for r in ratios}):
        rs = [r for r in ratios if (r["mode"], r["preempt"]) == (mode, preempt)]
        rates = sorted({r["update_hz"] for r in rs})
        clusters = sorted({r["cluster"] for r in rs})
        variants = sorted({r["variant"] for r in rs})
        series = [(v, c) for v in variants for c in clusters]
        width = 0.8 / max(len(series), 1)
        fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(rates) + 2), 3.6))
        for k, (v, c) in enumerate(series):
            pts = sorted((r for r in rs if (r["variant"], r["cluster"]) == (v, c)),
                         key=lambda r: r["update_hz"])
            if not pts:
                continue
            x = [rates.index(r["update_hz"]) - 0.4 + width * (k + 0.5) for r in pts]
            ax.errorbar(x, [r["median"] for r in pts],
                        yerr=[[r["median"] - r["ci_low"] for r in pts],
                              [r["ci_high"] - r["median"] for r in pts]],
                        fmt="os^vD"[variants.index(v) % 5], capsize=3,
                        color=f"C{clusters.index(c)}",
                        label=f"{v}, {pd_label(pts[0])}")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xticks(range(len(rates)))
        ax.set_xticklabels([f"{r:g} Hz" if r else "no updater" for r in rates])
        ax.set_xlabel("runtime EM updates (em_bench updater)")
        ax.set_ylabel("hot path ÷ unpatched (median)")
        ax.set_title(f"em_cpu_energy() cost ratio, {mode} mode, preempt={preempt}",
                     fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7, ncol=max(1, len(variants)))
        fig.tight_layout()
        name = f"hot_path_ratio_{safe(mode)}_{safe(preempt)}.png"
        save(fig, rundir, name)
        made.append((mode, preempt, name, rs))
    return made


def scaling_groups(figs):
    """Per (variant, mode, preempt, rate): the update points, the callback
    points (same runs) and every fit figure of both, by name."""
    pts = by_name(figs, "update_scaling_us")
    cbs = by_name(figs, "update_callback_us")

    def key(f):
        return (f["variant"], f["mode"], f["preempt"], f["update_hz"])

    for k in sorted({key(f) for f in pts}):
        g = sorted((f for f in pts if key(f) == k), key=lambda f: f.get("nr_states", 0))
        cb = sorted((f for f in cbs if key(f) == k), key=lambda f: f.get("nr_states", 0))
        fit = {f["name"]: f for f in figs
               if f["name"].startswith(("update_fit_", "callback_fit_")) and key(f) == k}
        yield k, g, cb, fit


def plot_scaling(figs, rundir):
    made = []
    for (variant, mode, preempt, uhz), g, cb, fit in scaling_groups(figs):
        fig, (ax, rx) = plt.subplots(2, 1, figsize=(6, 5.5), sharex=True,
                                     gridspec_kw={"height_ratios": [3, 1]})
        for series, prefix, label, fmt in ((g, "update_fit_", "update", "o"),
                                           (cb, "callback_fit_", "callback alone", "s")):
            if not series:
                continue
            x = [f["nr_states"] for f in series]
            ax.errorbar(x, [f["median"] for f in series],
                        yerr=[[f["median"] - f["ci_low"] for f in series],
                              [f["ci_high"] - f["median"] for f in series]],
                        fmt=fmt, capsize=4, label=f"{label}: median, 95 % CI")
            s, i = fit.get(prefix + "slope_us_per_opp"), fit.get(prefix + "intercept_us")
            if s and i:
                xx = [0, max(x)]
                ax.plot(xx, [i["median"] + s["median"] * v for v in xx], "-",
                        label=f"{label} fit: {num(s['median'])} µs/OPP × n + {num(i['median'])} µs")
                if s.get("residuals_us"):
                    rx.plot(s["points"], s["residuals_us"], fmt + "-", label=label)
        ax.set_ylabel("µs")
        ax.set_title(f"em_dev_update_perf_domain() vs OPP count: {variant}, {mode}, "
                     f"preempt={preempt}", fontsize=10)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        rx.axhline(0, color="grey", lw=0.8)
        rx.set_xlabel("OPPs in the perf domain (nr_states)")
        rx.set_ylabel("residual µs")
        rx.grid(alpha=0.3)
        fig.tight_layout()
        name = f"update_scaling_{safe(variant)}_{safe(mode)}_{safe(preempt)}.png"
        save(fig, rundir, name)
        made.append((name, g + cb))
    return made


# The figure each scenario kind is judged on, plotted per step/workload: the
# first of these the scenario has (a kind's own figure before the ones every
# energy-measuring kind has: shared, placement, latency, then energy).
SCENARIO_KEYS = (("eas_insns_per_wakeup", "instructions per wakeup (select_task_rq_fair + compute_energy)"),
                 ("em_invisible_pct", "share of true energy the EM does not model, %"),
                 ("placement_over_optimal_pct", "energy of EAS's placement over the optimal one, %"),
                 ("ucpu_wakeup_p99_us", "cyclictest wakeup latency p99 on the updater's CPU, µs"),
                 ("wakeup_p99_us", "cyclictest wakeup latency p99, µs"),
                 ("em_tick_abs_err_pct", "|EM estimate - true busy energy| per tick, %"),
                 ("em_err_pct", "EM-estimated vs true busy energy, % error"),
                 ("energy_over_optimal_pct", "true energy over the optimal placement, %"))

SCENARIO_HEADLINE = {"true_energy_mj", "em_energy_mj", "em_err_pct", "busy_share_pct",
                     "placement_over_optimal_pct", "energy_over_optimal_pct",
                     "em_choice_over_optimal_pct",
                     "em_invisible_pct", "wakeup_p50_us", "wakeup_p99_us", "wakeup_max_us",
                     "ucpu_wakeup_p50_us", "ucpu_wakeup_p99_us", "ucpu_wakeup_p999_us",
                     "ucpu_wakeup_max_us", "ucpu_wakeup_tail_pct", "updater_hz",
                     "update_slot_max_us", "update_busy_pct", "rcu_batch_max_us",
                     "rcu_batch_busy_pct", "energy_insns_p50", "energy_insns_p99",
                     "driver_cpu_pct", "die_mean_c", "die_max_c",
                     "wakeups", "energy_calls_per_wakeup", "wake_insns_per_call",
                     "energy_insns_per_call", "eas_insns_per_wakeup"}


# A timeline step's label (scenarios/src/scen.c): s<i>_<T>C or s<i>_<p|m><mV>mV.
STEP_COND = (re.compile(r"^s(\d+)_(-?[0-9.]+)C$"), re.compile(r"^s(\d+)_([pm])(\d+)mV$"))


def step_condition(labels):
    """(axis label, [value per label]) when every label is a timeline step
    of one numeric knob (temperature, bin offset) and it takes two values
    or more (one value is no line), else None."""
    t = [STEP_COND[0].match(lab) for lab in labels]
    b = [STEP_COND[1].match(lab) for lab in labels]
    if labels and all(t):
        cond = "temperature of the step (timeline), °C", [float(m.group(2)) for m in t]
    elif labels and all(b):
        cond = "bin offset of the step (timeline), mV", [
            (1 if m.group(2) == "p" else -1) * float(m.group(3)) for m in b]
    else:
        return None
    return cond if len(set(cond[1])) > 1 else None


def plot_scenario(scen, figs, rundir):
    """The scenario's key metric per step or workload (the metric's .LABEL),
    one series per run (variant, EM): lines against the condition when the
    steps are a timeline of a numeric knob (steps joined in their order),
    grouped bars otherwise.  Returns (file, the figures drawn)."""
    for key, ylabel in SCENARIO_KEYS:
        g = [f for f in figs if f["name"].startswith(key + ".")
             and f.get("cluster", -1) < 0]
        if g:
            break
    else:
        return None
    labels = []
    for f in g:
        lab = f["name"][len(key) + 1:]
        if lab not in labels:
            labels.append(lab)
    runs = sorted({(f["scenario"], f["variant"], f["mode"]) for f in g})
    cond = step_condition(labels)
    if cond:
        fig, ax = plt.subplots(figsize=(6.5, 4))
    else:
        fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(labels) * len(runs) / 2 + 2), 4))
    w = 0.8 / len(runs)
    for k, (sc, variant, mode) in enumerate(runs):
        pts = [(i, f) for i, lab in enumerate(labels)
               for f in g if f["name"] == f"{key}.{lab}" and
               (f["scenario"], f["variant"], f["mode"]) == (sc, variant, mode)]
        ys = [f["median"] for _, f in pts]
        err = [[f["median"] - f.get("ci_low", f["median"]) for _, f in pts],
               [f.get("ci_high", f["median"]) - f["median"] for _, f in pts]]
        em = sc.split(":", 1)[1] if ":" in sc else ""
        label = f"{variant}{':' + em if em else ''} ({mode})"
        if cond:
            ax.errorbar([cond[1][i] for i, _ in pts], ys, yerr=err, marker="o", capsize=3,
                        label=label)
        else:
            ax.bar([i - 0.4 + w * (k + 0.5) for i, _ in pts], ys, w, yerr=err, capsize=3,
                   label=label)
    if cond:
        ax.set_xlabel(cond[0] + " (steps joined in timeline order)", fontsize=8)
        ax.set_title(f"{scen}: median and 95 % CI over boots", fontsize=10)
        ax.grid(alpha=0.3)
    else:
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
        ax.set_title(f"{scen}: median and 95 % CI over boots (n ≤ {max(f['n'] for f in g)})",
                     fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    name = f"scenario_{safe(scen)}.png"
    save(fig, rundir, name)
    return name, g


def lat_ccdf(path):
    """The CCDF of one cyclictest --json file, every CPU's thread pooled:
    (latencies µs, share of wakeups slower than each).  Buckets are µs, or
    ns with cyclictest -N ("resolution_in_ns": 1).  Wakeups beyond the
    histogram (cycles - bucketed) stay in the tail; None when empty."""
    with open(path) as f:
        doc = json.load(f)
    threads = doc.get("thread", {}).values()
    unit = 1e-3 if doc.get("resolution_in_ns") == 1 else 1
    hist, total = {}, 0
    for t in threads:
        for b, n in t.get("histogram", {}).items():
            us = int(b) * unit
            hist[us] = hist.get(us, 0) + n
        total += t.get("cycles") or sum(t.get("histogram", {}).values())
    if not total or not hist:
        return None
    xs, ys, above = [], [], total
    for us in sorted(hist):
        above -= hist[us]
        xs.append(us)
        ys.append(max(above, 0.5) / total)	# log axis: 0 drawn as half a wakeup
    return xs, ys


def plot_latency_ccdf(scen, rundir):
    """Latency scenarios: per load, the CCDF of wakeup latency of every boot
    (one line each), a colour per run: the tail that p99 bars hide, and how
    much the boots of one kernel differ.  (file, boots per run) or None."""
    files = sorted(glob.glob(os.path.join(rundir, "*-b*", "lat-*.json")))
    if not files:
        return None
    loads = sorted({os.path.basename(p)[4:-5] for p in files},
                   key=lambda lo: (lo != "idle", int(re.sub(r"\D", "", lo) or 0)))
    runs = sorted({re.sub(r"-b\d+$", "", os.path.basename(os.path.dirname(p))) for p in files})
    fig, axes = plt.subplots(1, len(loads), squeeze=False, figsize=(4 * len(loads), 3.8),
                             sharey=True)
    nboots = 0
    for ax, load in zip(axes[0], loads):
        for k, run in enumerate(runs):
            boots = sorted(glob.glob(os.path.join(rundir, f"{run}-b*", f"lat-{load}.json")))
            for i, p in enumerate(boots):
                c = lat_ccdf(p)
                if c:
                    ax.step(c[0], c[1], where="post", color=f"C{k}", alpha=0.7,
                            label=run if i == 0 else None)
            nboots = max(nboots, len(boots))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("wakeup latency, µs")
        ax.set_title(load, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("share of wakeups slower")
    fig.suptitle(f"{scen}: cyclictest wakeup latency CCDF, one line per boot", fontsize=10)
    fig.tight_layout()
    name = f"latency_ccdf_{safe(scen)}.png"
    save(fig, rundir, name)
    return name, nboots


DRIVER_BASES = ("em_err_pct", "em_tick_abs_err_pct", "em_opp_abs_err_pct_max",
                "driver_cpu_pct", "driver_cpu_min_pct", "update_us_min",
                "task_profile_busy_pct")


def heat_runs(figs):
    """Scenarios with an EM driver: {run: {(base, cluster, step): figure}}
    for the EM error and driver figures, run being "VARIANT:EM" with EM
    "static", "best-static", "runtime@P", ..."""
    out = {}
    for f in figs:
        base, _, lab = f["name"].partition(".")
        if base not in DRIVER_BASES:
            continue
        em = (f["scenario"] + ":").split(":")[1]
        key = f"{f['variant']}:{em}"
        out.setdefault(key, {})[(base, f.get("cluster", -1), lab)] = f
    return out


def heat_get(run, base, c):
    """@run's figure of @base for cluster @c (any step: heat scenarios have one)."""
    return next((f for (b, k, _), f in run.items() if b == base and k == c), None)


def period_of(key):
    em = key.split(":", 1)[1]
    return int(em.split("@")[1]) if em.startswith("runtime@") else None


def plot_heat(scen, figs, rundir):
    """EM error against the runtime driver's update period (log axis), per
    cluster and in total, with the static, best-static and oracle EMs as
    lines; the driver's CPU time against the same periods beside it."""
    runs = heat_runs(figs)
    rt = sorted((k for k in runs if period_of(k)), key=period_of)
    clusters = sorted({c for k in runs for (b, c, _) in runs[k] if b == "em_tick_abs_err_pct"})
    if not rt or not clusters:
        return None
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    n = max(f["n"] for k in runs for f in runs[k].values())
    mode = next(iter(runs[rt[0]].values()))["mode"]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, c in enumerate(clusters):
        xs, ys, lo, hi = [], [], [], []
        for k in rt:
            f = heat_get(runs[k], "em_tick_abs_err_pct", c)
            if f:
                xs.append(period_of(k))
                ys.append(f["median"])
                lo.append(f["median"] - f.get("ci_low", f["median"]))
                hi.append(f.get("ci_high", f["median"]) - f["median"])
        label = "all clusters" if c < 0 else f"pd{c}"
        col = colors[i % len(colors)]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, color=col,
                    label=f"runtime driver, {label}", linewidth=2 if c < 0 else 1)
        for k, style in (("static", ":"), ("best-static", "--"), ("oracle", "-.")):
            ref = next((heat_get(runs[r], "em_tick_abs_err_pct", c) for r in runs
                        if r.split(":", 1)[1] == k and heat_get(runs[r], "em_tick_abs_err_pct", c)),
                       None)
            if ref and c < 0:
                ax.axhline(ref["median"], linestyle=style, color="grey",
                           label=f"{k} EM, all clusters ({ref['median']:.2f} %)")
    ax.set_xscale("log")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xlabel("EM update period, ms (log)")
    ax.set_ylabel("|EM - truth| per 10 ms tick, % of busy energy", fontsize=8)
    ax.set_title(f"{scen}: EM error vs update period ({mode}, n ≤ {n})", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    for base, label in (("driver_cpu_pct", "measured (in deterministic mode an upper bound)"),
                        ("driver_cpu_min_pct", "fastest iteration x iterations (lower bound)")):
        pts = [(period_of(k), heat_get(runs[k], base, -1)["median"]) for k in rt
               if heat_get(runs[k], base, -1)]
        if pts:
            ax2.plot(*zip(*pts), marker="o", label=label)
    ax2.legend(fontsize=7)
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("EM update period, ms (log)")
    ax2.set_ylabel("EM driver CPU time, % of one CPU (log)")
    ax2.set_title("what the updates cost (measured in the guest)", fontsize=10)
    ax2.grid(alpha=0.3, which="both")
    fig.tight_layout()
    name = f"scenario_{safe(scen)}_period.png"
    save(fig, rundir, name, dpi=120)
    return name


def heat_table(figs):
    """One row per run (and step, when there are several): the EM error
    (with heat per tick, in total and per cluster), the table's worst OPP
    when the window opened, and the driver's cost."""
    runs = heat_runs(figs)
    if not any(period_of(k) for k in runs):
        return []
    tick = [c for c in sorted({c for r in runs.values() for (b, c, _) in r
                               if b == "em_tick_abs_err_pct"})]
    steps = sorted({lab for r in runs.values() for (_, _, lab) in r})
    # tasks under their own profiles (task-profiles): the share the truth saw
    mix = tuple(b for b in ("task_profile_busy_pct",)
                if any(f["median"] for r in runs.values()
                       for (bb, _, _), f in r.items() if bb == b))
    order = {"static": 0, "best-static": 1, "oracle": 3}
    keys = sorted(runs, key=lambda k: (order.get(k.split(":", 1)[1], 2), period_of(k) or 0, k))
    rows = []
    for k in keys:
        em = k.split(":", 1)[1]
        what = ("upper bound by construction (truth pushed)" if em == "oracle" else
                "measured: boot table" if em == "static" else
                "the truth's mean pushed once: the best a static table could do (a bound for static tables)"
                if em == "best-static" else
                "measured: the EM driver (not the truth)")
        for lab in steps:
            r = {(b, c): f for (b, c, l), f in runs[k].items() if l == lab}
            if not r:
                continue
            cells = [value(r[("em_tick_abs_err_pct", c)]) if ("em_tick_abs_err_pct", c) in r
                     else "–" for c in tick]
            cells += [value(r[(b, -1)]) if (b, -1) in r else "–"
                      for b in ("em_err_pct", "em_opp_abs_err_pct_max", "driver_cpu_pct",
                                "driver_cpu_min_pct", "update_us_min") + mix]
            rows.append([k] + ([lab] if len(steps) > 1 else []) + [what] + cells +
                        [max(f["n"] for f in r.values())])
    return table(["run"] + (["step"] if len(steps) > 1 else []) + ["what it is"] +
                 [("|EM error| % per tick (all)" if c < 0 else f"pd{c} %") for c in tick] +
                 ["window total error %", "worst OPP |error| % at the window's start",
                  "driver CPU %", "… lower bound %", "µs/update (min)"] +
                 ["busy under the tasks' own profiles %" for _ in mix] + ["n"], rows)


def placement_table(figs, base):
    """Placement: one row per workload, one column per run (variant:EM),
    the median [95 % CI] of @base over the boots."""
    g = [f for f in figs if f["name"].startswith(base + ".") and f.get("cluster", -1) < 0]
    if not g:
        return []
    order = {"static": 0, "best-static": 1, "oracle": 3}
    runs = sorted({f"{f['variant']}:{(f['scenario'] + ':').split(':')[1]}" for f in g},
                  key=lambda k: (order.get(k.split(":", 1)[1], 2), k))
    labels = []
    for f in g:
        lab = f["name"][len(base) + 1:]
        if lab not in labels:
            labels.append(lab)
    cell = {(f["name"][len(base) + 1:], f"{f['variant']}:{(f['scenario'] + ':').split(':')[1]}"): f
            for f in g}
    rows = [[lab] + [f"{value(cell[(lab, r)])} (n {cell[(lab, r)]['n']})" if (lab, r) in cell else "–"
                     for r in runs] for lab in labels]
    return table(["workload"] + runs, rows)


def verdict_blocks(rundir, scen, marker):
    """The paragraphs of the scenario's table.txt that start with @marker."""
    for t in (os.path.join(rundir, "table.txt"),
              os.path.join(rundir, "scenarios", scen, "table.txt")):
        if os.path.isfile(t):
            with open(t) as fh:
                paras = fh.read().split("\n\n")
            return [p.strip("\n") for p in paras if p.lstrip("\n").startswith(marker)]
    return []


# ---------------------------------------------------------------- sections

def n_boots_note(ratios):
    det = [r for r in ratios if r.get("n_boots") is not None]
    if not det:
        return "no boot count recorded"
    nb = sorted({r["n_boots"] for r in det})
    s = "/".join(str(n) for n in nb) + " boot(s) per figure"
    return s + ("; with one boot a rerun's spread is not known" if nb[0] < 2 else "")


def caption(what, group):
    """A plot's caption: mode, n and boots of its points, what the interval is."""
    ns = sorted({f["n"] for f in group if f.get("n")})
    boots = sorted({f.get("n_boots", 1) for f in group})
    rng = (lambda v: f"{v[0]}" if len(v) == 1 else f"{v[0]}–{v[-1]}")
    modes = ", ".join(sorted({f["mode"] for f in group}))
    return (f"*{what}. {modes.capitalize()} mode, n = {rng(ns) if ns else '?'} samples "
            f"per point, {rng(boots)} boot(s); intervals: 95 % CI of the median, "
            "widened to cover the boot medians.*")


def section_hot_path(figs, plots, ratio_plots, ecdf_plots):
    out = ["## Hot path: em_cpu_energy() ns per call", ""]
    ratios = by_name(figs, "hot_path_ratio")
    for mode, preempt, name, group in ratio_plots:
        out += [f"![hot path ratio, {mode}, preempt={preempt}]({name})", "",
                caption(f"Patched ÷ unpatched hot-path median per cluster and updater "
                        f"rate, preempt={preempt} (1.0: no cost)", group), ""]
    ids = {f.get("samples_id"): f for f in figs if f.get("samples_id")}
    if not ratios:
        out += ["No patched/unpatched pair in this summary (results/pairs).", ""]
    keys = sorted({(r["mode"], r["preempt"], r["update_hz"], r["variant"],
                    r["baseline"]) for r in ratios})
    for mode, preempt, uhz, var, base in keys:
        rs = sorted((r for r in ratios
                     if (r["mode"], r["preempt"], r["update_hz"], r["variant"],
                         r["baseline"]) == (mode, preempt, uhz, var, base)),
                    key=lambda r: r["cluster"])
        bhz = rs[0].get("baseline_update_hz") or 0
        out += [f"### {var} vs {base}: {mode} mode, preempt={preempt}, "
                f"{var} with {hz(rs[0])}"
                + (f", {base} beside the null updater at {bhz:g} Hz" if bhz else ""),
                ""]
        rows = []
        for r in rs:
            nf, df = ids.get(r.get("numerator_id")), ids.get(r.get("denominator_id"))
            if not nf or not df:
                continue
            rows.append([pd_label(r),
                         value(df), df["n"], spread(df), df.get("contaminated", "–"),
                         value(nf), nf["n"], spread(nf), nf.get("contaminated", "–"),
                         value(r)])
        out += table(["cluster", f"{base} ns/call [95 % CI]", "n", "spread",
                      "contam.", f"{var} ns/call [95 % CI]", "n", "spread",
                      "contam.", f"ratio {var}/{base} [95 % CI]"], rows)
    if ratios:
        r = ratios[0]
        out += [f"Ratio CI: {r.get('ci_method')}, {r.get('bootstrap_resamples')} "
                f"resamples, seed {r.get('bootstrap_seed')}. Hot-path samples: "
                "every timed pass of every reader CPU of the cluster, pooled over "
                "the runs. *contam.*: passes above median × (1 + threshold "
                f"{num(ids.get(r.get('numerator_id'), {}).get('contam_threshold'))}"
                " for this mode). *spread*: half the 5–95 % range ÷ median. "
                "Every interval also covers the range of the per-boot medians (the "
                "boot is what a rerun repeats: deterministic passes of one boot are "
                "identical, realtime passes share its host noise) and, in deterministic "
                "mode, one tick of the guest clock per pass either way (`clock_step`): "
                f"{n_boots_note(ratios)}.", ""]
    for mode, preempt, name, group in plots:
        out += [f"![hot path, {mode}, preempt={preempt}]({name})", "",
                caption(f"Hot path, preempt={preempt}; dots: every timed pass, diamonds: medians", group), ""]
    for mode, preempt, name, group in ecdf_plots:
        out += [f"![hot path ECDF, {mode}, preempt={preempt}]({name})", "",
                caption(f"Hot path distribution, preempt={preempt}: ECDF of every timed pass "
                        "(the tail that host noise adds)", group), ""]
    return out


def section_instructions(figs):
    ins = by_name(figs, "hot_path_instructions_per_call")
    out = ["## Instructions per call (deterministic mode)", ""]
    if not ins:
        return out + ["No deterministic-mode run in this summary.", ""]
    rows = [[f["variant"], f["preempt"], hz(f), pd_label(f), f.get("shift", "–"),
             value(f), f["n"], spread(f), f.get("contaminated", "–")]
            for f in sorted(ins, key=lambda f: (f["preempt"], f["cluster"],
                                                f["variant"], f["update_hz"]))]
    out += table(["variant", "preempt", "updater", "cluster", "icount shift",
                  "instructions/call [95 % CI]", "n", "spread", "contam."], rows)
    out += ["Guest time in `-icount shift=S` mode is instructions × 2^S ns: "
            "instructions = ns / 2^S.", ""]
    return out


def section_update(figs):
    out = ["## Runtime EM update cost", ""]
    ups = by_name(figs, "update_us")
    per = {(f["variant"], f["mode"], f["preempt"], f["update_hz"], f["cluster"]): f
           for f in by_name(figs, "update_us_per_opp")}
    fd = {(f["variant"], f["mode"], f["preempt"], f["update_hz"], f["cluster"]): f
          for f in by_name(figs, "update_free_delay_us")}
    if not ups:
        out += ["No updater ran in this summary.", ""]
    else:
        rows = []
        for f in sorted(ups, key=lambda f: (f["mode"], f["variant"], f["cluster"])):
            k = (f["variant"], f["mode"], f["preempt"], f["update_hz"], f["cluster"])
            p, d = per.get(k), fd.get(k)
            rows.append([f["variant"], f["mode"], f["preempt"], hz(f), pd_label(f),
                         value(f), f["n"], spread(f),
                         value(p) if p else "–",
                         value(d) if d else "–"])
        out += table(["variant", "mode", "preempt", "updater", "cluster",
                      "µs per update [95 % CI]", "n", "spread",
                      "µs per OPP [95 % CI]", "old-table free delay µs [95 % CI]"],
                     rows)
    return out


def section_scaling(figs, plots):
    out = ["## Update cost vs OPP count", ""]
    groups = list(scaling_groups(figs))
    if not groups:
        return out + ["No scaling runs in this summary.", ""]
    for (variant, mode, preempt, uhz), g, cb, fit in groups:
        out += [f"### {variant}, {mode} mode, preempt={preempt}", ""]
        cbn = {f["nr_states"]: f for f in cb}
        out += table(["OPPs", "µs per update [95 % CI]", "n", "spread",
                      "callback alone µs [95 % CI]"],
                     [[f["nr_states"], value(f), f["n"], spread(f),
                       value(cbn[f["nr_states"]]) if f["nr_states"] in cbn else "–"]
                      for f in g])
        rows = []
        for k, label in (("slope_us_per_opp", "slope µs/OPP"),
                         ("intercept_us", "intercept µs"),
                         ("slope_instructions_per_opp", "slope instructions/OPP"),
                         ("intercept_instructions", "intercept instructions"),
                         ("r2", "r²"),
                         ("quadratic_share", "x² term's share of the largest point (point)")):
            u, c = fit.get("update_fit_" + k), fit.get("callback_fit_" + k)

            def cell(f):
                if not f:
                    return "–"
                # a point, not an interval; below 0.05 % it is rounding
                return f"{round(100 * f['median'], 1) + 0.0:.1f} %" if k == "quadratic_share" else value(f)
            if u or c:
                rows.append([label, cell(u), cell(c)])
        if rows:
            out += table(["least-squares fit", "update [95 % CI]",
                          "callback alone [95 % CI]"], rows)
            sl = fit.get("update_fit_slope_us_per_opp")
            if sl and sl.get("residuals_us"):
                out += ["Update residuals (median − fit, µs) at " +
                        ", ".join(f"{p}: {r:+.3f}" for p, r in
                                  zip(sl["points"], sl["residuals_us"])) + ".", ""]
            any_fit = next(iter(fit.values()))
            out += [f"Fit through the medians; CI: {any_fit.get('ci_method')}, "
                    f"{any_fit.get('bootstrap_resamples')} resamples. The callback "
                    "returns precomputed values (O(1) per OPP): the update's "
                    "remainder is the series' own work.", ""]
    for p, group in plots:
        out += [f"![update scaling]({p})", "",
                caption("Update cost vs OPP count; lower panel: residuals of the fit", group), ""]
    return out


def section_scenarios(s, rundir):
    figs = [f for f in s["figures"] if f.get("scenario")]
    if not figs:
        return []
    out = ["## Scenarios", ""]
    runs = s.get("constants", {}).get("runs", {})
    # One section per scenario; its runs (NAME:static, NAME:oracle, ...) side by side.
    for scen in sorted({f["scenario"].split(":")[0] for f in figs}):
        out += [f"### {scen}", ""]
        g = sorted((f for f in figs if f["scenario"].split(":")[0] == scen),
                   key=lambda f: (f["name"], f["variant"], f["scenario"], f["mode"]))
        plot = plot_scenario(scen, g, rundir)
        if plot:
            out += [f"![{scen}]({plot[0]})", "",
                    caption(f"{scen}: its key figure per step or workload, one series per "
                            "run (variant, EM)", plot[1]), ""]
        ccdf = plot_latency_ccdf(scen, rundir)
        if ccdf:
            out += [f"![{scen} latency CCDF]({ccdf[0]})", "",
                    f"*{scen}: share of wakeups slower than x per load, every boot a line "
                    f"(up to {ccdf[1]} boot(s) per run, all CPUs of a boot pooled, buckets of "
                    "1 µs, or 1 ns with cyclictest -N; a boot's last line ends at its slowest "
                    "bucketed wakeup).*", ""]
        heat = heat_table(g)
        if heat:
            out += ["EM error by EM and update period (median [95 % CI] over boots). "
                    "The platform's meter prices the busy time that ran with the EM in effect "
                    "at each instant and with the truth; with heat |EM - truth| is summed per "
                    "10 ms tick over the busy energy (what EAS mis-prices at each instant; a "
                    "window total lets errors of both signs cancel, shown beside it). "
                    "Worst OPP: the table's largest per-state error when the window opened "
                    "(what a residency-weighted error hides). "
                    "Driver CPU: whole driver iterations, % of one CPU:", ""]
            out += heat
            p2 = plot_heat(scen, g, rundir)
            if p2:
                out += [f"![{scen} vs period]({p2})", ""]
        placed = placement_table(g, "placement_over_optimal_pct")
        if placed:
            out += ["Placement energy over the brute-force optimum, % (LISA's pricing: where EAS "
                    "ran each task in each phase, priced like the optimum under the truth at the "
                    "window's start; median [95 % CI] over valid boots):", ""] + placed
            out += ["The meter's energy over the same optimum, % (also carries schedutil's OPP "
                    "choice, idle and background power, migrations):", ""]
            out += placement_table(g, "energy_over_optimal_pct")
            pairs = verdict_blocks(rundir, scen, "paired per boot")
            if pairs:
                out += ["Paired per boot (same boot index), from `table.txt`:", "", "```"]
                out += ["\n\n".join(pairs), "```", ""]
        # The headline metrics here; every figure is in "All figures".
        g = [f for f in g if f["name"].split(".")[0] in SCENARIO_HEADLINE]
        out += table(["metric", "variant", "EM", "mode", "preempt", "cluster",
                      "median [95 % CI]", "n", "spread", "unit", "better"],
                     [[f["name"], f["variant"], (f["scenario"] + ":").split(":")[1] or "–",
                       f["mode"], f["preempt"],
                       pd_label(f), value(f), f["n"], spread(f), f["unit"],
                       f["better"]] for f in g])
        consts = {lab: r["scenario_constants"] for lab, r in runs.items()
                  if r.get("scenario", "").split(":")[0] == scen
                  and "scenario_constants" in r}
        uniq = {}
        for lab, c in sorted(consts.items()):
            uniq.setdefault(json.dumps(c, sort_keys=True), []).append(lab)
        for c, labs in uniq.items():
            out += [f"Constants ({len(labs)} run(s): {', '.join(labs[:3])}"
                    f"{', …' if len(labs) > 3 else ''}): `{c}`", ""]
    return out


def opp_tables(params):
    """OPP tables of params.json when it has clusters[].opps[]; else None."""
    cl = params.get("clusters") if isinstance(params, dict) else None
    if not isinstance(cl, list) or not all(isinstance(c, dict) and
                                           isinstance(c.get("opps"), list)
                                           for c in cl):
        return None
    out = []
    for c in cl:
        hdr = ", ".join(f"{k} {v}" for k, v in c.items() if k != "opps")
        out += [f"*{hdr}*", ""]
        keys = []
        for o in c["opps"]:
            keys += [k for k in o if k not in keys]
        out += table(keys, [[o.get(k, "") for k in keys] for o in c["opps"]])
    rest = {k: v for k, v in params.items() if k != "clusters"}
    if rest:
        out += [f"Other parameters: `{json.dumps(rest, sort_keys=True)}`", ""]
    return out


def section_constants(s):
    c = s.get("constants", {})
    out = ["## Constants that shaped these figures", ""]
    summ = c.get("summarize", {})
    if summ:
        out += ["Statistics (results/summarize.conf):", ""]
        out += table(["constant", "value"], sorted(summ.items()))
    meth = c.get("methods", {})
    if meth:
        out += ["Methods:", ""] + [f"- **{k}**: {v}" for k, v in meth.items()] + [""]
    if c.get("pairs"):
        out += ["Pairs (results/pairs): " +
                ", ".join(f"{a} ÷ {b}" for a, b in c["pairs"]), ""]
    runs = c.get("runs", {})
    if runs:
        out += ["### Runs", ""]
        rows = []
        for lab, r in sorted(runs.items()):
            up = r.get("updater", {})
            upd = "–" if not up.get("available") else ", ".join(
                f"{k} {up[k]}" for k in ("hz", "pd", "count", "errors") if k in up)
            bp = r.get("bench_params", {})
            rows.append([lab, r.get("variant"), r.get("mode"), r.get("shift", "–"),
                         r.get("preempt"), r.get("release", "–"), upd,
                         " ".join(f"{k}={v}" for k, v in bp.items()) or "–"])
        out += table(["run", "variant", "mode", "shift", "preempt", "release",
                      "updater", "bench params"], rows)
        platforms = {}
        for lab, r in sorted(runs.items()):
            topo = r.get("meta", {}).get("topology")
            pds, params = r.get("pds"), r.get("params")
            if topo is None and pds is None and params is None:
                continue
            blob = json.dumps([topo, pds, params], sort_keys=True)
            platforms.setdefault(blob, (topo, pds, params, []))[3].append(lab)
        for topo, pds, params, labs in platforms.values():
            out += ["#### Platform of " + ", ".join(labs), ""]
            if topo is not None:
                out += [f"Topology: `{json.dumps(topo, sort_keys=True)}`", ""]
            if pds:
                out += ["Perf domains: " + ", ".join(
                    f"pd{p.get('pd')} cpus {p.get('cpus')} {p.get('nr_states')} OPPs"
                    for p in pds), ""]
            if params is not None:
                t = opp_tables(params)
                out += t if t is not None else [
                    "params.json:", "", "```json",
                    json.dumps(params, indent=1, sort_keys=True), "```", ""]
    return out


def section_all(figs):
    out = ["## Every figure", "",
           "Median and its 95 % CI (order statistics; bootstrap for ratios and "
           "fits), n, spread (±stddev/mean), as computed by emrcu-summarize.", ""]
    rows = [[(f.get("scenario") + "/" if f.get("scenario") else "") + f["name"],
             f["variant"] + (f"/{f['baseline']}" if f.get("baseline") else ""),
             f["mode"], f["preempt"], hz(f), pd_label(f), f.get("nr_states", "–"),
             f["n"], num(f["median"]), ci(f), spread(f),
             f.get("contaminated", "–"), f["unit"], f["better"]]
            for f in s_sorted(figs)]
    out += table(["figure", "variant", "mode", "preempt", "updater", "cluster",
                  "nr_states", "n", "median", "95 % CI", "spread", "contam.", "unit",
                  "better"], rows)
    return out


def s_sorted(figs):
    return sorted(figs, key=lambda f: (f.get("scenario", ""), f["name"], f["mode"],
                                       f["preempt"], f["variant"], f["update_hz"],
                                       f["cluster"], f.get("nr_states", 0)))


def section_disasm(rundir):
    """bench/em_bench/disasm.sh output saved by the bench run: per-function
    instruction counts of both builds and the diff of em_cpu_energy()'s
    inlined body, which is what the deterministic-mode delta is made of."""
    out = []
    for path in sorted(glob.glob(os.path.join(rundir, "disasm-*.txt"))):
        with open(path) as f:
            text = f.read().splitlines()
        counts = [ln for ln in text if ln.startswith("  loop ")
                  or (not ln.startswith("@@") and ln[:1] not in "+- ")]
        diff = [ln for ln in text if ln[:1] in "+-" and not ln.startswith("--")]
        name = os.path.basename(path)[len("disasm-"):-len(".txt")]
        out += [f"## Instruction-level difference: {name}", "",
                "Disassembly of `emb_call()` (one `em_cpu_energy()` call, inlined) "
                "and `emb_pass()` (the timed loop) in em_bench.ko built for each "
                f"variant (`bench/em_bench/disasm.sh`, full text in `{os.path.basename(path)}`).", "",
                "```", *counts, "```", "",
                f"Changed instructions of `emb_call()` ({len(diff)} lines, "
                "`-` baseline, `+` patched):", "", "```", *diff, "```", ""]
    return out


def section_execprof(rundir):
    """bench/em_bench/attrib.sh output saved by the bench run: instructions
    each emb_call() executed, counted per instruction from QEMU's exec log,
    per perf domain, and the difference per source line: what the series
    adds to a call, from what ran (section_disasm shows the static code)."""
    out = []
    for path in sorted(glob.glob(os.path.join(rundir, "execprof-*.json"))):
        x = load_json(path)
        pds = [p for p in x.get("pds", []) if "diff" in p]
        if not pds:
            continue
        d0 = pds[0]["diff"]
        out += [f"## Executed instructions per call: {d0['new']} vs {d0['base']}", "",
                f"`{x.get('function')}()` (one `em_cpu_energy()` call) counted instruction by "
                "instruction from what the guest executed (`bench/em_bench/attrib.sh`: QEMU "
                "`-singlestep -d exec,nochain -dfilter` over the function, deterministic mode, "
                f"em_bench `{x.get('em_bench_params')}` with one reader, the first CPU of each "
                "perf domain). Exact counts, where the icount figures above are quantised to "
                "0.08 instructions/call (a 16 ns counter tick over a 100-call pass). Lines are "
                "matched by their text, so the same statement at another line number is one row; "
                f"full listings in `{os.path.basename(path)}`.", ""]
        out += table(["cluster", "calls", f"{d0['base']} executed/call",
                      f"{d0['new']} executed/call", "change"],
                     [[f"pd{p['pd']} (CPU {p['reader_cpu']})",
                       "/".join(str(q.get("calls")) for q in p["profiles"]),
                       *(num(q.get("executed_per_call")) for q in p["profiles"]),
                       f"{p['diff']['change_per_call']:+.2f}"] for p in pds])
        for p in pds:
            d = p["diff"]
            out += [f"pd{p['pd']}, by source line:", ""]
            out += table([d["base"], d["new"], "change", "source line"],
                         [[f"{r['base']:.2f}", f"{r['new']:.2f}", f"{r['change']:+.2f}",
                           "`" + r["line"].replace("|", "\\|") + "`"] for r in d["lines"]])
    return out


def ident(f):
    return (f.get("scenario", ""), f["name"], f["variant"], f["mode"],
            f["preempt"], f["update_hz"], f["cluster"], f.get("nr_states", 0))


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: {e}")


def section_aa(rundir):
    """`make bench AA=1`: the same kernel as two columns, A and B, through the
    gate (aa/gate.json, written by emrcu-compare) and the noise bands it
    calibrated (aa/noise.json).  Nothing is computed here."""
    gpath = os.path.join(rundir, "aa", "gate.json")
    if not os.path.exists(gpath):
        return []
    g = load_json(gpath)
    cols = {c: {ident(f): f for f in
                load_json(os.path.join(rundir, "aa", c, "summary.json"))["figures"]}
            for c in ("A", "B")}
    npath = os.path.join(rundir, "aa", "noise.json")
    nz = load_json(npath) if os.path.exists(npath) else {}
    bands = {ident(f): f for f in nz.get("figures", [])}
    prov = nz.get("provenance", {})
    out = ["## A/A noise calibration", "",
           f"The same kernel ({', '.join(prov.get('variants', ['?']))}) booted as two "
           f"columns, A and B ({prov.get('boots_per_column', '?')} boot(s) each, "
           f"{prov.get('interleaved', 'interleaved')}; modes: "
           f"{', '.join(prov.get('modes', ['?']))}), each column summarised on its "
           "own and compared by the gate with its `results/gate.conf` thresholds "
           f"and no noise file: **{g.get('compared')} figures compared, "
           f"{g.get('regressions')} regressions** "
           f"({'pass' if g.get('regressions') == 0 else 'FAIL: the gate flags noise'}). "
           "The noise band of each figure is the A/A |%change| × "
           f"{nz.get('noise_safety_factor', '?')}, at least "
           f"{nz.get('noise_floor_pct', '?')} % (`aa/noise.json`; stored as "
           "`results/baselines/noise.json` when the A/A gate passed).", ""]
    rows = []
    for v in g.get("figures", []):
        k = ident(v)
        a, b = cols["A"].get(k), cols["B"].get(k)
        if not a or not b:
            continue
        ch = v.get("change_pct")
        band = bands.get(k, {}).get("band_pct")
        rows.append([v["name"], v["mode"], v["preempt"], hz(v), pd_label(a)
                     + (f" opps={v['nr_states']}" if v.get("nr_states") else ""),
                     value(a), a["n"], spread(a), value(b), b["n"], spread(b),
                     f"{ch:+.3f} %" if isinstance(ch, (int, float)) else ch,
                     "–" if band is None else f"{band:g} %",
                     "REGRESSION" if v.get("regression") else
                     ("not gated" if v.get("better") == "none" else "pass")])
    out += table(["figure", "mode", "preempt", "updater", "cluster",
                  "A median [95 % CI]", "n", "spread", "B median [95 % CI]", "n",
                  "spread", "%change B/A", "noise band", "A/A gate"], rows)
    if prov:
        out += [f"Provenance: run `{prov.get('run')}`, {prov.get('created')}, commit "
                f"{prov.get('commit')}, kernels {', '.join(prov.get('kernel_releases', []))}, "
                f"{prov.get('host', {}).get('cpus', '?')} host CPUs.", ""]
    return out


def section_host_timings(rundir):
    """hyperfine --export-json files (bench/host-timings.sh): formatted only."""
    files = sorted(glob.glob(os.path.join(rundir, "host-timings-*.json")))
    if not files:
        return []
    out = ["## Host timings", "",
           "Host wall clock, measured by `hyperfine --export-json` "
           "(`bench/host-timings.sh`; files `host-timings-*.json`). "
           "Mode: host wall clock (a guest's own mode is in its row); *spread*: "
           "±stddev/mean over the runs; kernel rows include any wait for "
           "`build/.kbuild.lock`.", ""]
    rows = []
    for path in files:
        for r in load_json(path).get("results", []):
            times = r.get("times") or []
            mean, sd = r.get("mean"), r.get("stddev")
            codes = sorted(set(r.get("exit_codes") or []))
            rows.append([r.get("command"), len(times), f"{mean:.2f}",
                         "–" if sd is None or not mean else f"±{100 * sd / mean:.1f} %",
                         f"{r.get('median', 0):.2f}",
                         f"{r.get('min', 0):.2f} – {r.get('max', 0):.2f}",
                         ", ".join(str(c) for c in codes) or "–",
                         os.path.basename(path)])
    out += table(["what", "n", "mean s", "spread", "median s", "min – max s",
                  "exit", "file"], rows)
    lock = os.path.join(rundir, "host-timings", "kernel-lock-seconds.txt")
    if os.path.exists(lock):
        with open(lock) as f:
            out += [f"Last up-to-date rebuild inside the build lock (variant.sh's own "
                    f"timer): {f.read().strip()} s.", ""]
    return out


def section_provenance(s):
    """The header's provenance block: what a CI keeping results for months
    needs to tell two runs apart (summary.json's provenance, origin.h)."""
    p = s.get("provenance")
    if not p:
        return ["Provenance: not recorded (a summary from before provenance blocks).", ""]
    out = ["| provenance | |", "|---|---|"]
    h = p.get("harness") or {}
    dirty = {True: " (work tree dirty)", False: "", None: " (dirty: unknown)"}
    out.append(f"| harness commit | {h.get('commit', 'unknown')}"
               f"{dirty.get(h.get('dirty')) if h else ''}"
               f"{' (runs from several commits)' if h.get('mixed') else ''} |")
    host = p.get("host") or {}
    out.append(f"| host | {host.get('cpu_model') or 'unknown CPU'}, "
               f"{host.get('ncpus', '?')} CPUs, {host.get('mem_mb', '?')} MB"
               f"{' (runs on several hosts)' if host.get('mixed') else ''} |")
    out.append(f"| QEMU | {p.get('qemu_version') or 'unknown'} |")
    argv = p.get("qemu_argv")
    if argv:
        out.append(f"| QEMU command (first run) | `{' '.join(argv)}` |")
    for v, k in sorted((p.get("variants") or {}).items()):
        tree = k.get("kernel_tree") or {}
        out.append(f"| kernel `{v}` | {k.get('kernel_release')}, config "
                   f"{(k.get('config_sha256') or '?')[:12]}, "
                   f"{tree.get('base') or 'tree unknown'}, source tree "
                   f"{(tree.get('source_tree') or '?')[:12]}, inputs "
                   f"{tree.get('inputs') or '?'} |")
    out.append(f"| command | `{p.get('command') or 'not recorded'}` |")
    out.append(f"| created | {s.get('created', '?')} |")
    return out + ["", "Every figure's `id` in summary.json names it uniquely "
                  "(name, variant, mode, preemption, update rate, cluster, OPPs, scenario).", ""]


DESIGNS = (("unpatched", "patched", "upstream"),
           ("unpatched-preempt", "patched-preempt", "upstream-preempt"))


def load_published(path=os.path.join(os.path.dirname(os.path.abspath(__file__)), "published")):
    """results/published: key = value, '#' comments."""
    out = {}
    with open(path) as fh:
        for line in fh:
            line = line.split("#", 1)[0].strip()
            if "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    return out


def cluster_roles(s):
    """{cluster index: 'little' | 'big' | ''} from the runs' topology spec
    (clusters in spec order; the lowest capacity little, the highest big)."""
    for r in (s.get("constants", {}).get("runs") or {}).values():
        spec = ((r.get("meta") or {}).get("topology") or {}).get("spec")
        caps = [int(c) for c in re.findall(r"\d+x(\d+)", spec or "")]
        if caps:
            return {i: ("little" if c == min(caps) else "big" if c == max(caps) else "")
                    for i, c in enumerate(caps)}
    return {}


def section_designs(s, figs):
    """v2 and the merged design beside the unpatched kernel, per cluster:
    hot-path instructions/call and ratio, realtime ratio, update cost; then
    the published speed-up of 'remove division' against this harness."""
    out = ["## Three designs: unpatched, v2, merged (v6.9)", ""]
    ins = {(f["variant"], f["preempt"], f["cluster"]): f
           for f in by_name(figs, "hot_path_instructions_per_call") if not f["update_hz"]}
    rat = {(f["variant"], f["mode"], f["preempt"], f["cluster"]): f
           for f in by_name(figs, "hot_path_ratio") if not f["update_hz"]}
    upd = {(f["variant"], f["mode"], f["preempt"], f["update_hz"]): f
           for f in by_name(figs, "update_us")}
    rt = {(f["variant"], f["preempt"], f["cluster"]): f
          for f in by_name(figs, "hot_path_ns_per_call")
          if not f["update_hz"] and f["mode"] == "realtime"}
    roles = cluster_roles(s)
    rows = []
    for trio in DESIGNS:
        base, v2, merged = trio
        for c in sorted({k[2] for k in ins if k[0] == base}):
            b = next((f for (v, p, cc), f in ins.items() if v == base and cc == c), None)
            if not b:
                continue
            row = [b["preempt"], f"{pd_label(b)} {roles.get(c, '')}".strip(), value(b)]
            for v in (v2, merged):
                f = ins.get((v, b["preempt"], c))
                r = rat.get((v, "deterministic", b["preempt"], c))
                row += [f"{value(f)} ({f['median'] - b['median']:+.2f})" if f else "–",
                        value(r) if r else "–"]
            rr = [rat.get((v, "realtime", b["preempt"], c)) for v in (v2, merged)]
            row += [value(r) if r else "–" for r in rr]
            rows.append(row)
    if not rows:
        out += ["No deterministic unpatched kernel with v2 or the merged design in this summary.", ""]
    else:
        out += table(["preempt", "cluster", "unpatched instructions/call",
                      "v2 instructions/call (Δ)", "v2 ÷ unpatched",
                      "merged instructions/call (Δ)", "merged ÷ unpatched",
                      "v2 ÷ unpatched, realtime ns", "merged ÷ unpatched, realtime ns"],
                     rows)
        out += ["Deterministic mode, no updater, median [95 % CI] over every timed pass "
                "(n and boots: section *Instructions per call*); ratios from `hot_path_ratio` "
                "(the same pairs, results/pairs). v2 is the series as posted (`patched`), "
                "merged is kernel/upstream (`upstream`). The merged estimate is ten times "
                "6.1's (cost = 10 × power / performance): the same work is compared, not "
                "the same value.", ""]
    urows = []
    for trio in DESIGNS:
        keys = sorted({(k[2], k[1], k[3]) for k in upd if k[0] in trio[1:]})
        for preempt, mode, hzv in keys:
            cells = [upd.get((v, mode, preempt, hzv)) for v in trio[1:]]
            urows.append([preempt, mode, f"{hzv:g} Hz"] +
                         [f"{value(f)} (n {f['n']})" if f else "–" for f in cells])
    if urows:
        out += ["Update cost, µs per update, median [95 % CI] (v2: "
                "`em_dev_update_perf_domain()` with the driver's callback, which "
                "allocates, asks every value and prices the table under the EM mutex; "
                "merged: `em_dev_update_perf_domain()` of a table built ahead of time, "
                "as its drivers do: the publish alone).", ""]
        out += table(["preempt", "mode", "updater", "v2 µs/update", "merged µs/update"], urows)
    pub = load_published()
    before, after = pub.get("remove_division.before"), pub.get("remove_division.after")
    prow = []
    for c in sorted({k[2] for k in list(ins) + list(rt) if k[0] == before}):
        fb, fa = ins.get((before, "none", c)), ins.get((after, "none", c))
        rb, ra = rt.get((before, "none", c)), rt.get((after, "none", c))
        if not (fb and fa) and not (rb and ra):
            continue
        role = roles.get(c, "")
        prow.append([f"{pd_label(fb or rb)} {role}".strip()] +
                    ([value(fb), value(fa), f"{fb['median'] / fa['median']:.2f}x"]
                     if fb and fa else ["–", "–", "–"]) +
                    ([f"{value(rb)} → {value(ra)}",
                      f"{rb['median'] / ra['median']:.2f}x (boot medians "
                      f"{min(rb['boot_medians']) / max(ra['boot_medians']):.2f}–"
                      f"{max(rb['boot_medians']) / min(ra['boot_medians']):.2f}x)"]
                     if rb and ra and rb.get("boot_medians") and ra.get("boot_medians")
                     else ["–", "–"]) +
                    [f"{pub.get('remove_division.speedup.' + role)}x" if role else "–"])
    out += ["### The published speed-up of \"remove division\", held against this harness", ""]
    if not prow:
        out += [f"Not measured in this run: it needs `{before}` and `{after}` "
                f"(`make bench BASELINES='{before}' NUMERATORS='{after}' UPDATE_HZ=0`).", ""]
        return out
    out += table(["cluster", f"{before} instructions/call", f"{after} instructions/call",
                  "measured speed-up (instructions)", "realtime ns/call, before → after",
                  "measured speed-up (realtime ns)", "published (time)"], prow)
    out += [f"Published: {pub.get('remove_division.source')}. Measured: PREEMPT_NONE, no "
            "updater, deterministic mode (instructions) and realtime mode (ns under TCG "
            "with MTTCG, host noise: the range is the ratio of the extreme boot medians); "
            "the change of that one patch (the variants differ by "
            "patches 15–23, of which only 15 touches em_cpu_energy()). Why the two differ: "
            "`-icount` counts every instruction as one, so the two divisions the patch "
            "removes (`udiv`, tens of cycles each on a Cortex-A53/A72) weigh one "
            "instruction each here, and TCG models no cache or pipeline: what the "
            "published figure measures in time is mostly what this harness cannot see. "
            "The instruction ratio is a lower bound of the time ratio on such cores, "
            "not an estimate of it.", ""]
    return out


def report(rundir):
    s = load(rundir)
    figs = s["figures"]
    samples = Samples(rundir)
    hot_plots = plot_hot_path(figs, samples, rundir)
    ratio_plots = plot_ratio(figs, rundir)
    ecdf_plots = plot_ecdf(figs, samples, rundir)
    scal_plots = plot_scaling(figs, rundir)
    modes = sorted({f["mode"] for f in figs})
    lines = ["# emrcu-bench report", "",
             f"Summary `{os.path.join(rundir, 'summary.json')}` created "
             f"{s.get('created', '?')}: {len(figs)} figures from "
             f"{len(s.get('constants', {}).get('runs', {}))} run(s), "
             f"modes: {', '.join(modes)}. Deterministic mode (`-icount`) numbers "
             "are instruction-exact; realtime mode numbers carry host noise.", ""]
    lines += section_provenance(s)
    lines += section_designs(s, figs)
    lines += section_hot_path(figs, hot_plots, ratio_plots, ecdf_plots)
    lines += section_instructions(figs)
    lines += section_disasm(rundir)
    lines += section_execprof(rundir)
    lines += section_update(figs)
    lines += section_scaling(figs, scal_plots)
    lines += section_scenarios(s, rundir)
    lines += section_aa(rundir)
    lines += section_host_timings(rundir)
    lines += section_constants(s)
    lines += section_all(figs)
    out = os.path.join(rundir, "report.md")
    tmp = out + f".tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    os.replace(tmp, out)
    # every plot the report links, whichever section made it
    return out, re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", "\n".join(lines))


def main(argv):
    if len(argv) != 2:
        print("usage: report.py RUNDIR", file=sys.stderr)
        return 2
    try:
        out, plots = report(argv[1])
    except ReportError as e:
        print(f"report.py: {e}", file=sys.stderr)
        return 2
    print(f"report.py: {out} ({len(plots)} plots)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
