/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tls_gnutls.c - the `tls` backend over GnuTLS: certificate credentials and a
 * priority string for one suite/group, client and server sessions on a
 * non-blocking socket pair. */
#define _GNU_SOURCE
#include "tls.h"
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HOSTNAME "cipherbench.test"
#define MAX_ROUNDS 1000

typedef struct gcert { gnutls_x509_crt_t crt; gnutls_x509_privkey_t key; } gcert;
typedef struct gep {
    gnutls_certificate_credentials_t scred, ccred;
    gnutls_priority_t prio;
    gnutls_datum_t ticket_key;   /* server's; empty when not resuming */
    gnutls_datum_t sess;         /* the client's kept session; empty if none */
    int resume;
} gep;
typedef struct gconn { gnutls_session_t c, s; int fd[2]; } gconn;

static void gerr(const char *what, int rc, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, gnutls_strerror(rc));
}

static const char *g_version(void)
{
    static char v[64];
    snprintf(v, sizeof v, "GnuTLS %s", gnutls_check_version(NULL));
    return v;
}

static int g_init(void)
{
    return gnutls_global_init() == GNUTLS_E_SUCCESS ? 0 : -1;
}

static int g_make_cert(cb_tls_cert_type t, void **out, char *err, size_t errlen)
{
    gcert *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return CB_TLS_FAIL;
    }
    int rc = gnutls_x509_privkey_init(&c->key);
    gnutls_pk_algorithm_t pk = GNUTLS_PK_RSA;
    unsigned bits = 2048;
    gnutls_digest_algorithm_t dig = GNUTLS_DIG_SHA256;
    switch (t) {
    case CB_CERT_RSA3072: bits = 3072; break;
    case CB_CERT_P256: pk = GNUTLS_PK_ECDSA; bits = GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1); break;
    /* EdDSA carries its own hash: the certificate is signed without a digest. */
    case CB_CERT_ED25519: pk = GNUTLS_PK_EDDSA_ED25519; bits = GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_ED25519);
                          dig = GNUTLS_DIG_UNKNOWN; break;
    default: break;
    }
    if (rc >= 0 && (rc = gnutls_x509_privkey_generate(c->key, pk, bits, 0)) < 0) {
        gerr("key generation", rc, err, errlen);
        gnutls_x509_privkey_deinit(c->key);
        free(c);
        return CB_TLS_REFUSED;
    }
    time_t now = time(NULL);
    static const unsigned char serial[1] = {1};
    if (rc >= 0) rc = gnutls_x509_crt_init(&c->crt);
    if (rc >= 0) rc = gnutls_x509_crt_set_version(c->crt, 3);
    if (rc >= 0) rc = gnutls_x509_crt_set_serial(c->crt, serial, sizeof serial);
    if (rc >= 0) rc = gnutls_x509_crt_set_activation_time(c->crt, now - 3600);
    if (rc >= 0) rc = gnutls_x509_crt_set_expiration_time(c->crt, now + 7 * 86400);
    if (rc >= 0) rc = gnutls_x509_crt_set_dn_by_oid(c->crt, GNUTLS_OID_X520_COMMON_NAME, 0, HOSTNAME, strlen(HOSTNAME));
    if (rc >= 0) rc = gnutls_x509_crt_set_subject_alt_name(c->crt, GNUTLS_SAN_DNSNAME, HOSTNAME, strlen(HOSTNAME), GNUTLS_FSAN_SET);
    if (rc >= 0) rc = gnutls_x509_crt_set_key(c->crt, c->key);
    if (rc >= 0) rc = gnutls_x509_crt_sign2(c->crt, c->crt, c->key, dig, 0);
    if (rc < 0) {
        gerr("self-signing the certificate", rc, err, errlen);
        gnutls_x509_crt_deinit(c->crt);
        gnutls_x509_privkey_deinit(c->key);
        free(c);
        return CB_TLS_FAIL;
    }
    *out = c;
    return CB_TLS_OK;
}

static void g_free_cert(void *p)
{
    gcert *c = p;
    if (!c)
        return;
    gnutls_x509_crt_deinit(c->crt);
    gnutls_x509_privkey_deinit(c->key);
    free(c);
}

static void g_ep_free(void *p)
{
    gep *e = p;
    if (!e)
        return;
    if (e->prio)
        gnutls_priority_deinit(e->prio);
    if (e->scred)
        gnutls_certificate_free_credentials(e->scred);
    if (e->ccred)
        gnutls_certificate_free_credentials(e->ccred);
    gnutls_free(e->ticket_key.data);
    gnutls_free(e->sess.data);
    free(e);
}

static const char *const group_item[CB_GROUP_N] = {
    "GROUP-X25519", "GROUP-SECP256R1", "GROUP-SECP384R1", "GROUP-X448", "GROUP-FFDHE2048"};

static int g_ep_new(void **out, const cb_tls_config *cfg, char *err, size_t errlen)
{
    const gcert *cert = cfg->cert;
    const cb_tls_suite *s = cfg->suite;
    gep *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return CB_TLS_FAIL;
    }
    e->resume = cfg->resume;
    char prio[512];
    /* Exactly one version, one cipher, one MAC and the key exchanges and group
     * asked for: what the two ends agree on is what was asked, or nothing. */
    if (s->tls13)
        snprintf(prio, sizeof prio, "NONE:+VERS-TLS1.3:+%s:+%s:+ECDHE-RSA:+ECDHE-ECDSA:+DHE-RSA:+%s:+SIGN-ALL:+COMP-NULL",
                 s->gnutls_cipher, s->gnutls_mac, group_item[cfg->group]);
    else
        snprintf(prio, sizeof prio, "NONE:+VERS-TLS1.2:+%s:+%s:+%s:+%s:+SIGN-ALL:+COMP-NULL",
                 s->gnutls_cipher, s->gnutls_mac, s->gnutls_kx, group_item[cfg->group]);
    const char *where = NULL;
    int rc = gnutls_priority_init(&e->prio, prio, &where);
    if (rc < 0) {
        snprintf(err, errlen, "priority string %s: %s at '%s'", prio, gnutls_strerror(rc), where ? where : "");
        e->prio = NULL;
        g_ep_free(e);
        return CB_TLS_REFUSED;
    }
    if ((rc = gnutls_certificate_allocate_credentials(&e->scred)) < 0
        || (rc = gnutls_certificate_allocate_credentials(&e->ccred)) < 0) {
        gerr("credentials", rc, err, errlen);
        g_ep_free(e);
        return CB_TLS_FAIL;
    }
    gnutls_x509_crt_t crt = cert->crt;
    if ((rc = gnutls_certificate_set_x509_key(e->scred, &crt, 1, cert->key)) < 0) {
        gerr("server certificate", rc, err, errlen);
        g_ep_free(e);
        return CB_TLS_REFUSED;
    }
    /* The client trusts this one certificate and checks the host name. */
    if ((rc = gnutls_certificate_set_x509_trust(e->ccred, &crt, 1)) < 0) {
        gerr("client trust", rc, err, errlen);
        g_ep_free(e);
        return CB_TLS_FAIL;
    }
    if (cfg->resume && (rc = gnutls_session_ticket_key_generate(&e->ticket_key)) < 0) {
        gerr("session ticket key", rc, err, errlen);
        g_ep_free(e);
        return CB_TLS_FAIL;
    }
    *out = e;
    return CB_TLS_OK;
}

static void g_conn_free(void *p)
{
    gconn *k = p;
    if (!k)
        return;
    if (k->c)
        gnutls_deinit(k->c);
    if (k->s)
        gnutls_deinit(k->s);
    if (k->fd[0] >= 0)
        close(k->fd[0]);
    if (k->fd[1] >= 0)
        close(k->fd[1]);
    free(k);
}

/* One step of a handshake: 1 done, 0 wants I/O, negative: the fatal error. */
static int step(gnutls_session_t s)
{
    int r = gnutls_handshake(s);
    if (r == 0)
        return 1;
    if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED || !gnutls_error_is_fatal(r))
        return 0;
    return r;
}

static int g_conn_new(void *ep, void **out, char *err, size_t errlen)
{
    gep *e = ep;
    gconn *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "out of memory");
        return CB_TLS_FAIL;
    }
    k->fd[0] = k->fd[1] = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, k->fd) != 0) {
        snprintf(err, errlen, "socketpair failed");
        g_conn_free(k);
        return CB_TLS_FAIL;
    }
    unsigned nt = e->resume ? 0 : GNUTLS_NO_TICKETS;
    int rc;
    if ((rc = gnutls_init(&k->c, GNUTLS_CLIENT | GNUTLS_NONBLOCK | nt)) < 0
        || (rc = gnutls_init(&k->s, GNUTLS_SERVER | GNUTLS_NONBLOCK | nt)) < 0
        || (rc = gnutls_priority_set(k->c, e->prio)) < 0
        || (rc = gnutls_priority_set(k->s, e->prio)) < 0
        || (rc = gnutls_credentials_set(k->c, GNUTLS_CRD_CERTIFICATE, e->ccred)) < 0
        || (rc = gnutls_credentials_set(k->s, GNUTLS_CRD_CERTIFICATE, e->scred)) < 0
        || (rc = gnutls_server_name_set(k->c, GNUTLS_NAME_DNS, HOSTNAME, strlen(HOSTNAME))) < 0
        || (e->resume && (rc = gnutls_session_ticket_enable_server(k->s, &e->ticket_key)) < 0)
        || (e->sess.size && (rc = gnutls_session_set_data(k->c, e->sess.data, e->sess.size)) < 0)) {
        gerr("session setup", rc, err, errlen);
        g_conn_free(k);
        return CB_TLS_FAIL;
    }
    gnutls_session_set_verify_cert(k->c, HOSTNAME, 0);
    gnutls_transport_set_int(k->c, k->fd[0]);
    gnutls_transport_set_int(k->s, k->fd[1]);
    int cd = 0, sd = 0;
    for (int round = 0; round < MAX_ROUNDS && !(cd && sd); round++) {
        if (!cd && (cd = step(k->c)) < 0) {
            gerr("client handshake", cd, err, errlen);
            g_conn_free(k);
            return CB_TLS_REFUSED;
        }
        if (!sd && (sd = step(k->s)) < 0) {
            gerr("server handshake", sd, err, errlen);
            g_conn_free(k);
            return CB_TLS_REFUSED;
        }
    }
    if (!(cd && sd)) {
        snprintf(err, errlen, "handshake did not finish in %d rounds", MAX_ROUNDS);
        g_conn_free(k);
        return CB_TLS_FAIL;
    }
    *out = k;
    return CB_TLS_OK;
}

static void g_conn_info(void *p, cb_tls_info *info)
{
    gconn *k = p;
    memset(info, 0, sizeof *info);
    gnutls_protocol_t v = gnutls_protocol_get_version(k->c);
    snprintf(info->proto, sizeof info->proto, "%s",
             v == GNUTLS_TLS1_3 ? "TLS1.3" : v == GNUTLS_TLS1_2 ? "TLS1.2" : gnutls_protocol_get_name(v));
#if GNUTLS_VERSION_NUMBER >= 0x030704
    const char *name = gnutls_ciphersuite_get(k->c);
#else
    const char *name = gnutls_cipher_suite_get_name(gnutls_kx_get(k->c), gnutls_cipher_get(k->c), gnutls_mac_get(k->c));
#endif
    snprintf(info->suite, sizeof info->suite, "%s", name ? name : "");
    const char *g = gnutls_group_get_name(gnutls_group_get(k->c));
    snprintf(info->group, sizeof info->group, "%s", g ? g : "");
    info->resumed = gnutls_session_is_resumed(k->c) != 0;
}

static int g_keep_session(void *ep, void *conn, char *err, size_t errlen)
{
    gep *e = ep;
    gconn *k = conn;
    /* TLS 1.3 tickets come after the handshake: reads take them in. */
    uint8_t b;
    for (int i = 0; i < 8 && !(gnutls_session_get_flags(k->c) & GNUTLS_SFLAGS_SESSION_TICKET); i++) {
        int r = gnutls_record_recv(k->c, &b, 1);
        if (r != GNUTLS_E_AGAIN && r != GNUTLS_E_INTERRUPTED) {
            snprintf(err, errlen, "reading the session ticket: %s", r >= 0 ? "unexpected data" : gnutls_strerror(r));
            return CB_TLS_FAIL;
        }
    }
    gnutls_free(e->sess.data);
    e->sess.data = NULL;
    e->sess.size = 0;
    int rc = gnutls_session_get_data2(k->c, &e->sess);
    if (rc < 0 || !e->sess.size) {
        gerr("the server gave no resumable session", rc, err, errlen);
        return CB_TLS_REFUSED;
    }
    return CB_TLS_OK;
}

static long g_send(void *p, const uint8_t *buf, size_t n)
{
    gconn *k = p;
    ssize_t r = gnutls_record_send(k->s, buf, n);
    if (r > 0)
        return (long)r;
    return r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED ? 0 : -1;
}

static long g_recv(void *p, uint8_t *buf, size_t n)
{
    gconn *k = p;
    ssize_t r = gnutls_record_recv(k->c, buf, n);
    if (r > 0)
        return (long)r;
    /* 0 is the peer's close: an error here, as nothing closes mid-transfer. */
    return r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED ? 0 : -1;
}

const cb_tls_lib cb_tls_gnutls = {
    .name = "gnutls",
    .version = g_version,
    .global_init = g_init,
    .make_cert = g_make_cert,
    .free_cert = g_free_cert,
    .ep_new = g_ep_new,
    .ep_free = g_ep_free,
    .conn_new = g_conn_new,
    .conn_info = g_conn_info,
    .keep_session = g_keep_session,
    .send = g_send,
    .recv = g_recv,
    .conn_free = g_conn_free,
};
