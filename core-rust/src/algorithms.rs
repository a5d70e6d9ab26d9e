// SPDX-License-Identifier: GPL-3.0-or-later
//! What an algorithm row is and how a library's operation is called. Sizes are those of
//! core/algorithms.c (and vectors/README.md for the rows only these cores have).

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Aead,
    Cipher,
    Hash,
    Mac,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Aead => "aead",
            Kind::Cipher => "cipher",
            Kind::Hash => "hash",
            Kind::Mac => "mac",
        }
    }
    /// The ops the protocol allows for the kind.
    pub fn ops(self) -> &'static [&'static str] {
        match self {
            Kind::Aead | Kind::Cipher => &["encrypt", "decrypt"],
            Kind::Hash => &["hash"],
            Kind::Mac => &["mac"],
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Algorithm {
    pub name: &'static str,
    pub kind: Kind,
    pub key_len: usize,
    pub iv_len: usize,
    pub tag_len: usize,
    pub block_len: usize,
    /// A fresh nonce for every message (the AEADs).
    pub per_message_nonce: bool,
}

pub const fn alg(name: &'static str, kind: Kind, key_len: usize, iv_len: usize, tag_len: usize) -> Algorithm {
    Algorithm { name, kind, key_len, iv_len, tag_len, block_len: 1, per_message_nonce: matches!(kind, Kind::Aead) }
}

/// Outcome of an init or a run, as the C core's cb_status.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    Ok = 0,
    Err = 1,
    Auth = 2,
    Param = 3,
}

impl Status {
    pub fn describe(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Err => "library error",
            Status::Auth => "tag did not verify",
            Status::Param => "parameters refused",
        }
    }
}

/// Keys a context: the key, the tag length, the direction (no cipher row needs an IV).
pub struct Setup<'a> {
    pub key: &'a [u8],
    pub tag_len: usize,
    pub decrypt: bool,
}

/// One operation: inp -> out (AEADs), the tag written (encrypt, hash, mac) or checked (decrypt).
pub struct Msg<'a> {
    pub inp: &'a [u8],
    pub out: &'a mut [u8],
    pub nonce: &'a [u8],
    pub aad: &'a [u8],
    pub tag: &'a mut [u8],
}

/// A keyed context; run performs one operation on it.
pub trait Runner {
    fn run(&mut self, m: &mut Msg) -> Status;
}

pub type Init = fn(&Algorithm, &Setup) -> Result<Box<dyn Runner>, Status>;

/// One algorithm of one library and how to key it.
pub struct Row {
    pub alg: Algorithm,
    pub init: Init,
}

/// A library: its name, what it says of its version, its rows in list order, the
/// environment that turns CPU features off when it initialises (None: it has no switch),
/// and the CPU features it reports it uses (None: it does not say).
pub struct Library {
    pub name: &'static str,
    pub version: fn() -> String,
    pub rows: fn() -> Vec<Row>,
    pub hw_env: fn(&[&str]) -> Option<Vec<String>>,
    pub hw_used: fn() -> Option<Vec<&'static str>>,
}

/// For a library without a run-time switch.
pub fn no_hw_switch(_: &[&str]) -> Option<Vec<String>> {
    None
}

/// For a library that does not say which CPU features it uses.
pub fn hw_not_said() -> Option<Vec<&'static str>> {
    None
}

impl Library {
    pub fn row(&self, algo: &str) -> Option<Row> {
        (self.rows)().into_iter().find(|r| r.alg.name == algo)
    }
}
