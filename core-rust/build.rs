// Passes the versions of the measured crates, as Cargo.lock pins them, to the program
// (CB_VER_<crate>), so the library records name exactly what was built.
use std::fs;

const CRATES: &[&str] = &["ring", "aws-lc-rs", "aes-gcm", "chacha20poly1305", "sha2", "sha3", "blake2", "hmac"];

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=CB_VECTORS_DIR");
    let lock = fs::read_to_string("Cargo.lock").unwrap_or_default();
    let mut name = String::new();
    for line in lock.lines() {
        if let Some(v) = line.strip_prefix("name = ") {
            name = v.trim_matches('"').to_string();
        } else if let Some(v) = line.strip_prefix("version = ") {
            if CRATES.contains(&name.as_str()) {
                let var = name.to_uppercase().replace('-', "_");
                println!("cargo:rustc-env=CB_VER_{}={}", var, v.trim_matches('"'));
            }
        }
    }
    for c in CRATES {
        let var = c.to_uppercase().replace('-', "_");
        if !lock.contains(&format!("name = \"{}\"", c)) {
            println!("cargo:rustc-env=CB_VER_{}=unknown", var);
        }
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let ver = std::process::Command::new(rustc).arg("--version").output()
        .ok().and_then(|o| String::from_utf8(o.stdout).ok()).unwrap_or_default();
    println!("cargo:rustc-env=CB_RUSTC={}", ver.trim());
    let profile = std::env::var("PROFILE").unwrap_or_default();
    let opt = std::env::var("OPT_LEVEL").unwrap_or_default();
    println!("cargo:rustc-env=CB_PROFILE={} opt-level={}", profile, opt);
}
