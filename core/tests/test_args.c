/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_args.c - command-line parsing: defaults, both option spellings, and
 * one clear line for each kind of mistake. */
#include "../args.h"
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static int parse(cb_args *a, char *err, const char *const *argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return cb_args_parse(a, argc, (char **)argv, err, 512);
}

/* A usage error: status 2 and one line naming what is wrong. */
static void bad(const char *const *argv, const char *must_mention)
{
    cb_args a;
    char err[512] = "";
    int rc = parse(&a, err, argv);
    if (rc != 2 || !err[0] || strchr(err, '\n') || !strstr(err, must_mention)) {
        fprintf(stderr, "args: expected a usage error mentioning '%s', got %d '%s'\n", must_mention, rc, err);
        failures++;
    }
}

int main(void)
{
    cb_args a;
    char err[512];
    const char *const defaults[] = {"cb", "bench", "--lib", "ref", "--algo", "memcpy", "--op", "ref", NULL};
    CHECK(parse(&a, err, defaults) == 0);
    CHECK(a.cmd == CB_CMD_BENCH && strcmp(a.lib, "ref") == 0 && a.n_algos == 1);
    CHECK(a.samples == 0 && a.min_sample_ms == 0 && a.misalign == 0 && a.cpu == -1);
    CHECK(a.n_sizes == 7 && a.sizes[0] == 16 && a.sizes[6] == 65536 && !a.sizes_given);

    const char *const full[] = {"cb", "bench", "--lib=openssl", "--algo", "aes-128-gcm,sha256",
                                "--op=encrypt", "--sizes", "1024,4096", "--samples=5",
                                "--min-sample-ms", "0.5", "--misalign", "3", "--cpu", "0",
                                "--vectors", "v", NULL};
    CHECK(parse(&a, err, full) == 0);
    CHECK(strcmp(a.lib, "openssl") == 0 && a.n_algos == 2 && strcmp(a.algos[1], "sha256") == 0);
    CHECK(a.n_sizes == 2 && a.sizes[1] == 4096 && a.sizes_given);
    CHECK(a.samples == 5 && a.min_sample_ms == 0.5 && a.misalign == 3 && a.cpu == 0);
    CHECK(strcmp(a.vectors, "v") == 0);
    /* Nothing is timed without its vectors: there is no option to skip them. */
    const char *const nokat[] = {"cb", "bench", "--lib", "ref", "--algo", "memcpy", "--op", "ref", "--no-kat", NULL};
    bad(nokat, "unknown option");

    const char *const kat[] = {"cb", "kat", "--no-differential", NULL};
    CHECK(parse(&a, err, kat) == 0 && a.cmd == CB_CMD_KAT && a.no_differential && !a.lib);
    const char *const help[] = {"cb", "bench", "--help", NULL};
    CHECK(parse(&a, err, help) == 0 && a.cmd == CB_CMD_HELP);

    const char *const serve[] = {"cb", "serve", "--lib", "openssl", "--cpu", "0", "--vectors", "/v", NULL};
    CHECK(parse(&a, err, serve) == 0 && a.cmd == CB_CMD_SERVE && strcmp(a.lib, "openssl") == 0 && a.cpu == 0);
    const char *const servenolib[] = {"cb", "serve", NULL};
    bad(servenolib, "serve needs --lib");
    const char *const serveop[] = {"cb", "serve", "--lib", "ref", "--op", "ref", NULL};
    bad(serveop, "valid: --lib, --cpu, --vectors");

    const char *const none[] = {"cb", NULL};
    bad(none, "valid: list, kat, bench, serve, tls");
    const char *const cmd[] = {"cb", "frob", NULL};
    bad(cmd, "valid: list, kat, bench, serve, tls");
    const char *const opt[] = {"cb", "list", "--algo", "x", NULL};
    bad(opt, "valid: --lib");
    const char *const noval[] = {"cb", "list", "--lib", NULL};
    bad(noval, "needs a value");
    const char *const flagval[] = {"cb", "kat", "--no-differential=1", NULL};
    bad(flagval, "takes no value");
    const char *const nolib[] = {"cb", "bench", "--algo", "x", "--op", "hash", NULL};
    bad(nolib, "--lib");
    const char *const noop[] = {"cb", "bench", "--lib", "ref", "--algo", "null", NULL};
    bad(noop, "valid: encrypt, decrypt, hash, mac, ref");
    const char *const size0[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--sizes", "0", NULL};
    bad(size0, "valid: whole numbers");
    const char *const sizex[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--sizes", "16,1k", NULL};
    bad(sizex, "'1k'");
    const char *const sizeneg[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--sizes", "-16", NULL};
    bad(sizeneg, "'-16'");
    const char *const big[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--sizes", "99999999999999999999", NULL};
    bad(big, "not a size");
    const char *const samples[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--samples", "0", NULL};
    bad(samples, "from 1 to 1000");
    const char *const ms[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--min-sample-ms", "abc", NULL};
    bad(ms, "milliseconds");
    const char *const mis[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--misalign", "64", NULL};
    bad(mis, "from 0 to 63");
    const char *const cpu[] = {"cb", "bench", "--lib", "ref", "--algo", "null", "--op", "ref", "--cpu", "x", NULL};
    bad(cpu, "CPU number");

    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
