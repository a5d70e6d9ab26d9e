// SPDX-License-Identifier: GPL-3.0-or-later
//! The library "ring": ring's AEADs (LessSafeKey: a nonce per message, as TLS stacks
//! call it), its one-shot digest and HMAC.
use crate::algorithms::{alg, hw_not_said, no_hw_switch, Algorithm, Kind, Library, Msg, Row, Runner, Setup, Status};
use crate::ring_api::ring_api;
use ring::{aead, digest};

/// ring works in place: the input is copied to the output first.
fn in_place<'m>(m: &'m mut Msg) -> &'m mut [u8] {
    let buf = &mut m.out[..m.inp.len()];
    buf.copy_from_slice(m.inp);
    buf
}

fn open(key: &aead::LessSafeKey, nonce: aead::Nonce, aad: aead::Aad<&[u8]>, m: &mut Msg) -> Status {
    let Ok(tag) = aead::Tag::try_from(&m.tag[..]) else { return Status::Param };
    match key.open_in_place_separate_tag(nonce, aad, tag, in_place(m), 0..) {
        Ok(_) => Status::Ok,
        Err(_) => Status::Auth,
    }
}

fn seal(key: &aead::LessSafeKey, nonce: aead::Nonce, aad: aead::Aad<&[u8]>, m: &mut Msg) -> Status {
    match key.seal_in_place_separate_tag(nonce, aad, in_place(m)) {
        Ok(tag) => {
            m.tag.copy_from_slice(tag.as_ref());
            Status::Ok
        }
        Err(_) => Status::Err,
    }
}

ring_api!(ring);

fn digest_alg(name: &str) -> &'static digest::Algorithm {
    match name {
        "sha1" | "hmac-sha1" => &digest::SHA1_FOR_LEGACY_USE_ONLY,
        "sha256" | "hmac-sha256" => &digest::SHA256,
        "sha384" => &digest::SHA384,
        "sha512" | "hmac-sha512" => &digest::SHA512,
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
        Row { alg: alg("sha256", Hash, 0, 0, 32), init: digest_init },
        Row { alg: alg("sha384", Hash, 0, 0, 48), init: digest_init },
        Row { alg: alg("sha512", Hash, 0, 0, 64), init: digest_init },
        Row { alg: alg("sha512-256", Hash, 0, 0, 32), init: digest_init },
        Row { alg: alg("hmac-sha1", Mac, 20, 0, 20), init: hmac_init },
        Row { alg: alg("hmac-sha256", Mac, 32, 0, 32), init: hmac_init },
        Row { alg: alg("hmac-sha512", Mac, 64, 0, 64), init: hmac_init },
    ]
}

fn version() -> String {
    format!("ring {}", env!("CB_VER_RING"))
}

pub const LIBRARY: Library = Library { name: "ring", version, rows, hw_env: no_hw_switch, hw_used: hw_not_said };
