/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vectors.c - reads vector files with cJSON (see vectors.h). */
#define _POSIX_C_SOURCE 200809L
#include "vectors.h"
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CB_VECTORS_DIR
#define CB_VECTORS_DIR "vectors"
#endif

#define CB_VECTOR_FORMAT "cipherbench-vectors/1"
#define CB_MAX_VECTOR_FILE (16u << 20)
#define CB_MAX_REPEATED (64u << 20)

const char *cb_vectors_path(const char *arg)
{
    if (arg)
        return arg;
    const char *env = getenv("CIPHERBENCH_VECTORS");
    if (env && *env)
        return env;
    return CB_VECTORS_DIR;
}

static char *read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "vectors: cannot open %s", path);
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = cap > CB_MAX_VECTOR_FILE ? NULL : realloc(buf, cap);
            if (!nb) {
                snprintf(err, errlen, "vectors: %s is too large (at most 16 MiB)", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "vectors: cannot read %s", path);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        /* The parser would stop at it and read a shorter file than is there. */
        snprintf(err, errlen, "vectors: %s holds a NUL byte", path);
        free(buf);
        return NULL;
    }
    return buf;
}

/* Does the JSON text hold the escape \u0000? A string with it would be cut
 * there (a digest followed by \u0000 and anything would pass), so no field
 * may hold one. Outside strings a backslash is not JSON anyway. */
static int has_nul_escape(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p != '\\')
            continue;
        if (p[1] == 'u' && p[2] == '0' && p[3] == '0' && p[4] == '0' && p[5] == '0')
            return 1;
        if (p[1])
            p++;   /* the escaped character, so that \\u0000 is not taken for one */
    }
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes field k of v (a hex string) into b. Returns 0, 1 if absent, -1 if bad. */
static int get_hex(const cJSON *v, const char *k, cb_bytes *b)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(v, k);
    memset(b, 0, sizeof *b);
    if (!f)
        return 1;
    if (!cJSON_IsString(f))
        return -1;
    const char *s = f->valuestring;
    size_t n = strlen(s);
    if (n % 2)
        return -1;
    /* never malloc(0); zeroed, so that a library reading past a short field (a nonce one
     * byte short) reads the same byte on every run */
    b->p = calloc(n / 2 + 1, 1);
    if (!b->p)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(b->p);
            b->p = NULL;
            return -1;
        }
        b->p[i] = (uint8_t)(hi << 4 | lo);
    }
    b->n = n / 2;
    b->present = 1;
    return 0;
}

static void free_vector(cb_vector *v)
{
    cb_bytes *all[] = {&v->key, &v->iv, &v->aad, &v->pt, &v->ct, &v->tag, &v->msg, &v->md, &v->mac};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]->p);
}

/* Parses one vector object; fields required by the algorithm's kind. */
static int parse_vector(const cJSON *jv, const cb_algorithm *alg, size_t idx, cb_vector *v,
                        const char *path, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(jv, "name");
    if (cJSON_IsString(name))
        snprintf(v->name, sizeof v->name, "%s", name->valuestring);
    else
        snprintf(v->name, sizeof v->name, "#%zu", idx + 1);
    if (!cJSON_IsObject(jv)) {
        snprintf(err, errlen, "vectors: %s: vector %s is not an object", path, v->name);
        return -1;
    }
    static const char *const fields[] = {"key", "iv", "aad", "pt", "ct", "tag", "msg", "md", "mac"};
    cb_bytes *dst[] = {&v->key, &v->iv, &v->aad, &v->pt, &v->ct, &v->tag, &v->msg, &v->md, &v->mac};
    for (size_t i = 0; i < 9; i++) {
        if (get_hex(jv, fields[i], dst[i]) < 0) {
            snprintf(err, errlen, "vectors: %s: vector %s: field \"%s\" is not a hex string", path, v->name, fields[i]);
            return -1;
        }
    }
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(jv, "result");
    if (result) {
        const cJSON *expect = cJSON_GetObjectItemCaseSensitive(jv, "expect");
        if (!cJSON_IsString(result) || (strcmp(result->valuestring, "valid") != 0
                                        && strcmp(result->valuestring, "invalid") != 0)) {
            snprintf(err, errlen, "vectors: %s: vector %s: \"result\" must be \"valid\" or \"invalid\"", path, v->name);
            return -1;
        }
        v->invalid = strcmp(result->valuestring, "invalid") == 0;
        if (v->invalid && (alg->kind != CB_AEAD && alg->kind != CB_MAC && alg->kind != CB_KEYWRAP)) {
            snprintf(err, errlen, "vectors: %s: vector %s: only AEAD, MAC and key-wrap vectors can be invalid", path, v->name);
            return -1;
        }
        if (v->invalid && (!cJSON_IsString(expect) || strcmp(expect->valuestring, "auth_failure") != 0)) {
            snprintf(err, errlen, "vectors: %s: vector %s: an invalid vector needs \"expect\": \"auth_failure\"", path, v->name);
            return -1;
        }
    }
    const char *need[6] = {0};
    switch (alg->kind) {
    case CB_AEAD:
        need[0] = "key"; need[1] = "iv"; need[2] = "ct"; need[3] = "tag";
        need[4] = v->invalid ? NULL : "pt";   /* an invalid one has no plaintext to give */
        break;
    case CB_CIPHER: need[0] = "key"; need[1] = "pt"; need[2] = "ct"; need[3] = alg->iv_len ? "iv" : NULL; break;
    case CB_HASH:   need[0] = "msg"; need[1] = "md"; break;
    case CB_KEYWRAP: need[0] = "key"; need[1] = "ct"; need[2] = v->invalid ? NULL : "pt"; break;
    case CB_MAC:    need[0] = "key"; need[1] = "msg"; need[2] = "mac"; need[3] = alg->per_message_nonce ? "iv" : NULL; break;
    default:
        snprintf(err, errlen, "vectors: %s: %s is a reference row and takes no vectors", path, alg->name);
        return -1;
    }
    for (size_t i = 0; need[i]; i++) {
        size_t j = 0;
        while (strcmp(fields[j], need[i]) != 0)
            j++;
        if (!dst[j]->present) {
            snprintf(err, errlen, "vectors: %s: vector %s lacks \"%s\" (needed for a %s)",
                     path, v->name, need[i], cb_kind_name(alg->kind));
            return -1;
        }
    }
    if ((alg->kind == CB_AEAD && !v->invalid) || alg->kind == CB_CIPHER) {
        if (v->pt.n != v->ct.n) {
            snprintf(err, errlen, "vectors: %s: vector %s: pt and ct differ in length", path, v->name);
            return -1;
        }
    }
    if (alg->kind == CB_KEYWRAP && !v->invalid
        && (v->pt.n < cb_keywrap_min(alg) || v->pt.n % alg->block_len || v->ct.n != cb_keywrap_out(alg, v->pt.n))) {
        snprintf(err, errlen, "vectors: %s: vector %s: key data of %zu bytes does not wrap into %zu bytes",
                 path, v->name, v->pt.n, v->ct.n);
        return -1;
    }
    const cJSON *rep = cJSON_GetObjectItemCaseSensitive(jv, "repeat");
    if (rep) {
        if (!cJSON_IsNumber(rep) || rep->valuedouble < 1 || rep->valuedouble != (double)(long)rep->valuedouble
            || !v->msg.present || v->msg.n * (double)rep->valuedouble > CB_MAX_REPEATED) {
            snprintf(err, errlen, "vectors: %s: vector %s: \"repeat\" must be a whole number >= 1 applied to msg (at most 64 MiB in all)", path, v->name);
            return -1;
        }
        size_t r = (size_t)rep->valuedouble, n = v->msg.n;
        uint8_t *p = malloc(n * r + 1);
        if (!p) {
            snprintf(err, errlen, "vectors: %s: out of memory", path);
            return -1;
        }
        for (size_t i = 0; i < r; i++)
            memcpy(p + i * n, v->msg.p, n);
        free(v->msg.p);
        v->msg.p = p;
        v->msg.n = n * r;
    }
    return 0;
}

static int load_file(const char *path, cb_vecset *set, char *err, size_t errlen)
{
    char *text = read_file(path, err, errlen);
    if (!text)
        return -1;
    if (has_nul_escape(text)) {
        snprintf(err, errlen, "vectors: %s: a string holds \\u0000 (NUL), which no field may hold", path);
        free(text);
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        snprintf(err, errlen, "vectors: %s is not valid JSON", path);
        return -1;
    }
    int rc = -1;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *algo = cJSON_GetObjectItemCaseSensitive(root, "algo");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(root, "source");
    const cJSON *vecs = cJSON_GetObjectItemCaseSensitive(root, "vectors");
    const cb_algorithm *alg = NULL;
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, CB_VECTOR_FORMAT) != 0) {
        snprintf(err, errlen, "vectors: %s: \"format\" must be \"%s\"", path, CB_VECTOR_FORMAT);
    } else if (!cJSON_IsString(algo)) {
        snprintf(err, errlen, "vectors: %s: \"algo\" must be a string", path);
    } else if (!(alg = cb_algorithm_find(algo->valuestring))) {
        snprintf(err, errlen, "vectors: %s: unknown algorithm \"%.64s\" (see cipherbench-core list)", path, algo->valuestring);
        rc = -2;
    } else if (!cJSON_IsArray(vecs) || cJSON_GetArraySize(vecs) == 0) {
        snprintf(err, errlen, "vectors: %s: \"vectors\" must be a non-empty array", path);
    } else {
        cb_vecfile *nf = realloc(set->files, (set->n + 1) * sizeof *nf);
        if (!nf) {
            snprintf(err, errlen, "vectors: out of memory");
            goto out;
        }
        set->files = nf;
        cb_vecfile *f = &set->files[set->n];
        memset(f, 0, sizeof *f);
        snprintf(f->path, sizeof f->path, "%s", path);
        f->alg = alg;
        if (cJSON_IsString(src))
            snprintf(f->source, sizeof f->source, "%s", src->valuestring);
        size_t n = (size_t)cJSON_GetArraySize(vecs);
        f->v = calloc(n, sizeof *f->v);
        if (!f->v) {
            snprintf(err, errlen, "vectors: out of memory");
            goto out;
        }
        size_t i = 0;
        const cJSON *jv;
        cJSON_ArrayForEach(jv, vecs) {
            if (parse_vector(jv, alg, i, &f->v[i], path, err, errlen) != 0) {
                free_vector(&f->v[i]);
                for (size_t j = 0; j < i; j++)
                    free_vector(&f->v[j]);
                free(f->v);
                goto out;
            }
            i++;
        }
        f->n = n;
        set->n++;
        rc = 0;
    }
out:
    cJSON_Delete(root);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(const char *path, cb_vecset *set, char *err, size_t errlen);

int cb_vectors_load(const char *path, cb_vecset *set, char *err, size_t errlen)
{
    struct stat st;
    memset(set, 0, sizeof *set);
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "vectors: %s does not exist (give a file or directory with --vectors)", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        /* A file named on its own must be usable: any problem is an error. */
        if (load_file(path, set, err, errlen) == 0)
            return 0;
        cb_vectors_free(set);
        return -1;
    }
    int rc = load_dir(path, set, err, errlen);
    /* Then the must-fail cases of its invalid/ subdirectory (vectors/README.md). */
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/invalid", path);
    if (rc == 0 && stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
        rc = load_dir(sub, set, err, errlen);
    if (rc != 0)
        cb_vectors_free(set);
    return rc;
}

/* Every *.json of one directory, in name order; a broken file is listed in
 * set->bad, one for an unknown algorithm in set->unknown. */
static int load_dir(const char *path, cb_vecset *set, char *err, size_t errlen)
{
    DIR *d = opendir(path);
    if (!d) {
        snprintf(err, errlen, "vectors: cannot read directory %s", path);
        return -1;
    }
    char **names = NULL;
    size_t n = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 || e->d_name[0] == '.')
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *nn);
        if (!nn || !(nn[n] = strdup(e->d_name))) {
            names = nn ? nn : names;
            snprintf(err, errlen, "vectors: out of memory");
            rc = -1;
            break;
        }
        names = nn;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        char why[512];
        int r = rc == 0 ? load_file(full, set, why, sizeof why) : 0;
        if (r != 0) {
            /* A file for an algorithm this build lacks is not broken. */
            char (**list)[512] = r == -2 ? &set->unknown : &set->bad;
            size_t *n = r == -2 ? &set->n_unknown : &set->n_bad;
            char (*nb)[512] = realloc(*list, (*n + 1) * sizeof *nb);
            if (!nb) {
                snprintf(err, errlen, "vectors: out of memory");
                rc = -1;
            } else {
                *list = nb;
                memcpy(nb[(*n)++], why, sizeof why);
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

void cb_vectors_free(cb_vecset *set)
{
    for (size_t i = 0; i < set->n; i++) {
        for (size_t j = 0; j < set->files[i].n; j++)
            free_vector(&set->files[i].v[j]);
        free(set->files[i].v);
    }
    free(set->files);
    free(set->bad);
    free(set->unknown);
    memset(set, 0, sizeof *set);
}
