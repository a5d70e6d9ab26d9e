/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tls.h - the `tls` command: the record layer and handshakes of a real TLS
 * library, client and server in one process over a socket pair.
 *
 * A TLS backend is one constant cb_tls_lib table (tls_openssl.c,
 * tls_gnutls.c). The command (tls_cmd.c) owns the sampling and the output;
 * a backend only knows how to make a certificate, set up the two ends for
 * one configuration, connect them, and move bytes. Everything runs on one
 * thread with non-blocking sockets: a write by the server is followed by the
 * client's reads, so a sample is the cost of both ends (encrypt, kernel copy,
 * decrypt) on one core. */
#ifndef CB_TLS_H
#define CB_TLS_H
#include <stddef.h>
#include <stdint.h>

/* Certificate (and key) types of the throw-away certificates. */
typedef enum { CB_CERT_RSA2048, CB_CERT_RSA3072, CB_CERT_P256, CB_CERT_ED25519, CB_CERT_N } cb_tls_cert_type;

/* Key exchange groups. */
typedef enum { CB_GROUP_X25519, CB_GROUP_P256, CB_GROUP_P384, CB_GROUP_X448, CB_GROUP_FFDHE2048, CB_GROUP_N } cb_tls_group;

extern const char *const cb_tls_cert_names[CB_CERT_N];   /* "rsa2048", ... */
extern const char *const cb_tls_group_names[CB_GROUP_N]; /* "x25519", ... */

/* One cipher suite, named in every form a user meets. */
typedef struct cb_tls_suite {
    const char *iana;      /* TLS_AES_128_GCM_SHA256: the name in algo */
    int tls13;             /* 1: TLS 1.3 suite; 0: TLS 1.2 */
    const char *kx;        /* "any" (TLS 1.3), "ECDHE-RSA", "RSA" */
    const char *cipher;    /* canonical bulk cipher (algorithms.c names) */
    const char *mac;       /* "aead", "hmac-sha1", "hmac-sha256", "hmac-sha384", "hmac-md5" */
    const char *openssl;   /* OpenSSL suite name (SSL_CTX_set_ciphersuites / cipher list) */
    const char *gnutls;    /* GnuTLS suite name as gnutls-cli --list prints it */
    const char *gnutls_cipher, *gnutls_mac, *gnutls_kx;  /* priority-string items */
    int legacy;            /* a suite libraries disable by default (3DES, RC4) */
} cb_tls_suite;

/* Every suite cipherbench knows, ended by a row with iana == NULL. */
extern const cb_tls_suite cb_tls_suites[];
const cb_tls_suite *cb_tls_suite_find(const char *name);

/* What one pair of endpoints is set up for. */
typedef struct cb_tls_config {
    const cb_tls_suite *suite;
    cb_tls_group group;
    cb_tls_cert_type cert_type;
    const void *cert;      /* from make_cert() of the same backend */
    int resume;            /* the server issues tickets; the client keeps one */
} cb_tls_config;

/* What a connection negotiated, as the library reports it. */
typedef struct cb_tls_info {
    char suite[96];        /* the library's name of the suite */
    char proto[16];        /* "TLS1.3", "TLS1.2" */
    char group[32];        /* the library's name of the group; "" if it does not say */
    int resumed;
} cb_tls_info;

/* Status of backend calls: CB_TLS_OK, CB_TLS_REFUSED (the library will not
 * do this configuration: err holds its reason), CB_TLS_FAIL (anything else). */
enum { CB_TLS_OK = 0, CB_TLS_REFUSED = 1, CB_TLS_FAIL = 2 };

typedef struct cb_tls_lib {
    const char *name;                              /* "openssl", "gnutls" */
    const char *(*version)(void);
    int (*global_init)(void);                      /* 0 on success */
    /* A self-signed certificate with a fresh key of type t, CN cipherbench.test. */
    int (*make_cert)(cb_tls_cert_type t, void **cert, char *err, size_t errlen);
    void (*free_cert)(void *cert);
    /* Both ends' contexts (credentials, priorities) for one configuration. */
    int (*ep_new)(void **ep, const cb_tls_config *c, char *err, size_t errlen);
    void (*ep_free)(void *ep);
    /* A new socket pair, a client and a server session on it, the handshake
     * run to the end (resuming the kept session when the endpoint has one). */
    int (*conn_new)(void *ep, void **conn, char *err, size_t errlen);
    void (*conn_info)(void *conn, cb_tls_info *info);
    /* Keeps the client's session of conn for resumption (reads the ticket). */
    int (*keep_session)(void *ep, void *conn, char *err, size_t errlen);
    /* Server writes: bytes accepted, 0 if the socket is full, -1 on error. */
    long (*send)(void *conn, const uint8_t *p, size_t n);
    /* Client reads: bytes read, 0 if nothing is waiting, -1 on error. */
    long (*recv)(void *conn, uint8_t *p, size_t n);
    void (*conn_free)(void *conn);
} cb_tls_lib;

/* `cipherbench-core tls ...`; returns the exit status. */
int cb_cmd_tls(int argc, char **argv);

#endif
