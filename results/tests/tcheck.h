/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcheck.h - minimal unit-test helper: a case groups expectations and
 * prints one line, `PASS: results/<case>` or `FAIL: results/<case> (why)`
 * with the first failed expectation.
 */
#ifndef EMRCU_TCHECK_H
#define EMRCU_TCHECK_H

void t_begin(const char *name);
/* Records a failed expectation when !ok; returns ok. */
int t_expect(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* |a - b| <= tol */
int t_near(double a, double b, double tol, const char *what);
void t_end(void);
/* Exit status: 0 when every case passed. */
int t_status(void);

/* Runs cmd through sh; returns its exit status (-1 if it did not exit). */
int t_run(const char *cmd);
/* 1 if file contains needle. */
int t_file_has(const char *path, const char *needle);
/* Occurrences of needle in file. */
int t_file_count(const char *path, const char *needle);

#endif
