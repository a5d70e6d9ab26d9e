// SPDX-License-Identifier: GPL-3.0-or-later
//! What the libraries "ring" and "aws-lc" share to the letter: aws-lc-rs offers ring's
//! API (aead::UnboundKey and LessSafeKey, digest::digest, hmac::sign), so the key set-up,
//! the digest and the HMAC are written once and instantiated for each crate by
//! `ring_api!(crate_name)`. Each library keeps its own open and seal (ring works in
//! place, aws-lc-rs out of place), its digest_alg (aws-lc-rs has more hashes) and its rows.
use crate::algorithms::Status;

/// Copies the first tag.len() bytes of a digest or MAC into tag (the asked length may
/// be shorter than the algorithm's, never longer).
pub fn put_tag(tag: &mut [u8], full: &[u8]) -> Status {
    let Some(head) = full.get(..tag.len()) else { return Status::Param };
    tag.copy_from_slice(head);
    Status::Ok
}

/// Defines AeadRunner, aead_init, digest_init and hmac_init over the crate $lib; the
/// calling module defines how its AEAD opens and seals one message once the nonce and the
/// tag length are checked, `open` and `seal(key, nonce, aad, m) -> Status`, and
/// `digest_alg(&str) -> &'static digest::Algorithm`.
macro_rules! ring_api {
    ($lib:ident) => {
        struct AeadRunner {
            key: $lib::aead::LessSafeKey,
            decrypt: bool,
        }

        impl Runner for AeadRunner {
            fn run(&mut self, m: &mut Msg) -> Status {
                use $lib::aead;
                let Ok(nonce) = aead::Nonce::try_assume_unique_for_key(m.nonce) else { return Status::Param };
                if m.tag.len() != aead::MAX_TAG_LEN {
                    return Status::Param;
                }
                let aad = aead::Aad::from(m.aad);
                if self.decrypt {
                    open(&self.key, nonce, aad, m)
                } else {
                    seal(&self.key, nonce, aad, m)
                }
            }
        }

        fn aead_init(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
            use $lib::aead;
            let which = match a.name {
                "aes-128-gcm" => &aead::AES_128_GCM,
                "aes-256-gcm" => &aead::AES_256_GCM,
                _ => &aead::CHACHA20_POLY1305,
            };
            if s.key.len() != a.key_len || s.tag_len != a.tag_len {
                return Err(Status::Param);
            }
            let key = aead::UnboundKey::new(which, s.key).map_err(|_| Status::Err)?;
            Ok(Box::new(AeadRunner { key: aead::LessSafeKey::new(key), decrypt: s.decrypt }))
        }

        struct DigestRunner(&'static $lib::digest::Algorithm);

        impl Runner for DigestRunner {
            fn run(&mut self, m: &mut Msg) -> Status {
                crate::ring_api::put_tag(m.tag, $lib::digest::digest(self.0, m.inp).as_ref())
            }
        }

        fn digest_init(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
            if s.tag_len > a.tag_len {
                return Err(Status::Param);
            }
            Ok(Box::new(DigestRunner(digest_alg(a.name))))
        }

        struct HmacRunner($lib::hmac::Key);

        impl Runner for HmacRunner {
            fn run(&mut self, m: &mut Msg) -> Status {
                crate::ring_api::put_tag(m.tag, $lib::hmac::sign(&self.0, m.inp).as_ref())
            }
        }

        fn hmac_init(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
            use $lib::hmac;
            if s.tag_len > a.tag_len {
                return Err(Status::Param);
            }
            let which = match a.name {
                "hmac-sha1" => hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
                "hmac-sha256" => hmac::HMAC_SHA256,
                _ => hmac::HMAC_SHA512,
            };
            Ok(Box::new(HmacRunner(hmac::Key::new(which, s.key))))
        }
    };
}
pub(crate) use ring_api;
