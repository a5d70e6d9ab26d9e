/* SPDX-License-Identifier: GPL-3.0-or-later */
/* timed.c - `cipherbench-core time`: runs one program and writes its wall-clock time and its
 * own user and system CPU time as the kernel accounts them (wait4), as one `timed` record.
 *
 * For a front end that cannot reap the program itself: a program run on another host through
 * ssh (`cipherbench gpg --host`), where the core shipped for the run is the one timer there
 * every host has. The program's stdin, stdout and stderr are files (default /dev/null, stderr
 * this process's own), so nothing but the record reaches stdout. */
#define _GNU_SOURCE
#include "timed.h"
#include "args.h"
#include "emit.h"
#include "measure.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static const char time_usage[] =
    "usage: cipherbench-core time [--stdin FILE] [--stdout FILE] [--stderr FILE] [--cpu K]\n"
    "                             -- PROGRAM [ARG...]\n"
    "  runs PROGRAM once (stdin and stdout /dev/null unless given, stderr this one's) and\n"
    "  writes one `timed` record: wall_ns, user_ns, sys_ns (wait4), exit or signal\n"
    "  exit: 0 the record was written (whatever PROGRAM's status); 2 bad arguments\n";

typedef struct time_args {
    const char *in, *out, *err;
    int cpu;
} time_args;

static const cb_opt time_opts[] = {
    {"--stdin", 1}, {"--stdout", 1}, {"--stderr", 1}, {"--cpu", 1}, {NULL, 0}};

static int time_apply(void *ctx, const char *name, const char *val, char *err, size_t errlen)
{
    time_args *a = ctx;
    if (!strcmp(name, "--cpu"))
        return cb_opt_cpu(val, &a->cpu, err, errlen);
    const char **slot = !strcmp(name, "--stdin") ? &a->in : !strcmp(name, "--stdout") ? &a->out
                                                                                     : &a->err;
    *slot = val;
    return 0;
}

static uint64_t tv_ns(struct timeval tv)
{
    return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* In the child: fd becomes path, opened with flags; -1 with errno on failure. */
static int redirect(int fd, const char *path, int flags)
{
    int f = open(path, flags | O_CLOEXEC, 0600);
    if (f < 0)
        return -1;
    if (f != fd && dup2(f, fd) < 0)
        return -1;
    return 0;
}

/* Never returns: the program, or down the pipe what failed (0: exec, 1-3: the file of
 * stdin, stdout, stderr) and its errno. */
static void child(const time_args *a, char **prog, int report)
{
    signal(SIGPIPE, SIG_DFL);
    int what[2] = {0, 0};
    if (redirect(0, a->in ? a->in : "/dev/null", O_RDONLY) != 0)
        what[0] = 1;
    else if (redirect(1, a->out ? a->out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC) != 0)
        what[0] = 2;
    else if (a->err && redirect(2, a->err, O_WRONLY | O_CREAT | O_TRUNC) != 0)
        what[0] = 3;
    else
        execvp(prog[0], prog);
    what[1] = errno;
    if (write(report, what, sizeof what) < 0) { /* the parent then sees no report: exit 127 */ }
    _exit(127);
}

static int emit_timed(uint64_t wall, const struct rusage *ru, int status, const char *exec_error)
{
    cJSON *r = cb_record("timed");
    if (!r)
        return -1;
    cJSON_AddNumberToObject(r, "wall_ns", (double)wall);
    cJSON_AddNumberToObject(r, "user_ns", (double)tv_ns(ru->ru_utime));
    cJSON_AddNumberToObject(r, "sys_ns", (double)tv_ns(ru->ru_stime));
    if (WIFEXITED(status))
        cJSON_AddNumberToObject(r, "exit", WEXITSTATUS(status));
    else
        cJSON_AddNullToObject(r, "exit");
    if (WIFSIGNALED(status))
        cJSON_AddNumberToObject(r, "signal", WTERMSIG(status));
    else
        cJSON_AddNullToObject(r, "signal");
    if (exec_error)
        cJSON_AddStringToObject(r, "exec_error", exec_error);
    return cb_emit(r);
}

int cb_cmd_time(int argc, char **argv)
{
    time_args a = {.cpu = -1};
    char err[512];
    int dash = 2;
    while (dash < argc && strcmp(argv[dash], "--") != 0)
        dash++;
    int rc = cb_opts_parse(time_opts, dash, argv, 2, time_apply, &a, err, sizeof err);
    if (rc == CB_OPTS_HELP) {
        fputs(time_usage, stderr);
        return 0;
    }
    if (!rc && dash + 1 >= argc) {
        snprintf(err, sizeof err, "time needs -- PROGRAM [ARG...]");
        rc = 2;
    }
    if (!rc && a.cpu >= 0 && cb_pin_cpu(a.cpu, err, sizeof err) != 0)
        rc = 2;   /* pinned here, the program inherits it */
    if (rc) {
        fprintf(stderr, "cipherbench-core time: %s\n", err);
        return 2;
    }
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        fprintf(stderr, "cipherbench-core time: pipe: %s\n", strerror(errno));
        return 1;
    }
    fflush(NULL);
    uint64_t t0 = cb_wall_ns();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "cipherbench-core time: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0)
        child(&a, argv + dash + 1, report[1]);
    close(report[1]);
    int status = 0;
    struct rusage ru;
    pid_t got;
    do
        got = wait4(pid, &status, 0, &ru);
    while (got < 0 && errno == EINTR);
    uint64_t wall = cb_wall_ns() - t0;
    int what[2] = {0, 0};
    ssize_t n = read(report[0], what, sizeof what);
    close(report[0]);
    if (got < 0) {
        fprintf(stderr, "cipherbench-core time: wait4: %s\n", strerror(errno));
        return 1;
    }
    char why[600];
    const char *exec_error = NULL;
    if (n == (ssize_t)sizeof what) {
        const char *files[] = {argv[dash + 1], a.in, a.out, a.err};
        snprintf(why, sizeof why, "%s: %s", files[what[0] & 3], strerror(what[1]));
        exec_error = why;
    }
    return emit_timed(wall, &ru, status, exec_error) == 0 ? 0 : 1;
}
