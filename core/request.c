/* SPDX-License-Identifier: GPL-3.0-or-later */
/* request.c - parses the request lines of `serve` (request.h). */
#include "request.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The fields of a request; each may appear once. */
typedef enum { F_ALGO, F_OP, F_SIZES, F_SAMPLES, F_MIN_SAMPLE_MS, F_MISALIGN } field_id;
static const struct { const char *name; field_id id; } fields[] = {
    {"algo", F_ALGO}, {"op", F_OP}, {"sizes", F_SIZES}, {"samples", F_SAMPLES},
    {"min_sample_ms", F_MIN_SAMPLE_MS}, {"misalign", F_MISALIGN},
};
#define N_FIELDS (sizeof fields / sizeof fields[0])
static const char valid_fields[] = "algo, op, sizes, samples, min_sample_ms, misalign";

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* A JSON number that is a whole number in [lo, hi]. */
static int whole(const cJSON *v, double lo, double hi, double *out)
{
    if (!cJSON_IsNumber(v))
        return -1;
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || d < lo || d > hi)
        return -1;
    *out = d;
    return 0;
}

static int parse_algo(const cJSON *v, cb_args *req, char *err, size_t errlen)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > CB_MAX_ALGOS)
        return refuse(err, errlen, "\"algo\" must be a list of 1 to %d algorithm names", CB_MAX_ALGOS);
    size_t off = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return refuse(err, errlen, "\"algo\" must be a list of algorithm names (non-empty strings)");
        size_t len = strlen(e->valuestring);
        if (off + len + 1 > sizeof req->algo_buf)
            return refuse(err, errlen, "\"algo\": the names are too long together");
        memcpy(req->algo_buf + off, e->valuestring, len + 1);
        req->algos[req->n_algos++] = req->algo_buf + off;
        off += len + 1;
    }
    return 0;
}

static int parse_sizes(const cJSON *v, cb_args *req, char *err, size_t errlen)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > CB_MAX_SIZES)
        return refuse(err, errlen, "\"sizes\" must be a list of 1 to %d sizes", CB_MAX_SIZES);
    req->n_sizes = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        double d;
        if (whole(e, 1, CB_MAX_SIZE, &d) != 0)
            return refuse(err, errlen, "\"sizes\": every size must be a whole number of bytes from 1 to %u",
                          CB_MAX_SIZE);
        req->sizes[req->n_sizes++] = (size_t)d;
    }
    req->sizes_given = 1;
    return 0;
}

static int parse_field(field_id id, const cJSON *v, cb_args *req, char *err, size_t errlen)
{
    double d;
    switch (id) {
    case F_ALGO:
        return parse_algo(v, req, err, errlen);
    case F_OP:
        if (!cJSON_IsString(v) || !v->valuestring[0])
            return refuse(err, errlen, "\"op\" must be a string: encrypt, decrypt, hash, mac or ref");
        req->op = v->valuestring;
        return 0;
    case F_SIZES:
        return parse_sizes(v, req, err, errlen);
    case F_SAMPLES:
        if (whole(v, 1, CB_MAX_SAMPLES, &d) != 0)
            return refuse(err, errlen, "\"samples\" must be a whole number from 1 to %d", CB_MAX_SAMPLES);
        req->samples = (int)d;
        return 0;
    case F_MIN_SAMPLE_MS:
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= CB_MIN_SAMPLE_MS_LO && v->valuedouble <= CB_MIN_SAMPLE_MS_HI))
            return refuse(err, errlen, "\"min_sample_ms\" must be milliseconds from %g to %g",
                          CB_MIN_SAMPLE_MS_LO, CB_MIN_SAMPLE_MS_HI);
        req->min_sample_ms = v->valuedouble;
        return 0;
    case F_MISALIGN:
        if (whole(v, 0, CB_MAX_MISALIGN, &d) != 0)
            return refuse(err, errlen, "\"misalign\" must be a whole number of bytes from 0 to %d", CB_MAX_MISALIGN);
        req->misalign = (size_t)d;
        return 0;
    }
    return refuse(err, errlen, "internal: unhandled field");
}

/* The length of the valid UTF-8 character at s (n bytes left), or 0. */
static size_t utf8_char(const unsigned char *s, size_t n)
{
    size_t len;
    unsigned min;
    unsigned cp;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        len = 2, min = 0x80, cp = s[0] & 0x1f;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        len = 3, min = 0x800, cp = s[0] & 0x0f;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        len = 4, min = 0x10000, cp = s[0] & 0x07;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

int cb_request_text(const char *line, size_t len, char *err, size_t errlen)
{
    const unsigned char *s = (const unsigned char *)line;
    for (size_t i = 0; i < len;) {
        if (s[i] == 0)
            return refuse(err, errlen, "the request has a NUL byte (byte %zu): it must be one "
                          "line of JSON text", i + 1);
        size_t step = utf8_char(s + i, len - i);
        if (step == 0)
            return refuse(err, errlen, "the request is not UTF-8 text (byte %zu is 0x%02x): it "
                          "must be one line of JSON text", i + 1, s[i]);
        i += step;
    }
    return 0;
}

void cb_utf8_trim(char *s)
{
    size_t n = strlen(s);
    unsigned char *u = (unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t step = utf8_char(u + i, n - i);
        if (step)
            i += step;
        else if (n - i < 4 && u[i] >= 0xc2 && u[i] <= 0xf4) {
            s[i] = '\0';   /* an incomplete last character: cut before it */
            return;
        } else
            u[i++] = '?';
    }
}

/* The request's JSON, parsed with req's strings pointing into it: kept
 * until the next request. */
static cJSON *current;

int cb_request_parse(const char *line, const cb_args *serve, cb_args *req,
                     char *err, size_t errlen)
{
    memset(req, 0, sizeof *req);
    req->cmd = CB_CMD_BENCH;
    req->lib = serve->lib;
    req->cpu = serve->cpu;
    req->vectors = serve->vectors;
    req->n_sizes = cb_n_default_sizes;
    memcpy(req->sizes, cb_default_sizes, cb_n_default_sizes * sizeof cb_default_sizes[0]);
    cJSON_Delete(current);
    const char *end = NULL;
    current = cJSON_ParseWithOpts(line, &end, 1);
    if (!current)
        return refuse(err, errlen, "the request is not one JSON object; valid: {\"algo\":[...],\"op\":...} "
                      "with %s", valid_fields);
    if (!cJSON_IsObject(current))
        return refuse(err, errlen, "the request must be a JSON object with %s", valid_fields);
    unsigned seen = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, current) {
        size_t k = 0;
        while (k < N_FIELDS && strcmp(fields[k].name, v->string) != 0)
            k++;
        if (k == N_FIELDS)
            return refuse(err, errlen, "unknown field \"%.64s\"; valid: %s", v->string, valid_fields);
        if (seen & (1u << k))
            return refuse(err, errlen, "field \"%s\" given twice", fields[k].name);
        seen |= 1u << k;
        if (parse_field(fields[k].id, v, req, err, errlen) != 0)
            return -1;
    }
    if (!(seen & (1u << F_ALGO)) || !(seen & (1u << F_OP)))
        return refuse(err, errlen, "the request needs \"algo\" and \"op\"");
    return 0;
}

void cb_request_free(void)
{
    cJSON_Delete(current);
    current = NULL;
}
