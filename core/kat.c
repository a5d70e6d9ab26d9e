/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kat.c - known answers and the differential check (see kat.h). */
#define _POSIX_C_SOURCE 200809L
#include "kat.h"
#include "emit.h"
#include "prng.h"
#include "rules.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Outcome of one vector. */
enum { V_PASS, V_FAIL, V_SKIP };

typedef struct vctx {
    const cb_op *op;
    char *msg; size_t msglen;   /* set on V_FAIL / V_SKIP */
} vctx;

static int verdict(vctx *c, int v, const char *vec, const char *what)
{
    if (v != V_PASS && c->msg[0] == '\0')
        snprintf(c->msg, c->msglen, "%s: %s", vec, what);
    return v;
}

/* Status of init/run other than OK: skip when the library refuses the
 * parameters, else fail. */
static int status_verdict(vctx *c, int st, const char *vec, const char *stage)
{
    char what[96];
    static const char *const names[] = {"ok", "library error", "tag did not verify", "parameters refused"};
    snprintf(what, sizeof what, "%s returned %s", stage, st >= 0 && st <= 3 ? names[st] : "an unknown status");
    return verdict(c, st == CB_ERR_PARAM ? V_SKIP : V_FAIL, vec, what);
}

/* Non-NULL pointer for empty inputs: some libraries reject NULL even for 0 bytes. */
static uint8_t empty_byte;
#define P(b) ((b).n ? (b).p : &empty_byte)

static int aead_vector(vctx *c, const cb_vector *v)
{
    const cb_op *op = c->op;
    size_t n = v->pt.n;
    uint8_t *out = malloc(n + 1), *in = malloc(n + 1), *tag = malloc(v->tag.n + 1);
    uint8_t *aad = malloc(v->aad.n + 1);
    int res = V_PASS, st;
    void *ctx = NULL;
    if (!out || !in || !tag || !aad) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    cb_setup s = {P(v->key), v->key.n, P(v->iv), v->iv.n, v->tag.n, 0};
    if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
        res = status_verdict(c, st, v->name, "encrypt init");
        ctx = NULL;
        goto done;
    }
    /* Twice on one context: each call is a whole message with its own nonce. */
    for (int round = 0; round < 2 && res == V_PASS; round++) {
        memcpy(in, P(v->pt), n);
        memset(out, 0, n);
        memset(tag, 0, v->tag.n);
        cb_msg m = {in, out, n, P(v->iv), v->iv.n, P(v->aad), v->aad.n, tag, v->tag.n};
        if ((st = cb_row_run(op, ctx, &m)) != CB_OK)
            res = status_verdict(c, st, v->name, "encrypt");
        else if (memcmp(out, P(v->ct), n) != 0)
            res = verdict(c, V_FAIL, v->name, round ? "ciphertext differs on a second message" : "ciphertext differs");
        else if (memcmp(tag, P(v->tag), v->tag.n) != 0)
            res = verdict(c, V_FAIL, v->name, round ? "tag differs on a second message" : "tag differs");
        else if (memcmp(in, P(v->pt), n) != 0)
            res = verdict(c, V_FAIL, v->name, "encrypt changed its input");
    }
    op->finish(ctx);
    ctx = NULL;
    if (res != V_PASS)
        goto done;

    s.decrypt = 1;
    if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
        res = status_verdict(c, st, v->name, "decrypt init");
        ctx = NULL;
        goto done;
    }
    /* Rounds 0 and 1 decrypt; the rest are forgeries that must be refused: a
     * flipped bit in the first, a middle and the last tag byte (a library that
     * compares part of the tag lets one through), then in the ciphertext and
     * in the AAD. */
    static const char *const forged[] = {"the first tag byte", "a middle tag byte",
                                         "the last tag byte", "the ciphertext", "the AAD"};
    for (int round = 0; round < 7 && res == V_PASS; round++) {
        memcpy(in, P(v->ct), n);
        memcpy(tag, P(v->tag), v->tag.n);
        memcpy(aad, P(v->aad), v->aad.n);
        int f = round - 2;
        if ((f == 3 && n == 0) || (f == 4 && v->aad.n == 0) || (f >= 0 && f <= 2 && v->tag.n == 0))
            continue;
        if (f == 0)
            tag[0] ^= 0x01;
        else if (f == 1)
            tag[v->tag.n / 2] ^= 0x80;
        else if (f == 2)
            tag[v->tag.n - 1] ^= 0x01;
        else if (f == 3)
            in[n - 1] ^= 0x01;
        else if (f == 4)
            aad[0] ^= 0x01;
        memset(out, 0, n);
        cb_msg m = {in, out, n, P(v->iv), v->iv.n, v->aad.n ? aad : &empty_byte, v->aad.n, tag, v->tag.n};
        st = cb_row_run(op, ctx, &m);
        if (f >= 0) {
            if (st != CB_ERR_AUTH) {
                char what[96];
                snprintf(what, sizeof what, "decrypt accepted a forgery (a bit flipped in %s)", forged[f]);
                res = verdict(c, V_FAIL, v->name, what);
            }
        } else if (st != CB_OK) {
            res = status_verdict(c, st, v->name, "decrypt");
        } else if (memcmp(out, P(v->pt), n) != 0) {
            res = verdict(c, V_FAIL, v->name, "decrypted plaintext differs");
        }
    }
done:
    if (ctx)
        op->finish(ctx);
    free(out);
    free(in);
    free(tag);
    free(aad);
    return res;
}

/* Is st a refusal of an invalid vector: an authentication failure, or the
 * sizes refused? Anything else fails the vector, with what happened. */
static int refused(vctx *c, int st, const cb_vector *v, const char *stage)
{
    if (st == CB_ERR_AUTH || st == CB_ERR_PARAM)
        return V_PASS;
    char what[128];
    snprintf(what, sizeof what, "%s %s an invalid vector", stage,
             st == CB_OK ? "accepted" : "failed with a library error (not a refusal) on");
    return verdict(c, V_FAIL, v->name, what);
}

/* An AEAD vector that must not decrypt: a forged or truncated tag, a wrong length. */
static int aead_invalid(vctx *c, const cb_vector *v)
{
    const cb_op *op = c->op;
    size_t n = v->ct.n;
    uint8_t *out = malloc(n + 1), *in = malloc(n + 1), *tag = malloc(v->tag.n + 1);
    int res, st;
    void *ctx = NULL;
    if (!out || !in || !tag) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    memcpy(in, P(v->ct), n);
    memcpy(tag, P(v->tag), v->tag.n);
    cb_setup s = {P(v->key), v->key.n, P(v->iv), v->iv.n, v->tag.n, 1};
    if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
        ctx = NULL;
        res = refused(c, st, v, "decrypt init");
        goto done;
    }
    cb_msg m = {in, out, n, P(v->iv), v->iv.n, P(v->aad), v->aad.n, tag, v->tag.n};
    res = refused(c, cb_row_run(op, ctx, &m), v, "decrypt");
done:
    if (ctx)
        op->finish(ctx);
    free(out);
    free(in);
    free(tag);
    return res;
}

/* Key wrap: wrap pt into ct and unwrap it back, twice on one context; then
 * the integrity check must refuse a bit flipped in the first, a middle and the
 * last byte of the wrapped key. */
static int random_wrap(vctx *c, const cb_vector *v);

static int keywrap_vector(vctx *c, const cb_vector *v)
{
    const cb_op *op = c->op;
    const cb_algorithm *alg = cb_algorithm_find(op->algo);
    size_t n = v->pt.n, w = v->ct.n;
    uint8_t *in = malloc(w + 1), *out = malloc(w + 1);
    int res = V_PASS, st;
    void *ctx = NULL;
    if (!in || !out) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    /* A wrap that draws its IV has no fixed answer: unwrap only here, then random_wrap. */
    for (int decrypt = alg && cb_keywrap_random(alg); decrypt < 2 && res == V_PASS; decrypt++) {
        cb_setup s = {P(v->key), v->key.n, NULL, 0, 8, decrypt};
        if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
            ctx = NULL;
            res = status_verdict(c, st, v->name, decrypt ? "unwrap init" : "wrap init");
            goto done;
        }
        const cb_bytes *from = decrypt ? &v->ct : &v->pt, *want = decrypt ? &v->pt : &v->ct;
        for (int round = 0; round < (decrypt ? 5 : 2) && res == V_PASS; round++) {
            memcpy(in, P(*from), from->n);
            memset(out, 0, w);
            int f = round - 2;   /* unwrap rounds 2-4: a forgery */
            if (f >= 0)
                in[f == 0 ? 0 : f == 1 ? w / 2 : w - 1] ^= f == 1 ? 0x80 : 0x01;
            cb_msg m = {in, out, n, NULL, 0, NULL, 0, NULL, 0};
            st = cb_row_run(op, ctx, &m);
            if (f >= 0) {
                if (st != CB_ERR_AUTH) {
                    static const char *const where[] = {"first", "middle", "last"};
                    char what[96];
                    snprintf(what, sizeof what, "unwrap accepted a forgery (a bit flipped in the %s byte)", where[f]);
                    res = verdict(c, V_FAIL, v->name, what);
                }
            } else if (st != CB_OK) {
                res = status_verdict(c, st, v->name, decrypt ? "unwrap" : "wrap");
            } else if (memcmp(out, P(*want), want->n) != 0) {
                res = verdict(c, V_FAIL, v->name, decrypt ? (round ? "unwrapped key differs on a second call" : "unwrapped key differs")
                                                          : (round ? "wrapped key differs on a second call" : "wrapped key differs"));
            } else if (memcmp(in, P(*from), from->n) != 0) {
                res = verdict(c, V_FAIL, v->name, "the input was changed");
            }
        }
        op->finish(ctx);
        ctx = NULL;
    }
done:
    if (ctx)
        op->finish(ctx);
    free(in);
    free(out);
    if (res == V_PASS && alg && cb_keywrap_random(alg))
        res = random_wrap(c, v);
    return res;
}

/* The wrap of a row whose every wrap draws a random IV (RFC 3217): wrap pt twice on one
 * context; each must have the wrapped length, the two must differ (a fresh IV each time),
 * and both must unwrap to pt with a fresh context of the row, whose unwrap keywrap_vector
 * has just checked against the vector's independent answer. */
static int random_wrap(vctx *c, const cb_vector *v)
{
    const cb_op *op = c->op;
    const cb_algorithm *alg = cb_algorithm_find(op->algo);
    size_t n = v->pt.n, w = cb_keywrap_out(alg, n);
    uint8_t *in = malloc(n + 1), *wrapped = malloc(2 * w + 1), *back = malloc(n + 1);
    int res = V_PASS, st;
    void *ctx = NULL;
    if (!in || !wrapped || !back) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    for (int decrypt = 0; decrypt < 2 && res == V_PASS; decrypt++) {
        cb_setup s = {P(v->key), v->key.n, NULL, 0, alg->tag_len, decrypt};
        if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
            ctx = NULL;
            res = status_verdict(c, st, v->name, decrypt ? "unwrap init" : "wrap init");
            goto done;
        }
        for (int round = 0; round < 2 && res == V_PASS; round++) {
            memcpy(in, P(v->pt), n);
            memset(back, 0, n);
            if (!decrypt)
                memset(wrapped + round * w, 0, w);
            cb_msg m = {decrypt ? wrapped + round * w : in, decrypt ? back : wrapped + round * w,
                        n, NULL, 0, NULL, 0, NULL, 0};
            if ((st = cb_row_run(op, ctx, &m)) != CB_OK)
                res = status_verdict(c, st, v->name, decrypt ? "unwrap of its own wrap" : "wrap");
            else if (decrypt && memcmp(back, P(v->pt), n) != 0)
                res = verdict(c, V_FAIL, v->name, "its own wrap does not unwrap to the key data");
            else if (!decrypt && memcmp(in, P(v->pt), n) != 0)
                res = verdict(c, V_FAIL, v->name, "the input was changed");
        }
        op->finish(ctx);
        ctx = NULL;
        if (res == V_PASS && !decrypt && memcmp(wrapped, wrapped + w, w) == 0)
            res = verdict(c, V_FAIL, v->name, "two wraps of one key are equal: no fresh IV");
    }
done:
    if (ctx)
        op->finish(ctx);
    free(in);
    free(wrapped);
    free(back);
    return res;
}

/* A wrapped key that must not unwrap: the key data expected is pt's length
 * when the vector gives pt, else what the wrapped length leaves after the
 * integrity check (and, RFC 3217, the IV). */
static int keywrap_invalid(vctx *c, const cb_vector *v)
{
    const cb_op *op = c->op;
    const cb_algorithm *alg = cb_algorithm_find(op->algo);
    size_t w = v->ct.n, over = alg ? alg->tag_len : 8;
    size_t n = v->pt.present ? v->pt.n : w - over;
    if (!alg || w < 16 || w % 8 || w < over || cb_keywrap_out(alg, n) != w)
        return verdict(c, V_FAIL, v->name, "a wrapped key is whole 8-byte blocks, two at least, "
                       "the key data padded to 8 and the row's check (and IV)");
    uint8_t *in = malloc(w), *out = malloc(w);
    int res;
    void *ctx = NULL;
    if (!in || !out) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    memcpy(in, P(v->ct), w);
    cb_setup s = {P(v->key), v->key.n, NULL, 0, 8, 1};
    int st = cb_row_init(op, &ctx, &s);
    if (st != CB_OK) {
        ctx = NULL;
        res = refused(c, st, v, "unwrap init");
        goto done;
    }
    cb_msg m = {in, out, n, NULL, 0, NULL, 0, NULL, 0};
    res = refused(c, cb_row_run(op, ctx, &m), v, "unwrap");
done:
    if (ctx)
        op->finish(ctx);
    free(in);
    free(out);
    return res;
}

/* Encrypts (or decrypts) from into a fresh context, in one call or, when
 * split > 0, in two calls cut at split (the stream or chain must continue). */
static int cipher_pass(vctx *c, const cb_vector *v, int decrypt, size_t split)
{
    const cb_op *op = c->op;
    const cb_algorithm *alg = cb_algorithm_find(op->algo);
    const cb_bytes *from = decrypt ? &v->ct : &v->pt, *want = decrypt ? &v->pt : &v->ct;
    size_t n = from->n;
    uint8_t *in = malloc(n + 1), *out = malloc(n + 1);
    int res = V_PASS, st;
    void *ctx = NULL;
    const char *stage = decrypt ? "decrypt" : "encrypt";
    if (!in || !out) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    memcpy(in, P(*from), n);
    memset(out, 0, n);
    cb_setup s = {P(v->key), v->key.n, v->iv.present ? P(v->iv) : NULL, v->iv.n, 0, decrypt};
    if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
        ctx = NULL;
        res = status_verdict(c, st, v->name, decrypt ? "decrypt init" : "encrypt init");
        goto done;
    }
    int pmn = alg && alg->per_message_nonce;
    const uint8_t *nonce = pmn && v->iv.present ? P(v->iv) : NULL;
    size_t nlen = nonce ? v->iv.n : 0;
    size_t cuts[2] = {split, n - split};
    size_t off = 0;
    for (int i = 0; i < (split ? 2 : 1) && res == V_PASS; i++) {
        size_t len = split ? cuts[i] : n;
        cb_msg m = {in + off, out + off, len, nonce, nlen, NULL, 0, NULL, 0};
        if ((st = cb_row_run(op, ctx, &m)) != CB_OK)
            res = status_verdict(c, st, v->name, stage);
        off += len;
    }
    if (res == V_PASS && memcmp(out, P(*want), n) != 0) {
        char what[96];
        snprintf(what, sizeof what, "%s output differs%s", stage,
                 split ? " when the message is given in two calls" : "");
        res = verdict(c, V_FAIL, v->name, what);
    }
    if (res == V_PASS && memcmp(in, P(*from), n) != 0)
        res = verdict(c, V_FAIL, v->name, "the input was changed");
done:
    if (ctx)
        op->finish(ctx);
    free(in);
    free(out);
    return res;
}

static int cipher_vector(vctx *c, const cb_vector *v)
{
    const cb_algorithm *alg = cb_algorithm_find(c->op->algo);
    int res = cipher_pass(c, v, 0, 0);
    if (res == V_PASS)
        res = cipher_pass(c, v, 1, 0);
    /* Continuation, as bench calls it: cut at a multiple of 16 bytes (and of
     * the block), except XTS and CBC-CTS, whose every call is one message. */
    size_t unit = alg && alg->block_len > 16 ? alg->block_len : 16;
    size_t split = v->pt.n / 2 / unit * unit;
    if (res == V_PASS && split && alg && !alg->per_message_nonce)
        res = cipher_pass(c, v, 0, split);
    return res;
}

/* Hash and MAC: the digest of msg, twice on one context. */
static int digest_vector(vctx *c, const cb_vector *v, int mac)
{
    const cb_op *op = c->op;
    const cb_algorithm *alg = cb_algorithm_find(op->algo);
    const cb_bytes *want = mac ? &v->mac : &v->md;
    /* A MAC vector may give a prefix of the tag (RFC 4231 test 5). */
    size_t tlen = mac && alg && alg->tag_len > want->n ? alg->tag_len : want->n;
    size_t n = v->msg.n;
    uint8_t *in = malloc(n + 1), *tag = malloc(tlen + 1);
    int res = V_PASS, st;
    void *ctx = NULL;
    if (!in || !tag) {
        res = verdict(c, V_FAIL, v->name, "out of memory");
        goto done;
    }
    memcpy(in, P(v->msg), n);
    cb_setup s = {mac ? P(v->key) : NULL, v->key.n, v->iv.present ? P(v->iv) : NULL, v->iv.n, tlen, 0};
    if ((st = cb_row_init(op, &ctx, &s)) != CB_OK) {
        ctx = NULL;
        res = v->invalid ? refused(c, st, v, "init") : status_verdict(c, st, v->name, "init");
        goto done;
    }
    if (v->invalid) {
        /* The mac must not come out: a verifier comparing the whole tag refuses it. */
        memset(tag, 0, tlen);
        cb_msg m = {in, NULL, n, v->iv.present ? P(v->iv) : NULL, v->iv.n, NULL, 0, tag, tlen};
        if ((st = cb_row_run(op, ctx, &m)) != CB_OK)
            res = refused(c, st, v, "mac");
        else if (want->n == tlen && memcmp(tag, P(*want), tlen) == 0)
            res = verdict(c, V_FAIL, v->name, "gave the mac of an invalid vector");
        goto done;
    }
    for (int round = 0; round < 2 && res == V_PASS; round++) {
        memset(tag, 0, tlen);
        cb_msg m = {in, NULL, n, v->iv.present ? P(v->iv) : NULL, v->iv.n, NULL, 0, tag, tlen};
        if ((st = cb_row_run(op, ctx, &m)) != CB_OK)
            res = status_verdict(c, st, v->name, mac ? "mac" : "hash");
        else if (memcmp(tag, P(*want), want->n) != 0)
            res = verdict(c, V_FAIL, v->name, round ? "differs on a second call with the same context" : (mac ? "mac differs" : "digest differs"));
        else if (memcmp(in, P(v->msg), n) != 0)
            res = verdict(c, V_FAIL, v->name, "the input was changed");
    }
done:
    if (ctx)
        op->finish(ctx);
    free(in);
    free(tag);
    return res;
}

/* Where a library's process is: before each vector it writes this to the parent
 * (run_isolated), so that after a crash a new process resumes with the next vector,
 * the counts of the file and of the row so far kept. */
typedef struct kat_pos {
    int row, file, vec;          /* the row (index in ops), vector file (in the set), vector */
    int row_files, row_passed, row_failed;   /* the row's files before this one */
    cb_kat_result r;             /* the file's counts before this vector */
} kat_pos;

/* Tells the parent where a child is (see run_isolated); fd -1: nobody listens. */
static void progress_write(int fd, const void *p, size_t n)
{
    if (fd >= 0 && write(fd, p, n) != (ssize_t)n)
        return;   /* the parent only learns less about a crash */
}

/* The vectors of f from the from-th on, counted into r; before each, pos (when given)
 * goes to fd with the vector's index and the counts so far. */
static void kat_vectors(const cb_op *op, const cb_vecfile *f, size_t from, cb_kat_result *r,
                        int fd, kat_pos *pos)
{
    vctx c = {op, r->message, sizeof r->message};
    for (size_t i = from; i < f->n; i++) {
        const cb_vector *v = &f->v[i];
        if (pos) {
            pos->vec = (int)i;
            pos->r = *r;
            progress_write(fd, pos, sizeof *pos);
        }
        int res;
        switch (f->alg->kind) {
        case CB_AEAD:   res = v->invalid ? aead_invalid(&c, v) : aead_vector(&c, v); break;
        case CB_CIPHER: res = cipher_vector(&c, v); break;
        case CB_HASH:   res = digest_vector(&c, v, 0); break;
        case CB_MAC:    res = digest_vector(&c, v, 1); break;
        case CB_KEYWRAP: res = v->invalid ? keywrap_invalid(&c, v) : keywrap_vector(&c, v); break;
        default:        res = verdict(&c, V_FAIL, v->name, "not a checkable kind"); break;
        }
        if (res == V_PASS)
            r->passed++;
        else if (res == V_SKIP)
            r->skipped++;
        else
            r->failed++;
        if (v->invalid) {
            r->must_fail++;
            r->refused += res == V_PASS;
        }
    }
}

void cb_kat_file(const cb_op *op, const cb_vecfile *f, cb_kat_result *r)
{
    memset(r, 0, sizeof *r);
    kat_vectors(op, f, 0, r, -1, NULL);
}

static void emit_file(const char *lib, const cb_algorithm *alg, const cb_vecfile *f,
                      const cb_kat_result *r)
{
    const char *crashed[CB_KAT_CRASHES];
    for (int i = 0; i < r->n_crashed && i < CB_KAT_CRASHES; i++)
        crashed[i] = r->crashed[i];
    cb_kat_extra x = {r->must_fail, r->refused, crashed,
                      (size_t)(r->n_crashed < CB_KAT_CRASHES ? r->n_crashed : CB_KAT_CRASHES)};
    cb_emit_kat_extra(lib, alg->name, r->passed, r->failed, r->skipped,
                      f->source[0] ? f->source : NULL, r->message[0] ? r->message : NULL, &x);
}

/* cb_kat_algo, from where resume says when given (a process after a crash), telling fd
 * where it is as row `row`. */
static int kat_algo(const char *lib, const cb_op *op, const cb_algorithm *alg,
                    const cb_vecset *set, char *why, size_t whylen, int row,
                    const kat_pos *resume, int fd)
{
    int files = resume ? resume->row_files : 0, passed = resume ? resume->row_passed : 0;
    int failed = resume ? resume->row_failed : 0;
    why[0] = '\0';
    for (size_t i = 0; i < set->n; i++) {
        const cb_vecfile *f = &set->files[i];
        if (f->alg != alg || (resume && (int)i < resume->file))
            continue;
        cb_kat_result r;
        size_t from = 0;
        if (resume && (int)i == resume->file) {
            r = resume->r;
            from = (size_t)resume->vec;
        } else {
            memset(&r, 0, sizeof r);
        }
        kat_pos pos = {row, (int)i, 0, files, passed, failed, {0}};
        kat_vectors(op, f, from, &r, fd, fd >= 0 ? &pos : NULL);
        files++;
        passed += r.passed;
        failed += r.failed;
        if (r.failed && !why[0])
            snprintf(why, whylen, "%s: %s", f->path, r.message);
        emit_file(lib, alg, f, &r);
    }
    if (files == 0) {
        snprintf(why, whylen, "no known-answer vectors for %s", alg->name);
        return -1;
    }
    if (failed)
        return 0;
    if (passed == 0) {
        snprintf(why, whylen, "%s refused the parameters of every %s vector", lib, alg->name);
        return 0;
    }
    return 1;
}

int cb_kat_algo(const char *lib, const cb_op *op, const cb_algorithm *alg,
                const cb_vecset *set, char *why, size_t whylen)
{
    return kat_algo(lib, op, alg, set, why, whylen, 0, NULL, -1);
}

/* ---- differential check ---- */

#define DIFF_SEED 0x63697068657262ull   /* fixed: a failure can be reproduced */
#define DIFF_MSGS 14            /* at most; how many depends on the kind */
#define DIFF_BIG (1u << 20)     /* one long message: bulk code paths, counters past 2^16 */
#define DIFF_AAD_MAX 70001

/* Message lengths. Each AEAD, hash and MAC message stands alone: empty, one
 * byte, around the 16-, 64- and 128-byte blocks behind them (block - 1,
 * block, block + 1), odd lengths and 1 MiB. A cipher continues one stream
 * or chain over its messages, as bench calls it: multiples of 64 bytes, which
 * every block and keystream size divides; an XTS or CBC-CTS message is one
 * data unit (a block at least, then any length: ciphertext stealing). AEAD
 * messages come with AAD of these lengths, the long ones among them. A key
 * wrap wraps key data of the lengths of wrap_lens, those its row takes. */
static const size_t free_lens[] = {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 13, 4097, DIFF_BIG};
static const size_t aad_lens[]  = {13, 0, 1, 15, 16, 17, 64, 65, 4099, 0, DIFF_AAD_MAX, 128, 13, 1};
static const size_t chain_lens[] = {64, 1024, 192, 4096, DIFF_BIG};
static const size_t unit_lens[] = {16, 17, 31, 32, 33, 4097, DIFF_BIG + 5};

/* The long message of an algorithm: DIFF_BIG, but shorter for a mode that runs its block
 * cipher once per byte (CFB8) or per bit (CFB1), for the same block operations as 64 KiB of
 * CFB8 (a 1 MiB CFB8 message took seconds per library pair; its bulk path is the short one's). */
static size_t diff_big(const cb_algorithm *alg)
{
    size_t n = strlen(alg->name);
    if (n > 5 && strcmp(alg->name + n - 5, "-cfb8") == 0)
        return DIFF_BIG / 16;
    if (n > 5 && strcmp(alg->name + n - 5, "-cfb1") == 0)
        return DIFF_BIG / 128;
    return DIFF_BIG;
}

/* Odd parity in every byte: what DES keys are meant to carry. */
static void des_parity(uint8_t *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b = k[i] & 0xfe;
        int ones = __builtin_popcount(b);
        k[i] = (uint8_t)(b | (ones % 2 == 0));
    }
}

typedef struct diff_in {
    const cb_algorithm *alg;
    uint8_t key[64], iv[64];
    uint8_t *msg[DIFF_MSGS];
    size_t len[DIFF_MSGS], aad_len[DIFF_MSGS];
    int n;                                /* messages */
    const uint8_t *aad;                   /* DIFF_AAD_MAX bytes; message i takes aad_len[i] */
    uint8_t nonce[DIFF_MSGS][64];
} diff_in;

/* Bytes of output message i gives: its length, or for a key wrap's wrap (encrypt) the
 * wrapped key, the key data padded to 8 and the row's check (cb_keywrap_out). */
static size_t diff_out_len(const diff_in *d, int decrypt, int i)
{
    return d->alg->kind == CB_KEYWRAP && !decrypt ? cb_keywrap_out(d->alg, d->len[i]) : d->len[i];
}

/* Runs the message sequence through one context; out receives the output
 * bytes then the tag of each message. ins are the inputs and tags_in the
 * tags to verify (decrypt); a key wrap's unwrap takes the wrapped keys as
 * inputs and writes the key data. Messages set in skip are left out; when the
 * messages stand alone (not a cipher's stream), one whose sizes the library
 * refuses is added to skip and the rest still run. Returns a cb_status. */
static int diff_run(const cb_op *op, const diff_in *d, int decrypt, uint8_t *const *ins,
                    const uint8_t *tags_in, uint8_t *out, uint8_t *tags, int *skip)
{
    int alone = d->alg->kind != CB_CIPHER || d->alg->per_message_nonce;
    const cb_algorithm *a = d->alg;
    size_t tag_len = a->kind == CB_KEYWRAP ? 0 : a->tag_len;   /* a wrap's check is in its output */
    void *ctx = NULL;
    cb_setup s = {a->key_len ? d->key : NULL, a->key_len, a->iv_len ? d->iv : NULL, a->iv_len, a->tag_len, decrypt};
    int st = cb_row_init(op, &ctx, &s);
    if (st != CB_OK)
        return st;
    size_t off = 0;
    for (int i = 0; i < d->n && st == CB_OK; i++) {
        if (skip[i]) {
            off += diff_out_len(d, decrypt, i);
            continue;
        }
        uint8_t *tag = tags + i * a->tag_len;
        if (tags_in)
            memcpy(tag, tags_in + i * a->tag_len, tag_len);
        int has_out = a->kind == CB_AEAD || a->kind == CB_CIPHER || a->kind == CB_KEYWRAP;
        cb_msg m = {ins[i], has_out ? out + off : NULL, d->len[i],
                    a->per_message_nonce ? d->nonce[i] : NULL, a->per_message_nonce ? a->iv_len : 0,
                    a->kind == CB_AEAD ? d->aad : NULL, a->kind == CB_AEAD ? d->aad_len[i] : 0,
                    tag_len ? tag : NULL, tag_len};
        st = cb_row_run(op, ctx, &m);
        if (st == CB_ERR_PARAM && alone) {
            skip[i] = 1;   /* e.g. CCM with AAD past 65280 bytes, an empty message */
            st = CB_OK;
        }
        off += diff_out_len(d, decrypt, i);
    }
    op->finish(ctx);
    return st;
}

/* Tells the parent which library a child is about to run (see run_isolated). */
static void progress(int fd, size_t i)
{
    int v = (int)i;
    progress_write(fd, &v, sizeof v);
}

/* Key-data lengths for key wrap: KW takes whole blocks from two on, KWP any
 * length from one byte (the shorter and odd ones are KWP's alone). */
static const size_t wrap_lens[] = {16, 24, 32, 40, 64, 136, 4096, DIFF_BIG, 1, 7, 8, 9, 20};

static int wrap_takes(const cb_algorithm *a, size_t len)
{
    return len >= cb_keywrap_min(a) && len % a->block_len == 0;
}

static int differential(const cb_algorithm *alg, const cb_backend *const *libs, size_t n,
                        char *why, size_t whylen, int progress_fd)
{
    diff_in d;
    memset(&d, 0, sizeof d);
    d.alg = alg;
    why[0] = '\0';
    uint64_t seed = DIFF_SEED;
    cb_prng_fill(&seed, d.key, sizeof d.key);
    cb_prng_fill(&seed, d.iv, sizeof d.iv);
    if (strstr(alg->name, "des"))
        des_parity(d.key, sizeof d.key);
    const size_t *lens = free_lens;
    d.n = (int)(sizeof free_lens / sizeof free_lens[0]);
    if (alg->kind == CB_CIPHER && alg->per_message_nonce) {
        lens = unit_lens;
        d.n = (int)(sizeof unit_lens / sizeof unit_lens[0]);
    } else if (alg->kind == CB_CIPHER) {
        lens = chain_lens;
        d.n = (int)(sizeof chain_lens / sizeof chain_lens[0]);
    } else if (alg->kind == CB_KEYWRAP) {
        lens = wrap_lens;
        d.n = (int)(sizeof wrap_lens / sizeof wrap_lens[0]);
    }
    /* total: the messages; out_total: the longest output (a wrap's is longer) */
    size_t total = 0, out_total = 0;
    int base_skip[DIFF_MSGS] = {0};   /* key-data lengths the row does not take */
    for (int i = 0; i < d.n; i++) {
        d.len[i] = lens[i] >= DIFF_BIG ? lens[i] - DIFF_BIG + diff_big(alg) : lens[i];
        d.aad_len[i] = cb_aad_len(alg) ? aad_lens[i] : 0;   /* none for secretbox */
        total += d.len[i];
        out_total += diff_out_len(&d, 0, i);
        memcpy(d.nonce[i], d.iv, sizeof d.iv);
        d.nonce[i][0] ^= (uint8_t)(i + 1);   /* a fresh nonce per message */
        base_skip[i] = alg->kind == CB_KEYWRAP && !wrap_takes(alg, d.len[i]);
    }
    size_t tags_len = DIFF_MSGS * alg->tag_len + 1;
    uint8_t *msgs = malloc(total + 1), *ref = malloc(out_total + 1), *ref_tags = malloc(tags_len);
    uint8_t *out = malloc(out_total + 1), *tags = malloc(tags_len), *aad = malloc(DIFF_AAD_MAX);
    int result = -1, ran = 0;
    const char *first = NULL;
    if (!msgs || !ref || !ref_tags || !out || !tags || !aad) {
        snprintf(why, whylen, "out of memory");
        result = 0;
        goto done;
    }
    cb_prng_fill(&seed, msgs, total);
    cb_prng_fill(&seed, aad, DIFF_AAD_MAX);
    d.aad = aad;
    size_t off = 0;
    for (int i = 0; i < d.n; i++) {
        d.msg[i] = msgs + off;
        off += d.len[i];
    }
    int decryptable = alg->kind == CB_AEAD || alg->kind == CB_CIPHER || alg->kind == CB_KEYWRAP;
    int wrap = alg->kind == CB_KEYWRAP;
    uint8_t *ref_ins[DIFF_MSGS];
    int ref_skip[DIFF_MSGS] = {0};
    for (size_t li = 0; li < n; li++) {
        const cb_op *op = NULL;
        for (const cb_op *o = libs[li]->ops; o->algo; o++)
            if (strcmp(o->algo, alg->name) == 0)
                op = o;
        if (!op)
            continue;
        progress(progress_fd, li);
        memset(out, 0, out_total + 1);
        memset(tags, 0, tags_len);
        int skip[DIFF_MSGS], runs = 0;
        memcpy(skip, base_skip, sizeof skip);
        int st = diff_run(op, &d, 0, d.msg, NULL, out, tags, skip);
        for (int i = 0; i < d.n; i++)
            runs += !skip[i];
        if (st == CB_ERR_PARAM || (st == CB_OK && runs == 0))
            continue;   /* the library does not take these sizes */
        if (st != CB_OK) {
            snprintf(why, whylen, "%s failed on random input (status %d)", libs[li]->name, st);
            result = 0;
            goto done;
        }
        if (!first) {
            first = libs[li]->name;
            memcpy(ref, out, out_total);
            memcpy(ref_tags, tags, tags_len);
            memcpy(ref_skip, skip, sizeof skip);
            off = 0;
            for (int i = 0; i < d.n; i++) {
                ref_ins[i] = ref + off;
                off += diff_out_len(&d, 0, i);
            }
        } else {
            size_t pos = 0;
            for (int i = 0; i < d.n; i++) {
                size_t olen = diff_out_len(&d, 0, i);
                if (skip[i] || ref_skip[i]) {   /* only what both ran is compared */
                    pos += olen;
                    continue;
                }
                /* a wrap with a random IV: only the unwraps below compare */
                int same_out = !decryptable || cb_keywrap_random(alg)
                               || memcmp(out + pos, ref + pos, olen) == 0;
                int same_tag = memcmp(tags + i * alg->tag_len, ref_tags + i * alg->tag_len, alg->tag_len) == 0;
                if (!same_out || !same_tag) {
                    snprintf(why, whylen, "%s and %s differ in the %s of message %d (%zu bytes, AAD %zu)",
                             first, libs[li]->name, same_out ? "tag" : wrap ? "wrapped key" : "output",
                             i + 1, d.len[i], alg->kind == CB_AEAD ? d.aad_len[i] : 0);
                    result = 0;
                    goto done;
                }
                pos += olen;
            }
        }
        ran++;
        if (decryptable) {
            /* Every library decrypts (unwraps) what the first one produced. */
            memset(out, 0, out_total + 1);
            for (int i = 0; i < d.n; i++)
                skip[i] |= ref_skip[i];
            st = diff_run(op, &d, 1, ref_ins, ref_tags, out, tags, skip);
            int same = 1;
            size_t pos = 0;
            for (int i = 0; i < d.n; i++) {
                if (!skip[i] && memcmp(out + pos, d.msg[i], d.len[i]) != 0)
                    same = 0;
                pos += d.len[i];
            }
            if (st != CB_OK || !same) {
                snprintf(why, whylen, "%s does not %s what %s %s (%s)", libs[li]->name,
                         wrap ? "unwrap" : "decrypt", first, wrap ? "wrapped" : "encrypted",
                         st != CB_OK ? (st == CB_ERR_AUTH ? (wrap ? "integrity check refused" : "tag refused")
                                                          : "error")
                                     : wrap ? "key data differs" : "plaintext differs");
                result = 0;
                goto done;
            }
        }
    }
    if (ran >= 2)
        result = 1;
    else
        snprintf(why, whylen, "fewer than two libraries ran %s", alg->name);
done:
    free(msgs);
    free(ref);
    free(ref_tags);
    free(out);
    free(tags);
    free(aad);
    return result;
}

int cb_differential(const cb_algorithm *alg, const cb_backend *const *libs, size_t n,
                    char *why, size_t whylen)
{
    return differential(alg, libs, n, why, whylen, -1);
}

/* ---- isolation: a library that crashes fails alone ---- */

/* Runs body(arg, fd) in a child process, whose records go to the same
 * stream; the child writes where it is on fd, records of `size` bytes. Returns
 * the child's exit status, or minus the signal that killed it, with the last
 * record it wrote in last and *got 1 (0 if it wrote none). Without fork the
 * body runs here. */
static int run_isolated(int (*body)(void *, int), void *arg, void *last, size_t size, int *got)
{
    *got = 0;
    int fds[2];
    if (pipe(fds) != 0)
        return body(arg, -1);
    fflush(NULL);   /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return body(arg, -1);
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* never outlive a killed core */
#endif
        close(fds[0]);
        int rc = body(arg, fds[1]);
        fflush(NULL);
        _exit(rc > 125 ? 125 : rc);
    }
    close(fds[1]);
    /* One writer: records arrive in order; one a crash cut short is left out. */
    char *buf = malloc(size);
    size_t have = 0;
    for (;;) {
        ssize_t n = buf ? read(fds[0], buf + have, size - have) : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        have += (size_t)n;
        if (have == size) {
            memcpy(last, buf, size);
            *got = 1;
            have = 0;
        }
    }
    free(buf);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return 1;
    }
    return WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
}

static int covers(const cb_vecset *set, const cb_algorithm *a)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->files[i].alg == a)
            return 1;
    return 0;
}

typedef struct kat_job {
    const cb_backend *b;
    const cb_vecset *set;
    int every_algo;                       /* else only those a file covers */
    int (*init)(const cb_backend *);
    int resumed;                          /* 1: after a crash, from `at` on */
    kat_pos at;
} kat_job;

/* The body of one library's process: its rows, from where job->at says when
 * resumed. Returns the number of rows that failed. */
static int kat_rows(void *arg, int progress_fd)
{
    const kat_job *j = arg;
    int ok = j->init(j->b) == 0, failures = 0;
    if (!j->resumed)
        cb_emit_library(j->b);
    int i = 0;
    for (const cb_op *o = j->b->ops; o->algo; o++, i++) {
        const cb_algorithm *alg = cb_algorithm_find(o->algo);
        if ((j->resumed && i < j->at.row) || !alg || (!j->every_algo && !covers(j->set, alg)))
            continue;
        if (!ok) {
            cb_emit_error(j->b->name, alg->name, NULL, "init_failed", "the library's global initialisation failed");
            failures++;
            continue;
        }
        char why[512];
        const kat_pos *resume = j->resumed && i == j->at.row ? &j->at : NULL;
        int r = kat_algo(j->b->name, o, alg, j->set, why, sizeof why, i, resume, progress_fd);
        if (r == 0)
            failures++;
        else if (r < 0)   /* no vectors: said, but not a failure of kat */
            cb_emit_kat(j->b->name, alg->name, 0, 0, 0, NULL, why);
    }
    return failures;
}

static void crash_text(char *buf, size_t len, const char *lib, int sig, const char *doing)
{
    const char *name = strsignal(sig);
    snprintf(buf, len, "%s crashed (signal %d, %s) %s", lib, sig, name ? name : "?", doing);
}

int cb_kat_library(const cb_backend *b, const cb_vecset *set, int every_algo,
                   int (*init)(const cb_backend *))
{
    kat_job j;
    memset(&j, 0, sizeof j);
    j.b = b;
    j.set = set;
    j.every_algo = every_algo;
    j.init = init;
    for (;;) {
        kat_pos last;
        int got, rc = run_isolated(kat_rows, &j, &last, sizeof last, &got);
        if (rc >= 0)
            return rc;
        char msg[384];
        if (!got) {
            crash_text(msg, sizeof msg, b->name, -rc, "before checking a vector");
            cb_emit_error(b->name, NULL, NULL, "kat_failed", msg);
            return 1;
        }
        /* The vector it was checking failed, named in its file's record; a new process
         * resumes with the next one, the counts so far carried over. */
        const cb_vector *v = &set->files[last.file].v[last.vec];
        cb_kat_result *r = &last.r;
        char doing[192];
        snprintf(doing, sizeof doing, "on vector '%s'", v->name);
        crash_text(msg, sizeof msg, b->name, -rc, doing);
        r->failed++;
        if (v->invalid)
            r->must_fail++;
        if (r->n_crashed < CB_KAT_CRASHES)
            snprintf(r->crashed[r->n_crashed], sizeof r->crashed[0], "%s", v->name);
        r->n_crashed++;
        if (!r->message[0])
            snprintf(r->message, sizeof r->message, "%s", msg);
        j.at = last;
        j.at.vec++;
        j.resumed = 1;
    }
}

typedef struct diff_job {
    const cb_algorithm *alg;
    const cb_backend *const *libs;
    const char *const *names;
    size_t n;
} diff_job;

static int diff_body(void *arg, int progress_fd)
{
    const diff_job *j = arg;
    char why[512];
    int r = differential(j->alg, j->libs, j->n, why, sizeof why, progress_fd);
    if (r < 0)
        return 2;
    cb_emit_differential(j->alg->name, j->names, j->n, r == 1, r == 1 ? NULL : why);
    return r == 1 ? 0 : 1;
}

int cb_differential_isolated(const cb_algorithm *alg, const cb_backend *const *libs,
                             const char *const *names, size_t n)
{
    diff_job j = {alg, libs, names, n};
    int last = -1, got, rc = run_isolated(diff_body, &j, &last, sizeof last, &got);
    if (rc >= 0)
        return rc == 0 ? 1 : rc == 2 ? -1 : 0;
    char msg[256];
    crash_text(msg, sizeof msg, got && last >= 0 && (size_t)last < n ? names[last] : "a library", -rc,
               "on random input");
    cb_emit_differential(alg->name, names, n, 0, msg);
    return 0;
}
