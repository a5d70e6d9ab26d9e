// SPDX-License-Identifier: GPL-3.0-or-later
//! Known answers, checked as the C core's kat.c checks them (the expected output, inputs
//! unchanged, a context giving the same answer twice, AEAD decryption refusing forgeries
//! of each vector, the must-fail vectors of invalid/ refused), and the differential check
//! between the libraries that share an algorithm.
use crate::algorithms::{Algorithm, Kind, Msg, Row, Setup, Status};
use crate::emit;
use crate::measure::prng_fill;
use crate::vectors::{VecFile, VecSet, Vector};

#[derive(PartialEq)]
enum Verdict {
    Pass,
    Fail,
    Skip,
}

struct Ctx<'a> {
    row: &'a Row,
    msg: String,
}

impl Ctx<'_> {
    fn verdict(&mut self, v: Verdict, vec: &str, what: &str) -> Verdict {
        if v != Verdict::Pass && self.msg.is_empty() {
            self.msg = format!("{}: {}", vec, what);
        }
        v
    }

    /// A refusal of the parameters skips the vector; anything else fails it.
    fn status(&mut self, st: Status, vec: &str, stage: &str) -> Verdict {
        let v = if st == Status::Param { Verdict::Skip } else { Verdict::Fail };
        self.verdict(v, vec, &format!("{} returned {}", stage, st.describe()))
    }

    fn aead(&mut self, v: &Vector) -> Verdict {
        let (n, tl) = (v.pt.b.len(), v.tag.b.len());
        let mut s = Setup { key: &v.key.b, tag_len: tl, decrypt: false };
        let mut enc = match crate::rules::init_ruled(self.row, &s) {
            Ok(r) => r,
            Err(st) => return self.status(st, &v.name, "encrypt init"),
        };
        // Twice on one context: each call is a whole message with its own nonce.
        for round in 0..2 {
            let inp = v.pt.b.clone();
            let (mut out, mut tag) = (vec![0u8; n], vec![0u8; tl]);
            let st = enc.run(&mut Msg { inp: &inp, out: &mut out, nonce: &v.iv.b, aad: &v.aad.b, tag: &mut tag });
            let again = if round > 0 { " on a second message" } else { "" };
            if st != Status::Ok {
                return self.status(st, &v.name, "encrypt");
            } else if out != v.ct.b {
                return self.verdict(Verdict::Fail, &v.name, &format!("ciphertext differs{}", again));
            } else if tag != v.tag.b {
                return self.verdict(Verdict::Fail, &v.name, &format!("tag differs{}", again));
            } else if inp != v.pt.b {
                return self.verdict(Verdict::Fail, &v.name, "encrypt changed its input");
            }
        }
        s.decrypt = true;
        let mut dec = match crate::rules::init_ruled(self.row, &s) {
            Ok(r) => r,
            Err(st) => return self.status(st, &v.name, "decrypt init"),
        };
        // Rounds 0 and 1 decrypt; the rest are forgeries that must be refused: a flipped
        // bit in the first, a middle and the last tag byte (a library comparing part of
        // the tag lets one through), then in the ciphertext and in the AAD.
        const FORGED: [&str; 5] = ["the first tag byte", "a middle tag byte", "the last tag byte", "the ciphertext", "the AAD"];
        for round in 0..7i32 {
            let f = round - 2;
            if (f == 3 && n == 0) || (f == 4 && v.aad.b.is_empty()) || ((0..=2).contains(&f) && tl == 0) {
                continue;
            }
            let (mut inp, mut tag, mut aad) = (v.ct.b.clone(), v.tag.b.clone(), v.aad.b.clone());
            match f {
                0 => tag[0] ^= 0x01,
                1 => tag[tl / 2] ^= 0x80,
                2 => tag[tl - 1] ^= 0x01,
                3 => inp[n - 1] ^= 0x01,
                4 => aad[0] ^= 0x01,
                _ => {}
            }
            let mut out = vec![0u8; n];
            let st = dec.run(&mut Msg { inp: &inp, out: &mut out, nonce: &v.iv.b, aad: &aad, tag: &mut tag });
            if f >= 0 {
                if st != Status::Auth {
                    let what = format!("decrypt accepted a forgery (a bit flipped in {})", FORGED[f as usize]);
                    return self.verdict(Verdict::Fail, &v.name, &what);
                }
            } else if st != Status::Ok {
                return self.status(st, &v.name, "decrypt");
            } else if out != v.pt.b {
                return self.verdict(Verdict::Fail, &v.name, "decrypted plaintext differs");
            }
        }
        Verdict::Pass
    }

    /// Is st a refusal of an invalid vector (an authentication failure, or the sizes
    /// refused)? Anything else fails the vector, with what happened.
    fn refused(&mut self, st: Status, vec: &str, stage: &str) -> Verdict {
        match st {
            Status::Auth | Status::Param => Verdict::Pass,
            Status::Ok => self.verdict(Verdict::Fail, vec, &format!("{} accepted an invalid vector", stage)),
            Status::Err => self.verdict(Verdict::Fail, vec,
                &format!("{} failed with a library error (not a refusal) on an invalid vector", stage)),
        }
    }

    /// An AEAD vector that must not decrypt: a forged or truncated tag, a wrong length.
    fn aead_invalid(&mut self, v: &Vector) -> Verdict {
        let s = Setup { key: &v.key.b, tag_len: v.tag.b.len(), decrypt: true };
        let mut dec = match crate::rules::init_ruled(self.row, &s) {
            Ok(r) => r,
            Err(st) => return self.refused(st, &v.name, "decrypt init"),
        };
        let (mut out, mut tag) = (vec![0u8; v.ct.b.len()], v.tag.b.clone());
        let st = dec.run(&mut Msg { inp: &v.ct.b, out: &mut out, nonce: &v.iv.b, aad: &v.aad.b, tag: &mut tag });
        self.refused(st, &v.name, "decrypt")
    }

    /// A MAC vector that must not verify: the MAC of msg is not its mac (a verifier
    /// comparing the whole tag refuses it), or the sizes are refused; a mac shorter than
    /// the tag never passes as the whole one.
    fn mac_invalid(&mut self, v: &Vector) -> Verdict {
        let tlen = v.mac.b.len().max(self.row.alg.tag_len);
        let s = Setup { key: &v.key.b, tag_len: tlen, decrypt: false };
        let mut r = match crate::rules::init_ruled(self.row, &s) {
            Ok(r) => r,
            Err(st) => return self.refused(st, &v.name, "init"),
        };
        let mut tag = vec![0u8; tlen];
        let st = r.run(&mut Msg { inp: &v.msg.b, out: &mut [], nonce: &v.iv.b, aad: &[], tag: &mut tag });
        if st != Status::Ok {
            return self.refused(st, &v.name, "mac");
        }
        if v.mac.b.len() == tlen && tag == v.mac.b {
            return self.verdict(Verdict::Fail, &v.name, "gave the mac of an invalid vector");
        }
        Verdict::Pass
    }

    /// The digest of msg, twice on one context; a MAC vector may give a prefix of the tag.
    fn digest(&mut self, v: &Vector, mac: bool) -> Verdict {
        let a = &self.row.alg;
        let want = if mac { &v.mac.b } else { &v.md.b };
        let tlen = if mac && a.tag_len > want.len() { a.tag_len } else { want.len() };
        let s = Setup { key: &v.key.b, tag_len: tlen, decrypt: false };
        let mut r = match crate::rules::init_ruled(self.row, &s) {
            Ok(r) => r,
            Err(st) => return self.status(st, &v.name, "init"),
        };
        let inp = v.msg.b.clone();
        for round in 0..2 {
            let mut tag = vec![0u8; tlen];
            let st = r.run(&mut Msg { inp: &inp, out: &mut [], nonce: &v.iv.b, aad: &[], tag: &mut tag });
            if st != Status::Ok {
                return self.status(st, &v.name, if mac { "mac" } else { "hash" });
            }
            if tag[..want.len()] != want[..] {
                let what = match (round, mac) {
                    (1, _) => "differs on a second call with the same context",
                    (_, true) => "mac differs",
                    _ => "digest differs",
                };
                return self.verdict(Verdict::Fail, &v.name, what);
            }
            if inp != v.msg.b {
                return self.verdict(Verdict::Fail, &v.name, "the input was changed");
            }
        }
        Verdict::Pass
    }
}

pub struct FileResult {
    pub passed: usize,
    /// Of passed: vectors with an answer (not must-fail cases).
    pub valid_passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub message: String,
}

/// Every vector of a file; a panic of the library is a failure of that vector.
pub fn kat_file(row: &Row, f: &VecFile) -> FileResult {
    let mut res = FileResult { passed: 0, valid_passed: 0, failed: 0, skipped: 0, message: String::new() };
    let mut c = Ctx { row, msg: String::new() };
    for v in &f.v {
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match row.alg.kind {
            Kind::Aead if v.invalid => c.aead_invalid(v),
            Kind::Mac if v.invalid => c.mac_invalid(v),
            Kind::Aead => c.aead(v),
            Kind::Hash => c.digest(v, false),
            Kind::Mac => c.digest(v, true),
            Kind::Cipher => c.verdict(Verdict::Fail, &v.name, "not a kind this core checks"),
        }));
        let out = out.unwrap_or_else(|_| c.verdict(Verdict::Fail, &v.name, "the library panicked"));
        match out {
            Verdict::Pass => {
                res.passed += 1;
                res.valid_passed += usize::from(!v.invalid);
            }
            Verdict::Skip => res.skipped += 1,
            Verdict::Fail => res.failed += 1,
        }
    }
    res.message = c.msg;
    res
}

pub enum AlgoKat {
    Passed,
    Failed(String),
    NoVectors(String),
}

/// Every file of the row's algorithm (its answers, then its must-fail cases), a kat record
/// each. It passes when at least one answer is right, every must-fail case is refused and
/// nothing failed.
pub fn kat_algo(lib: &str, row: &Row, set: &VecSet) -> AlgoKat {
    let (mut files, mut passed, mut failed) = (0, 0, 0);
    let mut why = String::new();
    for f in set.files.iter().filter(|f| f.algo == row.alg.name) {
        let r = kat_file(row, f);
        files += 1;
        passed += r.valid_passed;
        failed += r.failed;
        if r.failed > 0 && why.is_empty() {
            why = format!("{}: {}", f.path, r.message);
        }
        emit::kat(lib, row.alg.name, r.passed, r.failed, r.skipped, &f.source, &r.message);
    }
    if files == 0 {
        AlgoKat::NoVectors(format!("no known-answer vectors for {}", row.alg.name))
    } else if failed > 0 {
        AlgoKat::Failed(why)
    } else if passed == 0 {
        AlgoKat::Failed(format!("{} refused the parameters of every {} vector with an answer", lib, row.alg.name))
    } else {
        AlgoKat::Passed
    }
}

// ---- differential check (the C core's: same seed, lengths and nonces) ----

const DIFF_SEED: u64 = 0x63697068657262;
const LENS: [usize; 4] = [13, 1000, 64, 4097];

struct DiffIn {
    key: [u8; 64],
    iv: [u8; 64],
    msgs: Vec<Vec<u8>>,
    nonces: Vec<[u8; 64]>,
}

/// The four messages through one context: outputs and tags, or the status that stopped it.
fn diff_run(row: &Row, d: &DiffIn, decrypt: bool, ins: &[Vec<u8>], tags_in: Option<&[Vec<u8>]>)
    -> Result<(Vec<Vec<u8>>, Vec<Vec<u8>>), Status> {
    let a = &row.alg;
    let s = Setup { key: &d.key[..a.key_len], tag_len: a.tag_len, decrypt };
    let mut r = crate::rules::init_ruled(row, &s)?;
    let aad: [u8; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
    let (mut outs, mut tags) = (Vec::new(), Vec::new());
    for (i, inp) in ins.iter().enumerate() {
        let aead = a.kind == Kind::Aead;
        let mut out = vec![0u8; if aead { inp.len() } else { 0 }];
        let mut tag = match tags_in {
            Some(t) => t[i].clone(),
            None => vec![0u8; a.tag_len],
        };
        let nonce: &[u8] = if a.per_message_nonce { &d.nonces[i][..a.iv_len] } else { &[] };
        let st = r.run(&mut Msg { inp, out: &mut out, nonce, aad: if aead { &aad } else { &[] }, tag: &mut tag });
        if st != Status::Ok {
            return Err(st);
        }
        outs.push(out);
        tags.push(tag);
    }
    Ok((outs, tags))
}

/// Random key, nonces and messages (fixed seed) through every library that has alg; all
/// must agree, and each must decrypt the first one's output. None when fewer than two ran.
pub fn differential(alg: &Algorithm, rows: &[(&str, Row)]) -> Option<Result<(), String>> {
    let mut seed = DIFF_SEED;
    let mut d = DiffIn { key: [0; 64], iv: [0; 64], msgs: Vec::new(), nonces: Vec::new() };
    prng_fill(&mut seed, &mut d.key);
    prng_fill(&mut seed, &mut d.iv);
    let total: usize = LENS.iter().sum();
    let mut all = vec![0u8; total];
    prng_fill(&mut seed, &mut all);
    let mut off = 0;
    for (i, l) in LENS.iter().enumerate() {
        d.msgs.push(all[off..off + l].to_vec());
        off += l;
        let mut n = d.iv;
        n[0] ^= (i + 1) as u8; // a fresh nonce per message
        d.nonces.push(n);
    }
    let mut first: Option<(&str, Vec<Vec<u8>>, Vec<Vec<u8>>)> = None;
    let mut ran = 0;
    for (lib, row) in rows {
        let (outs, tags) = match diff_run(row, &d, false, &d.msgs, None) {
            Ok(x) => x,
            Err(Status::Param) => continue,
            Err(st) => return Some(Err(format!("{} failed on random input (status {})", lib, st as i32))),
        };
        if let Some((fname, fouts, ftags)) = &first {
            for i in 0..LENS.len() {
                let (same_out, same_tag) = (outs[i] == fouts[i], tags[i] == ftags[i]);
                if !same_out || !same_tag {
                    return Some(Err(format!("{} and {} differ in the {} of message {} ({} bytes)", fname, lib,
                        if same_out { "tag" } else { "output" }, i + 1, LENS[i])));
                }
            }
        } else {
            first = Some((lib, outs, tags));
        }
        ran += 1;
        if alg.kind == Kind::Aead {
            let (fname, fouts, ftags) = first.as_ref().unwrap();
            match diff_run(row, &d, true, fouts, Some(ftags)) {
                Ok((plain, _)) if plain == d.msgs => {}
                r => {
                    let what = match r {
                        Ok(_) => "plaintext differs",
                        Err(Status::Auth) => "tag refused",
                        Err(_) => "error",
                    };
                    return Some(Err(format!("{} does not decrypt what {} encrypted ({})", lib, fname, what)));
                }
            }
        }
    }
    if ran >= 2 { Some(Ok(())) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors;

    fn repo_vectors() -> VecSet {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors");
        let set = vectors::load(dir, crate::LIBS).expect("vectors/ loads");
        assert!(set.bad.is_empty(), "broken vector files: {:?}", set.bad);
        set
    }

    /// Every row of every library passes its known answers and refuses its must-fail
    /// cases; must-fail cases alone (no answer checked) do not pass an algorithm.
    #[test]
    fn known_answers_and_must_fail_cases() {
        let set = repo_vectors();
        for lib in crate::LIBS {
            for row in (lib.rows)() {
                assert!(matches!(kat_algo(lib.name, &row, &set), AlgoKat::Passed), "{} {}", lib.name, row.alg.name);
                let invalid: Vec<&VecFile> = set.files.iter().filter(|f| f.algo == row.alg.name && f.v[0].invalid).collect();
                if matches!(row.alg.kind, Kind::Aead | Kind::Mac) && row.alg.name != "xchacha20-poly1305" {
                    assert!(!invalid.is_empty(), "{}: no must-fail cases read from vectors/invalid/", row.alg.name);
                }
                for f in invalid {
                    let r = kat_file(&row, f);
                    assert!(r.failed == 0 && r.passed == f.v.len() && r.valid_passed == 0, "{} {}: {}", lib.name, f.path, r.message);
                    let alone = VecSet { files: vec![f.clone()], bad: vec![] };
                    assert!(matches!(kat_algo(lib.name, &row, &alone), AlgoKat::Failed(_)), "{}: passed on must-fail cases alone", row.alg.name);
                }
            }
        }
    }

    /// The right answer marked invalid is caught (a library that refused nothing would pass
    /// a check that only looked for errors).
    #[test]
    fn a_right_answer_marked_invalid_fails() {
        let set = repo_vectors();
        for lib in crate::LIBS {
            for row in (lib.rows)().into_iter().filter(|r| matches!(r.alg.kind, Kind::Aead | Kind::Mac)) {
                let f = set.files.iter().find(|f| f.algo == row.alg.name && !f.v[0].invalid).expect("vectors");
                let mut marked = f.clone();
                marked.v.truncate(1);
                marked.v[0].invalid = true;
                let r = kat_file(&row, &marked);
                assert_eq!(r.failed, 1, "{} {}: {}", lib.name, row.alg.name, r.message);
            }
        }
    }
}
