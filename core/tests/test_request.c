/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_request.c - serve's request lines: the fields and their defaults,
 * and one clear line (never a crash) for each kind of bad request. */
#include "../request.h"
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static const cb_args serve = {.cmd = CB_CMD_SERVE, .lib = "openssl", .cpu = 1, .vectors = "/v"};

/* A refused request: -1 and one line mentioning must_mention. */
static void bad(const char *line, const char *must_mention)
{
    cb_args r;
    char err[512] = "";
    int rc = cb_request_parse(line, &serve, &r, err, sizeof err);
    if (rc != -1 || !err[0] || strchr(err, '\n') || !strstr(err, must_mention)) {
        fprintf(stderr, "request %s: expected a refusal mentioning '%s', got %d '%s'\n", line, must_mention, rc, err);
        failures++;
    }
}

int main(void)
{
    cb_args r;
    char err[512];
    /* Only what is needed: the rest from serve and bench's defaults. */
    CHECK(cb_request_parse("{\"algo\":[\"aes-128-gcm\",\"sha256\"],\"op\":\"encrypt\"}", &serve, &r, err, sizeof err) == 0);
    CHECK(r.cmd == CB_CMD_BENCH && strcmp(r.lib, "openssl") == 0 && r.cpu == 1 && strcmp(r.vectors, "/v") == 0);
    CHECK(r.n_algos == 2 && strcmp(r.algos[0], "aes-128-gcm") == 0 && strcmp(r.algos[1], "sha256") == 0);
    CHECK(strcmp(r.op, "encrypt") == 0);
    CHECK(r.n_sizes == cb_n_default_sizes && r.sizes[0] == cb_default_sizes[0] && !r.sizes_given);
    CHECK(r.samples == 0 && r.min_sample_ms == 0 && r.misalign == 0);
    /* Every field, in any order, whitespace around. */
    CHECK(cb_request_parse(" { \"misalign\": 5, \"sizes\": [16, 67108864], \"samples\": 1000, "
                           "\"min_sample_ms\": 0.5, \"op\": \"hash\", \"algo\": [\"sha256\"] } ",
                           &serve, &r, err, sizeof err) == 0);
    CHECK(r.misalign == 5 && r.n_sizes == 2 && r.sizes[1] == 67108864 && r.sizes_given);
    CHECK(r.samples == 1000 && r.min_sample_ms == 0.5 && strcmp(r.op, "hash") == 0);

    bad("", "not one JSON object");
    bad("{", "not one JSON object");
    bad("{\"algo\":[\"a\"],\"op\":\"hash\"} {}", "not one JSON object");
    bad("[1,2]", "must be a JSON object");
    bad("\"algo\"", "must be a JSON object");
    bad("{\"op\":\"hash\"}", "needs \"algo\" and \"op\"");
    bad("{\"algo\":[\"sha256\"]}", "needs \"algo\" and \"op\"");
    bad("{\"algo\":\"sha256\",\"op\":\"hash\"}", "\"algo\" must be a list");
    bad("{\"algo\":[],\"op\":\"hash\"}", "\"algo\" must be a list");
    bad("{\"algo\":[\"\"],\"op\":\"hash\"}", "algorithm names");
    bad("{\"algo\":[7],\"op\":\"hash\"}", "algorithm names");
    bad("{\"algo\":[\"sha256\"],\"op\":3}", "\"op\" must be a string");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"sizes\":[]}", "\"sizes\" must be a list");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"sizes\":[0]}", "whole number of bytes");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"sizes\":[16.5]}", "whole number of bytes");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"sizes\":[67108865]}", "whole number of bytes");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"sizes\":[\"16\"]}", "whole number of bytes");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"samples\":0}", "\"samples\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"samples\":1001}", "\"samples\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"samples\":2.5}", "\"samples\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"samples\":1e400}", "\"samples\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"min_sample_ms\":0}", "\"min_sample_ms\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"min_sample_ms\":\"1\"}", "\"min_sample_ms\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"misalign\":64}", "\"misalign\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"misalign\":-1}", "\"misalign\"");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"op\":\"mac\"}", "given twice");
    bad("{\"algo\":[\"sha256\"],\"op\":\"hash\",\"lib\":\"nettle\"}", "unknown field \"lib\"");
    /* Too many algorithms, too many sizes. */
    char big[8192];
    size_t off = (size_t)snprintf(big, sizeof big, "{\"op\":\"hash\",\"algo\":[");
    for (int i = 0; i <= CB_MAX_ALGOS; i++)
        off += (size_t)snprintf(big + off, sizeof big - off, "%s\"a\"", i ? "," : "");
    snprintf(big + off, sizeof big - off, "]}");
    bad(big, "\"algo\" must be a list of 1 to");
    off = (size_t)snprintf(big, sizeof big, "{\"op\":\"hash\",\"algo\":[\"a\"],\"sizes\":[");
    for (int i = 0; i <= CB_MAX_SIZES; i++)
        off += (size_t)snprintf(big + off, sizeof big - off, "%s16", i ? "," : "");
    snprintf(big + off, sizeof big - off, "]}");
    bad(big, "\"sizes\" must be a list of 1 to");
    /* A good request after bad ones still parses. */
    CHECK(cb_request_parse("{\"algo\":[\"null\"],\"op\":\"ref\",\"sizes\":[64]}", &serve, &r, err, sizeof err) == 0);
    CHECK(r.n_sizes == 1 && strcmp(r.algos[0], "null") == 0);
    cb_request_free();
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}
