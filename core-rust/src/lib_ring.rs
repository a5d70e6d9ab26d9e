//! The library "ring": ring's AEADs (LessSafeKey: a nonce per message, as TLS stacks
//! call it), its one-shot digest and HMAC.
use crate::algorithms::{alg, hw_not_said, no_hw_switch, Algorithm, Kind, Library, Msg, Row, Runner, Setup, Status};
use ring::{aead, digest, hmac};

struct AeadRunner {
    key: aead::LessSafeKey,
    decrypt: bool,
}

impl Runner for AeadRunner {
    fn run(&mut self, m: &mut Msg) -> Status {
        let n = m.inp.len();
        let Ok(nonce) = aead::Nonce::try_assume_unique_for_key(m.nonce) else { return Status::Param };
        if m.tag.len() != aead::MAX_TAG_LEN {
            return Status::Param;
        }
        // ring works in place: the input is copied to the output first.
        let buf = &mut m.out[..n];
        buf.copy_from_slice(m.inp);
        if self.decrypt {
            let Ok(tag) = aead::Tag::try_from(&m.tag[..]) else { return Status::Param };
            match self.key.open_in_place_separate_tag(nonce, aead::Aad::from(m.aad), tag, buf, 0..) {
                Ok(_) => Status::Ok,
                Err(_) => Status::Auth,
            }
        } else {
            match self.key.seal_in_place_separate_tag(nonce, aead::Aad::from(m.aad), buf) {
                Ok(tag) => {
                    m.tag.copy_from_slice(tag.as_ref());
                    Status::Ok
                }
                Err(_) => Status::Err,
            }
        }
    }
}

fn aead_init(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
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

fn digest_alg(name: &str) -> &'static digest::Algorithm {
    match name {
        "sha1" | "hmac-sha1" => &digest::SHA1_FOR_LEGACY_USE_ONLY,
        "sha256" | "hmac-sha256" => &digest::SHA256,
        "sha384" => &digest::SHA384,
        "sha512" | "hmac-sha512" => &digest::SHA512,
        _ => &digest::SHA512_256,
    }
}

struct DigestRunner(&'static digest::Algorithm);

impl Runner for DigestRunner {
    fn run(&mut self, m: &mut Msg) -> Status {
        let d = digest::digest(self.0, m.inp);
        let d = d.as_ref();
        if m.tag.len() > d.len() {
            return Status::Param;
        }
        let n = m.tag.len();
        m.tag.copy_from_slice(&d[..n]);
        Status::Ok
    }
}

fn digest_init(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
    if s.tag_len > a.tag_len {
        return Err(Status::Param);
    }
    Ok(Box::new(DigestRunner(digest_alg(a.name))))
}

struct HmacRunner(hmac::Key);

impl Runner for HmacRunner {
    fn run(&mut self, m: &mut Msg) -> Status {
        let t = hmac::sign(&self.0, m.inp);
        let t = t.as_ref();
        if m.tag.len() > t.len() {
            return Status::Param;
        }
        let n = m.tag.len();
        m.tag.copy_from_slice(&t[..n]);
        Status::Ok
    }
}

fn hmac_init(a: &Algorithm, s: &Setup) -> Result<Box<dyn Runner>, Status> {
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
