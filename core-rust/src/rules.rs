// SPDX-License-Identifier: GPL-3.0-or-later
//! The sizes each row takes, checked before a library sees them, as the C core's
//! core/rules.c: an AEAD takes its row's key length, nonce and tag lengths to the byte (a
//! prefix of the right tag is a forgery, never a truncation the row measures); a MAC its
//! row's tag length and per-message nonce. kat keys every row through `init_ruled`; the
//! timed loops give each row its own sizes, which the rules take (tested below).

use crate::algorithms::{Algorithm, Kind, Msg, Row, Runner, Setup, Status};

/// None when `a` takes what `s` keys it with, else why not.
pub fn setup_rule(a: &Algorithm, s: &Setup) -> Option<&'static str> {
    match a.kind {
        Kind::Aead if s.key.len() != a.key_len => Some("a key of another length than the row's"),
        Kind::Aead | Kind::Mac if s.tag_len != a.tag_len => Some("a tag of another length than the row's"),
        _ => None,
    }
}

/// None when `a` takes message `m`, else why not.
pub fn msg_rule(a: &Algorithm, m: &Msg) -> Option<&'static str> {
    match a.kind {
        Kind::Aead if m.nonce.len() != a.iv_len => Some("a nonce of another length than the row's"),
        Kind::Aead if m.tag.len() != a.tag_len => Some("a tag of another length than the row's"),
        Kind::Aead if a.block_len > 1 && m.inp.len() % a.block_len != 0 => {
            Some("a message of a length the row does not take")
        }
        Kind::Mac if a.per_message_nonce && m.nonce.len() != a.iv_len => {
            Some("a nonce of another length than the row's")
        }
        _ => None,
    }
}

/// A row's keyed context behind the rules of its row.
struct Ruled {
    alg: Algorithm,
    inner: Box<dyn Runner>,
}

impl Runner for Ruled {
    fn run(&mut self, m: &mut Msg) -> Status {
        if msg_rule(&self.alg, m).is_some() {
            return Status::Param;
        }
        self.inner.run(m)
    }
}

/// Keys `row` as its init does, refusing (Status::Param) what the rules refuse before the
/// library sees it, and its messages likewise.
pub fn init_ruled(row: &Row, s: &Setup) -> Result<Box<dyn Runner>, Status> {
    if setup_rule(&row.alg, s).is_some() {
        return Err(Status::Param);
    }
    let inner = (row.init)(&row.alg, s)?;
    Ok(Box::new(Ruled { alg: row.alg, inner }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kat::kat_file;
    use crate::vectors;

    /// Every row's own sizes, the ones the timed loops use, are taken.
    #[test]
    fn every_row_takes_its_own_sizes() {
        for lib in crate::LIBS {
            for row in (lib.rows)() {
                let a = &row.alg;
                let key = vec![0u8; a.key_len];
                let s = Setup { key: &key, tag_len: a.tag_len, decrypt: false };
                assert_eq!(setup_rule(a, &s), None, "{} {}", lib.name, a.name);
                let (nonce, mut tag, mut out) = (vec![0u8; a.iv_len], vec![0u8; a.tag_len], vec![0u8; 64]);
                let m = Msg { inp: &[0u8; 64], out: &mut out, nonce: &nonce, aad: &[], tag: &mut tag };
                assert_eq!(msg_rule(a, &m), None, "{} {}", lib.name, a.name);
            }
        }
    }

    /// A library that takes any tag and nonce (as OpenSSL took a one-byte prefix of the
    /// right tag) never sees the must-fail cases of another tag or nonce length.
    struct AcceptsAnything;
    impl Runner for AcceptsAnything {
        fn run(&mut self, m: &mut Msg) -> Status {
            let n = m.out.len().min(m.inp.len());
            m.out[..n].copy_from_slice(&m.inp[..n]);
            Status::Ok
        }
    }
    fn accepts_anything(_: &Algorithm, _: &Setup) -> Result<Box<dyn Runner>, Status> {
        Ok(Box::new(AcceptsAnything))
    }

    #[test]
    fn sizes_refused_before_a_library_that_would_take_them() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors");
        let set = vectors::load(dir, crate::LIBS).expect("vectors/ loads");
        let mut tried = 0;
        for f in set.files.iter().filter(|f| f.v[0].invalid) {
            let Some(row) = crate::LIBS.iter().find_map(|l| l.row(&f.algo)) else { continue };
            if row.alg.kind != Kind::Aead {
                continue;
            }
            let lax = Row { alg: row.alg, init: accepts_anything };
            for v in f.v.iter().filter(|v| v.name.contains("tag cut to") || v.name.contains("nonce one byte")) {
                let mut one = f.clone();
                one.v = vec![v.clone()];
                let r = kat_file(&lax, &one);
                assert!(r.passed == 1 && r.failed == 0, "{}: {} reached the library: {}", f.algo, v.name, r.message);
                tried += 1;
            }
        }
        assert!(tried > 0, "no must-fail case of another tag or nonce length in vectors/invalid/");
    }
}
