/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jsonschema.c - see jsonschema.h. */
#include "jsonschema.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *js_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb;
            }
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static int type_is(const cJSON *inst, const char *t)
{
    if (strcmp(t, "object") == 0) return cJSON_IsObject(inst);
    if (strcmp(t, "array") == 0) return cJSON_IsArray(inst);
    if (strcmp(t, "string") == 0) return cJSON_IsString(inst);
    if (strcmp(t, "boolean") == 0) return cJSON_IsBool(inst);
    if (strcmp(t, "null") == 0) return cJSON_IsNull(inst);
    if (strcmp(t, "number") == 0) return cJSON_IsNumber(inst);
    if (strcmp(t, "integer") == 0)
        return cJSON_IsNumber(inst) && inst->valuedouble == floor(inst->valuedouble);
    return 0;
}

static int fail(char *err, size_t errlen, const char *what, const char *where)
{
    snprintf(err, errlen, "%s%s%s", where ? where : "", where ? ": " : "", what);
    return -1;
}

int js_validate(const cJSON *root, const cJSON *schema, const cJSON *inst, char *err, size_t errlen)
{
    const cJSON *k;
    if (cJSON_IsBool(schema))
        return cJSON_IsTrue(schema) ? 0 : fail(err, errlen, "not allowed", NULL);
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "$ref"))) {
        const char *ref = k->valuestring, *pfx = "#/$defs/";
        if (!ref || strncmp(ref, pfx, strlen(pfx)) != 0)
            return fail(err, errlen, "unsupported $ref", ref);
        const cJSON *defs = cJSON_GetObjectItemCaseSensitive(root, "$defs");
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(defs, ref + strlen(pfx));
        if (!target)
            return fail(err, errlen, "dangling $ref", ref);
        if (js_validate(root, target, inst, err, errlen) != 0)
            return -1;
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "oneOf"))) {
        int matches = 0;
        char sub[256], first[256] = "";
        const cJSON *s;
        cJSON_ArrayForEach(s, k) {
            if (js_validate(root, s, inst, sub, sizeof sub) == 0)
                matches++;
            else if (!first[0] || strlen(sub) > 0)
                snprintf(first, sizeof first, "%s", sub);
        }
        if (matches != 1) {
            char m[320];
            snprintf(m, sizeof m, "matches %d of oneOf (one must; last reason: %s)", matches, first);
            return fail(err, errlen, m, NULL);
        }
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "type"))) {
        int ok = 0;
        if (cJSON_IsString(k))
            ok = type_is(inst, k->valuestring);
        else {
            const cJSON *t;
            cJSON_ArrayForEach(t, k) ok |= type_is(inst, t->valuestring);
        }
        if (!ok)
            return fail(err, errlen, "wrong type", NULL);
    }
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "const")) && !cJSON_Compare(k, inst, 1))
        return fail(err, errlen, "not the constant required", NULL);
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "enum"))) {
        int ok = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, k) ok |= cJSON_Compare(e, inst, 1);
        if (!ok)
            return fail(err, errlen, "not one of the enum values", cJSON_IsString(inst) ? inst->valuestring : NULL);
    }
    if (cJSON_IsNumber(inst)) {
        double d = inst->valuedouble;
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "minimum")) && d < k->valuedouble)
            return fail(err, errlen, "below minimum", NULL);
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "maximum")) && d > k->valuedouble)
            return fail(err, errlen, "above maximum", NULL);
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "exclusiveMinimum")) && d <= k->valuedouble)
            return fail(err, errlen, "not above exclusiveMinimum", NULL);
    }
    if (cJSON_IsString(inst) && (k = cJSON_GetObjectItemCaseSensitive(schema, "minLength"))
        && strlen(inst->valuestring) < (size_t)k->valuedouble)
        return fail(err, errlen, "string too short", NULL);
    if (cJSON_IsArray(inst)) {
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "minItems")) && cJSON_GetArraySize(inst) < k->valueint)
            return fail(err, errlen, "too few items", NULL);
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "items"))) {
            const cJSON *it;
            cJSON_ArrayForEach(it, inst) if (js_validate(root, k, it, err, errlen) != 0) return -1;
        }
    }
    if (cJSON_IsObject(inst)) {
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
        if ((k = cJSON_GetObjectItemCaseSensitive(schema, "required"))) {
            const cJSON *r;
            cJSON_ArrayForEach(r, k) if (!cJSON_GetObjectItemCaseSensitive(inst, r->valuestring))
                return fail(err, errlen, "required property missing", r->valuestring);
        }
        const cJSON *addl = cJSON_GetObjectItemCaseSensitive(schema, "additionalProperties");
        const cJSON *m;
        cJSON_ArrayForEach(m, inst) {
            const cJSON *ps = props ? cJSON_GetObjectItemCaseSensitive(props, m->string) : NULL;
            if (ps) {
                char sub[256];
                if (js_validate(root, ps, m, sub, sizeof sub) != 0)
                    return fail(err, errlen, sub, m->string);
            } else if (addl && js_validate(root, addl, m, err, errlen) != 0) {
                return fail(err, errlen, "property not allowed", m->string);
            }
        }
    }
    return 0;
}
