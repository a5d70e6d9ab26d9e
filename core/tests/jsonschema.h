/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jsonschema.h - a small JSON Schema validator for the tests: the keywords
 * core/protocol/schema.json uses ($ref to #/$defs, oneOf, type, const, enum,
 * required, properties, additionalProperties, items, minItems, minLength,
 * minimum, maximum, exclusiveMinimum). Other keywords are ignored. */
#ifndef CB_TEST_JSONSCHEMA_H
#define CB_TEST_JSONSCHEMA_H
#include <stddef.h>
#include <cjson/cJSON.h>

/* 0 if inst matches schema (resolved against root), else -1 with why in err. */
int js_validate(const cJSON *root, const cJSON *schema, const cJSON *inst, char *err, size_t errlen);

/* Reads a whole file into a malloc'ed string, NULL on failure. */
char *js_read_file(const char *path);

#endif
