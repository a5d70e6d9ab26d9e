/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a library offers (`list --offered`) that no row measures on purpose,
 * and why: the reason travels with the offered record ("why"), so `cipherbench
 * list --missing` tells a gap still to close from one that cannot be closed
 * honestly. Names are fnmatch(3) patterns over the library's own names. A reason
 * is given only where no row measures the algorithm, so an entry about one
 * release of a library says nothing where another release's row measures it. */
#include <fnmatch.h>
#include <string.h>

#include "backend.h"

static const struct {
    const char *lib, *name, *why;
} unmeasured[] = {
    /* CryptoPro key meshing (RFC 4357 2.3) is for the modes that only encrypt
     * blocks (CFB, counter); libgcrypt meshes its block encryption in every mode,
     * so past 1 KiB its ECB and CBC decryption (block decryption, never meshed)
     * no longer undo encryption, and EAX keeps the meshed key for the next message */
    {"libgcrypt", "GOST28147_MESH/ECB",
     "RFC 4357 meshes keys only in modes that encrypt blocks alone; past 1 KiB decryption does not undo encryption"},
    {"libgcrypt", "GOST28147_MESH/CBC",
     "RFC 4357 meshes keys only in modes that encrypt blocks alone; past 1 KiB decryption does not undo encryption"},
    {"libgcrypt", "GOST28147_MESH/EAX",
     "RFC 4357 meshes keys only in modes that encrypt blocks alone; the meshed key carries into the next message"},
    /* a stitched TLS cipher whose RC4 keystream runs on from record to record: the
     * same record encrypts differently a second time and decrypts only once */
    {"openssl", "RC4-HMAC-MD5",
     "RC4's keystream runs on across a connection's records: no record is a message of its own"},
    /* GnuTLS's Nettle table has no set_iv for these two: the IV given to
     * gnutls_cipher_init or gnutls_cipher_set_iv never reaches salsa20_set_nonce
     * (ESTREAM-SALSA20-256 is Salsa20/12) */
    {"gnutls", "SALSA20-256",
     "GnuTLS never passes the IV on to Salsa20: every IV gives the all-zero nonce's keystream"},
    {"gnutls", "ESTREAM-SALSA20-256",
     "GnuTLS never passes the IV on to Salsa20/12: every IV gives the all-zero nonce's keystream"},
    /* GnuTLS 3.8.6 lists PBMAC1 among its MACs as a placeholder for the MAC of PKCS#12
     * files (lib/algorithms/mac.c): gnutls_hmac_init refuses it and it has no length */
    {"gnutls", "PBMAC1",
     "PKCS #5's PBMAC1 (RFC 8018 section 7.1: HMAC under a PBKDF2 key), which GnuTLS runs only "
     "inside PKCS#12 files: gnutls_hmac_init refuses it; its HMACs are the hmac-* rows"},
    /* Mbed TLS 3.x lists CCM* with no tag (IEEE 802.15.4's encryption-only
     * level) as a cipher type of its own: CTR under CCM's counter block */
    {"mbedtls", "*-CCM\\*-NO-TAG",
     "CCM* with no tag is CTR encryption under CCM's counter block, for IEEE 802.15.4; its CTR is the *-ctr rows"},
    /* MULTI2 (ARIB STD-B25): every published vector found traces back to LibTomCrypt's own
     * self-test (whose loop skips it); the FSE 2009 cryptanalysis gives none */
    {"libtomcrypt", "multi2/*",
     "no known answer from a source independent of this library: nothing is timed before it "
     "passes one"},
    /* libgcrypt 1.11's RFC 5649 wrap (core/backends/libgcrypt.c: rows for 1.9 and 1.10 only) */
    {"libgcrypt", "*/AESWRAP+EXTENDED",
     "libgcrypt 1.11 refuses to unwrap 8 bytes of key data wrapped with padding (RFC 5649's "
     "one-block case, Wycheproof aes_kwp tcId 178); measured with 1.9 and 1.10"},
};

const char *cb_unmeasured_why(const char *lib, const char *name)
{
    for (size_t i = 0; i < sizeof unmeasured / sizeof unmeasured[0]; i++)
        if (strcmp(unmeasured[i].lib, lib) == 0 && fnmatch(unmeasured[i].name, name, 0) == 0)
            return unmeasured[i].why;
    return NULL;
}
