// SPDX-License-Identifier: GPL-3.0-or-later
//! The C core's suite table (core/tls/suites.c), so that --list and the names agree.

pub struct Suite {
    pub iana: &'static str,
    pub tls13: bool,
    pub kx: &'static str,
    pub cipher: &'static str,
    pub mac: &'static str,
    pub openssl: &'static str,
    pub gnutls: &'static str,
    pub legacy: bool,
}

const fn s(iana: &'static str, tls13: bool, kx: &'static str, cipher: &'static str, mac: &'static str,
           openssl: &'static str, gnutls: &'static str, legacy: bool) -> Suite {
    Suite { iana, tls13, kx, cipher, mac, openssl, gnutls, legacy }
}

pub const SUITES: &[Suite] = &[
    s("TLS_AES_128_GCM_SHA256", true, "any", "aes-128-gcm", "aead", "TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", false),
    s("TLS_AES_256_GCM_SHA384", true, "any", "aes-256-gcm", "aead", "TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", false),
    s("TLS_CHACHA20_POLY1305_SHA256", true, "any", "chacha20-poly1305", "aead", "TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256", false),
    s("TLS_AES_128_CCM_SHA256", true, "any", "aes-128-ccm", "aead", "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_SHA256", false),
    s("TLS_AES_128_CCM_8_SHA256", true, "any", "aes-128-ccm", "aead-8", "TLS_AES_128_CCM_8_SHA256", "TLS_AES_128_CCM_8_SHA256", false),
    s("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", false, "ECDHE-RSA", "aes-128-gcm", "aead", "ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_AES_128_GCM_SHA256", false),
    s("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", false, "ECDHE-RSA", "aes-256-gcm", "aead", "ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_AES_256_GCM_SHA384", false),
    s("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", false, "ECDHE-RSA", "chacha20-poly1305", "aead", "ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_CHACHA20_POLY1305", false),
    s("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", false, "ECDHE-RSA", "aes-128-cbc", "hmac-sha1", "ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_AES_128_CBC_SHA1", false),
    s("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", false, "ECDHE-RSA", "aes-256-cbc", "hmac-sha1", "ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_AES_256_CBC_SHA1", false),
    s("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", false, "ECDHE-RSA", "aes-128-cbc", "hmac-sha256", "ECDHE-RSA-AES128-SHA256", "TLS_ECDHE_RSA_AES_128_CBC_SHA256", false),
    s("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", false, "ECDHE-RSA", "aes-256-cbc", "hmac-sha384", "ECDHE-RSA-AES256-SHA384", "TLS_ECDHE_RSA_AES_256_CBC_SHA384", false),
    s("TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", false, "ECDHE-RSA", "camellia-128-cbc", "hmac-sha256", "ECDHE-RSA-CAMELLIA128-SHA256", "TLS_ECDHE_RSA_CAMELLIA_128_CBC_SHA256", false),
    s("TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", false, "RSA", "camellia-128-cbc", "hmac-sha1", "CAMELLIA128-SHA", "TLS_RSA_CAMELLIA_128_CBC_SHA1", false),
    s("TLS_RSA_WITH_CAMELLIA_256_CBC_SHA", false, "RSA", "camellia-256-cbc", "hmac-sha1", "CAMELLIA256-SHA", "TLS_RSA_CAMELLIA_256_CBC_SHA1", false),
    s("TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", false, "ECDHE-RSA", "3des-cbc", "hmac-sha1", "ECDHE-RSA-DES-CBC3-SHA", "TLS_ECDHE_RSA_3DES_EDE_CBC_SHA1", true),
    s("TLS_RSA_WITH_3DES_EDE_CBC_SHA", false, "RSA", "3des-cbc", "hmac-sha1", "DES-CBC3-SHA", "TLS_RSA_3DES_EDE_CBC_SHA1", true),
    s("TLS_ECDHE_RSA_WITH_RC4_128_SHA", false, "ECDHE-RSA", "rc4", "hmac-sha1", "ECDHE-RSA-RC4-SHA", "TLS_ECDHE_RSA_ARCFOUR_128_SHA1", true),
    s("TLS_RSA_WITH_RC4_128_SHA", false, "RSA", "rc4", "hmac-sha1", "RC4-SHA", "TLS_RSA_ARCFOUR_128_SHA1", true),
    s("TLS_RSA_WITH_RC4_128_MD5", false, "RSA", "rc4", "hmac-md5", "RC4-MD5", "TLS_RSA_ARCFOUR_128_MD5", true),
];

/// A suite by its IANA, OpenSSL or GnuTLS name (any case).
pub fn find(name: &str) -> Option<&'static Suite> {
    SUITES.iter().find(|s| [s.iana, s.openssl, s.gnutls].iter().any(|n| n.eq_ignore_ascii_case(name)))
}
