/* SPDX-License-Identifier: GPL-3.0-or-later */
/* algorithms.c - sizes of every algorithm the core knows (see algorithms.h). */
#include "algorithms.h"
#include <string.h>

/*  name                 kind       key iv  tag blk per-msg-nonce */
const cb_algorithm cb_algorithms[] = {
    /* AEAD: a 12-byte nonce and 16-byte tag, as TLS uses them */
    {"aes-128-gcm",        CB_AEAD,   16, 12, 16, 1, 1},
    {"aes-192-gcm",        CB_AEAD,   24, 12, 16, 1, 1},
    {"aes-256-gcm",        CB_AEAD,   32, 12, 16, 1, 1},
    {"chacha20-poly1305",  CB_AEAD,   32, 12, 16, 1, 1},
    {"aes-128-ocb",        CB_AEAD,   16, 12, 16, 1, 1},
    {"aes-192-ocb",        CB_AEAD,   24, 12, 16, 1, 1},
    {"aes-256-ocb",        CB_AEAD,   32, 12, 16, 1, 1},
    {"aes-128-ccm",        CB_AEAD,   16, 12, 16, 1, 1},
    {"aes-192-ccm",        CB_AEAD,   24, 12, 16, 1, 1},
    {"aes-256-ccm",        CB_AEAD,   32, 12, 16, 1, 1},
    {"aes-128-eax",        CB_AEAD,   16, 16, 16, 1, 1},   /* EAX's 16-byte nonce */
    /* SIV (RFC 5297): key = MAC key || CTR key; the nonce is the last associated-data
     * component (section 3) and the tag is the synthetic IV */
    {"aes-128-siv",        CB_AEAD,   32, 12, 16, 1, 1},
    {"aes-192-siv",        CB_AEAD,   48, 12, 16, 1, 1},
    {"aes-256-siv",        CB_AEAD,   64, 12, 16, 1, 1},
    /* AES-GCM-SIV (RFC 8452): nonce-misuse-resistant, 12-byte nonce */
    {"aes-128-gcm-siv",    CB_AEAD,   16, 12, 16, 1, 1},
    {"aes-256-gcm-siv",    CB_AEAD,   32, 12, 16, 1, 1},
    /* ... and with a 192-bit key (OpenSSL 3.2's AES-192-GCM-SIV): RFC 8452 defines 128 and
     * 256-bit keys alone; the key derivation extended as for 256 bits (three 8-byte halves
     * of E(le32(i) || nonce), i = 2..4, make the encryption key) */
    {"aes-192-gcm-siv",    CB_AEAD,   24, 12, 16, 1, 1},
    /* TLS 1.1/1.2 records, MAC-then-encrypt (RFC 5246 6.2.3.2): key = AES key || MAC key,
     * nonce = the block before the content (RFC 4346 6.2.3.2 (2)(a)), AAD = the record
     * header; ct || tag = the record, the tag its IV field, MAC and padding beyond the
     * message (whole blocks); a message is at most one record (cb_max_len) */
    {"aes-128-cbc-hmac-sha1",   CB_AEAD, 36, 16, 48, 16, 1},
    {"aes-256-cbc-hmac-sha1",   CB_AEAD, 52, 16, 48, 16, 1},
    {"aes-128-cbc-hmac-sha256", CB_AEAD, 48, 16, 64, 16, 1},
    {"aes-256-cbc-hmac-sha256", CB_AEAD, 64, 16, 64, 16, 1},
    /* GCM, CCM, EAX and OCB over the other 128-bit block ciphers (a 16-byte tag; a 12-byte
     * nonce, 16 for EAX as aes-128-eax), and EAX at AES's other key sizes */
    {"camellia-128-gcm",   CB_AEAD,   16, 12, 16, 1, 1},
    {"camellia-192-gcm",   CB_AEAD,   24, 12, 16, 1, 1},
    {"camellia-256-gcm",   CB_AEAD,   32, 12, 16, 1, 1},
    {"aria-128-gcm",       CB_AEAD,   16, 12, 16, 1, 1},
    {"aria-192-gcm",       CB_AEAD,   24, 12, 16, 1, 1},
    {"aria-256-gcm",       CB_AEAD,   32, 12, 16, 1, 1},
    {"sm4-gcm",            CB_AEAD,   16, 12, 16, 1, 1},
    {"seed-gcm",           CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-128-gcm",    CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-256-gcm",    CB_AEAD,   32, 12, 16, 1, 1},
    {"serpent-128-gcm",    CB_AEAD,   16, 12, 16, 1, 1},
    {"serpent-192-gcm",    CB_AEAD,   24, 12, 16, 1, 1},
    {"serpent-256-gcm",    CB_AEAD,   32, 12, 16, 1, 1},
    {"camellia-128-ccm",   CB_AEAD,   16, 12, 16, 1, 1},
    {"camellia-192-ccm",   CB_AEAD,   24, 12, 16, 1, 1},
    {"camellia-256-ccm",   CB_AEAD,   32, 12, 16, 1, 1},
    {"aria-128-ccm",       CB_AEAD,   16, 12, 16, 1, 1},
    {"aria-192-ccm",       CB_AEAD,   24, 12, 16, 1, 1},
    {"aria-256-ccm",       CB_AEAD,   32, 12, 16, 1, 1},
    {"sm4-ccm",            CB_AEAD,   16, 12, 16, 1, 1},
    {"seed-ccm",           CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-128-ccm",    CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-256-ccm",    CB_AEAD,   32, 12, 16, 1, 1},
    {"serpent-128-ccm",    CB_AEAD,   16, 12, 16, 1, 1},
    {"serpent-192-ccm",    CB_AEAD,   24, 12, 16, 1, 1},
    {"serpent-256-ccm",    CB_AEAD,   32, 12, 16, 1, 1},
    {"camellia-128-eax",   CB_AEAD,   16, 16, 16, 1, 1},
    {"camellia-192-eax",   CB_AEAD,   24, 16, 16, 1, 1},
    {"camellia-256-eax",   CB_AEAD,   32, 16, 16, 1, 1},
    {"aria-128-eax",       CB_AEAD,   16, 16, 16, 1, 1},
    {"aria-192-eax",       CB_AEAD,   24, 16, 16, 1, 1},
    {"aria-256-eax",       CB_AEAD,   32, 16, 16, 1, 1},
    {"sm4-eax",            CB_AEAD,   16, 16, 16, 1, 1},
    {"seed-eax",           CB_AEAD,   16, 16, 16, 1, 1},
    {"twofish-128-eax",    CB_AEAD,   16, 16, 16, 1, 1},
    {"twofish-256-eax",    CB_AEAD,   32, 16, 16, 1, 1},
    {"serpent-128-eax",    CB_AEAD,   16, 16, 16, 1, 1},
    {"serpent-192-eax",    CB_AEAD,   24, 16, 16, 1, 1},
    {"serpent-256-eax",    CB_AEAD,   32, 16, 16, 1, 1},
    {"camellia-128-ocb",   CB_AEAD,   16, 12, 16, 1, 1},
    {"camellia-192-ocb",   CB_AEAD,   24, 12, 16, 1, 1},
    {"camellia-256-ocb",   CB_AEAD,   32, 12, 16, 1, 1},
    {"aria-128-ocb",       CB_AEAD,   16, 12, 16, 1, 1},
    {"aria-192-ocb",       CB_AEAD,   24, 12, 16, 1, 1},
    {"aria-256-ocb",       CB_AEAD,   32, 12, 16, 1, 1},
    {"sm4-ocb",            CB_AEAD,   16, 12, 16, 1, 1},
    {"seed-ocb",           CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-128-ocb",    CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-256-ocb",    CB_AEAD,   32, 12, 16, 1, 1},
    {"serpent-128-ocb",    CB_AEAD,   16, 12, 16, 1, 1},
    {"serpent-192-ocb",    CB_AEAD,   24, 12, 16, 1, 1},
    {"serpent-256-ocb",    CB_AEAD,   32, 12, 16, 1, 1},
    {"aes-192-eax",        CB_AEAD,   24, 16, 16, 1, 1},
    {"aes-256-eax",        CB_AEAD,   32, 16, 16, 1, 1},
    /* EAX over the 64-bit block ciphers: a tag of one block, an 8-byte nonce */
    {"des-eax",            CB_AEAD,   8, 8, 8, 1, 1},
    {"3des-eax",           CB_AEAD,   24, 8, 8, 1, 1},
    {"blowfish-eax",       CB_AEAD,   16, 8, 8, 1, 1},
    {"cast5-eax",          CB_AEAD,   16, 8, 8, 1, 1},
    {"idea-eax",           CB_AEAD,   16, 8, 8, 1, 1},
    {"gost28147-eax",      CB_AEAD,   32, 8, 8, 1, 1},
    /* GCM, CCM and OCB over RC6-128 and Noekeon (direct- and indirect-key modes), as over the others */
    {"rc6-128-gcm",        CB_AEAD,   16, 12, 16, 1, 1},
    {"rc6-128-ccm",        CB_AEAD,   16, 12, 16, 1, 1},
    {"rc6-128-ocb",        CB_AEAD,   16, 12, 16, 1, 1},
    {"noekeon-direct-gcm", CB_AEAD,   16, 12, 16, 1, 1},
    {"noekeon-direct-ccm", CB_AEAD,   16, 12, 16, 1, 1},
    {"noekeon-direct-ocb", CB_AEAD,   16, 12, 16, 1, 1},
    {"noekeon-gcm",        CB_AEAD,   16, 12, 16, 1, 1},
    {"noekeon-ccm",        CB_AEAD,   16, 12, 16, 1, 1},
    {"noekeon-ocb",        CB_AEAD,   16, 12, 16, 1, 1},
    /* CCM with an 8-byte tag (RFC 6655's CCM_8 suites), the CCM rows' 12-byte nonce */
    {"aes-128-ccm-8",      CB_AEAD,   16, 12, 8, 1, 1},
    {"aes-256-ccm-8",      CB_AEAD,   32, 12, 8, 1, 1},
    /* SIV and GCM-SIV over the other 128-bit block ciphers (SIV's key: two cipher keys; GCM-SIV
     * takes 128 or 256-bit keys alone, RFC 8452 section 4) */
    {"twofish-128-siv",  CB_AEAD,   32, 12, 16, 1, 1},
    {"twofish-256-siv",  CB_AEAD,   64, 12, 16, 1, 1},
    {"serpent-128-siv",  CB_AEAD,   32, 12, 16, 1, 1},
    {"serpent-192-siv",  CB_AEAD,   48, 12, 16, 1, 1},
    {"serpent-256-siv",  CB_AEAD,   64, 12, 16, 1, 1},
    {"seed-siv",         CB_AEAD,   32, 12, 16, 1, 1},
    {"camellia-128-siv", CB_AEAD,   32, 12, 16, 1, 1},
    {"camellia-192-siv", CB_AEAD,   48, 12, 16, 1, 1},
    {"camellia-256-siv", CB_AEAD,   64, 12, 16, 1, 1},
    {"sm4-siv",          CB_AEAD,   32, 12, 16, 1, 1},
    {"twofish-128-gcm-siv",CB_AEAD,   16, 12, 16, 1, 1},
    {"twofish-256-gcm-siv",CB_AEAD,   32, 12, 16, 1, 1},
    {"serpent-128-gcm-siv",CB_AEAD,   16, 12, 16, 1, 1},
    {"serpent-256-gcm-siv",CB_AEAD,   32, 12, 16, 1, 1},
    {"seed-gcm-siv",     CB_AEAD,   16, 12, 16, 1, 1},
    {"camellia-128-gcm-siv",CB_AEAD,   16, 12, 16, 1, 1},
    {"camellia-256-gcm-siv",CB_AEAD,   32, 12, 16, 1, 1},
    {"sm4-gcm-siv",      CB_AEAD,   16, 12, 16, 1, 1},
    /* SIV and GCM-SIV over ARIA (RFC 5794; libgcrypt 1.11), as over the ciphers above */
    {"aria-128-siv",     CB_AEAD,   32, 12, 16, 1, 1},
    {"aria-192-siv",     CB_AEAD,   48, 12, 16, 1, 1},
    {"aria-256-siv",     CB_AEAD,   64, 12, 16, 1, 1},
    {"aria-128-gcm-siv", CB_AEAD,   16, 12, 16, 1, 1},
    {"aria-256-gcm-siv", CB_AEAD,   32, 12, 16, 1, 1},
    /* EAX over RC2 (RFC 2268; 128 and 40 effective key bits, the key's own length) */
    {"rc2-eax",            CB_AEAD,   16, 8, 8, 1, 1},
    {"rc2-40-eax",         CB_AEAD,   5, 8, 8, 1, 1},
    /* and over Anubis (tweaked) with a 128-bit key */
    {"anubis-128-gcm",     CB_AEAD,   16, 12, 16, 1, 1},
    {"anubis-128-ccm",     CB_AEAD,   16, 12, 16, 1, 1},
    {"anubis-128-ocb",     CB_AEAD,   16, 12, 16, 1, 1},
    /* and over SAFER+ with a 128-bit key */
    {"safer-plus-128-gcm", CB_AEAD,   16, 12, 16, 1, 1},
    {"safer-plus-128-ccm", CB_AEAD,   16, 12, 16, 1, 1},
    {"safer-plus-128-ocb", CB_AEAD,   16, 12, 16, 1, 1},
    /* ciphers */
    {"aes-128-cbc",        CB_CIPHER, 16, 16, 0, 16, 0},
    {"aes-192-cbc",        CB_CIPHER, 24, 16, 0, 16, 0},
    {"aes-256-cbc",        CB_CIPHER, 32, 16, 0, 16, 0},
    {"aes-128-ctr",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"aes-192-ctr",        CB_CIPHER, 24, 16, 0, 1, 0},
    {"aes-256-ctr",        CB_CIPHER, 32, 16, 0, 1, 0},
    {"aes-128-cfb",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"aes-192-cfb",        CB_CIPHER, 24, 16, 0, 1, 0},
    {"aes-256-cfb",        CB_CIPHER, 32, 16, 0, 1, 0},
    {"aes-128-ecb",        CB_CIPHER, 16, 0, 0, 16, 0},
    {"aes-192-ecb",        CB_CIPHER, 24, 0, 0, 16, 0},
    {"aes-256-ecb",        CB_CIPHER, 32, 0, 0, 16, 0},
    {"aes-128-xts",        CB_CIPHER, 32, 16, 0, 16, 1}, /* key = two AES-128 keys; iv = tweak */
    {"aes-256-xts",        CB_CIPHER, 64, 16, 0, 16, 1},
    {"camellia-128-cbc",   CB_CIPHER, 16, 16, 0, 16, 0},
    {"camellia-256-cbc",   CB_CIPHER, 32, 16, 0, 16, 0},
    {"camellia-192-cbc",   CB_CIPHER, 24, 16, 0, 16, 0},
    {"camellia-192-ctr",   CB_CIPHER, 24, 16, 0, 1, 0},
    {"camellia-128-ctr",   CB_CIPHER, 16, 16, 0, 1, 0},
    {"camellia-256-ctr",   CB_CIPHER, 32, 16, 0, 1, 0},
    {"twofish-256-cbc",    CB_CIPHER, 32, 16, 0, 16, 0},
    {"serpent-256-cbc",    CB_CIPHER, 32, 16, 0, 16, 0},
    {"blowfish-cbc",       CB_CIPHER, 16, 8, 0, 8, 0},
    {"cast5-cbc",          CB_CIPHER, 16, 8, 0, 8, 0},
    {"idea-cbc",           CB_CIPHER, 16, 8, 0, 8, 0},
    {"3des-cbc",           CB_CIPHER, 24, 8, 0, 8, 0},
    {"des-cbc",            CB_CIPHER, 8, 8, 0, 8, 0},
    {"sm4-cbc",            CB_CIPHER, 16, 16, 0, 16, 0},
    {"rc4",                CB_CIPHER, 16, 0, 0, 1, 0},
    {"rc4-40",             CB_CIPHER, 5, 0, 0, 1, 0},     /* a 40-bit key, as export rules wanted */
    /* DESX (Rivest): DES between two 64-bit whitening keys; the key is the DES key, the
     * input whitening, the output whitening (OpenSSL's order) */
    {"desx-cbc",           CB_CIPHER, 24, 8, 0, 8, 0},
    {"chacha20",           CB_CIPHER, 32, 12, 0, 1, 0},  /* RFC 8439: 96-bit nonce, counter 0 */
    {"salsa20",            CB_CIPHER, 32, 8, 0, 1, 0},
    {"salsa20r12",         CB_CIPHER, 32, 8, 0, 1, 0},
    /* CFB over the full block, as OpenPGP encrypts (RFC 4880 13.9): gpg's ciphers alone */
    {"twofish-256-cfb",    CB_CIPHER, 32, 16, 0, 1, 0},
    {"camellia-128-cfb",   CB_CIPHER, 16, 16, 0, 1, 0},
    {"camellia-192-cfb",   CB_CIPHER, 24, 16, 0, 1, 0},
    {"camellia-256-cfb",   CB_CIPHER, 32, 16, 0, 1, 0},
    {"cast5-cfb",          CB_CIPHER, 16, 8, 0, 1, 0},
    {"blowfish-cfb",       CB_CIPHER, 16, 8, 0, 1, 0},
    {"3des-cfb",           CB_CIPHER, 24, 8, 0, 1, 0},
    {"idea-cfb",           CB_CIPHER, 16, 8, 0, 1, 0},
    /* ECB of every block cipher: the raw block function over whole blocks */
    {"camellia-128-ecb",   CB_CIPHER, 16, 0, 0, 16, 0},
    {"camellia-192-ecb",   CB_CIPHER, 24, 0, 0, 16, 0},
    {"camellia-256-ecb",   CB_CIPHER, 32, 0, 0, 16, 0},
    {"twofish-256-ecb",    CB_CIPHER, 32, 0, 0, 16, 0},
    {"serpent-256-ecb",    CB_CIPHER, 32, 0, 0, 16, 0},
    {"sm4-ecb",            CB_CIPHER, 16, 0, 0, 16, 0},
    {"blowfish-ecb",       CB_CIPHER, 16, 0, 0, 8, 0},
    {"cast5-ecb",          CB_CIPHER, 16, 0, 0, 8, 0},
    {"idea-ecb",           CB_CIPHER, 16, 0, 0, 8, 0},
    {"3des-ecb",           CB_CIPHER, 24, 0, 0, 8, 0},
    {"des-ecb",            CB_CIPHER, 8, 0, 0, 8, 0},
    /* more modes: OFB and CFB8 (SP 800-38A), CTR and OFB of 64-bit block ciphers */
    {"aes-128-ofb",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"aes-192-ofb",        CB_CIPHER, 24, 16, 0, 1, 0},
    {"aes-256-ofb",        CB_CIPHER, 32, 16, 0, 1, 0},
    {"aes-128-cfb8",       CB_CIPHER, 16, 16, 0, 1, 0},
    {"aes-192-cfb8",       CB_CIPHER, 24, 16, 0, 1, 0},
    {"aes-256-cfb8",       CB_CIPHER, 32, 16, 0, 1, 0},
    {"3des-ofb",           CB_CIPHER, 24, 8, 0, 1, 0},
    {"3des-ctr",           CB_CIPHER, 24, 8, 0, 1, 0},
    {"blowfish-ofb",       CB_CIPHER, 16, 8, 0, 1, 0},
    {"blowfish-ctr",       CB_CIPHER, 16, 8, 0, 1, 0},
    {"cast5-ofb",          CB_CIPHER, 16, 8, 0, 1, 0},
    {"cast5-ctr",          CB_CIPHER, 16, 8, 0, 1, 0},
    {"idea-ofb",           CB_CIPHER, 16, 8, 0, 1, 0},
    {"idea-ctr",           CB_CIPHER, 16, 8, 0, 1, 0},
    /* Twofish and Serpent at other key sizes and in CTR */
    {"twofish-128-ecb",    CB_CIPHER, 16, 0, 0, 16, 0},
    {"twofish-128-cbc",    CB_CIPHER, 16, 16, 0, 16, 0},
    {"twofish-256-ctr",    CB_CIPHER, 32, 16, 0, 1, 0},
    {"serpent-128-ecb",    CB_CIPHER, 16, 0, 0, 16, 0},
    {"serpent-128-cbc",    CB_CIPHER, 16, 16, 0, 16, 0},
    {"serpent-192-cbc",    CB_CIPHER, 24, 16, 0, 16, 0},
    {"serpent-256-ctr",    CB_CIPHER, 32, 16, 0, 1, 0},
    /* RC2 (RFC 2268): 128-bit key, 128 effective key bits */
    {"rc2-ecb",            CB_CIPHER, 16, 0, 0, 8, 0},
    {"rc2-cbc",            CB_CIPHER, 16, 8, 0, 8, 0},
    /* SEED (RFC 4269), ARIA (RFC 5794), SM4's other modes */
    {"seed-ecb",           CB_CIPHER, 16, 0, 0, 16, 0},
    {"seed-cbc",           CB_CIPHER, 16, 16, 0, 16, 0},
    {"aria-128-ecb",       CB_CIPHER, 16, 0, 0, 16, 0},
    {"aria-192-ecb",       CB_CIPHER, 24, 0, 0, 16, 0},
    {"aria-256-ecb",       CB_CIPHER, 32, 0, 0, 16, 0},
    {"aria-128-cbc",       CB_CIPHER, 16, 16, 0, 16, 0},
    {"aria-192-cbc",       CB_CIPHER, 24, 16, 0, 16, 0},
    {"aria-256-cbc",       CB_CIPHER, 32, 16, 0, 16, 0},
    {"sm4-ctr",            CB_CIPHER, 16, 16, 0, 1, 0},
    {"sm4-ofb",            CB_CIPHER, 16, 16, 0, 1, 0},
    {"sm4-cfb",            CB_CIPHER, 16, 16, 0, 1, 0},
    /* GOST 28147-89 (RFC 5830) with GOST R 34.11-94's test S-boxes, the one set every
     * library here has: its "simple replacement" mode, ECB */
    {"gost28147-ecb",      CB_CIPHER, 32, 0, 0, 8, 0},
    /* The block-cipher grid: the ciphers above in every mode a library offers them in
     * (SP 800-38A's ECB, CBC, full-block CFB, CFB8, OFB and CTR, the whole block a
     * big-endian counter), XTS (IEEE 1619) for the 128-bit ones (key: data key then
     * tweak key), RC2 with 40 and 64 effective key bits (the key's size), GOST 28147-89
     * in SP 800-38A's modes (not RFC 5830's own counter mode) */
    {"camellia-128-ofb",   CB_CIPHER, 16, 16, 0, 1, 0},
    {"camellia-128-cfb8",  CB_CIPHER, 16, 16, 0, 1, 0},
    {"camellia-128-xts",   CB_CIPHER, 32, 16, 0, 16, 1},
    {"camellia-192-ofb",   CB_CIPHER, 24, 16, 0, 1, 0},
    {"camellia-192-cfb8",  CB_CIPHER, 24, 16, 0, 1, 0},
    {"camellia-192-xts",   CB_CIPHER, 48, 16, 0, 16, 1},
    {"camellia-256-ofb",   CB_CIPHER, 32, 16, 0, 1, 0},
    {"camellia-256-cfb8",  CB_CIPHER, 32, 16, 0, 1, 0},
    {"camellia-256-xts",   CB_CIPHER, 64, 16, 0, 16, 1},
    {"serpent-128-ctr",    CB_CIPHER, 16, 16, 0, 1, 0},
    {"serpent-128-cfb",    CB_CIPHER, 16, 16, 0, 1, 0},
    {"serpent-128-cfb8",   CB_CIPHER, 16, 16, 0, 1, 0},
    {"serpent-128-ofb",    CB_CIPHER, 16, 16, 0, 1, 0},
    {"serpent-128-xts",    CB_CIPHER, 32, 16, 0, 16, 1},
    {"serpent-192-ecb",    CB_CIPHER, 24, 0, 0, 16, 0},
    {"serpent-192-ctr",    CB_CIPHER, 24, 16, 0, 1, 0},
    {"serpent-192-cfb",    CB_CIPHER, 24, 16, 0, 1, 0},
    {"serpent-192-cfb8",   CB_CIPHER, 24, 16, 0, 1, 0},
    {"serpent-192-ofb",    CB_CIPHER, 24, 16, 0, 1, 0},
    {"serpent-192-xts",    CB_CIPHER, 48, 16, 0, 16, 1},
    {"serpent-256-cfb",    CB_CIPHER, 32, 16, 0, 1, 0},
    {"serpent-256-cfb8",   CB_CIPHER, 32, 16, 0, 1, 0},
    {"serpent-256-ofb",    CB_CIPHER, 32, 16, 0, 1, 0},
    {"serpent-256-xts",    CB_CIPHER, 64, 16, 0, 16, 1},
    {"twofish-128-ctr",    CB_CIPHER, 16, 16, 0, 1, 0},
    {"twofish-128-cfb",    CB_CIPHER, 16, 16, 0, 1, 0},
    {"twofish-128-cfb8",   CB_CIPHER, 16, 16, 0, 1, 0},
    {"twofish-128-ofb",    CB_CIPHER, 16, 16, 0, 1, 0},
    {"twofish-128-xts",    CB_CIPHER, 32, 16, 0, 16, 1},
    {"twofish-192-ecb",    CB_CIPHER, 24, 0, 0, 16, 0},
    {"twofish-192-cbc",    CB_CIPHER, 24, 16, 0, 16, 0},
    {"twofish-192-ctr",    CB_CIPHER, 24, 16, 0, 1, 0},
    {"twofish-192-cfb",    CB_CIPHER, 24, 16, 0, 1, 0},
    {"twofish-192-cfb8",   CB_CIPHER, 24, 16, 0, 1, 0},
    {"twofish-192-ofb",    CB_CIPHER, 24, 16, 0, 1, 0},
    {"twofish-192-xts",    CB_CIPHER, 48, 16, 0, 16, 1},
    {"twofish-256-cfb8",   CB_CIPHER, 32, 16, 0, 1, 0},
    {"twofish-256-ofb",    CB_CIPHER, 32, 16, 0, 1, 0},
    {"twofish-256-xts",    CB_CIPHER, 64, 16, 0, 16, 1},
    {"seed-cfb",           CB_CIPHER, 16, 16, 0, 1, 0},
    {"seed-cfb8",          CB_CIPHER, 16, 16, 0, 1, 0},
    {"seed-ofb",           CB_CIPHER, 16, 16, 0, 1, 0},
    {"seed-ctr",           CB_CIPHER, 16, 16, 0, 1, 0},
    {"seed-xts",           CB_CIPHER, 32, 16, 0, 16, 1},
    {"aria-128-cfb",       CB_CIPHER, 16, 16, 0, 1, 0},
    {"aria-128-cfb8",      CB_CIPHER, 16, 16, 0, 1, 0},
    {"aria-128-ofb",       CB_CIPHER, 16, 16, 0, 1, 0},
    {"aria-128-ctr",       CB_CIPHER, 16, 16, 0, 1, 0},
    {"aria-128-xts",       CB_CIPHER, 32, 16, 0, 16, 1},
    {"aria-192-cfb",       CB_CIPHER, 24, 16, 0, 1, 0},
    {"aria-192-cfb8",      CB_CIPHER, 24, 16, 0, 1, 0},
    {"aria-192-ofb",       CB_CIPHER, 24, 16, 0, 1, 0},
    {"aria-192-ctr",       CB_CIPHER, 24, 16, 0, 1, 0},
    {"aria-192-xts",       CB_CIPHER, 48, 16, 0, 16, 1},
    {"aria-256-cfb",       CB_CIPHER, 32, 16, 0, 1, 0},
    {"aria-256-cfb8",      CB_CIPHER, 32, 16, 0, 1, 0},
    {"aria-256-ofb",       CB_CIPHER, 32, 16, 0, 1, 0},
    {"aria-256-ctr",       CB_CIPHER, 32, 16, 0, 1, 0},
    {"aria-256-xts",       CB_CIPHER, 64, 16, 0, 16, 1},
    {"sm4-cfb8",           CB_CIPHER, 16, 16, 0, 1, 0},
    {"sm4-xts",            CB_CIPHER, 32, 16, 0, 16, 1},
    {"aes-192-xts",        CB_CIPHER, 48, 16, 0, 16, 1},
    {"des-cfb",            CB_CIPHER, 8, 8, 0, 1, 0},
    {"des-cfb8",           CB_CIPHER, 8, 8, 0, 1, 0},
    {"des-ofb",            CB_CIPHER, 8, 8, 0, 1, 0},
    {"des-ctr",            CB_CIPHER, 8, 8, 0, 1, 0},
    {"3des-cfb8",          CB_CIPHER, 24, 8, 0, 1, 0},
    {"blowfish-cfb8",      CB_CIPHER, 16, 8, 0, 1, 0},
    {"cast5-cfb8",         CB_CIPHER, 16, 8, 0, 1, 0},
    {"idea-cfb8",          CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-cfb",            CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-cfb8",           CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-ofb",            CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-ctr",            CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-40-ecb",         CB_CIPHER, 5, 0, 0, 8, 0},
    {"rc2-40-cbc",         CB_CIPHER, 5, 8, 0, 8, 0},
    {"rc2-40-cfb",         CB_CIPHER, 5, 8, 0, 1, 0},
    {"rc2-40-cfb8",        CB_CIPHER, 5, 8, 0, 1, 0},
    {"rc2-40-ofb",         CB_CIPHER, 5, 8, 0, 1, 0},
    {"rc2-40-ctr",         CB_CIPHER, 5, 8, 0, 1, 0},
    {"rc2-64-ecb",         CB_CIPHER, 8, 0, 0, 8, 0},
    {"rc2-64-cbc",         CB_CIPHER, 8, 8, 0, 8, 0},
    {"rc2-64-cfb",         CB_CIPHER, 8, 8, 0, 1, 0},
    {"rc2-64-cfb8",        CB_CIPHER, 8, 8, 0, 1, 0},
    {"rc2-64-ofb",         CB_CIPHER, 8, 8, 0, 1, 0},
    {"rc2-64-ctr",         CB_CIPHER, 8, 8, 0, 1, 0},
    /* RC2 with 1024 effective key bits (no reduction of the 128-bit key), the variant of
     * Gutmann's cryptlib that Nettle offers as arctwo_gutmann128 */
    {"rc2-gutmann-ecb",    CB_CIPHER, 16, 0, 0, 8, 0},
    {"rc2-gutmann-cbc",    CB_CIPHER, 16, 8, 0, 8, 0},
    {"rc2-gutmann-ctr",    CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-gutmann-cfb",    CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc2-gutmann-cfb8",   CB_CIPHER, 16, 8, 0, 1, 0},
    {"gost28147-cbc",      CB_CIPHER, 32, 8, 0, 8, 0},
    {"gost28147-cfb",      CB_CIPHER, 32, 8, 0, 1, 0},
    {"gost28147-cfb8",     CB_CIPHER, 32, 8, 0, 1, 0},
    {"gost28147-ofb",      CB_CIPHER, 32, 8, 0, 1, 0},
    {"gost28147-ctr",      CB_CIPHER, 32, 8, 0, 1, 0},
    /* More block ciphers, each at its standard key size: XTEA (128-bit key, 32 cycles),
     * RC5-32/12/16, RC6 with a 128-bit key (20 rounds), SKIPJACK (80-bit key), KASUMI
     * (128-bit key), Noekeon in its direct-key mode (the key used as the working key, not
     * first encrypted under the null key as the indirect mode does), in SP 800-38A's modes;
     * XTS and the AEADs over the two 128-bit ones */
    {"xtea-ecb",           CB_CIPHER, 16, 0, 0, 8, 0},
    {"xtea-cbc",           CB_CIPHER, 16, 8, 0, 8, 0},
    {"xtea-cfb",           CB_CIPHER, 16, 8, 0, 1, 0},
    {"xtea-ofb",           CB_CIPHER, 16, 8, 0, 1, 0},
    {"xtea-ctr",           CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc5-ecb",            CB_CIPHER, 16, 0, 0, 8, 0},
    {"rc5-cbc",            CB_CIPHER, 16, 8, 0, 8, 0},
    {"rc5-cfb",            CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc5-ofb",            CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc5-ctr",            CB_CIPHER, 16, 8, 0, 1, 0},
    {"rc6-128-ecb",        CB_CIPHER, 16, 0, 0, 16, 0},
    {"rc6-128-cbc",        CB_CIPHER, 16, 16, 0, 16, 0},
    {"rc6-128-cfb",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"rc6-128-ofb",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"rc6-128-ctr",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"rc6-128-xts",        CB_CIPHER, 32, 16, 0, 16, 1},
    {"skipjack-ecb",       CB_CIPHER, 10, 0, 0, 8, 0},
    {"skipjack-cbc",       CB_CIPHER, 10, 8, 0, 8, 0},
    {"skipjack-cfb",       CB_CIPHER, 10, 8, 0, 1, 0},
    {"skipjack-ofb",       CB_CIPHER, 10, 8, 0, 1, 0},
    {"skipjack-ctr",       CB_CIPHER, 10, 8, 0, 1, 0},
    {"kasumi-ecb",         CB_CIPHER, 16, 0, 0, 8, 0},
    {"kasumi-cbc",         CB_CIPHER, 16, 8, 0, 8, 0},
    {"kasumi-cfb",         CB_CIPHER, 16, 8, 0, 1, 0},
    {"kasumi-ofb",         CB_CIPHER, 16, 8, 0, 1, 0},
    {"kasumi-ctr",         CB_CIPHER, 16, 8, 0, 1, 0},
    {"noekeon-direct-ecb", CB_CIPHER, 16, 0, 0, 16, 0},
    {"noekeon-direct-cbc", CB_CIPHER, 16, 16, 0, 16, 0},
    {"noekeon-direct-cfb", CB_CIPHER, 16, 16, 0, 1, 0},
    {"noekeon-direct-ofb", CB_CIPHER, 16, 16, 0, 1, 0},
    {"noekeon-direct-ctr", CB_CIPHER, 16, 16, 0, 1, 0},
    {"noekeon-direct-xts", CB_CIPHER, 32, 16, 0, 16, 1},
    /* Noekeon in its indirect-key mode (the working key is the key encrypted under the null key) */
    {"noekeon-ecb",        CB_CIPHER, 16, 0, 0, 16, 0},
    {"noekeon-cbc",        CB_CIPHER, 16, 16, 0, 16, 0},
    {"noekeon-cfb",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"noekeon-ofb",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"noekeon-ctr",        CB_CIPHER, 16, 16, 0, 1, 0},
    {"noekeon-xts",        CB_CIPHER, 32, 16, 0, 16, 1},
    /* SAFER K-64 (Massey): a 64-bit key, 6 rounds */
    {"safer-k64-ecb",      CB_CIPHER, 8, 0, 0, 8, 0},
    {"safer-k64-cbc",      CB_CIPHER, 8, 8, 0, 8, 0},
    {"safer-k64-cfb",      CB_CIPHER, 8, 8, 0, 1, 0},
    {"safer-k64-ofb",      CB_CIPHER, 8, 8, 0, 1, 0},
    {"safer-k64-ctr",      CB_CIPHER, 8, 8, 0, 1, 0},
    /* GOST 28147-89's own modes with RFC 4357's and RFC 7836's S-boxes and CryptoPro key
     * meshing after every 1024 bytes (RFC 4357 2.3), as the GOST TLS suites use them: CFB
     * (whole 8-byte blocks until the message's last) and the counter mode CNT */
    {"gost28147-tc26z-cfb", CB_CIPHER, 32, 8, 0, 8, 0},
    {"gost28147-cpa-cfb",  CB_CIPHER, 32, 8, 0, 8, 0},
    {"gost28147-cpb-cfb",  CB_CIPHER, 32, 8, 0, 8, 0},
    {"gost28147-cpc-cfb",  CB_CIPHER, 32, 8, 0, 8, 0},
    {"gost28147-cpd-cfb",  CB_CIPHER, 32, 8, 0, 8, 0},
    {"gost28147-tc26z-cnt", CB_CIPHER, 32, 8, 0, 1, 0},
    /* GOST R 34.12-2015's ciphers in CTR-ACPKM (RFC 8645: the key re-derived after every
     * section, 1 KiB for Magma and 4 KiB for Kuznyechik as in RFC 9189's TLS suites); the
     * IV is half a block; whole blocks until the message's last */
    {"magma-ctr-acpkm",    CB_CIPHER, 32, 4, 0, 8, 0},
    {"kuznyechik-ctr-acpkm", CB_CIPHER, 32, 8, 0, 16, 0},
    /* GOST 28147-89 with RFC 4357's CryptoPro-A S-boxes and key meshing every 1 KiB of block
     * encryptions (section 2.3), in the modes that only encrypt blocks */
    {"gost28147-mesh-cfb", CB_CIPHER, 32, 8, 0, 1, 0},
    {"gost28147-mesh-cfb8", CB_CIPHER, 32, 8, 0, 1, 0},
    {"gost28147-mesh-ofb", CB_CIPHER, 32, 8, 0, 1, 0},
    {"gost28147-mesh-ctr", CB_CIPHER, 32, 8, 0, 1, 0},
    /* Anubis (tweaked S-box) with a 128-bit key, 12 rounds; Khazad (tweaked), 128-bit key */
    {"anubis-128-ecb",     CB_CIPHER, 16, 0, 0, 16, 0},
    {"anubis-128-cbc",     CB_CIPHER, 16, 16, 0, 16, 0},
    {"anubis-128-cfb",     CB_CIPHER, 16, 16, 0, 1, 0},
    {"anubis-128-ofb",     CB_CIPHER, 16, 16, 0, 1, 0},
    {"anubis-128-ctr",     CB_CIPHER, 16, 16, 0, 1, 0},
    {"anubis-128-xts",     CB_CIPHER, 32, 16, 0, 16, 1},
    {"khazad-ecb",         CB_CIPHER, 16, 0, 0, 8, 0},
    {"khazad-cbc",         CB_CIPHER, 16, 8, 0, 8, 0},
    {"khazad-cfb",         CB_CIPHER, 16, 8, 0, 1, 0},
    {"khazad-ofb",         CB_CIPHER, 16, 8, 0, 1, 0},
    {"khazad-ctr",         CB_CIPHER, 16, 8, 0, 1, 0},
    /* SAFER+ (the AES submission; Bluetooth's Ar) with a 128-bit key, 8 rounds */
    {"safer-plus-128-ecb", CB_CIPHER, 16, 0, 0, 16, 0},
    {"safer-plus-128-cbc", CB_CIPHER, 16, 16, 0, 16, 0},
    {"safer-plus-128-cfb", CB_CIPHER, 16, 16, 0, 1, 0},
    {"safer-plus-128-ofb", CB_CIPHER, 16, 16, 0, 1, 0},
    {"safer-plus-128-ctr", CB_CIPHER, 16, 16, 0, 1, 0},
    {"safer-plus-128-xts", CB_CIPHER, 32, 16, 0, 16, 1},
    /* SAFER SK-64 (8 rounds), K-128 and SK-128 (10 rounds each): Massey's recommended counts
     * and LibTomCrypt's defaults; SK-64 at 6 and K-128 at 12 rounds, the counts their published
     * answers are for (ECB only: known answers through the same setup) */
    {"safer-sk64-ecb",     CB_CIPHER, 8, 0, 0, 8, 0},
    {"safer-sk64-cbc",     CB_CIPHER, 8, 8, 0, 8, 0},
    {"safer-sk64-cfb",     CB_CIPHER, 8, 8, 0, 1, 0},
    {"safer-sk64-ofb",     CB_CIPHER, 8, 8, 0, 1, 0},
    {"safer-sk64-ctr",     CB_CIPHER, 8, 8, 0, 1, 0},
    {"safer-k128-ecb",     CB_CIPHER, 16, 0, 0, 8, 0},
    {"safer-k128-cbc",     CB_CIPHER, 16, 8, 0, 8, 0},
    {"safer-k128-cfb",     CB_CIPHER, 16, 8, 0, 1, 0},
    {"safer-k128-ofb",     CB_CIPHER, 16, 8, 0, 1, 0},
    {"safer-k128-ctr",     CB_CIPHER, 16, 8, 0, 1, 0},
    {"safer-sk128-ecb",    CB_CIPHER, 16, 0, 0, 8, 0},
    {"safer-sk128-cbc",    CB_CIPHER, 16, 8, 0, 8, 0},
    {"safer-sk128-cfb",    CB_CIPHER, 16, 8, 0, 1, 0},
    {"safer-sk128-ofb",    CB_CIPHER, 16, 8, 0, 1, 0},
    {"safer-sk128-ctr",    CB_CIPHER, 16, 8, 0, 1, 0},
    {"safer-sk64-r6-ecb",  CB_CIPHER, 8, 0, 0, 8, 0},
    {"safer-k128-r12-ecb", CB_CIPHER, 16, 0, 0, 8, 0},
    /* CHC over AES-128: LibTomCrypt's cipher hash construction (Miyaguchi-Preneel, the AES key
     * the chaining value, 0x80 and zero padding with the 64-bit little-endian bit length), and
     * HMAC over it (a 16-byte block; the key has the digest's size) */
    {"chc-aes128",         CB_HASH,   0, 0, 16, 1, 0},
    {"hmac-chc-aes128",    CB_MAC,    16, 0, 16, 1, 0},
    /* CFB1 (SP 800-38A, one bit of feedback per step, each byte from its most significant bit) */
    {"aes-128-cfb1",       CB_CIPHER, 16, 16, 0, 1, 0},
    {"aes-192-cfb1",       CB_CIPHER, 24, 16, 0, 1, 0},
    {"aes-256-cfb1",       CB_CIPHER, 32, 16, 0, 1, 0},
    {"camellia-128-cfb1",  CB_CIPHER, 16, 16, 0, 1, 0},
    {"camellia-192-cfb1",  CB_CIPHER, 24, 16, 0, 1, 0},
    {"camellia-256-cfb1",  CB_CIPHER, 32, 16, 0, 1, 0},
    {"aria-128-cfb1",      CB_CIPHER, 16, 16, 0, 1, 0},
    {"aria-192-cfb1",      CB_CIPHER, 24, 16, 0, 1, 0},
    {"aria-256-cfb1",      CB_CIPHER, 32, 16, 0, 1, 0},
    {"des-cfb1",           CB_CIPHER, 8, 8, 0, 1, 0},
    {"3des-cfb1",          CB_CIPHER, 24, 8, 0, 1, 0},
    /* two-key triple DES (SP 800-67's keying option 2: K3 = K1) */
    {"3des-2key-ecb",      CB_CIPHER, 16, 0, 0, 8, 0},
    {"3des-2key-cbc",      CB_CIPHER, 16, 8, 0, 8, 0},
    {"3des-2key-cfb",      CB_CIPHER, 16, 8, 0, 1, 0},
    {"3des-2key-ofb",      CB_CIPHER, 16, 8, 0, 1, 0},
    /* CBC with ciphertext stealing (RFC 3962, NIST's CS3): one message per call with its IV,
     * as XTS takes its tweak; a block at least */
    {"aes-128-cbc-cts",    CB_CIPHER, 16, 16, 0, 16, 1},
    {"aes-192-cbc-cts",    CB_CIPHER, 24, 16, 0, 16, 1},
    {"aes-256-cbc-cts",    CB_CIPHER, 32, 16, 0, 16, 1},
    {"camellia-128-cbc-cts",CB_CIPHER, 16, 16, 0, 16, 1},
    {"camellia-192-cbc-cts",CB_CIPHER, 24, 16, 0, 16, 1},
    {"camellia-256-cbc-cts",CB_CIPHER, 32, 16, 0, 16, 1},
    /* hashes: tag_len is the digest size */
    {"md5",                CB_HASH,   0, 0, 16, 1, 0},
    {"sha1",               CB_HASH,   0, 0, 20, 1, 0},
    {"md5-sha1",           CB_HASH,   0, 0, 36, 1, 0},   /* MD5 || SHA-1, TLS 1.0/1.1's signature hash */
    {"sha224",             CB_HASH,   0, 0, 28, 1, 0},
    {"sha256",             CB_HASH,   0, 0, 32, 1, 0},
    {"sha384",             CB_HASH,   0, 0, 48, 1, 0},
    {"sha512",             CB_HASH,   0, 0, 64, 1, 0},
    {"sha512-256",         CB_HASH,   0, 0, 32, 1, 0},
    {"sha512-224",         CB_HASH,   0, 0, 28, 1, 0},
    {"sha3-256",           CB_HASH,   0, 0, 32, 1, 0},
    {"sha3-512",           CB_HASH,   0, 0, 64, 1, 0},
    {"shake128",           CB_HASH,   0, 0, 32, 1, 0},   /* 256 bits of output */
    {"blake2b-512",        CB_HASH,   0, 0, 64, 1, 0},
    {"blake2s-256",        CB_HASH,   0, 0, 32, 1, 0},
    {"ripemd160",          CB_HASH,   0, 0, 20, 1, 0},
    {"sm3",                CB_HASH,   0, 0, 32, 1, 0},
    {"sha3-224",           CB_HASH,   0, 0, 28, 1, 0},
    {"sha3-384",           CB_HASH,   0, 0, 48, 1, 0},
    {"shake256",           CB_HASH,   0, 0, 64, 1, 0},   /* 512 bits of output */
    {"blake2b-160",        CB_HASH,   0, 0, 20, 1, 0},
    {"blake2b-256",        CB_HASH,   0, 0, 32, 1, 0},
    {"blake2b-384",        CB_HASH,   0, 0, 48, 1, 0},
    {"blake2s-128",        CB_HASH,   0, 0, 16, 1, 0},
    {"blake2s-160",        CB_HASH,   0, 0, 20, 1, 0},
    {"blake2s-224",        CB_HASH,   0, 0, 28, 1, 0},
    {"md4",                CB_HASH,   0, 0, 16, 1, 0},
    {"whirlpool",          CB_HASH,   0, 0, 64, 1, 0},
    {"tiger",              CB_HASH,   0, 0, 24, 1, 0},   /* Tiger(1): 0x01 padding */
    {"streebog-256",       CB_HASH,   0, 0, 32, 1, 0},
    {"streebog-512",       CB_HASH,   0, 0, 64, 1, 0},
    {"gostr3411-94",       CB_HASH,   0, 0, 32, 1, 0},   /* CryptoPro parameters (RFC 4357) */
    {"crc32",              CB_HASH,   0, 0, 4, 1, 0},    /* ISO 3309 / ITU-T V.42, big-endian */
    {"crc24",              CB_HASH,   0, 0, 3, 1, 0},    /* OpenPGP (RFC 4880 6.1) */
    /* MD2 (RFC 1319), and GOST R 34.11-94 with RFC 5831's test parameters */
    {"md2",                CB_HASH,   0, 0, 16, 1, 0},
    {"gostr3411-94-test",  CB_HASH,   0, 0, 32, 1, 0},
    /* Tiger2 (0x80 padding); Tiger(1) with each 64-bit word of the digest big-endian (the
     * byte order of GnuPG 1.2 and libgcrypt's TIGER); the CRC-32 of RFC 1510 (Kerberos:
     * no initial or final inversion), big-endian as crc32 */
    {"tiger2",             CB_HASH,   0, 0, 24, 1, 0},
    {"tiger-be",           CB_HASH,   0, 0, 24, 1, 0},
    {"crc32-rfc1510",      CB_HASH,   0, 0, 4, 1, 0},
    /* RIPEMD-128, -256, -320 (the 256 and 320-bit forms are RIPEMD-128 and -160 widened) */
    {"ripemd128",          CB_HASH,   0, 0, 16, 1, 0},
    {"ripemd256",          CB_HASH,   0, 0, 32, 1, 0},
    {"ripemd320",          CB_HASH,   0, 0, 40, 1, 0},
    /* MACs */
    {"hmac-md5",           CB_MAC,    16, 0, 16, 1, 0},
    {"hmac-sha1",          CB_MAC,    20, 0, 20, 1, 0},
    {"hmac-sha256",        CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-sha512",        CB_MAC,    64, 0, 64, 1, 0},
    {"hmac-sha224",        CB_MAC,    28, 0, 28, 1, 0},
    {"hmac-sha384",        CB_MAC,    48, 0, 48, 1, 0},
    {"cmac-aes-256",       CB_MAC,    32, 0, 16, 1, 0},
    {"poly1305",           CB_MAC,    32, 0, 16, 1, 0},
    {"cmac-aes-128",       CB_MAC,    16, 0, 16, 1, 0},
    {"gmac-aes-128",       CB_MAC,    16, 12, 16, 1, 1},
    {"umac-64",            CB_MAC,    16, 8, 8, 1, 1},
    {"umac-128",           CB_MAC,    16, 8, 16, 1, 1},
    {"umac-96",            CB_MAC,    16, 8, 12, 1, 1},
    /* HMAC (RFC 2104) over the other hashes measured here; the key has the digest's size */
    {"hmac-sha512-224",    CB_MAC,    28, 0, 28, 1, 0},
    {"hmac-sha512-256",    CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-sha3-224",      CB_MAC,    28, 0, 28, 1, 0},
    {"hmac-sha3-256",      CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-sha3-384",      CB_MAC,    48, 0, 48, 1, 0},
    {"hmac-sha3-512",      CB_MAC,    64, 0, 64, 1, 0},
    {"hmac-ripemd160",     CB_MAC,    20, 0, 20, 1, 0},
    {"hmac-sm3",           CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-streebog-256",  CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-streebog-512",  CB_MAC,    64, 0, 64, 1, 0},
    {"hmac-gostr3411-94",  CB_MAC,    32, 0, 32, 1, 0},   /* CryptoPro parameters */
    {"hmac-whirlpool",     CB_MAC,    64, 0, 64, 1, 0},
    {"hmac-tiger",         CB_MAC,    24, 0, 24, 1, 0},   /* Tiger(1) */
    {"hmac-md4",           CB_MAC,    16, 0, 16, 1, 0},
    {"hmac-blake2b-160",   CB_MAC,    20, 0, 20, 1, 0},
    {"hmac-blake2b-256",   CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-blake2b-384",   CB_MAC,    48, 0, 48, 1, 0},
    {"hmac-blake2b-512",   CB_MAC,    64, 0, 64, 1, 0},
    {"hmac-blake2s-128",   CB_MAC,    16, 0, 16, 1, 0},
    {"hmac-blake2s-160",   CB_MAC,    20, 0, 20, 1, 0},
    {"hmac-blake2s-224",   CB_MAC,    28, 0, 28, 1, 0},
    {"hmac-blake2s-256",   CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-md2",           CB_MAC,    16, 0, 16, 1, 0},
    {"hmac-gostr3411-94-test", CB_MAC, 32, 0, 32, 1, 0},
    {"hmac-ripemd128",     CB_MAC,    16, 0, 16, 1, 0},
    {"hmac-ripemd256",     CB_MAC,    32, 0, 32, 1, 0},
    {"hmac-ripemd320",     CB_MAC,    40, 0, 40, 1, 0},
    /* block-cipher MACs: CMAC (SP 800-38B) over other ciphers and key sizes, GMAC with the
     * longer AES keys, Poly1305-AES (Bernstein, FSE 2005; key = AES key k || r, the iv is the
     * 16-byte nonce whose AES_k encryption is the pad) */
    {"cmac-aes-192",       CB_MAC,    24, 0, 16, 1, 0},
    {"cmac-3des",          CB_MAC,    24, 0, 8, 1, 0},
    {"cmac-camellia-128",  CB_MAC,    16, 0, 16, 1, 0},
    {"cmac-camellia-192",  CB_MAC,    24, 0, 16, 1, 0},
    {"cmac-camellia-256",  CB_MAC,    32, 0, 16, 1, 0},
    {"cmac-sm4",           CB_MAC,    16, 0, 16, 1, 0},
    {"gmac-aes-192",       CB_MAC,    24, 12, 16, 1, 1},
    {"gmac-aes-256",       CB_MAC,    32, 12, 16, 1, 1},
    {"poly1305-aes",       CB_MAC,    32, 16, 16, 1, 1},
    /* ... over the other ciphers libgcrypt pairs them with (Poly1305's key: the cipher's
     * 16-byte key || r) */
    {"cmac-cast5",         CB_MAC,    16, 0, 8, 1, 0},
    {"cmac-blowfish",      CB_MAC,    16, 0, 8, 1, 0},
    {"cmac-idea",          CB_MAC,    16, 0, 8, 1, 0},
    {"cmac-seed",          CB_MAC,    16, 0, 16, 1, 0},
    {"cmac-twofish-256",   CB_MAC,    32, 0, 16, 1, 0},
    {"cmac-serpent-256",   CB_MAC,    32, 0, 16, 1, 0},
    {"gmac-camellia-128",  CB_MAC,    16, 12, 16, 1, 1},
    {"gmac-seed",          CB_MAC,    16, 12, 16, 1, 1},
    {"gmac-twofish-256",   CB_MAC,    32, 12, 16, 1, 1},
    {"gmac-serpent-256",   CB_MAC,    32, 12, 16, 1, 1},
    {"poly1305-camellia",  CB_MAC,    32, 16, 16, 1, 1},
    {"poly1305-seed",      CB_MAC,    32, 16, 16, 1, 1},
    {"poly1305-twofish",   CB_MAC,    32, 16, 16, 1, 1},
    {"poly1305-serpent",   CB_MAC,    32, 16, 16, 1, 1},
    /* CMAC, GMAC and Poly1305 over ARIA (RFC 5794), GMAC and Poly1305 over SM4 (libgcrypt 1.11;
     * Poly1305's key: the cipher's 16-byte key || r, as above) */
    {"cmac-aria-128",      CB_MAC,    16, 0, 16, 1, 0},
    {"cmac-aria-192",      CB_MAC,    24, 0, 16, 1, 0},
    {"cmac-aria-256",      CB_MAC,    32, 0, 16, 1, 0},
    {"gmac-aria-128",      CB_MAC,    16, 12, 16, 1, 1},
    {"gmac-aria-192",      CB_MAC,    24, 12, 16, 1, 1},
    {"gmac-aria-256",      CB_MAC,    32, 12, 16, 1, 1},
    {"gmac-sm4",           CB_MAC,    16, 12, 16, 1, 1},
    {"poly1305-aria",      CB_MAC,    32, 16, 16, 1, 1},
    {"poly1305-sm4",       CB_MAC,    32, 16, 16, 1, 1},
    /* CMAC over RC2 (128 effective key bits) and GOST 28147-89 (the test S-boxes, as the
     * gost28147 rows); GOST 28147-89's own MAC (imitovstavka: 16 rounds, CryptoPro-A
     * S-boxes, a 32-bit tag) */
    {"cmac-rc2",           CB_MAC,    16, 0, 8, 1, 0},
    {"cmac-gost28147",     CB_MAC,    32, 0, 8, 1, 0},
    {"gost28147-imit",     CB_MAC,    32, 0, 4, 1, 0},
    /* ChaCha and Salsa with other nonces: XChaCha20 and XSalsa20 (24 bytes: HChaCha20 or
     * HSalsa20 over the first 16 gives the key), and the original ChaCha20 (8 bytes, a 64-bit
     * block counter) with its first Poly1305 AEAD (draft-agl-tls-chacha20poly1305) */
    {"xchacha20-poly1305", CB_AEAD,   32, 24, 16, 1, 1},
    {"chacha20-poly1305-nonce64", CB_AEAD, 32, 8, 16, 1, 1},
    {"xchacha20",          CB_CIPHER, 32, 24, 0, 1, 0},
    {"xsalsa20",           CB_CIPHER, 32, 24, 0, 1, 0},
    {"chacha20-nonce64",   CB_CIPHER, 32, 8, 0, 1, 0},
    /* SipHash-2-4 (64 and 128-bit output), and NaCl's crypto_auth: HMAC-SHA-512 cut to 256 bits */
    {"siphash-2-4",        CB_MAC,    16, 0, 8, 1, 0},
    {"siphash-2-4-128",    CB_MAC,    16, 0, 16, 1, 0},
    {"hmac-sha512-trunc256", CB_MAC,  32, 0, 32, 1, 0},
    /* BLAKE2's own keyed mode (RFC 7693 section 2.5), the whole key and digest */
    {"blake2b-mac",        CB_MAC,    64, 0, 64, 1, 0},
    {"blake2s-mac",        CB_MAC,    32, 0, 32, 1, 0},
    /* KMAC (SP 800-185) without a customization string; the output length is an input of
     * KMAC, so its tag is never cut: 256 and 512 bits */
    /* GOST MACs: GOST 28147-89's (RFC 5830 section 8, TC26 Z S-box, CryptoPro key meshing)
     * and OMAC (CMAC) over Magma and Kuznyechik (GOST R 34.13-2015 5.6), the whole block */
    {"gost28147-tc26z-imit", CB_MAC,  32, 0, 4, 1, 0},
    {"cmac-magma",         CB_MAC,    32, 0, 8, 1, 0},
    {"cmac-kuznyechik",    CB_MAC,    32, 0, 16, 1, 0},
    {"kmac-128",           CB_MAC,    32, 0, 32, 1, 0},
    {"kmac-256",           CB_MAC,    32, 0, 64, 1, 0},
    /* the Keccak sponge under KMAC (SP 800-185): Keccak[256] and Keccak[512] with cSHAKE's
     * domain bits 00, which the caller prefixes with KMAC's encoded strings (OpenSSL's
     * KECCAK-KMAC-128/256); the output is twice the security level, OpenSSL's default */
    {"keccak-kmac-128",    CB_HASH,    0, 0, 32, 1, 0},
    {"keccak-kmac-256",    CB_HASH,    0, 0, 64, 1, 0},
    /* cSHAKE (SP 800-185 section 3; libgcrypt 1.11) with the function name N empty and the
     * customization string S = "Email Signature", SP 800-185's samples': every message is
     * customized so (one more rate block absorbed, as for any S that short); the output is
     * that of shake128 and shake256, 256 and 512 bits */
    {"cshake128",          CB_HASH,    0, 0, 32, 1, 0},
    {"cshake256",          CB_HASH,    0, 0, 64, 1, 0},
    /* Keccak as submitted to the SHA-3 competition's final round: Keccak[c = 2 * output] with
     * pad10*1 alone (the byte 0x01), where FIPS 202's SHA-3 puts the domain bits 01 first (0x06);
     * Ethereum's Keccak-256; and
     * SHA-256/192 (NIST SP 800-208: SHA-256 with its own initial value, cut to 192 bits) */
    {"keccak-224",         CB_HASH,   0, 0, 28, 1, 0},
    {"keccak-256",         CB_HASH,   0, 0, 32, 1, 0},
    {"keccak-384",         CB_HASH,   0, 0, 48, 1, 0},
    {"keccak-512",         CB_HASH,   0, 0, 64, 1, 0},
    {"sha256-192",         CB_HASH,   0, 0, 24, 1, 0},
    /* key wrap: RFC 3394 (KW, block 8: two blocks at least) and RFC 5649 (KWP, with
     * padding: any length from one byte); tag_len is the 8-byte integrity check */
    {"aes-128-kw",         CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"aes-192-kw",         CB_KEYWRAP, 24, 0, 8, 8, 0},
    {"aes-256-kw",         CB_KEYWRAP, 32, 0, 8, 8, 0},
    {"aes-128-kwp",        CB_KEYWRAP, 16, 0, 8, 1, 0},
    {"aes-192-kwp",        CB_KEYWRAP, 24, 0, 8, 1, 0},
    {"aes-256-kwp",        CB_KEYWRAP, 32, 0, 8, 1, 0},
    /* the same with AES's inverse cipher as the designated cipher function (NIST SP 800-38F
     * section 5.1 allows either direction): the wrap deciphers, the unwrap enciphers */
    {"aes-128-kw-inv",     CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"aes-192-kw-inv",     CB_KEYWRAP, 24, 0, 8, 8, 0},
    {"aes-256-kw-inv",     CB_KEYWRAP, 32, 0, 8, 8, 0},
    {"aes-128-kwp-inv",    CB_KEYWRAP, 16, 0, 8, 1, 0},
    {"aes-192-kwp-inv",    CB_KEYWRAP, 24, 0, 8, 1, 0},
    {"aes-256-kwp-inv",    CB_KEYWRAP, 32, 0, 8, 1, 0},
    /* key wrap over the other 128-bit block ciphers (libgcrypt's AESWRAP takes any) */
    {"twofish-128-kw",   CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"twofish-128-kwp",  CB_KEYWRAP, 16, 0, 8, 1, 0},
    {"twofish-256-kw",   CB_KEYWRAP, 32, 0, 8, 8, 0},
    {"twofish-256-kwp",  CB_KEYWRAP, 32, 0, 8, 1, 0},
    {"serpent-128-kw",   CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"serpent-128-kwp",  CB_KEYWRAP, 16, 0, 8, 1, 0},
    {"serpent-192-kw",   CB_KEYWRAP, 24, 0, 8, 8, 0},
    {"serpent-192-kwp",  CB_KEYWRAP, 24, 0, 8, 1, 0},
    {"serpent-256-kw",   CB_KEYWRAP, 32, 0, 8, 8, 0},
    {"serpent-256-kwp",  CB_KEYWRAP, 32, 0, 8, 1, 0},
    {"seed-kw",          CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"seed-kwp",         CB_KEYWRAP, 16, 0, 8, 1, 0},
    {"camellia-128-kw",  CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"camellia-128-kwp", CB_KEYWRAP, 16, 0, 8, 1, 0},
    {"camellia-192-kw",  CB_KEYWRAP, 24, 0, 8, 8, 0},
    {"camellia-192-kwp", CB_KEYWRAP, 24, 0, 8, 1, 0},
    {"camellia-256-kw",  CB_KEYWRAP, 32, 0, 8, 8, 0},
    {"camellia-256-kwp", CB_KEYWRAP, 32, 0, 8, 1, 0},
    {"sm4-kw",           CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"sm4-kwp",          CB_KEYWRAP, 16, 0, 8, 1, 0},
    /* RFC 3394's wrap over ARIA (libgcrypt 1.11; its padded form there is left out, see
     * core/unmeasured.c) */
    {"aria-128-kw",      CB_KEYWRAP, 16, 0, 8, 8, 0},
    {"aria-192-kw",      CB_KEYWRAP, 24, 0, 8, 8, 0},
    {"aria-256-kw",      CB_KEYWRAP, 32, 0, 8, 8, 0},
    /* NaCl's secretbox (authenticated encryption without associated data: its messages are
     * timed and checked with none, see cb_aad_len): XSalsa20 and Poly1305 (Bernstein,
     * "Cryptography in NaCl"), and libsodium's XChaCha20 form (HChaCha20, then the original
     * ChaCha20); the Poly1305 key is the first 32 bytes of keystream block 0, the message is
     * encrypted from byte 32 on, and the tag covers the ciphertext alone */
    {"xsalsa20-poly1305",  CB_AEAD,   32, 24, 16, 1, 1},
    {"xchacha20-poly1305-secretbox", CB_AEAD, 32, 24, 16, 1, 1},
    /* Salsa20 with 12 and 8 rounds, one message a call: each message is encrypted from block 0
     * under its own 8-byte nonce, as libsodium's crypto_stream_salsa2012_xor and _salsa208_xor
     * are called (they cannot continue a stream) */
    {"salsa20r12-msg",     CB_CIPHER, 32, 8, 0, 1, 1},
    {"salsa20r8-msg",      CB_CIPHER, 32, 8, 0, 1, 1},
    /* the CMS Triple-DES key wrap (RFC 3217 section 3): a random 8-byte IV drawn by each
     * wrap travels inside the wrapped key beside the 8-byte SHA-1 check, so tag_len is 16 */
    {"3des-cms-wrap",    CB_KEYWRAP, 24, 0, 16, 8, 0},
    /* reference rows, run by the harness itself */
    {"memcpy",             CB_REF,    0, 0, 0, 1, 0},
    {"null",               CB_REF,    0, 0, 0, 1, 0},
    {NULL, 0, 0, 0, 0, 0, 0},
};

const cb_algorithm *cb_algorithm_find(const char *name)
{
    for (const cb_algorithm *a = cb_algorithms; a->name; a++)
        if (strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

/* What a few rows differ in beyond the table's columns, in one place: the AEADs that take
 * no associated data (NaCl's secretbox), the rows whose message is at most one TLS record
 * (RFC 5246 6.2.1: 2^14 bytes of plaintext), and the key wrap that draws a random IV for
 * every wrap (RFC 3217). */
static const struct row_traits {
    const char *name;
    unsigned char no_aad, random_iv;
    size_t max_len;
} row_traits[] = {
    {"xsalsa20-poly1305", 1, 0, 0},
    {"xchacha20-poly1305-secretbox", 1, 0, 0},
    {"aes-128-cbc-hmac-sha1", 0, 0, 16384},
    {"aes-256-cbc-hmac-sha1", 0, 0, 16384},
    {"aes-128-cbc-hmac-sha256", 0, 0, 16384},
    {"aes-256-cbc-hmac-sha256", 0, 0, 16384},
    {"3des-cms-wrap", 0, 1, 0},
};

static const struct row_traits *traits_of(const cb_algorithm *a)
{
    for (size_t i = 0; i < sizeof row_traits / sizeof row_traits[0]; i++)
        if (strcmp(a->name, row_traits[i].name) == 0)
            return &row_traits[i];
    return NULL;
}

size_t cb_aad_len(const cb_algorithm *a)
{
    const struct row_traits *t = traits_of(a);
    return a->kind == CB_AEAD && !(t && t->no_aad) ? CB_AAD_LEN : 0;
}

const char *cb_kind_name(cb_kind k)
{
    static const char *const names[] = {"aead", "cipher", "hash", "mac", "ref", "keywrap"};
    return names[k];
}

const char *const *cb_kind_ops(cb_kind k)
{
    static const char *const crypt[] = {"encrypt", "decrypt", NULL};
    static const char *const hash[] = {"hash", NULL};
    static const char *const mac[] = {"mac", NULL};
    static const char *const ref[] = {"ref", NULL};
    switch (k) {
    case CB_AEAD: case CB_CIPHER: case CB_KEYWRAP: return crypt;
    case CB_HASH: return hash;
    case CB_MAC: return mac;
    default: return ref;
    }
}

size_t cb_keywrap_len(size_t len)
{
    return (len + 7) / 8 * 8 + 8;
}

size_t cb_keywrap_out(const cb_algorithm *a, size_t len)
{
    return cb_keywrap_len(len) - 8 + a->tag_len;   /* the padded data, then the row's check */
}

int cb_keywrap_random(const cb_algorithm *a)
{
    const struct row_traits *t = traits_of(a);
    return a->kind == CB_KEYWRAP && t && t->random_iv;
}

size_t cb_keywrap_min(const cb_algorithm *a)
{
    return a->block_len == 8 ? 16 : 1;
}

size_t cb_max_len(const cb_algorithm *a)
{
    const struct row_traits *t = traits_of(a);
    return t ? t->max_len : 0;
}
