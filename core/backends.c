/* backends.c - the table of backends compiled into this build.
 * Meson defines CB_HAVE_<LIB> for each library it found (core/meson.build). */
#include "backend.h"

#define CB_DECLARE(x) extern const cb_backend cb_backend_##x;
#ifdef CB_HAVE_OPENSSL
CB_DECLARE(openssl)
#endif
#ifdef CB_HAVE_LIBGCRYPT
CB_DECLARE(libgcrypt)
#endif
#ifdef CB_HAVE_NETTLE
CB_DECLARE(nettle)
#endif
#ifdef CB_HAVE_GNUTLS
CB_DECLARE(gnutls)
#endif
#ifdef CB_HAVE_LIBSODIUM
CB_DECLARE(libsodium)
#endif
#ifdef CB_HAVE_BOTAN
CB_DECLARE(botan)
#endif
#ifdef CB_HAVE_CRYPTOPP
CB_DECLARE(cryptopp)
#endif
#ifdef CB_HAVE_WOLFSSL
CB_DECLARE(wolfssl)
#endif
#ifdef CB_HAVE_MBEDTLS
CB_DECLARE(mbedtls)
#endif
#ifdef CB_HAVE_LIBTOMCRYPT
CB_DECLARE(libtomcrypt)
#endif

const cb_backend *const cb_backends[] = {
#ifdef CB_HAVE_OPENSSL
    &cb_backend_openssl,
#endif
#ifdef CB_HAVE_LIBGCRYPT
    &cb_backend_libgcrypt,
#endif
#ifdef CB_HAVE_NETTLE
    &cb_backend_nettle,
#endif
#ifdef CB_HAVE_GNUTLS
    &cb_backend_gnutls,
#endif
#ifdef CB_HAVE_LIBSODIUM
    &cb_backend_libsodium,
#endif
#ifdef CB_HAVE_BOTAN
    &cb_backend_botan,
#endif
#ifdef CB_HAVE_CRYPTOPP
    &cb_backend_cryptopp,
#endif
#ifdef CB_HAVE_WOLFSSL
    &cb_backend_wolfssl,
#endif
#ifdef CB_HAVE_MBEDTLS
    &cb_backend_mbedtls,
#endif
#ifdef CB_HAVE_LIBTOMCRYPT
    &cb_backend_libtomcrypt,
#endif
    NULL,
};

/* Backends whose library enumerates what it offers (backend.h). */
#define CB_OFFERS(x) void cb_offered_##x(cb_offer_fn *offer, void *u);
#ifdef CB_HAVE_OPENSSL
CB_OFFERS(openssl)
#endif
#ifdef CB_HAVE_LIBGCRYPT
CB_OFFERS(libgcrypt)
#endif
#ifdef CB_HAVE_NETTLE
CB_OFFERS(nettle)
#endif
#ifdef CB_HAVE_GNUTLS
CB_OFFERS(gnutls)
#endif
#ifdef CB_HAVE_MBEDTLS
CB_OFFERS(mbedtls)
#endif
#ifdef CB_HAVE_LIBSODIUM
CB_OFFERS(libsodium)
#endif
#ifdef CB_HAVE_LIBTOMCRYPT
CB_OFFERS(libtomcrypt)
#endif

const cb_offer_source cb_offer_sources[] = {
#ifdef CB_HAVE_OPENSSL
    {"openssl", cb_offered_openssl},
#endif
#ifdef CB_HAVE_LIBGCRYPT
    {"libgcrypt", cb_offered_libgcrypt},
#endif
#ifdef CB_HAVE_NETTLE
    {"nettle", cb_offered_nettle},
#endif
#ifdef CB_HAVE_GNUTLS
    {"gnutls", cb_offered_gnutls},
#endif
#ifdef CB_HAVE_MBEDTLS
    {"mbedtls", cb_offered_mbedtls},
#endif
#ifdef CB_HAVE_LIBSODIUM
    {"libsodium", cb_offered_libsodium},   /* a documented static table */
#endif
#ifdef CB_HAVE_LIBTOMCRYPT
    {"libtomcrypt", cb_offered_libtomcrypt},
#endif
    {NULL, NULL},
};
