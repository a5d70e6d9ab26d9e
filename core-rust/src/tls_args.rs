// SPDX-License-Identifier: GPL-3.0-or-later
//! The tls command's arguments, read as the C and Go cores read them.
use crate::tls_suites::{self, Suite, SUITES};

pub const USAGE: &str = "usage: cipherbench-core-rust tls --list
       cipherbench-core-rust tls --lib rustls-ring|rustls-aws-lc [--suites S[,S...]|all] [--sizes 1400,16384]
                                 [--samples N] [--min-sample-ms T] [--cpu K]
                                 [--handshakes] [--no-transfer] [--groups G,...] [--certs C,...]
";

pub const GROUPS: [&str; 5] = ["x25519", "p256", "p384", "x448", "ffdhe2048"];
pub const CERTS: [&str; 4] = ["rsa2048", "rsa3072", "ecdsa-p256", "ed25519"];

pub struct TlsArgs {
    pub list: bool,
    pub handshakes: bool,
    pub no_transfer: bool,
    pub lib: Option<String>,
    pub suites: Vec<&'static Suite>,
    pub sizes: Vec<usize>,
    pub samples: usize,
    pub min_sample_ms: f64,
    pub cpu: Option<usize>,
    pub groups: Vec<String>,
    pub certs: Vec<String>,
}

fn parse_uint(s: &str, lo: usize, hi: usize) -> Option<usize> {
    if !s.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<usize>().ok().filter(|v| *v >= lo && *v <= hi)
}

fn pick(flag: &str, val: &str, names: &[&str]) -> Result<Vec<String>, String> {
    val.split(',').map(|t| {
        names.iter().find(|n| n.eq_ignore_ascii_case(t)).map(|n| n.to_string())
            .ok_or_else(|| format!("tls: {}: unknown '{}'; valid: {}", flag, t.chars().take(32).collect::<String>(), names.join(", ")))
    }).collect()
}

impl TlsArgs {
    /// The arguments after `tls`; None for --help; Err is the one-line usage error.
    pub fn parse(argv: &[String], libs: &[&str]) -> Result<Option<TlsArgs>, String> {
        let mut a = TlsArgs { list: false, handshakes: false, no_transfer: false, lib: None, suites: Vec::new(),
                              sizes: vec![1400, 16384], samples: 11, min_sample_ms: 2.0, cpu: None,
                              groups: GROUPS.iter().map(|s| s.to_string()).collect(),
                              certs: CERTS.iter().map(|s| s.to_string()).collect() };
        let mut suites = String::new();
        let mut i = 0;
        while i < argv.len() {
            let o = argv[i].as_str();
            match o {
                "--list" => a.list = true,
                "--handshakes" => a.handshakes = true,
                "--no-transfer" => a.no_transfer = true,
                "--help" | "-h" => return Ok(None),
                "--lib" | "--suites" | "--sizes" | "--groups" | "--certs" | "--samples" | "--min-sample-ms" | "--cpu" => {
                    let Some(val) = argv.get(i + 1) else { return Err(format!("tls: option {} needs a value", o)) };
                    i += 1;
                    match o {
                        "--lib" => a.lib = Some(val.clone()),
                        "--suites" => suites = val.clone(),
                        "--sizes" => {
                            a.sizes = val.split(',').map(|t| parse_uint(t, 16, 1 << 20).ok_or_else(|| format!(
                                "tls: --sizes: '{}' is not valid; valid: bytes per application write from 16 to 1048576",
                                t.chars().take(32).collect::<String>()))).collect::<Result<_, _>>()?;
                        }
                        "--groups" => a.groups = pick(o, val, &GROUPS)?,
                        "--certs" => a.certs = pick(o, val, &CERTS)?,
                        "--samples" => a.samples = parse_uint(val, 1, 1000).ok_or_else(|| format!(
                            "tls: --samples: '{}' is not valid; valid: a whole number from 1 to 1000", val))?,
                        "--min-sample-ms" => {
                            a.min_sample_ms = val.parse::<f64>().ok().filter(|d| (0.001..=10000.0).contains(d)).ok_or_else(|| format!(
                                "tls: --min-sample-ms: '{}' is not valid; valid: milliseconds from 0.001 to 10000", val))?;
                        }
                        _ => a.cpu = Some(parse_uint(val, 0, 1023).ok_or_else(|| format!(
                            "tls: --cpu: '{}' is not valid; valid: a CPU number from 0 to 1023", val))?),
                    }
                }
                _ => return Err(format!("tls: unknown option '{}'; valid: --list, --lib, --suites, --sizes, --samples, \
                                         --min-sample-ms, --cpu, --handshakes, --no-transfer, --groups, --certs",
                                        o.chars().take(32).collect::<String>())),
            }
            i += 1;
        }
        if a.list {
            return Ok(Some(a));
        }
        match &a.lib {
            None => return Err(format!("tls: needs --lib; valid: {}", libs.join(", "))),
            Some(l) if !libs.contains(&l.as_str()) => {
                return Err(format!("tls: unknown library '{}'; valid: {}", l.chars().take(32).collect::<String>(), libs.join(", ")))
            }
            _ => {}
        }
        if suites.is_empty() || suites.eq_ignore_ascii_case("all") {
            a.suites = SUITES.iter().collect();
        } else {
            for t in suites.split(',') {
                a.suites.push(tls_suites::find(t).ok_or_else(|| format!(
                    "tls: --suites: unknown suite '{}'; valid: IANA, OpenSSL or GnuTLS names (see 'cipherbench-core-rust tls --list')",
                    t.chars().take(64).collect::<String>()))?);
            }
        }
        if a.no_transfer && !a.handshakes {
            return Err("tls: --no-transfer leaves nothing to do; add --handshakes".into());
        }
        Ok(Some(a))
    }
}
