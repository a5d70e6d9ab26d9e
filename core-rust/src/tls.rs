// SPDX-License-Identifier: GPL-3.0-or-later
//! The tls command for rustls (docs/protocol.md, "tls"), once per crypto provider: the
//! libraries "rustls-ring" and "rustls-aws-lc". A client and a server of rustls in this
//! process over an in-memory connection pair (rustls does no I/O itself: what one end
//! writes with write_tls is handed to the other's read_tls), both ends on one thread as
//! the C core runs them; per suite, application writes of each size timed with
//! measure.rs's calibration and samples; full and resumed TLS 1.3 handshakes per group
//! and certificate type.
use crate::algorithms::{Msg, Runner, Status};
use crate::emit::{self, emit, record};
use crate::measure::{self, prng_fill, wall_ns, AlignedBuf, Job};
use crate::tls_args::TlsArgs;
use crate::tls_suites::{Suite, SUITES};
use rustls::client::Resumption;
use rustls::crypto::{CryptoProvider, SupportedKxGroup};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ClientConfig, ClientConnection, Connection, HandshakeKind, ProtocolVersion, RootCertStore,
             ServerConfig, ServerConnection, SupportedCipherSuite};
use serde_json::json;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::rc::Rc;
use std::sync::Arc;

const TLS_SEED: u64 = 0x5eed0000cb7115; // the Go core's
const VERIFY_WRITES: usize = 16; // fully checked writes before timing
const HS_SUITE: &str = "TLS_AES_128_GCM_SHA256";
const HOST_NAME: &str = "cipherbench.test";
const WARM_NS: u64 = 5_000_000;

/// One TLS library: rustls with one crypto provider.
pub struct TlsLib {
    pub name: &'static str,
    provider: fn() -> CryptoProvider,
    suites: &'static [SupportedCipherSuite],
    groups: &'static [&'static dyn SupportedKxGroup],
    backend: fn() -> String,
}

fn ring_backend() -> String {
    format!("ring {}", env!("CB_VER_RING"))
}

#[cfg(feature = "aws-lc")]
fn awslc_backend() -> String {
    format!("aws-lc-rs {}", env!("CB_VER_AWS_LC_RS"))
}

pub const TLS_LIBS: &[TlsLib] = &[
    TlsLib { name: "rustls-ring", provider: rustls::crypto::ring::default_provider,
             suites: rustls::crypto::ring::ALL_CIPHER_SUITES, groups: rustls::crypto::ring::ALL_KX_GROUPS,
             backend: ring_backend },
    #[cfg(feature = "aws-lc")]
    TlsLib { name: "rustls-aws-lc", provider: rustls::crypto::aws_lc_rs::default_provider,
             suites: rustls::crypto::aws_lc_rs::ALL_CIPHER_SUITES, groups: rustls::crypto::aws_lc_rs::ALL_KX_GROUPS,
             backend: awslc_backend },
];

impl TlsLib {
    fn version(&self) -> String {
        format!("rustls {} ({})", env!("CB_VER_RUSTLS"), (self.backend)())
    }

    /// rustls's suite of an IANA name (rustls names its TLS 1.3 suites TLS13_...).
    fn suite(&self, iana: &str) -> Option<SupportedCipherSuite> {
        self.suites.iter().copied().find(|s| suite_name(s) == iana)
    }

    /// The provider's group of a protocol group name (x448, ffdhe2048: none).
    fn group(&self, name: &str) -> Option<&'static dyn SupportedKxGroup> {
        let want = match name {
            "x25519" => rustls::NamedGroup::X25519,
            "p256" => rustls::NamedGroup::secp256r1,
            "p384" => rustls::NamedGroup::secp384r1,
            "x448" => rustls::NamedGroup::X448,
            _ => rustls::NamedGroup::FFDHE2048,
        };
        self.groups.iter().copied().find(|g| g.name() == want)
    }

    /// The provider with exactly one suite and one group.
    fn narrowed(&self, suite: Option<SupportedCipherSuite>, group: &'static dyn SupportedKxGroup) -> Arc<CryptoProvider> {
        let mut p = (self.provider)();
        if let Some(s) = suite {
            p.cipher_suites = vec![s];
        }
        p.kx_groups = vec![group];
        Arc::new(p)
    }
}

/// The IANA name of a rustls suite.
fn suite_name(s: &SupportedCipherSuite) -> String {
    format!("{:?}", s.suite()).replacen("TLS13_", "TLS_", 1)
}

fn proto_name(v: Option<ProtocolVersion>) -> String {
    match v {
        Some(ProtocolVersion::TLSv1_3) => "TLS1.3".into(),
        Some(ProtocolVersion::TLSv1_2) => "TLS1.2".into(),
        Some(other) => format!("{:?}", other),
        None => String::new(),
    }
}

/// The protocol's name of a negotiated group ("" for none).
fn group_name(g: Option<rustls::NamedGroup>) -> String {
    match g {
        Some(rustls::NamedGroup::X25519) => "x25519".into(),
        Some(rustls::NamedGroup::secp256r1) => "p256".into(),
        Some(rustls::NamedGroup::secp384r1) => "p384".into(),
        Some(other) => format!("{:?}", other),
        None => String::new(),
    }
}

fn tls_error(lib: &str, algo: &str, op: &str, reason: &str, msg: &str, group: &str, cert: &str) {
    let mut f = json!({"lib": lib, "algo": algo, "op": op, "reason": reason, "message": msg});
    if !group.is_empty() {
        f["group"] = json!(group);
    }
    if !cert.is_empty() {
        f["cert"] = json!(cert);
    }
    emit(record("error", f));
}

// ---- certificates: self-signed, CN and DNS name cipherbench.test, made once per run ----

struct Cert {
    der: CertificateDer<'static>,
    key: Vec<u8>, // PKCS#8
}

fn make_cert(kind: &str) -> Result<Cert, String> {
    use rsa::pkcs8::EncodePrivateKey;
    let e = |x: &dyn std::fmt::Display| format!("making the {} certificate: {}", kind, x);
    let pair = match kind {
        "rsa2048" | "rsa3072" => {
            // ring cannot generate RSA keys: RustCrypto's rsa does; rcgen signs with ring.
            let bits = if kind == "rsa2048" { 2048 } else { 3072 };
            let k = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, bits).map_err(|x| e(&x))?;
            let der = k.to_pkcs8_der().map_err(|x| e(&x))?;
            rcgen::KeyPair::from_pkcs8_der_and_sign_algo(&PrivatePkcs8KeyDer::from(der.as_bytes()), &rcgen::PKCS_RSA_SHA256)
        }
        "ecdsa-p256" => rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256),
        _ => rcgen::KeyPair::generate_for(&rcgen::PKCS_ED25519),
    }
    .map_err(|x| e(&x))?;
    let mut params = rcgen::CertificateParams::new(vec![HOST_NAME.to_string()]).map_err(|x| e(&x))?;
    params.distinguished_name.push(rcgen::DnType::CommonName, HOST_NAME);
    let cert = params.self_signed(&pair).map_err(|x| e(&x))?;
    Ok(Cert { der: cert.der().clone(), key: pair.serialize_der() })
}

struct Certs(HashMap<String, Cert>);

impl Certs {
    fn get(&mut self, kind: &str) -> Result<&Cert, String> {
        if !self.0.contains_key(kind) {
            let c = make_cert(kind)?;
            self.0.insert(kind.to_string(), c);
        }
        Ok(&self.0[kind])
    }
}

/// A server and a client that trusts exactly the certificate and checks the name.
/// `tickets`: the server issues its default number of TLS 1.3 tickets, and the client
/// keeps them; otherwise neither resumes.
fn configs(provider: Arc<CryptoProvider>, version: &'static rustls::SupportedProtocolVersion, cert: &Cert, tickets: bool)
    -> Result<(Arc<ServerConfig>, Arc<ClientConfig>), String> {
    let mut roots = RootCertStore::empty();
    roots.add(cert.der.clone()).map_err(|e| e.to_string())?;
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key.clone()));
    let mut srv = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[version]).map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(vec![cert.der.clone()], key).map_err(|e| e.to_string())?;
    let mut cli = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version]).map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    if tickets {
        cli.resumption = Resumption::in_memory_sessions(8);
    } else {
        srv.send_tls13_tickets = 0;
        srv.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
        cli.resumption = Resumption::disabled();
    }
    Ok((Arc::new(srv), Arc::new(cli)))
}

// ---- the in-memory connection pair ----

/// Hands what `from` has to send to `to`, which processes it. Returns whether any bytes
/// moved; an error is the words of the end that failed.
fn flow(from: &mut Connection, to: &mut Connection, wire: &mut Vec<u8>) -> Result<bool, String> {
    wire.clear();
    while from.wants_write() {
        from.write_tls(wire).map_err(|e| e.to_string())?;
    }
    let mut rd = &wire[..];
    while !rd.is_empty() {
        to.read_tls(&mut rd).map_err(|e| e.to_string())?;
        to.process_new_packets().map_err(|e| e.to_string())?;
    }
    Ok(!wire.is_empty())
}

/// A fresh server and client, the handshake run to its end (and the server's tickets, if
/// any, delivered to the client).
fn connect(srv: &Arc<ServerConfig>, cli: &Arc<ClientConfig>, wire: &mut Vec<u8>) -> Result<(Connection, Connection), String> {
    let name = rustls::pki_types::ServerName::try_from(HOST_NAME).map_err(|e| e.to_string())?;
    let mut c = Connection::Client(ClientConnection::new(cli.clone(), name).map_err(|e| e.to_string())?);
    let mut s = Connection::Server(ServerConnection::new(srv.clone()).map_err(|e| e.to_string())?);
    loop {
        let a = flow(&mut c, &mut s, wire).map_err(|e| format!("server: {}", e))?;
        let b = flow(&mut s, &mut c, wire).map_err(|e| format!("client: {}", e))?;
        if !a && !b {
            break;
        }
    }
    if c.is_handshaking() || s.is_handshaking() {
        return Err("the handshake stalled".into());
    }
    Ok((s, c))
}

// ---- transfer ----

/// One write of the server read whole by the client; the first 8 bytes carry a counter,
/// checked on arrival.
struct Xfer {
    s: Connection,
    c: Connection,
    wire: Vec<u8>,
    src: Vec<u8>,
    dst: Vec<u8>,
    counter: u64,
}

impl Xfer {
    fn write_read(&mut self) -> Status {
        let Xfer { s, c, wire, src, dst, .. } = self;
        if s.writer().write_all(src).is_err() {
            return Status::Err;
        }
        wire.clear();
        while s.wants_write() {
            if s.write_tls(wire).is_err() {
                return Status::Err;
            }
        }
        let (mut rd, mut got) = (&wire[..], 0);
        while got < dst.len() {
            if rd.is_empty() {
                return Status::Err; // not all delivered
            }
            if c.read_tls(&mut rd).is_err() || c.process_new_packets().is_err() {
                return Status::Err;
            }
            loop {
                match c.reader().read(&mut dst[got..]) {
                    Ok(0) => break,
                    Ok(k) => got += k,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(_) => return Status::Err,
                }
            }
        }
        Status::Ok
    }
}

/// The pair as the timed loop runs it (shared: it is checked between samples).
struct XferRunner(Rc<RefCell<Xfer>>);

impl Runner for XferRunner {
    fn run(&mut self, _: &mut Msg) -> Status {
        let mut x = self.0.borrow_mut();
        x.counter += 1;
        let counter = x.counter.to_le_bytes();
        x.src[..8].copy_from_slice(&counter);
        let st = x.write_read();
        if st == Status::Ok && x.dst[..8] != counter {
            return Status::Auth;
        }
        st
    }
}

fn job(runner: Box<dyn Runner>) -> Job {
    Job { runner, inp: AlignedBuf::new(0, 0), out: AlignedBuf::new(0, 0), nonce: Vec::new(), aad: Vec::new(),
          tag: Vec::new(), bump_nonce: false, counter: 0 }
}

/// Calibration, then the samples, each followed (outside the timed loop) by `intact`, the
/// check of its last output. The samples, or the status that stopped them.
fn sample_all(j: &mut Job, a: &TlsArgs, intact: &dyn Fn() -> bool) -> Result<(u64, Vec<u64>, Vec<u64>), Status> {
    let min_ns = (a.min_sample_ms * 1e6) as u64;
    let iters = j.calibrate(WARM_NS.max(2 * min_ns), min_ns)?;
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..a.samples {
        let (w, c, st) = j.sample(iters);
        if st != Status::Ok {
            return Err(st);
        }
        if !intact() {
            return Err(Status::Auth);
        }
        wall.push(w);
        cpu.push(c);
    }
    Ok((iters, wall, cpu))
}

/// Every size of one suite on one connection. Returns true on a failure (not a refusal).
fn transfer_suite(lib: &TlsLib, a: &TlsArgs, s: &Suite, certs: &mut Certs) -> bool {
    let err = |reason: &str, m: &str| tls_error(lib.name, s.iana, "transfer", reason, m, "", "");
    let Some(suite) = lib.suite(s.iana) else {
        err("refused", &format!("{}: rustls does not implement this cipher suite", s.iana));
        return false;
    };
    let cert = match certs.get("rsa2048") {
        Ok(c) => c,
        Err(e) => {
            tls_error(lib.name, s.iana, "transfer", "init_failed", &e, "", "rsa2048");
            return true;
        }
    };
    let version = if s.tls13 { &rustls::version::TLS13 } else { &rustls::version::TLS12 };
    let x25519 = lib.group("x25519").expect("every provider has X25519");
    let (srv, cli) = match configs(lib.narrowed(Some(suite), x25519), version, cert, false) {
        Ok(x) => x,
        Err(e) => {
            err("refused", &format!("{}: {}", s.iana, e));
            return false;
        }
    };
    let mut wire = Vec::new();
    let (mut sc, cc) = match connect(&srv, &cli, &mut wire) {
        Ok(x) => x,
        Err(e) => {
            err("refused", &format!("{}: {}", s.iana, e));
            return false;
        }
    };
    if let Connection::Server(x) = &mut sc {
        x.set_buffer_limit(None); // a whole write of up to 1 MiB at once
    }
    let got = cc.negotiated_cipher_suite();
    let want_proto = if s.tls13 { "TLS1.3" } else { "TLS1.2" };
    let (proto, group) = (proto_name(cc.protocol_version()), group_name(cc.negotiated_key_exchange_group().map(|g| g.name())));
    let got_name = got.map(|g| suite_name(&g)).unwrap_or_default();
    if proto != want_proto || got_name != s.iana {
        err("run_failed", &format!("negotiated {} {} instead of {}", proto, got_name, s.iana));
        return true;
    }
    let lib_suite = got.map(|g| format!("{:?}", g.suite())).unwrap_or_default();
    let corrupt = std::env::var("CIPHERBENCH_TLS_FAULT").as_deref() == Ok("corrupt"); // a test hook
    let x = Rc::new(RefCell::new(Xfer { s: sc, c: cc, wire, src: Vec::new(), dst: Vec::new(), counter: 0 }));
    let mut j = job(Box::new(XferRunner(x.clone())));
    for &size in &a.sizes {
        {
            let mut x = x.borrow_mut();
            x.src = vec![0; size];
            x.dst = vec![0; size];
            let mut seed = TLS_SEED ^ size as u64;
            for i in 0..VERIFY_WRITES {
                let Xfer { src, dst, .. } = &mut *x;
                prng_fill(&mut seed, src);
                dst.fill(0);
                let st = x.write_read();
                if corrupt && i == VERIFY_WRITES - 1 {
                    x.dst[size / 2] ^= 1;
                }
                if st != Status::Ok || x.src != x.dst {
                    let what = if st != Status::Ok { "was not delivered" } else { "arrived changed" };
                    err("run_failed", &format!("size {}: write {} {}", size, i, what));
                    return true;
                }
            }
        }
        let intact = || {
            let x = x.borrow();
            x.src == x.dst
        };
        match sample_all(&mut j, a, &intact) {
            Ok((iters, wall, cpu)) => emit(record("point", json!({
                "lib": lib.name, "algo": s.iana, "op": "transfer", "size": size, "iters": iters,
                "wall_ns": wall, "cpu_ns": cpu, "misalign": 0, "suite": lib_suite, "proto": proto,
                "group": group, "cert": "rsa2048"}))),
            Err(st) => {
                let what = if st == Status::Auth { "data arrived changed" } else { "the connection failed while timed" };
                err("run_failed", &format!("size {}: {}", size, what));
                return true;
            }
        }
    }
    false
}

// ---- handshakes ----

/// One whole handshake on a fresh pair; with resume, it must resume.
struct Handshake {
    srv: Arc<ServerConfig>,
    cli: Arc<ClientConfig>,
    resume: bool,
    wire: Vec<u8>,
}

impl Runner for Handshake {
    fn run(&mut self, _: &mut Msg) -> Status {
        match connect(&self.srv, &self.cli, &mut self.wire) {
            Err(_) => Status::Err,
            Ok((_, c)) if self.resume && c.handshake_kind() != Some(HandshakeKind::Resumed) => Status::Param,
            Ok(_) => Status::Ok,
        }
    }
}

/// Returns true on a failure (not a refusal).
fn handshake_one(lib: &TlsLib, a: &TlsArgs, group: &str, cert: &str, resume: bool, certs: &mut Certs) -> bool {
    let op = if resume { "resume" } else { "handshake" };
    let err = |reason: &str, m: &str| tls_error(lib.name, HS_SUITE, op, reason, m, group, cert);
    let Some(g) = lib.group(group) else {
        err("refused", &format!("{}: the {} provider of rustls does not offer this group", group, lib.name));
        return false;
    };
    let crt = match certs.get(cert) {
        Ok(c) => c,
        Err(e) => {
            err("init_failed", &e);
            return true;
        }
    };
    let suite = lib.suite(HS_SUITE).expect("every provider has TLS_AES_128_GCM_SHA256");
    let (srv, cli) = match configs(lib.narrowed(Some(suite), g), &rustls::version::TLS13, crt, resume) {
        Ok(x) => x,
        Err(e) => {
            err("refused", &e);
            return false;
        }
    };
    let mut wire = Vec::new();
    // With resume, a first handshake whose tickets the client keeps; then check once
    // what a timed handshake will do.
    let first = connect(&srv, &cli, &mut wire).and_then(|_| connect(&srv, &cli, &mut wire));
    let c = match first {
        Ok((_, c)) => c,
        Err(e) => {
            err("refused", &e);
            return false;
        }
    };
    let resumed = c.handshake_kind() == Some(HandshakeKind::Resumed);
    if resumed != resume {
        err("run_failed", &format!("the handshake {} resumed", if resumed { "was" } else { "was not" }));
        return true;
    }
    let lib_group = c.negotiated_key_exchange_group().map(|g| format!("{:?}", g.name())).unwrap_or_default();
    let proto = proto_name(c.protocol_version());
    let mut j = job(Box::new(Handshake { srv, cli, resume, wire }));
    match sample_all(&mut j, a, &|| true) {
        Ok((iters, wall, cpu)) => {
            emit(record("handshake", json!({"lib": lib.name, "algo": HS_SUITE, "op": op, "proto": proto,
                "group": group, "cert": cert, "lib_group": lib_group, "iters": iters, "wall_ns": wall, "cpu_ns": cpu})));
            false
        }
        Err(st) => {
            err("run_failed", if st == Status::Param { "a timed handshake did not resume" } else { "a timed handshake failed" });
            true
        }
    }
}

/// Groups with the default certificate, then certificates with the default group, full
/// and resumed (as the C core). Returns the failures.
fn handshakes(lib: &TlsLib, a: &TlsArgs, certs: &mut Certs) -> usize {
    let dc = if a.certs.iter().any(|c| c == "ecdsa-p256") { "ecdsa-p256" } else { a.certs[0].as_str() };
    let dg = if a.groups.iter().any(|g| g == "x25519") { "x25519" } else { a.groups[0].as_str() };
    let mut failures = 0;
    for resume in [false, true] {
        for g in &a.groups {
            failures += usize::from(handshake_one(lib, a, g, dc, resume, certs));
        }
        for c in a.certs.iter().filter(|c| *c != dc) {
            failures += usize::from(handshake_one(lib, a, dg, c, resume, certs));
        }
    }
    failures
}

fn library_record(lib: &TlsLib) {
    emit(record("library", json!({"lib": lib.name, "version": lib.version(), "caps": null, "provider": null})));
}

/// The tls command; its exit code.
pub fn cmd_tls(argv: &[String], preamble: fn(&str)) -> i32 {
    let a = match TlsArgs::parse(argv, &TLS_LIBS.iter().map(|l| l.name).collect::<Vec<_>>()) {
        Ok(Some(a)) => a,
        Ok(None) => {
            eprint!("{}", crate::tls_args::USAGE);
            return 0;
        }
        Err(e) => {
            eprintln!("cipherbench-core-rust: {}", e);
            return 2;
        }
    };
    if let Some(cpu) = a.cpu {
        if let Err(e) = measure::pin_cpu(cpu) {
            eprintln!("cipherbench-core-rust: {}", e);
            return 2;
        }
    }
    let t0 = wall_ns();
    preamble("tls");
    if a.list {
        for l in TLS_LIBS {
            library_record(l);
        }
        for s in SUITES {
            emit(record("suite", json!({"algo": s.iana, "proto": if s.tls13 { "TLS1.3" } else { "TLS1.2" },
                "kx": s.kx, "cipher": s.cipher, "mac": s.mac, "openssl": s.openssl, "gnutls": s.gnutls, "legacy": s.legacy})));
        }
        emit::end(&crate::cpuinfo::measure_freq_hz(), wall_ns() - t0);
        return 0;
    }
    let lib = TLS_LIBS.iter().find(|l| Some(l.name) == a.lib.as_deref()).expect("checked by the parser");
    library_record(lib);
    let mut certs = Certs(HashMap::new());
    let mut failures = 0;
    if !a.no_transfer {
        for s in &a.suites {
            failures += usize::from(transfer_suite(lib, &a, s, &mut certs));
        }
    }
    if a.handshakes {
        failures += handshakes(lib, &a, &mut certs);
    }
    emit::end(&crate::cpuinfo::measure_freq_hz(), wall_ns() - t0);
    if failures > 0 { 1 } else { 0 }
}
