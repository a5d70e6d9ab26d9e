/* SPDX-License-Identifier: GPL-3.0-or-later */
/* suites.c - the cipher suites, groups and certificate types of `tls`. */
#include "tls.h"
#include <string.h>
#include <strings.h>

const char *const cb_tls_cert_names[CB_CERT_N] = {"rsa2048", "rsa3072", "ecdsa-p256", "ed25519"};
const char *const cb_tls_group_names[CB_GROUP_N] = {"x25519", "p256", "p384", "x448", "ffdhe2048"};

/* TLS 1.3: every suite of RFC 8446. TLS 1.2: the common ECDHE-RSA ones, the
 * static-RSA Camellia ones, and the legacy ones (3DES, RC4) that a library may
 * still be made to negotiate. Transfers use an RSA-2048 certificate, so every
 * TLS 1.2 suite here authenticates with RSA. */
const cb_tls_suite cb_tls_suites[] = {
    /* iana, tls13, kx, cipher, mac, openssl, gnutls, gnutls priority: cipher, mac, kx, legacy */
    {"TLS_AES_128_GCM_SHA256", 1, "any", "aes-128-gcm", "aead", "TLS_AES_128_GCM_SHA256",
     "TLS_AES_128_GCM_SHA256", "AES-128-GCM", "AEAD", NULL, 0},
    {"TLS_AES_256_GCM_SHA384", 1, "any", "aes-256-gcm", "aead", "TLS_AES_256_GCM_SHA384",
     "TLS_AES_256_GCM_SHA384", "AES-256-GCM", "AEAD", NULL, 0},
    {"TLS_CHACHA20_POLY1305_SHA256", 1, "any", "chacha20-poly1305", "aead", "TLS_CHACHA20_POLY1305_SHA256",
     "TLS_CHACHA20_POLY1305_SHA256", "CHACHA20-POLY1305", "AEAD", NULL, 0},
    {"TLS_AES_128_CCM_SHA256", 1, "any", "aes-128-ccm", "aead", "TLS_AES_128_CCM_SHA256",
     "TLS_AES_128_CCM_SHA256", "AES-128-CCM", "AEAD", NULL, 0},
    {"TLS_AES_128_CCM_8_SHA256", 1, "any", "aes-128-ccm", "aead-8", "TLS_AES_128_CCM_8_SHA256",
     "TLS_AES_128_CCM_8_SHA256", "AES-128-CCM-8", "AEAD", NULL, 0},
    {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", 0, "ECDHE-RSA", "aes-128-gcm", "aead", "ECDHE-RSA-AES128-GCM-SHA256",
     "TLS_ECDHE_RSA_AES_128_GCM_SHA256", "AES-128-GCM", "AEAD", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", 0, "ECDHE-RSA", "aes-256-gcm", "aead", "ECDHE-RSA-AES256-GCM-SHA384",
     "TLS_ECDHE_RSA_AES_256_GCM_SHA384", "AES-256-GCM", "AEAD", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", 0, "ECDHE-RSA", "chacha20-poly1305", "aead", "ECDHE-RSA-CHACHA20-POLY1305",
     "TLS_ECDHE_RSA_CHACHA20_POLY1305", "CHACHA20-POLY1305", "AEAD", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", 0, "ECDHE-RSA", "aes-128-cbc", "hmac-sha1", "ECDHE-RSA-AES128-SHA",
     "TLS_ECDHE_RSA_AES_128_CBC_SHA1", "AES-128-CBC", "SHA1", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", 0, "ECDHE-RSA", "aes-256-cbc", "hmac-sha1", "ECDHE-RSA-AES256-SHA",
     "TLS_ECDHE_RSA_AES_256_CBC_SHA1", "AES-256-CBC", "SHA1", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", 0, "ECDHE-RSA", "aes-128-cbc", "hmac-sha256", "ECDHE-RSA-AES128-SHA256",
     "TLS_ECDHE_RSA_AES_128_CBC_SHA256", "AES-128-CBC", "SHA256", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", 0, "ECDHE-RSA", "aes-256-cbc", "hmac-sha384", "ECDHE-RSA-AES256-SHA384",
     "TLS_ECDHE_RSA_AES_256_CBC_SHA384", "AES-256-CBC", "SHA384", "ECDHE-RSA", 0},
    {"TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", 0, "ECDHE-RSA", "camellia-128-cbc", "hmac-sha256", "ECDHE-RSA-CAMELLIA128-SHA256",
     "TLS_ECDHE_RSA_CAMELLIA_128_CBC_SHA256", "CAMELLIA-128-CBC", "SHA256", "ECDHE-RSA", 0},
    {"TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", 0, "RSA", "camellia-128-cbc", "hmac-sha1", "CAMELLIA128-SHA",
     "TLS_RSA_CAMELLIA_128_CBC_SHA1", "CAMELLIA-128-CBC", "SHA1", "RSA", 0},
    {"TLS_RSA_WITH_CAMELLIA_256_CBC_SHA", 0, "RSA", "camellia-256-cbc", "hmac-sha1", "CAMELLIA256-SHA",
     "TLS_RSA_CAMELLIA_256_CBC_SHA1", "CAMELLIA-256-CBC", "SHA1", "RSA", 0},
    {"TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", 0, "ECDHE-RSA", "3des-cbc", "hmac-sha1", "ECDHE-RSA-DES-CBC3-SHA",
     "TLS_ECDHE_RSA_3DES_EDE_CBC_SHA1", "3DES-CBC", "SHA1", "ECDHE-RSA", 1},
    {"TLS_RSA_WITH_3DES_EDE_CBC_SHA", 0, "RSA", "3des-cbc", "hmac-sha1", "DES-CBC3-SHA",
     "TLS_RSA_3DES_EDE_CBC_SHA1", "3DES-CBC", "SHA1", "RSA", 1},
    {"TLS_ECDHE_RSA_WITH_RC4_128_SHA", 0, "ECDHE-RSA", "rc4", "hmac-sha1", "ECDHE-RSA-RC4-SHA",
     "TLS_ECDHE_RSA_ARCFOUR_128_SHA1", "ARCFOUR-128", "SHA1", "ECDHE-RSA", 1},
    {"TLS_RSA_WITH_RC4_128_SHA", 0, "RSA", "rc4", "hmac-sha1", "RC4-SHA",
     "TLS_RSA_ARCFOUR_128_SHA1", "ARCFOUR-128", "SHA1", "RSA", 1},
    {"TLS_RSA_WITH_RC4_128_MD5", 0, "RSA", "rc4", "hmac-md5", "RC4-MD5",
     "TLS_RSA_ARCFOUR_128_MD5", "ARCFOUR-128", "MD5", "RSA", 1},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0},
};

/* By IANA, OpenSSL or GnuTLS name, case-insensitively. */
const cb_tls_suite *cb_tls_suite_find(const char *name)
{
    for (const cb_tls_suite *s = cb_tls_suites; s->iana; s++)
        if (strcasecmp(name, s->iana) == 0 || strcasecmp(name, s->openssl) == 0
            || strcasecmp(name, s->gnutls) == 0)
            return s;
    return NULL;
}
