// SPDX-License-Identifier: GPL-3.0-or-later
//! Reads the known-answer files of vectors/ (vectors/README.md) as the C core's vectors.c
//! does: a directory's *.json in name order, then its extra/ (rows only these cores
//! have), then its invalid/ (must-fail cases); a malformed file given alone is an error,
//! in a directory it is left out and said.
use crate::algorithms::{Algorithm, Kind, Library};
use serde_json::Value;
use std::path::{Path, PathBuf};

const FORMAT: &str = "cipherbench-vectors/1";
const MAX_FILE: u64 = 16 << 20;
const MAX_REPEATED: f64 = (64u64 << 20) as f64;

#[derive(Clone, Default, Debug)]
pub struct Field {
    pub b: Vec<u8>,
    pub present: bool,
}

#[derive(Clone, Default, Debug)]
pub struct Vector {
    pub name: String,
    pub key: Field,
    pub iv: Field,
    pub aad: Field,
    pub pt: Field,
    pub ct: Field,
    pub tag: Field,
    pub msg: Field,
    pub md: Field,
    pub mac: Field,
    /// Must be refused (vectors/README.md, "Invalid vectors").
    pub invalid: bool,
}

#[derive(Clone, Debug)]
pub struct VecFile {
    pub path: String,
    pub source: String,
    pub algo: String,
    pub v: Vec<Vector>,
}

/// What a vectors path gave: usable files and broken ones (said; in kat, failures).
#[derive(Default)]
pub struct VecSet {
    pub files: Vec<VecFile>,
    pub bad: Vec<String>,
}

/// --vectors, else $CIPHERBENCH_VECTORS, else the source tree's vectors/.
pub fn path(arg: Option<&str>) -> String {
    if let Some(a) = arg {
        return a.to_string();
    }
    if let Ok(e) = std::env::var("CIPHERBENCH_VECTORS") {
        if !e.is_empty() {
            return e;
        }
    }
    if let Some(d) = option_env!("CB_VECTORS_DIR") {
        return d.to_string();
    }
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("..").join("vectors")))
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "vectors".into())
}

enum LoadErr {
    Bad(String),
    /// An algorithm none of this core's libraries measures: not this core's business.
    Other,
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

fn find_alg(libs: &[Library], name: &str) -> Option<Algorithm> {
    libs.iter().find_map(|l| l.row(name).map(|r| r.alg))
}

fn parse_vector(jv: &Value, alg: &Algorithm, idx: usize, path: &str) -> Result<Vector, String> {
    let mut v = Vector { name: format!("#{}", idx + 1), ..Default::default() };
    let Some(obj) = jv.as_object() else {
        return Err(format!("vectors: {}: vector {} is not an object", path, v.name));
    };
    if let Some(n) = obj.get("name").and_then(|n| n.as_str()) {
        v.name = n.to_string();
    }
    let names = ["key", "iv", "aad", "pt", "ct", "tag", "msg", "md", "mac"];
    for k in names {
        let Some(x) = obj.get(k) else { continue };
        let b = x.as_str().and_then(unhex)
            .ok_or_else(|| format!("vectors: {}: vector {}: field \"{}\" is not a hex string", path, v.name, k))?;
        let f = Field { b, present: true };
        match k {
            "key" => v.key = f,
            "iv" => v.iv = f,
            "aad" => v.aad = f,
            "pt" => v.pt = f,
            "ct" => v.ct = f,
            "tag" => v.tag = f,
            "msg" => v.msg = f,
            "md" => v.md = f,
            _ => v.mac = f,
        }
    }
    if let Some(res) = obj.get("result") {
        let r = res.as_str().filter(|r| *r == "valid" || *r == "invalid")
            .ok_or_else(|| format!("vectors: {}: vector {}: \"result\" must be \"valid\" or \"invalid\"", path, v.name))?;
        v.invalid = r == "invalid";
        if v.invalid && !matches!(alg.kind, Kind::Aead | Kind::Mac) {
            return Err(format!("vectors: {}: vector {}: only AEAD and MAC vectors can be invalid", path, v.name));
        }
        if v.invalid && obj.get("expect").and_then(|e| e.as_str()) != Some("auth_failure") {
            return Err(format!("vectors: {}: vector {}: an invalid vector needs \"expect\": \"auth_failure\"", path, v.name));
        }
    }
    let mut need: Vec<&str> = match alg.kind {
        // an invalid one has no plaintext to give
        Kind::Aead if v.invalid => vec!["key", "iv", "ct", "tag"],
        Kind::Aead => vec!["key", "iv", "pt", "ct", "tag"],
        Kind::Cipher => vec!["key", "pt", "ct"],
        Kind::Hash => vec!["msg", "md"],
        Kind::Mac => vec!["key", "msg", "mac"],
    };
    if (alg.kind == Kind::Cipher && alg.iv_len > 0) || (alg.kind == Kind::Mac && alg.per_message_nonce) {
        need.push("iv");
    }
    for k in need {
        if !obj.contains_key(k) {
            return Err(format!("vectors: {}: vector {} lacks \"{}\" (needed for a {})", path, v.name, k, alg.kind.name()));
        }
    }
    if ((alg.kind == Kind::Aead && !v.invalid) || alg.kind == Kind::Cipher) && v.pt.b.len() != v.ct.b.len() {
        return Err(format!("vectors: {}: vector {}: pt and ct differ in length", path, v.name));
    }
    if let Some(rep) = obj.get("repeat") {
        let r = rep.as_f64().unwrap_or(0.0);
        if r < 1.0 || r.fract() != 0.0 || !v.msg.present || v.msg.b.len() as f64 * r > MAX_REPEATED {
            return Err(format!("vectors: {}: vector {}: \"repeat\" must be a whole number >= 1 applied to msg (at most 64 MiB in all)", path, v.name));
        }
        v.msg.b = v.msg.b.repeat(r as usize);
    }
    Ok(v)
}

fn load_file(path: &Path, libs: &[Library]) -> Result<VecFile, LoadErr> {
    let p = path.to_string_lossy().into_owned();
    let meta = std::fs::metadata(path).map_err(|_| LoadErr::Bad(format!("vectors: cannot open {}", p)))?;
    if meta.len() > MAX_FILE {
        return Err(LoadErr::Bad(format!("vectors: {} is too large (at most 16 MiB)", p)));
    }
    let text = std::fs::read(path).map_err(|_| LoadErr::Bad(format!("vectors: cannot read {}", p)))?;
    let doc: Value = serde_json::from_slice(&text).map_err(|_| LoadErr::Bad(format!("vectors: {} is not valid JSON", p)))?;
    if doc.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(LoadErr::Bad(format!("vectors: {}: \"format\" must be \"{}\"", p, FORMAT)));
    }
    let Some(algo) = doc.get("algo").and_then(|a| a.as_str()) else {
        return Err(LoadErr::Bad(format!("vectors: {}: \"algo\" must be a string", p)));
    };
    let Some(alg) = find_alg(libs, algo) else { return Err(LoadErr::Other) };
    let vecs = match doc.get("vectors").and_then(|v| v.as_array()) {
        Some(a) if !a.is_empty() => a,
        _ => return Err(LoadErr::Bad(format!("vectors: {}: \"vectors\" must be a non-empty array", p))),
    };
    let mut f = VecFile {
        path: p.clone(),
        source: doc.get("source").and_then(|s| s.as_str()).unwrap_or("").to_string(),
        algo: algo.to_string(),
        v: Vec::new(),
    };
    for (i, jv) in vecs.iter().enumerate() {
        f.v.push(parse_vector(jv, &alg, i, &p).map_err(LoadErr::Bad)?);
    }
    Ok(f)
}

fn json_files(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir).ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.len() >= 6 && n.ends_with(".json") && !n.starts_with('.') && e.path().is_file()
        })
        .map(|e| e.path())
        .collect();
    names.sort();
    Some(names)
}

/// Reads a file or a directory (and its extra/, then the must-fail cases of its invalid/).
/// An error is a usage error.
pub fn load(path: &str, libs: &[Library]) -> Result<VecSet, String> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p)
        .map_err(|_| format!("vectors: {} does not exist (give a file or directory with --vectors)", path))?;
    let mut set = VecSet::default();
    if !meta.is_dir() {
        match load_file(p, libs) {
            Ok(f) => set.files.push(f),
            Err(LoadErr::Other) => {}
            Err(LoadErr::Bad(e)) => return Err(e),
        }
        return Ok(set);
    }
    let mut names = json_files(p).ok_or_else(|| format!("vectors: cannot read directory {}", path))?;
    for sub in ["extra", "invalid"] {
        if let Some(more) = json_files(&p.join(sub)) {
            names.extend(more);
        }
    }
    for n in names {
        match load_file(&n, libs) {
            Ok(f) => set.files.push(f),
            Err(LoadErr::Other) => {}
            Err(LoadErr::Bad(e)) => set.bad.push(e),
        }
    }
    Ok(set)
}
