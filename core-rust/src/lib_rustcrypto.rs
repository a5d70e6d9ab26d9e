// SPDX-License-Identifier: GPL-3.0-or-later
//! The library "rustcrypto": RustCrypto's AEAD crates (aes-gcm, chacha20poly1305) through
//! their detached in-place API, and its hash crates (sha2, sha3, blake2, hmac) through
//! the one-shot Digest::digest and a keyed Mac cloned per message.
use crate::algorithms::{alg, hw_not_said, no_hw_switch, Algorithm, Kind, Library, Msg, Row, Runner, Setup, Status};
use aes_gcm::aead::generic_array::typenum::Unsigned;
use aes_gcm::aead::generic_array::GenericArray;
use aes_gcm::aead::{AeadCore, AeadInPlace, KeyInit};
use aes_gcm::{Aes128Gcm, Aes256Gcm};
use chacha20poly1305::{ChaCha20Poly1305, XChaCha20Poly1305};
use hmac::{Hmac, Mac};
use sha2::Digest;
use std::marker::PhantomData;

struct AeadRunner<A> {
    a: A,
    decrypt: bool,
}

impl<A: AeadInPlace> Runner for AeadRunner<A> {
    fn run(&mut self, m: &mut Msg) -> Status {
        let n = m.inp.len();
        if m.nonce.len() != <A as AeadCore>::NonceSize::USIZE || m.tag.len() != <A as AeadCore>::TagSize::USIZE {
            return Status::Param;
        }
        let nonce = GenericArray::from_slice(m.nonce);
        // In place: the input is copied to the output first.
        let buf = &mut m.out[..n];
        buf.copy_from_slice(m.inp);
        if self.decrypt {
            let tag = GenericArray::from_slice(&m.tag[..]);
            match self.a.decrypt_in_place_detached(nonce, m.aad, buf, tag) {
                Ok(()) => Status::Ok,
                Err(_) => Status::Auth,
            }
        } else {
            match self.a.encrypt_in_place_detached(nonce, m.aad, buf) {
                Ok(tag) => {
                    m.tag.copy_from_slice(&tag);
                    Status::Ok
                }
                Err(_) => Status::Err,
            }
        }
    }
}

fn aead_init<A: AeadInPlace + KeyInit + 'static>(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
    if s.key.len() != a.key_len || s.tag_len != a.tag_len {
        return Err(Status::Param);
    }
    let k = A::new_from_slice(s.key).map_err(|_| Status::Param)?;
    Ok(Box::new(AeadRunner { a: k, decrypt: s.decrypt }))
}

struct DigestRunner<D>(PhantomData<D>);

impl<D: Digest> Runner for DigestRunner<D> {
    fn run(&mut self, m: &mut Msg) -> Status {
        let d = D::digest(m.inp);
        if m.tag.len() > d.len() {
            return Status::Param;
        }
        let n = m.tag.len();
        m.tag.copy_from_slice(&d[..n]);
        Status::Ok
    }
}

fn digest_init<D: Digest + 'static>(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
    if s.tag_len > a.tag_len {
        return Err(Status::Param);
    }
    Ok(Box::new(DigestRunner::<D>(PhantomData)))
}

/// SHAKE128: the output length is the tag's.
struct ShakeRunner;

impl Runner for ShakeRunner {
    fn run(&mut self, m: &mut Msg) -> Status {
        use sha3::digest::{ExtendableOutput, Update, XofReader};
        let mut h = sha3::Shake128::default();
        h.update(m.inp);
        h.finalize_xof().read(m.tag);
        Status::Ok
    }
}

fn shake_init(_: &Algorithm, _: &Setup) -> Result<Box<dyn Runner>, Status> {
    Ok(Box::new(ShakeRunner))
}

/// HMAC: the keyed state (inner and outer pads absorbed) is cloned for every message.
struct HmacRunner<M>(M);

impl<M: Mac + Clone> Runner for HmacRunner<M> {
    fn run(&mut self, m: &mut Msg) -> Status {
        let mut h = self.0.clone();
        h.update(m.inp);
        let t = h.finalize().into_bytes();
        if m.tag.len() > t.len() {
            return Status::Param;
        }
        let n = m.tag.len();
        m.tag.copy_from_slice(&t[..n]);
        Status::Ok
    }
}

fn hmac_init<M: Mac + KeyInit + Clone + 'static>(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
    if s.tag_len > a.tag_len {
        return Err(Status::Param);
    }
    let k = <M as Mac>::new_from_slice(s.key).map_err(|_| Status::Param)?;
    Ok(Box::new(HmacRunner(k)))
}

fn rows() -> Vec<Row> {
    use Kind::*;
    vec![
        Row { alg: alg("aes-128-gcm", Aead, 16, 12, 16), init: aead_init::<Aes128Gcm> },
        Row { alg: alg("aes-256-gcm", Aead, 32, 12, 16), init: aead_init::<Aes256Gcm> },
        Row { alg: alg("chacha20-poly1305", Aead, 32, 12, 16), init: aead_init::<ChaCha20Poly1305> },
        Row { alg: alg("xchacha20-poly1305", Aead, 32, 24, 16), init: aead_init::<XChaCha20Poly1305> },
        Row { alg: alg("sha224", Hash, 0, 0, 28), init: digest_init::<sha2::Sha224> },
        Row { alg: alg("sha256", Hash, 0, 0, 32), init: digest_init::<sha2::Sha256> },
        Row { alg: alg("sha384", Hash, 0, 0, 48), init: digest_init::<sha2::Sha384> },
        Row { alg: alg("sha512", Hash, 0, 0, 64), init: digest_init::<sha2::Sha512> },
        Row { alg: alg("sha512-256", Hash, 0, 0, 32), init: digest_init::<sha2::Sha512_256> },
        Row { alg: alg("sha3-256", Hash, 0, 0, 32), init: digest_init::<sha3::Sha3_256> },
        Row { alg: alg("sha3-512", Hash, 0, 0, 64), init: digest_init::<sha3::Sha3_512> },
        Row { alg: alg("shake128", Hash, 0, 0, 32), init: shake_init },
        Row { alg: alg("blake2b-512", Hash, 0, 0, 64), init: digest_init::<blake2::Blake2b512> },
        Row { alg: alg("blake2s-256", Hash, 0, 0, 32), init: digest_init::<blake2::Blake2s256> },
        Row { alg: alg("hmac-sha256", Mac, 32, 0, 32), init: hmac_init::<Hmac<sha2::Sha256>> },
        Row { alg: alg("hmac-sha512", Mac, 64, 0, 64), init: hmac_init::<Hmac<sha2::Sha512>> },
    ]
}

fn version() -> String {
    format!(
        "RustCrypto aes-gcm {}, chacha20poly1305 {}, sha2 {}, sha3 {}, blake2 {}, hmac {}",
        env!("CB_VER_AES_GCM"),
        env!("CB_VER_CHACHA20POLY1305"),
        env!("CB_VER_SHA2"),
        env!("CB_VER_SHA3"),
        env!("CB_VER_BLAKE2"),
        env!("CB_VER_HMAC")
    )
}

pub const LIBRARY: Library = Library { name: "rustcrypto", version, rows, hw_env: no_hw_switch, hw_used: hw_not_said };
