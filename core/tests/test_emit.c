/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_emit.c - every record type is written as one flushed line that
 * parses back to what was given and matches core/protocol/schema.json. */
#include "../emit.h"
#include "jsonschema.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static const char *fake_version(void) { return "Fake 1.0 \"quoted\"\n"; }
static unsigned fake_caps(void) { return CB_CAP_AES_HW | CB_CAP_VECTOR; }
static const cb_op no_ops[] = {{NULL, NULL, NULL, NULL, NULL}};
static const cb_backend fake = {"fake", fake_version, NULL, fake_caps, NULL, no_ops, 0, NULL, NULL, NULL};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_emit SCHEMA\n");
        return 2;
    }
    char *text = js_read_file(argv[1]);
    cJSON *schema = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!schema) {
        fprintf(stderr, "cannot read schema %s\n", argv[1]);
        return 1;
    }
    FILE *f = tmpfile();
    cb_emit_stream = f;

    const char *flags[] = {"aes", "avx2"};
    cb_preamble p = {"bench", "Test CPU", flags, 2, 0, NULL, 0, 0, NULL};   /* unknown frequency */
    CHECK(cb_emit_preamble(&p) == 0);
    CHECK(cb_emit_library(&fake) == 0);
    CHECK(cb_emit_algorithm("fake", cb_algorithm_find("aes-128-gcm")) == 0);
    CHECK(cb_emit_kat("fake", "sha256", 3, 1, 0, "FIPS 180-4", "TC1: digest differs") == 0);
    const char *libs[] = {"a", "b"};
    CHECK(cb_emit_differential("sha256", libs, 2, 1, NULL) == 0);
    uint64_t wall[] = {5000000000ull, 1, 123456789012345ull}, cpu[] = {4999999999ull, 0, 2};
    CHECK(cb_emit_point("fake", "sha256", "hash", 16384, 1200, wall, cpu, 3, 7, NULL) == 0);
    /* A point with its group size and the clock's probes. */
    uint64_t fw[] = {20000, 90000}, fc[] = {20100, 30000};
    cb_point_extra x = {2, 64000, fw, fc, 2, NULL};
    CHECK(cb_emit_point("fake", "sha256", "hash", 64, 1200, wall, cpu, 3, 0, &x) == 0);
    /* The preamble and end with the probes of a measured clock. */
    cb_clock_last.cycles = 64000;
    cb_clock_last.n = 2;
    memcpy(cb_clock_last.wall_ns, fw, sizeof fw);
    memcpy(cb_clock_last.cpu_ns, fc, sizeof fc);
    cb_clock_last.freq_hz = cb_clock_freq_hz(64000, fw, fc, 2);
    /* The probe that lost the CPU (30 us of 90 us) is left out: 64000 cycles in 20 us. */
    CHECK(fabs(cb_clock_last.freq_hz - 3.2e9) < 1);
    const char *const commands[] = {"list", "kat", "bench", "serve", "tls", NULL};
    cb_preamble p2 = {"serve", "Test CPU", flags, 2, cb_clock_last.freq_hz, &cb_clock_last, 25, 300, commands};
    CHECK(cb_emit_preamble(&p2) == 0);
    CHECK(cb_emit_end(cb_clock_last.freq_hz, 5) == 0);
    CHECK(cb_emit_error("fake", "rc4", NULL, "kat_failed", "no vectors") == 0);
    CHECK(cb_emit_error("fake", NULL, NULL, "bad_request", "unknown field \"x\"") == 0);
    CHECK(cb_emit_end(2.9e9, 123456789) == 0);

    const char *types[] = {"preamble", "library", "algorithm", "kat", "differential", "point", "point",
                           "preamble", "end", "error", "error", "end"};
    rewind(f);
    char line[65536];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        CHECK(len > 1 && line[len - 1] == '\n');   /* whole line, newline-terminated */
        cJSON *r = cJSON_Parse(line);
        CHECK(r != NULL);
        if (!r)
            continue;
        char why[512];
        if (js_validate(schema, schema, r, why, sizeof why) != 0) {
            fprintf(stderr, "line %d fails the schema: %s\n%s", n + 1, why, line);
            failures++;
        }
        CHECK(cJSON_GetObjectItem(r, "v")->valuedouble == CB_PROTOCOL_VERSION);
        CHECK(n < 12 && strcmp(cJSON_GetObjectItem(r, "type")->valuestring, types[n]) == 0);
        if (n == 0)
            CHECK(cJSON_IsNull(cJSON_GetObjectItem(r, "freq_hz")));
        if (n == 1) {
            CHECK(strcmp(cJSON_GetObjectItem(r, "version")->valuestring, "Fake 1.0 \"quoted\"\n") == 0);
            CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(r, "caps")) == 2);
            CHECK(cJSON_IsNull(cJSON_GetObjectItem(r, "provider")));
        }
        if (n == 5) {
            /* Nanosecond counts beyond 32 bits (up to 15 digits, 11 days) come back exactly. */
            cJSON *w = cJSON_GetObjectItem(r, "wall_ns");
            CHECK(cJSON_GetArrayItem(w, 0)->valuedouble == 5000000000.0);
            CHECK(cJSON_GetArrayItem(w, 2)->valuedouble == 123456789012345.0);
            CHECK(strstr(line, "5000000000") != NULL && strstr(line, "e+") == NULL);
        }
        if (n == 5)   /* no extra: none of the optional fields */
            CHECK(!cJSON_GetObjectItem(r, "best_of") && !cJSON_GetObjectItem(r, "freq_cycles"));
        if (n == 6) {
            CHECK(cJSON_GetObjectItem(r, "best_of")->valuedouble == 2);
            CHECK(cJSON_GetObjectItem(r, "freq_cycles")->valuedouble == 64000);
            CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(r, "freq_wall_ns")) == 2);
            CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "freq_cpu_ns"), 1)->valuedouble == 30000);
        }
        if (n == 7) {
            CHECK(strcmp(cJSON_GetObjectItem(r, "cpu_clock")->valuestring, "CLOCK_THREAD_CPUTIME_ID") == 0);
            CHECK(cJSON_GetObjectItem(r, "timer_ns")->valuedouble == 25);
            CHECK(cJSON_GetObjectItem(r, "cpu_timer_ns")->valuedouble == 300);
            CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(r, "freq_wall_ns")) == 2);
            CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(r, "commands")) == 5);
        }
        if (n == 0)
            CHECK(!cJSON_GetObjectItem(r, "commands"));
        if (n == 10)   /* a request serve refused: no algorithm, no op */
            CHECK(cJSON_IsNull(cJSON_GetObjectItem(r, "algo")) && cJSON_IsNull(cJSON_GetObjectItem(r, "op")));
        if (n == 8)
            CHECK(cJSON_GetObjectItem(r, "freq_cycles")->valuedouble == 64000);
        if (n == 11)   /* another frequency than the probes gave: no probes */
            CHECK(!cJSON_GetObjectItem(r, "freq_cycles"));
        if (n == 9)
            CHECK(cJSON_IsNull(cJSON_GetObjectItem(r, "op")));
        cJSON_Delete(r);
        n++;
    }
    CHECK(n == 12);

    /* The schema is not a rubber stamp: wrong records are refused. */
    const char *wrong[] = {
        "{\"v\":2,\"type\":\"end\",\"freq_hz\":null,\"elapsed_ns\":1}",
        "{\"v\":1,\"type\":\"end\",\"freq_hz\":null}",
        "{\"v\":1,\"type\":\"end\",\"freq_hz\":null,\"elapsed_ns\":1,\"extra\":0}",
        "{\"v\":1,\"type\":\"error\",\"lib\":\"x\",\"algo\":\"y\",\"op\":\"hash\",\"reason\":\"oops\",\"message\":\"\"}",
        "{\"v\":1,\"type\":\"point\",\"lib\":\"x\",\"algo\":\"y\",\"op\":\"hash\",\"size\":16,\"iters\":1,\"wall_ns\":[1.5],\"cpu_ns\":[1],\"misalign\":0}",
        "{\"v\":1,\"type\":\"nope\"}",
        "{\"v\":1,\"type\":\"end\",\"freq_hz\":null,\"elapsed_ns\":1,\"freq_cycles\":0,\"freq_wall_ns\":[1],\"freq_cpu_ns\":[1]}",
        "{\"v\":1,\"type\":\"point\",\"lib\":\"x\",\"algo\":\"y\",\"op\":\"hash\",\"size\":16,\"iters\":1,\"wall_ns\":[1],\"cpu_ns\":[1],\"misalign\":0,\"best_of\":0}",
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        cJSON *r = cJSON_Parse(wrong[i]);
        char why[512];
        CHECK(r && js_validate(schema, schema, r, why, sizeof why) != 0);
        cJSON_Delete(r);
    }

    fclose(f);
    cJSON_Delete(schema);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
