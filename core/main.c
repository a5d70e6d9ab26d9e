/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _POSIX_C_SOURCE 200809L
/* main.c - cipherbench-core: subcommands list, kat, bench and serve, speaking the
 * JSON-lines protocol of docs/protocol.md on stdout. */
#include "algorithms.h"
#include "args.h"
#include "backend.h"
#include "bench.h"
#include "cpuinfo.h"
#include "emit.h"
#include "hw.h"
#include "kat.h"
#include "measure.h"
#include "libs.h"
#include "module.h"
#include "preamble.h"
#include "ref.h"
#include "serve.h"
#include "timed.h"
#include "tls/tls.h"
#include "vectors.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int unknown_lib(const char *name)
{
    char line[2048];
    cb_lib_unknown(name, line, sizeof line);
    fprintf(stderr, "cipherbench-core: %s\n", line);
    return 2;
}

/* Initialises a library once per process; says so on stderr when it fails. */
static int lib_init(const cb_backend *b)
{
    static const cb_backend *done[64];
    static int result[64];
    size_t i = 0;
    while (i < 64 && done[i] && done[i] != b)
        i++;
    if (i < 64 && done[i] == b)
        return result[i];
    int rc = 0;
    if (cb_hw_global_init(b) != 0) {
        fprintf(stderr, "cipherbench-core: warning: %s failed to initialise\n", b->name);
        rc = -1;
    }
    if (i < 64) {
        done[i] = b;
        result[i] = rc;
    }
    return rc;
}

static void list_lib(const cb_backend *b)
{
    lib_init(b);
    cb_emit_library(b);
    for (const cb_op *o = b->ops; o->algo; o++) {
        const cb_algorithm *a = cb_algorithm_find(o->algo);
        if (a)
            cb_emit_algorithm(b->name, a);
        else
            fprintf(stderr, "cipherbench-core: warning: %s has a row for unknown algorithm '%s'\n", b->name, o->algo);
    }
}

/* One "offered" record (backend.h's cb_offer_fn); names are printed as JSON
 * strings with quotes, backslashes and control bytes escaped. */
static void put_json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void emit_offered(void *u, const char *kind, const char *name, const char *algo)
{
    printf("{\"v\":1,\"type\":\"offered\",\"lib\":");
    put_json_str((const char *)u);
    printf(",\"kind\":");
    put_json_str(kind);
    printf(",\"name\":");
    put_json_str(name ? name : "");
    printf(",\"algo\":");
    const char *why = algo || !name ? NULL : cb_unmeasured_why((const char *)u, name);
    if (algo)
        put_json_str(algo);
    else
        printf("null");
    if (why) {
        printf(",\"why\":");
        put_json_str(why);
    }
    printf("}\n");
}

/* list --offered: per library, its library record, then what it offers by
 * its own enumeration; a library without one gets its library record only. */
static void list_offered(const cb_backend *b)
{
    lib_init(b);
    cb_emit_library(b);
    cb_offer_fn_list *offered = cb_offer_source_of(b->name);
    if (offered)
        offered(emit_offered, (void *)b->name);
    fflush(stdout);
}

/* One "module" record: a backend's module, loaded from path, or not loaded and why. */
static void emit_module(const cb_module_state *st)
{
    printf("{\"v\":1,\"type\":\"module\",\"lib\":");
    put_json_str(st->lib);
    printf(",\"loaded\":%s,\"path\":", st->module ? "true" : "false");
    if (st->path[0])
        put_json_str(st->path);
    else
        printf("null");
    if (!st->module) {
        printf(",\"error\":");
        put_json_str(st->why);
    }
    printf("}\n");
}

static int cmd_list(const cb_args *a)
{
    const cb_backend *only = NULL;
    if (a->lib && !(only = cb_lib_find(a->lib)))
        return unknown_lib(a->lib);
    uint64_t t0 = cb_wall_ns();
#ifdef CB_NO_CRYPTO_HINT
    /* A build without any crypto library (core/meson.build) says what to install. */
    fprintf(stderr, "cipherbench-core: warning: %s\n", CB_NO_CRYPTO_HINT);
#endif
    cb_preamble_emit("list");
    size_t n_modules;
    const cb_module_state *modules = cb_module_states(&n_modules);
    for (size_t i = 0; i < n_modules; i++)
        if (!a->lib || strcmp(a->lib, modules[i].lib) == 0)
            emit_module(&modules[i]);
    if (a->offered) {
        for (const cb_backend *const *b = cb_backends; *b; b++)
            if (!only || only == *b)
                list_offered(*b);
    } else if (only) {
        list_lib(only);
    } else {
        for (const cb_backend *const *b = cb_backends; *b; b++)
            list_lib(*b);
        list_lib(&cb_backend_ref);
    }
    cb_emit_end(cb_measure_freq_hz(), cb_wall_ns() - t0);
    return 0;
}

/* Is algorithm a covered by a file of set? */
static int covered(const cb_vecset *set, const cb_algorithm *a)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->files[i].alg == a)
            return 1;
    return 0;
}

static int cmd_kat(const cb_args *a)
{
    const cb_backend *only = NULL;
    if (a->lib && !(only = cb_lib_find(a->lib)))
        return unknown_lib(a->lib);
    const char *path = cb_vectors_path(a->vectors);
    struct stat st;
    int from_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    cb_vecset set;
    char err[512];
    if (cb_vectors_load(path, &set, err, sizeof err) != 0) {
        fprintf(stderr, "cipherbench-core: %s\n", err);
        return 2;
    }
    uint64_t t0 = cb_wall_ns();
    cb_preamble_emit("kat");
    int failures = 0;
    /* A malformed file in the directory fails kat but does not hide the rest. */
    for (size_t i = 0; i < set.n_bad; i++) {
        fprintf(stderr, "cipherbench-core: %s\n", set.bad[i]);
        failures++;
    }
    for (size_t i = 0; i < set.n_unknown; i++)
        fprintf(stderr, "cipherbench-core: warning: %s (skipped)\n", set.unknown[i]);
    /* A library whose module did not load is not checked: said, not a failure. */
    size_t n_modules;
    const cb_module_state *modules = cb_module_states(&n_modules);
    for (size_t i = 0; !only && i < n_modules; i++)
        if (!modules[i].module)
            fprintf(stderr, "cipherbench-core: warning: %s not checked: its module did not load: %s\n",
                    modules[i].lib, modules[i].why);
    /* Nothing to check (an empty directory, files for rows no library here has) is a
     * failure too: a kat that checked nothing must not pass for one that passed. */
    size_t checkable = 0;
    for (size_t i = 0; i < set.n; i++)
        for (const cb_backend *const *b = cb_backends; *b; b++)
            if ((!only || only == *b) && set.files[i].n && cb_lib_op(*b, set.files[i].alg->name)) {
                checkable++;
                break;
            }
    if (checkable == 0) {
        fprintf(stderr, "cipherbench-core: no vector checked: %s holds no vector for a row of %s\n",
                path, only ? only->name : "any library here");
        failures++;
    }
    /* Each library in a process of its own: a crash costs the vector it was on. */
    for (const cb_backend *const *b = cb_backends; *b; b++)
        if (!only || only == *b)
            failures += cb_kat_library(*b, &set, from_dir, lib_init);
    /* Differential: every algorithm that two or more libraries implement
     * (with --lib, those it implements, against every other library). */
    for (const cb_algorithm *alg = cb_algorithms; !a->no_differential && alg->name; alg++) {
        if (alg->kind == CB_REF || (!from_dir && !covered(&set, alg)))
            continue;
        const cb_backend *libs[64];
        const char *names[64];
        size_t n = 0;
        int has_only = !only;
        for (const cb_backend *const *b = cb_backends; *b && n < 64; b++) {
            if (cb_lib_op(*b, alg->name) && lib_init(*b) == 0) {
                if (*b == only)
                    has_only = 1;
                names[n] = (*b)->name;
                libs[n++] = *b;
            }
        }
        if (n < 2 || !has_only)
            continue;
        if (cb_differential_isolated(alg, libs, names, n) == 0)
            failures++;
    }
    cb_vectors_free(&set);
    cb_emit_end(cb_measure_freq_hz(), cb_wall_ns() - t0);
    return failures ? 1 : 0;
}

/* Makes a --no-hw request effective before any library initialises. Most
 * libraries read their switch from the environment once, when they load
 * (OPENSSL_ia32cap, NETTLE_FAT_OVERRIDE, GNUTLS_CPUID_OVERRIDE): so the
 * variables of every backend are set and the core executes itself again,
 * with CB_HW_MARKER saying it is done. Returns 0 when in place, 1 with a
 * line on stderr when the re-execution failed. */
static int hw_apply(unsigned mask, char **argv)
{
    char want[32];
    snprintf(want, sizeof want, "%u", mask);
    const char *have = getenv(CB_HW_MARKER);
    if (have && strcmp(have, want) == 0) {
        cb_hw_request = mask;
        return 0;
    }
    for (const cb_backend *const *b = cb_backends; *b; b++) {
        char env[4][CB_HW_ENV_LEN];
        unsigned off = mask & (*b)->hw_switch;
        int n = off && (*b)->hw_env ? (*b)->hw_env(off, env, 4) : 0;
        for (int i = 0; i < n; i++) {
            char *eq = strchr(env[i], '=');
            if (!eq)
                continue;
            *eq = '\0';
            setenv(env[i], eq + 1, 1);
        }
    }
    setenv(CB_HW_MARKER, want, 1);
    fflush(NULL);
    execv("/proc/self/exe", argv);
    execvp(argv[0], argv);
    fprintf(stderr, "cipherbench-core: cannot execute itself again to turn hardware features off: %s\n",
            strerror(errno));
    return 1;
}

int main(int argc, char **argv)
{
    cb_args a;
    char err[512];
    /* `time` runs another program and needs no library (timed.c). */
    if (argc >= 2 && strcmp(argv[1], "time") == 0)
        return cb_cmd_time(argc, argv);
    /* Every backend's module, before anything asks for a library (module.h). */
    cb_modules_load();
    /* --no-hw / --disable-cpu-feature: every command, tls too. */
    char *orig[argc + 1];
    memcpy(orig, argv, sizeof(char *) * (size_t)argc);
    orig[argc] = NULL;
    unsigned hw = 0;
    if (cb_hw_take_args(&argc, argv, &hw, err, sizeof err) != 0) {
        fprintf(stderr, "cipherbench-core: %s\n", err);
        return 2;
    }
    if (hw && hw_apply(hw, orig) != 0)
        return 1;
    /* `tls` has its own options (tls/tls_cmd.c). */
    if (argc >= 2 && strcmp(argv[1], "tls") == 0)
        return cb_cmd_tls(argc, argv);
    if (cb_args_parse(&a, argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "cipherbench-core: %s\n", err);
        return 2;
    }
    switch (a.cmd) {
    case CB_CMD_HELP:  fputs(cb_usage, stderr); return 0;
    case CB_CMD_LIST:  return cmd_list(&a);
    case CB_CMD_KAT:   return cmd_kat(&a);
    case CB_CMD_BENCH: return cb_cmd_bench(&a);
    case CB_CMD_SERVE: return cb_cmd_serve(&a);
    }
    return 2;
}
