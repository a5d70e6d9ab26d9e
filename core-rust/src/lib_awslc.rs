// SPDX-License-Identifier: GPL-3.0-or-later
//! The library "aws-lc": AWS-LC through aws-lc-rs (rustls's default provider), with the
//! calls a TLS stack makes: LessSafeKey with a separate output buffer and tag
//! (seal_out_of_place_scatter, open_separate_gather), the one-shot digest and HMAC.
//! AWS-LC reads OPENSSL_ia32cap when it initialises, as OpenSSL does: that is its
//! switch for --no-hw.
use crate::algorithms::{alg, Algorithm, Kind, Library, Msg, Row, Runner, Setup, Status};
use crate::ring_api::ring_api;
use aws_lc_rs::{aead, digest};

fn open(key: &aead::LessSafeKey, nonce: aead::Nonce, aad: aead::Aad<&[u8]>, m: &mut Msg) -> Status {
    match key.open_separate_gather(nonce, aad, m.inp, m.tag, &mut m.out[..m.inp.len()]) {
        Ok(()) => Status::Ok,
        Err(_) => Status::Auth,
    }
}

fn seal(key: &aead::LessSafeKey, nonce: aead::Nonce, aad: aead::Aad<&[u8]>, m: &mut Msg) -> Status {
    match key.seal_out_of_place_scatter(nonce, aad, m.inp, &mut m.out[..m.inp.len()], &[], m.tag) {
        Ok(()) => Status::Ok,
        Err(_) => Status::Err,
    }
}

ring_api!(aws_lc_rs);

fn digest_alg(name: &str) -> &'static digest::Algorithm {
    match name {
        "sha1" | "hmac-sha1" => &digest::SHA1_FOR_LEGACY_USE_ONLY,
        "sha224" => &digest::SHA224,
        "sha256" | "hmac-sha256" => &digest::SHA256,
        "sha384" => &digest::SHA384,
        "sha512" | "hmac-sha512" => &digest::SHA512,
        "sha3-256" => &digest::SHA3_256,
        "sha3-512" => &digest::SHA3_512,
        _ => &digest::SHA512_256,
    }
}

fn rows() -> Vec<Row> {
    use Kind::*;
    vec![
        Row { alg: alg("aes-128-gcm", Aead, 16, 12, 16), init: aead_init },
        Row { alg: alg("aes-256-gcm", Aead, 32, 12, 16), init: aead_init },
        Row { alg: alg("chacha20-poly1305", Aead, 32, 12, 16), init: aead_init },
        Row { alg: alg("sha1", Hash, 0, 0, 20), init: digest_init },
        Row { alg: alg("sha224", Hash, 0, 0, 28), init: digest_init },
        Row { alg: alg("sha256", Hash, 0, 0, 32), init: digest_init },
        Row { alg: alg("sha384", Hash, 0, 0, 48), init: digest_init },
        Row { alg: alg("sha512", Hash, 0, 0, 64), init: digest_init },
        Row { alg: alg("sha512-256", Hash, 0, 0, 32), init: digest_init },
        Row { alg: alg("sha3-256", Hash, 0, 0, 32), init: digest_init },
        Row { alg: alg("sha3-512", Hash, 0, 0, 64), init: digest_init },
        Row { alg: alg("hmac-sha1", Mac, 20, 0, 20), init: hmac_init },
        Row { alg: alg("hmac-sha256", Mac, 32, 0, 32), init: hmac_init },
        Row { alg: alg("hmac-sha512", Mac, 64, 0, 64), init: hmac_init },
    ]
}

fn version() -> String {
    format!("AWS-LC {} (aws-lc-rs {})", aws_lc_rs::awslc_version(), env!("CB_VER_AWS_LC_RS"))
}

/// OPENSSL_ia32cap, read when AWS-LC initialises (the C core's OpenSSL mask: "~A:~B"
/// clears the bits of A from the CPUID.1 word, EDX | ECX<<32, and those of B from the
/// CPUID.7 word, EBX | ECX<<32).
#[cfg(target_arch = "x86_64")]
fn hw_env(off: &[&str]) -> Option<Vec<String>> {
    let (mut w1, mut w7) = (0u64, 0u64);
    for f in off {
        let (a, b) = ia32cap_bits(f);
        w1 |= a;
        w7 |= b;
    }
    Some(vec![format!("OPENSSL_ia32cap=~0x{:x}:~0x{:x}", w1, w7)])
}

/// The bits of the CPUID.1 and CPUID.7 words that one feature clears (the C core's
/// OpenSSL table, core/backends/openssl.c).
#[cfg(target_arch = "x86_64")]
fn ia32cap_bits(f: &str) -> (u64, u64) {
    match f {
        "aes" => (1 << 57, 0),                                  // ECX.AES
        "pclmul" => (1 << 33, 0),                               // ECX.PCLMULQDQ
        "avx2" => (0, 1 << 5),                                  // EBX.AVX2
        "sha" => (0, 1 << 29),                                  // EBX.SHA
        "vaes" => (0, 7 << 40),                                 // ECX.GFNI, VAES, VPCLMULQDQ
        "avx512" => (0, 0xdc23_0000 | 0x5842 << 32),            // AVX-512 F, DQ, IFMA, CD, BW, VL...
        "avx" => (1 << 44 | 1 << 60 | 1 << 61, 0),              // FMA, AVX, F16C
        "ssse3" => (1 << 32 | 1 << 41 | 1 << 51 | 1 << 52 | 1 << 54 | 1 << 55, 0), // SSE3..SSE4.2, MOVBE, POPCNT
        _ => (0, 1 << 3 | 1 << 8 | 1 << 19),                    // BMI1, BMI2, ADX
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn hw_env(_: &[&str]) -> Option<Vec<String>> {
    None
}

#[cfg(target_arch = "x86_64")]
include!(concat!(env!("OUT_DIR"), "/awslc_cap.rs"));

/// The features AWS-LC's own capability vector (OPENSSL_ia32cap_P, OpenSSL's layout: the
/// CPUID.1 EDX and ECX words, then CPUID.7 EBX and ECX) shows after OPENSSL_ia32cap.
#[cfg(target_arch = "x86_64")]
fn hw_used() -> Option<Vec<&'static str>> {
    aws_lc_rs::init();
    // SAFETY: set once by AWS-LC's initialisation (above), read-only afterwards.
    let cap = unsafe { std::ptr::read_volatile(std::ptr::addr_of!(AWSLC_IA32CAP)) };
    let (lo, hi) = (cap[0] as u64 | (cap[1] as u64) << 32, cap[2] as u64 | (cap[3] as u64) << 32);
    Some(crate::args::HW_NAMES.iter().filter(|f| {
        let (a, b) = ia32cap_bits(f);
        lo & a != 0 || hi & b != 0
    }).copied().collect())
}

#[cfg(not(target_arch = "x86_64"))]
fn hw_used() -> Option<Vec<&'static str>> {
    None
}

pub const LIBRARY: Library = Library { name: "aws-lc", version, rows, hw_env, hw_used };
