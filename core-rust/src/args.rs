// SPDX-License-Identifier: GPL-3.0-or-later
//! The command line, as the C core's args.c reads it (the same commands, options,
//! defaults and one-line usage errors), and --no-hw / --disable-cpu-feature.

pub const USAGE: &str = "usage: cipherbench-core-rust list [--lib ring|rustcrypto|aws-lc]
       cipherbench-core-rust kat [--lib L] [--vectors FILE|DIR] [--no-differential]
       cipherbench-core-rust bench --lib L --algo A[,B...] --op encrypt|decrypt|hash|mac
                                   [--sizes 16,64,...] [--samples N] [--min-sample-ms T]
                                   [--misalign N] [--cpu K] [--vectors DIR]
       cipherbench-core-rust serve --lib L [--cpu K] [--vectors DIR]
                                   (then one JSON request a line on stdin: docs/protocol.md)
  every command: [--cpu-profile no-aes|baseline | --no-hw (= no-aes)
    | --disable-cpu-feature aes,pclmul,avx2,vaes,sha,avx512,avx,ssse3,bmi]
       (AWS-LC through OPENSSL_ia32cap; ring and RustCrypto have no switch: not measured)
";

pub const HW_NAMES: [&str; 9] = ["aes", "pclmul", "avx2", "vaes", "sha", "avx512", "avx", "ssse3", "bmi"];
const HW_VALID: &str = "aes, pclmul, avx2, vaes, sha, avx512, avx, ssse3, bmi";

/// --cpu-profile's names and how many of HW_NAMES (from the first) each turns off: no-aes
/// is what --no-hw always meant, baseline everything beyond the architecture's baseline.
const HW_PROFILES: [(&str, usize); 2] = [("no-aes", 5), ("baseline", 9)];
pub const MAX_SIZES: usize = 64;
pub const MAX_SIZE: u64 = 64 << 20;
pub const MAX_ALGOS: usize = 128;
/// The ranges of --samples, --misalign and --min-sample-ms, and of a serve request's fields.
pub const MAX_SAMPLES: u64 = 1000;
pub const MAX_MISALIGN: u64 = 63;
pub const MIN_SAMPLE_MS_LO: f64 = 0.001;
pub const MIN_SAMPLE_MS_HI: f64 = 10000.0;

pub struct Args {
    pub cmd: String,
    pub lib: Option<String>,
    pub op: Option<String>,
    pub algos: Vec<String>,
    pub sizes: Vec<usize>,
    pub sizes_given: bool,
    pub samples: usize,
    pub min_sample_ms: f64,
    pub misalign: usize,
    pub cpu: Option<usize>,
    pub vectors: Option<String>,
    pub no_differential: bool,
}

/// Removes the hardware options from argv; returns the features asked off.
pub fn take_hw_args(argv: &mut Vec<String>) -> Result<Vec<&'static str>, String> {
    const OPT: &str = "--disable-cpu-feature";
    const PROF: &str = "--cpu-profile";
    let mut want = [false; 9];
    let mut rest = Vec::new();
    let parse = |list: &str, want: &mut [bool; 9]| -> Result<(), String> {
        for f in list.split(',') {
            match HW_NAMES.iter().position(|n| *n == f) {
                Some(i) => want[i] = true,
                None => return Err(format!("--disable-cpu-feature: unknown feature '{}'; valid: {} (comma-separated)",
                                           f.chars().take(32).collect::<String>(), HW_VALID)),
            }
        }
        Ok(())
    };
    let profile = |name: &str, want: &mut [bool; 9]| -> Result<(), String> {
        match HW_PROFILES.iter().find(|(n, _)| *n == name) {
            Some((_, k)) => {
                want[..*k].iter_mut().for_each(|w| *w = true);
                Ok(())
            }
            None => Err(format!("--cpu-profile: unknown profile '{}'; valid: no-aes, baseline",
                                name.chars().take(32).collect::<String>())),
        }
    };
    let mut i = 0;
    while i < argv.len() {
        let a = &argv[i];
        if a == "--no-hw" {
            profile("no-aes", &mut want)?;
        } else if a == PROF {
            if i + 1 >= argv.len() {
                return Err(format!("option {} needs a value; valid: no-aes, baseline", PROF));
            }
            i += 1;
            profile(&argv[i], &mut want)?;
        } else if let Some(v) = a.strip_prefix("--cpu-profile=") {
            profile(v, &mut want)?;
        } else if a == OPT {
            if i + 1 >= argv.len() {
                return Err(format!("option {} needs a value; valid: {}", OPT, HW_VALID));
            }
            i += 1;
            parse(&argv[i], &mut want)?;
        } else if let Some(v) = a.strip_prefix("--disable-cpu-feature=") {
            parse(v, &mut want)?;
        } else {
            rest.push(a.clone());
        }
        i += 1;
    }
    *argv = rest;
    Ok(HW_NAMES.iter().zip(want).filter(|(_, w)| *w).map(|(n, _)| *n).collect())
}

fn parse_uint(s: &str, lo: u64, hi: u64) -> Option<u64> {
    if !s.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<u64>().ok().filter(|v| *v >= lo && *v <= hi)
}

fn options(cmd: &str) -> &'static [(&'static str, bool)] {
    match cmd {
        "list" => &[("--lib", true)],
        "kat" => &[("--lib", true), ("--vectors", true), ("--no-differential", false)],
        "serve" => &[("--lib", true), ("--cpu", true), ("--vectors", true)],
        _ => &[("--lib", true), ("--algo", true), ("--op", true), ("--sizes", true), ("--samples", true),
               ("--min-sample-ms", true), ("--misalign", true), ("--cpu", true), ("--vectors", true)],
    }
}

impl Args {
    fn apply(&mut self, name: &str, val: &str) -> Result<(), String> {
        match name {
            "--lib" => self.lib = Some(val.into()),
            "--op" => self.op = Some(val.into()),
            "--algo" => {
                self.algos = val.split(',').filter(|t| !t.is_empty()).map(String::from).collect();
                if self.algos.is_empty() {
                    return Err("--algo: empty list".into());
                }
                if self.algos.len() > MAX_ALGOS {
                    return Err(format!("--algo: at most {} algorithms", MAX_ALGOS));
                }
            }
            "--sizes" => {
                self.sizes.clear();
                for t in val.split(',').filter(|t| !t.is_empty()) {
                    let v = parse_uint(t, 1, MAX_SIZE).ok_or_else(|| format!(
                        "--sizes: '{}' is not a size; valid: whole numbers of bytes from 1 to {}, comma-separated", t, MAX_SIZE))?;
                    if self.sizes.len() == MAX_SIZES {
                        return Err(format!("--sizes: at most {} sizes", MAX_SIZES));
                    }
                    self.sizes.push(v as usize);
                }
                if self.sizes.is_empty() {
                    return Err("--sizes: empty list; valid: whole numbers of bytes, comma-separated, e.g. 16,64,1024".into());
                }
                self.sizes_given = true;
            }
            "--samples" => {
                self.samples = parse_uint(val, 1, MAX_SAMPLES)
                    .ok_or_else(|| format!("--samples: '{}' is not valid; valid: a whole number from 1 to 1000", val))? as usize
            }
            "--min-sample-ms" => {
                let d: f64 = val.parse().unwrap_or(f64::NAN);
                if !(MIN_SAMPLE_MS_LO..=MIN_SAMPLE_MS_HI).contains(&d) {
                    return Err(format!("--min-sample-ms: '{}' is not valid; valid: milliseconds from 0.001 to 10000", val));
                }
                self.min_sample_ms = d;
            }
            "--misalign" => {
                self.misalign = parse_uint(val, 0, MAX_MISALIGN)
                    .ok_or_else(|| format!("--misalign: '{}' is not valid; valid: bytes from 0 to 63", val))? as usize
            }
            "--cpu" => {
                self.cpu = Some(parse_uint(val, 0, 1023)
                    .ok_or_else(|| format!("--cpu: '{}' is not valid; valid: a CPU number from 0 to 1023", val))? as usize)
            }
            "--vectors" => self.vectors = Some(val.into()),
            _ => self.no_differential = true,
        }
        Ok(())
    }

    /// The defaults of every option (those of `bench` for a serve request).
    pub fn defaults(cmd: &str) -> Args {
        Args {
            cmd: cmd.into(), lib: None, op: None, algos: Vec::new(),
            sizes: vec![16, 64, 256, 1024, 8192, 16384, 65536], sizes_given: false,
            samples: 11, min_sample_ms: 2.0, misalign: 0, cpu: None, vectors: None, no_differential: false,
        }
    }

    pub fn parse(argv: &[String]) -> Result<Args, String> {
        let mut a = Args::defaults("");
        let Some(cmd) = argv.first() else {
            return Err("missing command; valid: list, kat, bench, serve (see --help)".into());
        };
        match cmd.as_str() {
            "list" | "kat" | "bench" | "serve" => a.cmd = cmd.clone(),
            "--help" | "-h" | "help" => {
                a.cmd = "help".into();
                return Ok(a);
            }
            _ => return Err(format!("unknown command '{}'; valid: list, kat, bench, serve, tls", cmd)),
        }
        let opts = options(cmd);
        let mut i = 1;
        while i < argv.len() {
            let arg = &argv[i];
            if arg == "--help" || arg == "-h" {
                a.cmd = "help".into();
                return Ok(a);
            }
            let (name, eq) = match arg.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (arg.as_str(), None),
            };
            let Some(&(_, takes)) = opts.iter().find(|(n, _)| *n == name) else {
                let valid: Vec<&str> = opts.iter().map(|(n, _)| *n).collect();
                return Err(format!("unknown option '{}'; valid: {}", arg, valid.join(", ")));
            };
            let val = if takes {
                match eq {
                    Some(v) => v.to_string(),
                    None if i + 1 < argv.len() => {
                        i += 1;
                        argv[i].clone()
                    }
                    None => return Err(format!("option {} needs a value", name)),
                }
            } else if eq.is_some() {
                return Err(format!("option {} takes no value", name));
            } else {
                String::new()
            };
            a.apply(name, &val)?;
            i += 1;
        }
        if a.cmd == "serve" && a.lib.is_none() {
            return Err("serve needs --lib (see 'cipherbench-core-rust list' for the libraries)".into());
        }
        if a.cmd == "bench" {
            let Some(lib) = &a.lib else {
                return Err("bench needs --lib (see 'cipherbench-core-rust list' for the libraries)".into());
            };
            if a.algos.is_empty() {
                return Err(format!("bench needs --algo (see 'cipherbench-core-rust list --lib {}' for its algorithms)", lib));
            }
            if a.op.is_none() {
                return Err("bench needs --op; valid: encrypt, decrypt, hash, mac".into());
            }
        }
        Ok(a)
    }
}
