/* dts.c — rewrite cpu-map and capacities in a decompiled DTS. */
#include "dts.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 32

/* Names of the children of /cpus called cpu@..., in file order. */
static int find_cpu_nodes(const char *dts, char names[][32], int max,
			  char *err, size_t errlen)
{
	const char *stack[MAX_DEPTH];
	int stack_len[MAX_DEPTH];
	int depth = 0, n = 0;
	const char *p = dts;

	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *s = p, *e;

		if (!eol)
			eol = p + strlen(p);
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		e = eol;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e - s >= 2 && e[-1] == '{' && e[-2] == ' ') {
			/* "label: name {" or "name {" opens a node. */
			const char *name = s, *colon;
			int len = (int)(e - 2 - s);

			colon = memchr(s, ':', (size_t)len);
			if (colon && colon[1] == ' ') {
				len -= (int)(colon + 2 - s);
				name = colon + 2;
			}
			if (depth == MAX_DEPTH) {
				snprintf(err, errlen, "DTS nested deeper than %d", MAX_DEPTH);
				return -1;
			}
			stack[depth] = name;
			stack_len[depth] = len;
			depth++;
			if (depth == 3 && stack_len[0] == 1 && stack[0][0] == '/' &&
			    stack_len[1] == 4 && !strncmp(stack[1], "cpus", 4) &&
			    len > 4 && !strncmp(name, "cpu@", 4)) {
				if (n == max || len >= 32) {
					snprintf(err, errlen, "too many cpu nodes in DTS (max %d)", max);
					return -1;
				}
				memcpy(names[n], name, (size_t)len);
				names[n][len] = '\0';
				n++;
			}
		} else if (e - s == 2 && s[0] == '}' && s[1] == ';') {
			if (depth == 0) {
				snprintf(err, errlen, "unbalanced '};' in DTS");
				return -1;
			}
			depth--;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (depth != 0) {
		snprintf(err, errlen, "unterminated node in DTS");
		return -1;
	}
	return n;
}

char *dts_apply_topo(const char *dts, const struct topo *t, int llc,
		     char *err, size_t errlen)
{
	char names[TOPO_MAX_CPUS + 1][32];
	char spec[256];
	struct buf b = { 0 };
	int n, i, k, cpu;

	n = find_cpu_nodes(dts, names, TOPO_MAX_CPUS + 1, err, errlen);
	if (n < 0)
		return NULL;
	if (n != t->ncpus) {
		snprintf(err, errlen, "DTS has %d cpu nodes under /cpus, topology has %d CPUs",
			 n, t->ncpus);
		return NULL;
	}
	if (!strstr(dts, "/dts-v1/;")) {
		snprintf(err, errlen, "not a DTS (no /dts-v1/; header)");
		return NULL;
	}
	topo_format(t, spec, sizeof(spec));
	buf_adds(&b, dts);
	if (b.len && b.p[b.len - 1] != '\n')
		buf_adds(&b, "\n");
	buf_printf(&b, "\n/* emrcu-topo: TOPO=%s (DTS_XFORM_VERSION %d) */\n",
		   spec, DTS_XFORM_VERSION);
	buf_adds(&b, "/ {\n\tcpus {\n\t\t/delete-node/ cpu-map;\n\t};\n};\n\n");
	buf_adds(&b, "/ {\n\tcpus {\n");
	if (llc)
		for (i = 0; i < t->nclusters; i++)
			buf_printf(&b,
				   "\t\temrcu_l2_%d: l2-cache-cluster%d {\n"
				   "\t\t\tcompatible = \"cache\";\n"
				   "\t\t\tcache-level = <2>;\n"
				   "\t\t\tcache-unified;\n"
				   "\t\t};\n\n", i, i);
	for (cpu = 0; cpu < t->ncpus; cpu++) {
		int c = topo_cpu_cluster(t, cpu);

		buf_printf(&b, "\t\temrcu_cpu%d: %s {\n"
			   "\t\t\tcapacity-dmips-mhz = <%d>;\n",
			   cpu, names[cpu], t->c[c].capacity);
		if (llc)
			buf_printf(&b, "\t\t\tnext-level-cache = <&emrcu_l2_%d>;\n", c);
		buf_adds(&b, "\t\t};\n\n");
	}
	buf_adds(&b, "\t\tcpu-map {\n\t\t\tsocket0 {\n");
	for (i = 0, cpu = 0; i < t->nclusters; i++) {
		buf_printf(&b, "\t\t\t\tcluster%d {\n", i);
		for (k = 0; k < t->c[i].ncpus; k++, cpu++)
			buf_printf(&b, "\t\t\t\t\tcore%d {\n"
				   "\t\t\t\t\t\tcpu = <&emrcu_cpu%d>;\n"
				   "\t\t\t\t\t};\n", k, cpu);
		buf_adds(&b, "\t\t\t\t};\n");
	}
	buf_adds(&b, "\t\t\t};\n\t\t};\n\t};\n};\n");
	return b.p;
}
