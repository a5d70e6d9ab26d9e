/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tls_openssl.c - the `tls` backend over OpenSSL's libssl: SSL_CTX pairs for
 * one suite/group/certificate, client and server SSL objects on a
 * non-blocking socket pair. */
#define _GNU_SOURCE
#include "tls.h"
#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HOSTNAME "cipherbench.test"
#define MAX_ROUNDS 1000   /* handshake flights; a real one needs a handful */

typedef struct ocert { X509 *x; EVP_PKEY *pk; } ocert;
typedef struct oep { SSL_CTX *srv, *cli; SSL_SESSION *sess; int resume; } oep;
typedef struct oconn { SSL *c, *s; int fd[2]; } oconn;

/* The first queued OpenSSL error (the root cause) as text; clears the queue. */
static void err_text(const char *what, char *err, size_t errlen)
{
    unsigned long e = ERR_peek_error();
    char buf[256] = "no error queued";
    if (e)
        ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    snprintf(err, errlen, "%s: %s", what, buf);
}

static const char *o_version(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}

static int o_init(void)
{
    return OPENSSL_init_ssl(0, NULL) == 1 ? 0 : -1;
}

static int o_make_cert(cb_tls_cert_type t, void **out, char *err, size_t errlen)
{
    EVP_PKEY *pk = NULL;
    switch (t) {
    case CB_CERT_RSA2048: pk = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048); break;
    case CB_CERT_RSA3072: pk = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)3072); break;
    case CB_CERT_P256:    pk = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); break;
    case CB_CERT_ED25519: pk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519"); break;
    default: break;
    }
    if (!pk) {
        err_text("key generation", err, errlen);
        return CB_TLS_REFUSED;
    }
    X509 *x = X509_new();
    X509_NAME *n = x ? X509_get_subject_name(x) : NULL;
    int ok = x && n && X509_set_version(x, 2)
             && ASN1_INTEGER_set(X509_get_serialNumber(x), 1)
             && X509_gmtime_adj(X509_getm_notBefore(x), -3600)
             && X509_gmtime_adj(X509_getm_notAfter(x), 7 * 86400)
             && X509_set_pubkey(x, pk)
             && X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)HOSTNAME, -1, -1, 0)
             && X509_set_issuer_name(x, n)
             /* Ed25519 signs without a separate digest. */
             && X509_sign(x, pk, t == CB_CERT_ED25519 ? NULL : EVP_sha256()) > 0;
    if (!ok) {
        err_text("self-signing the certificate", err, errlen);
        X509_free(x);
        EVP_PKEY_free(pk);
        return CB_TLS_FAIL;
    }
    ocert *c = malloc(sizeof *c);
    if (!c) {
        X509_free(x);
        EVP_PKEY_free(pk);
        snprintf(err, errlen, "out of memory");
        return CB_TLS_FAIL;
    }
    c->x = x;
    c->pk = pk;
    *out = c;
    return CB_TLS_OK;
}

static void o_free_cert(void *p)
{
    ocert *c = p;
    if (!c)
        return;
    X509_free(c->x);
    EVP_PKEY_free(c->pk);
    free(c);
}

static void o_ep_free(void *p)
{
    oep *e = p;
    if (!e)
        return;
    SSL_SESSION_free(e->sess);
    SSL_CTX_free(e->srv);
    SSL_CTX_free(e->cli);
    free(e);
}

static const char *const group_list[CB_GROUP_N] = {"X25519", "P-256", "P-384", "X448", "ffdhe2048"};

static int o_ep_new(void **out, const cb_tls_config *cfg, char *err, size_t errlen)
{
    const ocert *cert = cfg->cert;
    const cb_tls_suite *s = cfg->suite;
    oep *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return CB_TLS_FAIL;
    }
    e->resume = cfg->resume;
    e->srv = SSL_CTX_new(TLS_server_method());
    e->cli = SSL_CTX_new(TLS_client_method());
    if (!e->srv || !e->cli) {
        err_text("SSL_CTX_new", err, errlen);
        o_ep_free(e);
        return CB_TLS_FAIL;
    }
    int ver = s->tls13 ? TLS1_3_VERSION : TLS1_2_VERSION;
    SSL_CTX *both[2] = {e->srv, e->cli};
    for (int i = 0; i < 2; i++) {
        SSL_CTX *c = both[i];
        SSL_CTX_set_min_proto_version(c, ver);
        SSL_CTX_set_max_proto_version(c, ver);
        /* Legacy suites need the lowest security level to be offered at all. */
        if (s->legacy)
            SSL_CTX_set_security_level(c, 0);
        int ok = s->tls13 ? SSL_CTX_set_ciphersuites(c, s->openssl)
                          : SSL_CTX_set_cipher_list(c, s->openssl);
        if (!ok) {
            err_text(s->openssl, err, errlen);
            o_ep_free(e);
            return CB_TLS_REFUSED;
        }
        if (!SSL_CTX_set1_groups_list(c, group_list[cfg->group])) {
            err_text(group_list[cfg->group], err, errlen);
            o_ep_free(e);
            return CB_TLS_REFUSED;
        }
    }
    if (SSL_CTX_use_certificate(e->srv, cert->x) != 1 || SSL_CTX_use_PrivateKey(e->srv, cert->pk) != 1) {
        err_text("server certificate", err, errlen);
        o_ep_free(e);
        return CB_TLS_REFUSED;
    }
    /* The client checks the server's certificate against the one it trusts,
     * and the host name, as a real client does. */
    X509_STORE_add_cert(SSL_CTX_get_cert_store(e->cli), cert->x);
    SSL_CTX_set_verify(e->cli, SSL_VERIFY_PEER, NULL);
    if (!cfg->resume) {
        SSL_CTX_set_session_cache_mode(e->srv, SSL_SESS_CACHE_OFF);
        SSL_CTX_set_options(e->srv, SSL_OP_NO_TICKET);
        SSL_CTX_set_num_tickets(e->srv, 0);
    }
    *out = e;
    return CB_TLS_OK;
}

static void o_conn_free(void *p)
{
    oconn *k = p;
    if (!k)
        return;
    /* Marked as shut down so that freeing does not spoil the kept session. */
    if (k->c) {
        SSL_set_shutdown(k->c, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
        SSL_free(k->c);
    }
    if (k->s) {
        SSL_set_shutdown(k->s, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
        SSL_free(k->s);
    }
    if (k->fd[0] >= 0)
        close(k->fd[0]);
    if (k->fd[1] >= 0)
        close(k->fd[1]);
    free(k);
}

/* One step of a handshake: 1 done, 0 wants I/O, -1 failed. */
static int step(SSL *ssl)
{
    int r = SSL_do_handshake(ssl);
    if (r == 1)
        return 1;
    int e = SSL_get_error(ssl, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE ? 0 : -1;
}

static int o_conn_new(void *ep, void **out, char *err, size_t errlen)
{
    oep *e = ep;
    oconn *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "out of memory");
        return CB_TLS_FAIL;
    }
    k->fd[0] = k->fd[1] = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, k->fd) != 0) {
        snprintf(err, errlen, "socketpair failed");
        o_conn_free(k);
        return CB_TLS_FAIL;
    }
    k->c = SSL_new(e->cli);
    k->s = SSL_new(e->srv);
    if (!k->c || !k->s || !SSL_set_fd(k->c, k->fd[0]) || !SSL_set_fd(k->s, k->fd[1])
        || !SSL_set1_host(k->c, HOSTNAME)) {
        err_text("SSL_new", err, errlen);
        o_conn_free(k);
        return CB_TLS_FAIL;
    }
    SSL_set_connect_state(k->c);
    SSL_set_accept_state(k->s);
    if (e->sess && !SSL_set_session(k->c, e->sess)) {
        err_text("SSL_set_session", err, errlen);
        o_conn_free(k);
        return CB_TLS_FAIL;
    }
    int cd = 0, sd = 0;
    for (int round = 0; round < MAX_ROUNDS && !(cd && sd); round++) {
        if (!cd && (cd = step(k->c)) < 0) {
            err_text("client handshake", err, errlen);
            o_conn_free(k);
            return CB_TLS_REFUSED;
        }
        if (!sd && (sd = step(k->s)) < 0) {
            err_text("server handshake", err, errlen);
            o_conn_free(k);
            return CB_TLS_REFUSED;
        }
    }
    if (!(cd && sd)) {
        snprintf(err, errlen, "handshake did not finish in %d rounds", MAX_ROUNDS);
        o_conn_free(k);
        return CB_TLS_FAIL;
    }
    *out = k;
    return CB_TLS_OK;
}

static void o_conn_info(void *p, cb_tls_info *info)
{
    oconn *k = p;
    memset(info, 0, sizeof *info);
    snprintf(info->suite, sizeof info->suite, "%s", SSL_get_cipher_name(k->c));
    int v = SSL_version(k->c);
    snprintf(info->proto, sizeof info->proto, "%s",
             v == TLS1_3_VERSION ? "TLS1.3" : v == TLS1_2_VERSION ? "TLS1.2" : SSL_get_version(k->c));
    int g = SSL_get_negotiated_group(k->c);
    const char *gn = g ? SSL_group_to_name(k->c, g) : NULL;
    snprintf(info->group, sizeof info->group, "%s", gn ? gn : "");
    info->resumed = SSL_session_reused(k->c);
}

static int o_keep_session(void *ep, void *conn, char *err, size_t errlen)
{
    oep *e = ep;
    oconn *k = conn;
    /* TLS 1.3 tickets come after the handshake: a read takes them in. */
    uint8_t b;
    for (int i = 0; i < 4; i++) {
        int r = SSL_read(k->c, &b, 1);
        if (r > 0) {
            snprintf(err, errlen, "unexpected application data while reading the session ticket");
            return CB_TLS_FAIL;
        }
        if (SSL_get_error(k->c, r) != SSL_ERROR_WANT_READ) {
            err_text("reading the session ticket", err, errlen);
            return CB_TLS_FAIL;
        }
    }
    SSL_SESSION *s = SSL_get1_session(k->c);
    if (!s || !SSL_SESSION_is_resumable(s)) {
        SSL_SESSION_free(s);
        snprintf(err, errlen, "the server gave no resumable session");
        return CB_TLS_REFUSED;
    }
    SSL_SESSION_free(e->sess);
    e->sess = s;
    return CB_TLS_OK;
}

static long o_send(void *p, const uint8_t *buf, size_t n)
{
    oconn *k = p;
    int r = SSL_write(k->s, buf, (int)n);
    if (r > 0)
        return r;
    int e = SSL_get_error(k->s, r);
    return e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ ? 0 : -1;
}

static long o_recv(void *p, uint8_t *buf, size_t n)
{
    oconn *k = p;
    int r = SSL_read(k->c, buf, (int)n);
    if (r > 0)
        return r;
    int e = SSL_get_error(k->c, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE ? 0 : -1;
}

const cb_tls_lib cb_tls_openssl = {
    .name = "openssl",
    .version = o_version,
    .global_init = o_init,
    .make_cert = o_make_cert,
    .free_cert = o_free_cert,
    .ep_new = o_ep_new,
    .ep_free = o_ep_free,
    .conn_new = o_conn_new,
    .conn_info = o_conn_info,
    .keep_session = o_keep_session,
    .send = o_send,
    .recv = o_recv,
    .conn_free = o_conn_free,
};
