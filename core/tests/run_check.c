/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run_check.c - runs cipherbench-core (or reads a saved stream) and checks
 * what it wrote: exit status, number of stderr lines, and that every stdout
 * line is one record valid against core/protocol/schema.json.
 *
 *   run_check --schema F [--exit N] [--stderr-lines N] [--has KIND]...
 *             [--lacks KIND]... [--max-ms MS] [--stdin FILE] [--ends N]
 *             (--file STREAM | -- CMD ARGS...)
 *
 * --stdin gives the command FILE as its input (serve's requests); --ends
 * checks the number of end records (serve: one per request).
 *
 * A KIND is a record type, or TYPE:REASON for an error of that reason, or
 * several of these joined by '|' (any of them): --has 'point|error:refused'.
 * With --exit 2 stdout must be empty (no half-written output on bad input).
 * A stream from a command must start with a preamble and end with an end. */
#define _POSIX_C_SOURCE 200809L
#include "jsonschema.h"
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char *slurp_fd(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    return s;
}

/* Does the record of this type (and reason, for errors) match KIND (see above)? */
static int matches(const char *kind, const char *type, const char *reason)
{
    size_t tl = strlen(type), rl = strlen(reason);
    for (const char *p = kind; *p;) {
        size_t n = strcspn(p, "|");
        if (n == tl && strncmp(p, type, n) == 0)
            return 1;
        if (n == tl + 1 + rl && strncmp(p, type, tl) == 0 && p[tl] == ':'
            && strncmp(p + tl + 1, reason, rl) == 0)
            return 1;
        p += n + (p[n] == '|');
    }
    return 0;
}

static int die(const char *what, const char *detail)
{
    fprintf(stderr, "run_check: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

int main(int argc, char **argv)
{
    const char *schema_path = NULL, *file = NULL, *in_path = NULL;
    int want_exit = -1, want_err_lines = -1, want_ends = -1;
    long max_ms = -1;
    const char *has[16], *lacks[16];
    int nhas = 0, nlacks = 0, cmd_at = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) { cmd_at = i + 1; break; }
        if (i + 1 >= argc) return die("option needs a value", argv[i]);
        if (strcmp(argv[i], "--schema") == 0) schema_path = argv[++i];
        else if (strcmp(argv[i], "--file") == 0) file = argv[++i];
        else if (strcmp(argv[i], "--exit") == 0) want_exit = atoi(argv[++i]);
        else if (strcmp(argv[i], "--stderr-lines") == 0) want_err_lines = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-ms") == 0) max_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--stdin") == 0) in_path = argv[++i];
        else if (strcmp(argv[i], "--ends") == 0) want_ends = atoi(argv[++i]);
        else if (strcmp(argv[i], "--has") == 0 && nhas < 16) has[nhas++] = argv[++i];
        else if (strcmp(argv[i], "--lacks") == 0 && nlacks < 16) lacks[nlacks++] = argv[++i];
        else return die("unknown option", argv[i]);
    }
    if (!schema_path || (!file && (cmd_at < 0 || cmd_at >= argc)))
        return die("usage: run_check --schema F [...] (--file STREAM | -- CMD ARGS...)", NULL);

    char *schema_text = js_read_file(schema_path);
    cJSON *schema = schema_text ? cJSON_Parse(schema_text) : NULL;
    free(schema_text);
    if (!schema)
        return die("cannot read schema", schema_path);

    char *out = NULL, *err = NULL;
    int status = 0;
    long elapsed_ms = 0;
    if (file) {
        out = js_read_file(file);
        err = calloc(1, 1);
        if (!out)
            return die("cannot read", file);
    } else {
        FILE *fo = tmpfile(), *fe = tmpfile();
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fileno(fo), 1);
        posix_spawn_file_actions_adddup2(&fa, fileno(fe), 2);
        if (in_path)
            posix_spawn_file_actions_addopen(&fa, 0, in_path, O_RDONLY, 0);
        pid_t pid;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (posix_spawn(&pid, argv[cmd_at], &fa, NULL, argv + cmd_at, environ) != 0)
            return die("cannot run", argv[cmd_at]);
        posix_spawn_file_actions_destroy(&fa);
        int ws;
        if (waitpid(pid, &ws, 0) < 0)
            return die("waitpid failed", NULL);
        if (!WIFEXITED(ws))
            return die("the command did not exit normally (crashed?)", argv[cmd_at]);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        elapsed_ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
        status = WEXITSTATUS(ws);
        out = slurp_fd(fo);
        err = slurp_fd(fe);
        fclose(fo);
        fclose(fe);
    }

    int bad = 0;
    if (want_exit >= 0 && status != want_exit) {
        fprintf(stderr, "run_check: exit status %d, expected %d\n", status, want_exit);
        bad = 1;
    }
    if (want_err_lines >= 0) {
        int lines = 0;
        for (char *p = err; *p; p++)
            lines += *p == '\n';
        if (lines != want_err_lines || (*err && err[strlen(err) - 1] != '\n')) {
            fprintf(stderr, "run_check: %d stderr lines, expected %d\n", lines, want_err_lines);
            bad = 1;
        }
    }
    if (max_ms >= 0 && elapsed_ms > max_ms) {
        fprintf(stderr, "run_check: took %ld ms, more than %ld ms\n", elapsed_ms, max_ms);
        bad = 1;
    }
    if (want_exit == 2 && *out) {
        fprintf(stderr, "run_check: stdout not empty on a usage error\n");
        bad = 1;
    }

    /* Every line one valid record. */
    int nrec = 0, nends = 0, seen_has[16] = {0};
    char first_type[32] = "", last_type[32] = "";
    for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        nrec++;
        cJSON *rec = cJSON_Parse(line);
        char why[512];
        if (!rec) {
            fprintf(stderr, "run_check: line %d is not JSON: %.120s\n", nrec, line);
            bad = 1;
            continue;
        }
        if (js_validate(schema, schema, rec, why, sizeof why) != 0) {
            fprintf(stderr, "run_check: line %d does not match the schema (%s): %.200s\n", nrec, why, line);
            bad = 1;
        }
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, "type");
        const char *type = cJSON_IsString(t) ? t->valuestring : "";
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(rec, "reason");
        const char *reason = cJSON_IsString(r) ? r->valuestring : "";
        if (nrec == 1)
            snprintf(first_type, sizeof first_type, "%s", type);
        snprintf(last_type, sizeof last_type, "%s", type);
        nends += strcmp(type, "end") == 0;
        for (int i = 0; i < nhas; i++)
            seen_has[i] |= matches(has[i], type, reason);
        for (int i = 0; i < nlacks; i++)
            if (matches(lacks[i], type, reason)) {
                fprintf(stderr, "run_check: line %d is a %s record, which must not appear: %.200s\n", nrec, lacks[i], line);
                bad = 1;
            }
        cJSON_Delete(rec);
    }
    for (int i = 0; i < nhas; i++)
        if (!seen_has[i]) {
            fprintf(stderr, "run_check: no %s record\n", has[i]);
            bad = 1;
        }
    if (want_ends >= 0 && nends != want_ends) {
        fprintf(stderr, "run_check: %d end records, expected %d\n", nends, want_ends);
        bad = 1;
    }
    /* serve without requests ends after its library record. */
    if (!file && nrec && (strcmp(first_type, "preamble") != 0 || (strcmp(last_type, "end") != 0 && want_ends != 0))) {
        fprintf(stderr, "run_check: stream must start with preamble and end with end (got %s ... %s)\n", first_type, last_type);
        bad = 1;
    }
    if (bad && *err)
        fprintf(stderr, "run_check: the command's stderr was:\n%s", err);
    free(out);
    free(err);
    cJSON_Delete(schema);
    return bad;
}
