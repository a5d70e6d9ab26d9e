// SPDX-License-Identifier: GPL-3.0-or-later
// Passes the versions of the measured crates, as Cargo.lock pins them, to the program
// (CB_VER_<crate>), so the library records name exactly what was built.
use std::fs;

const CRATES: &[&str] = &["ring", "aws-lc-rs", "rustls", "aes-gcm", "chacha20poly1305", "sha2", "sha3", "blake2", "hmac"];

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
    // AWS-LC's capability vector after OPENSSL_ia32cap, by its prefixed symbol name
    // (aws-lc-sys prefixes every symbol with its own version).
    let mut sys_version = None;
    let mut name = "";
    for line in lock.lines() {
        if let Some(v) = line.strip_prefix("name = ") {
            name = v.trim_matches('"');
        } else if let (Some(v), "aws-lc-sys") = (line.strip_prefix("version = "), name) {
            sys_version = Some(v.trim_matches('"').replace('.', "_"));
        }
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let prefix = sys_version.map(|v| format!("aws_lc_{}_", v)).unwrap_or_default();
    fs::write(out.join("awslc_cap.rs"), format!(
        "extern \"C\" {{\n    #[link_name = \"{}OPENSSL_ia32cap_P\"]\n    static AWSLC_IA32CAP: [u32; 4];\n}}\n", prefix))
        .expect("write OUT_DIR/awslc_cap.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let ver = std::process::Command::new(rustc).arg("--version").output()
        .ok().and_then(|o| String::from_utf8(o.stdout).ok()).unwrap_or_default();
    println!("cargo:rustc-env=CB_RUSTC={}", ver.trim());
    let profile = std::env::var("PROFILE").unwrap_or_default();
    let opt = std::env::var("OPT_LEVEL").unwrap_or_default();
    println!("cargo:rustc-env=CB_PROFILE={} opt-level={}", profile, opt);
}
