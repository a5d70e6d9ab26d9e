// SPDX-License-Identifier: GPL-3.0-or-later
//! One request of `serve`: a JSON object on one line naming what to time, e.g.
//! {"algo":["aes-128-gcm"],"op":"encrypt","sizes":[1024],"samples":20} (docs/protocol.md),
//! read and refused exactly as the C core's request.c does.
use crate::args::{self, Args};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::io::BufRead;

/// The longest request line read; a longer one is refused whole.
pub const MAX_REQUEST: usize = 65536;

const VALID_FIELDS: &str = "algo, op, sizes, samples, min_sample_ms, misalign";
/// What the C core's args keep of the names of one request together (its algo_buf).
const ALGO_BYTES: usize = 4096;

/// One line of input.
#[derive(Debug, PartialEq)]
pub enum Line {
    Text(Vec<u8>),
    /// Longer than MAX_REQUEST bytes: read to its end and dropped.
    TooLong,
    End,
}

/// Reads one line (any bytes; the newline is not kept), keeping at most cap bytes of it.
pub fn read_line(input: &mut impl BufRead, cap: usize) -> std::io::Result<Line> {
    let (mut line, mut n, mut newline) = (Vec::new(), 0usize, false);
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if n < cap {
            line.extend_from_slice(&buf[..take.min(cap - n)]);
        }
        n += take;
        input.consume(if done { take + 1 } else { take });
        if done {
            newline = true;
            break;
        }
    }
    Ok(if !newline && n == 0 {
        Line::End
    } else if n > cap {
        Line::TooLong
    } else {
        Line::Text(line)
    })
}

/// True for a line of nothing but spaces, tabs and carriage returns (ignored).
pub fn blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Refuses a line that is not text: a NUL byte, or bytes that are not UTF-8; the message
/// names the first such byte (counted from 1).
pub fn text(line: &[u8]) -> Result<&str, String> {
    let valid = match std::str::from_utf8(line) {
        Ok(_) => line.len(),
        Err(e) => e.valid_up_to(),
    };
    if let Some(i) = line[..valid].iter().position(|&b| b == 0) {
        return Err(format!("the request has a NUL byte (byte {}): it must be one line of JSON text", i + 1));
    }
    if valid < line.len() {
        return Err(format!("the request is not UTF-8 text (byte {} is 0x{:02x}): it must be one line of JSON text",
                           valid + 1, line[valid]));
    }
    Ok(std::str::from_utf8(line).expect("checked above"))
}

/// A JSON document's top level: an object's members in their order, every one kept (a
/// key given twice appears twice: serde_json's own map would keep only the last), or
/// None for any other value.
struct Members(Option<Vec<(String, Value)>>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Members, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    out.push((k, v));
                }
                Ok(Members(Some(out)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Members, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Members(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Members, E> {
                Ok(Members(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Members, E> {
                Ok(Members(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Members, E> {
                Ok(Members(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Members, E> {
                Ok(Members(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Members, E> {
                Ok(Members(None))
            }
            fn visit_unit<E>(self) -> Result<Members, E> {
                Ok(Members(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A JSON number that is a whole number in [lo, hi] (as the C core reads numbers: 20.0
/// and 2e1 are 20).
fn whole(v: &Value, lo: f64, hi: f64) -> Option<f64> {
    let d = v.as_f64()?;
    (d.is_finite() && d == d.floor() && d >= lo && d <= hi).then_some(d)
}

fn parse_algo(v: &Value, req: &mut Args) -> Result<(), String> {
    let list = v.as_array().filter(|l| (1..=args::MAX_ALGOS).contains(&l.len()))
        .ok_or_else(|| format!("\"algo\" must be a list of 1 to {} algorithm names", args::MAX_ALGOS))?;
    let mut bytes = 0;
    for e in list {
        let name = e.as_str().filter(|s| !s.is_empty())
            .ok_or("\"algo\" must be a list of algorithm names (non-empty strings)")?;
        bytes += name.len() + 1;
        if bytes > ALGO_BYTES {
            return Err("\"algo\": the names are too long together".into());
        }
        req.algos.push(name.to_string());
    }
    Ok(())
}

fn parse_sizes(v: &Value, req: &mut Args) -> Result<(), String> {
    let list = v.as_array().filter(|l| (1..=args::MAX_SIZES).contains(&l.len()))
        .ok_or_else(|| format!("\"sizes\" must be a list of 1 to {} sizes", args::MAX_SIZES))?;
    req.sizes.clear();
    for e in list {
        let d = whole(e, 1.0, args::MAX_SIZE as f64).ok_or_else(|| format!(
            "\"sizes\": every size must be a whole number of bytes from 1 to {}", args::MAX_SIZE))?;
        req.sizes.push(d as usize);
    }
    req.sizes_given = true;
    Ok(())
}

fn parse_field(name: &str, v: &Value, req: &mut Args) -> Result<(), String> {
    match name {
        "algo" => parse_algo(v, req),
        "op" => {
            let op = v.as_str().filter(|s| !s.is_empty())
                .ok_or("\"op\" must be a string: encrypt, decrypt, hash, mac or ref")?;
            req.op = Some(op.to_string());
            Ok(())
        }
        "sizes" => parse_sizes(v, req),
        "samples" => {
            let d = whole(v, 1.0, args::MAX_SAMPLES as f64)
                .ok_or_else(|| format!("\"samples\" must be a whole number from 1 to {}", args::MAX_SAMPLES))?;
            req.samples = d as usize;
            Ok(())
        }
        "min_sample_ms" => {
            let d = v.as_f64().filter(|d| (args::MIN_SAMPLE_MS_LO..=args::MIN_SAMPLE_MS_HI).contains(d))
                .ok_or_else(|| format!("\"min_sample_ms\" must be milliseconds from {} to {}",
                                       args::MIN_SAMPLE_MS_LO, args::MIN_SAMPLE_MS_HI))?;
            req.min_sample_ms = d;
            Ok(())
        }
        _ => {
            let d = whole(v, 0.0, args::MAX_MISALIGN as f64)
                .ok_or_else(|| format!("\"misalign\" must be a whole number of bytes from 0 to {}", args::MAX_MISALIGN))?;
            req.misalign = d as usize;
            Ok(())
        }
    }
}

/// Parses one request line into the arguments of `bench`: the library, CPU and vectors of
/// serve, bench's defaults, then the request's fields. Strict: a field that is not known,
/// given twice, of the wrong type or out of its range refuses the whole request, with one
/// line saying what is wrong and what is valid. Checks syntax and ranges only (which
/// algorithms and ops the library has is validate_bench's).
pub fn parse(line: &str, serve: &Args) -> Result<Args, String> {
    let mut req = Args::defaults("bench");
    req.lib = serve.lib.clone();
    req.cpu = serve.cpu;
    req.vectors = serve.vectors.clone();
    let members = serde_json::from_str::<Members>(line).map_err(|_| format!(
        "the request is not one JSON object; valid: {{\"algo\":[...],\"op\":...}} with {}", VALID_FIELDS))?;
    let Members(Some(members)) = members else {
        return Err(format!("the request must be a JSON object with {}", VALID_FIELDS));
    };
    let mut seen: Vec<&str> = Vec::new();
    for (k, v) in &members {
        let Some(name) = VALID_FIELDS.split(", ").find(|f| f == k) else {
            return Err(format!("unknown field \"{}\"; valid: {}", k.chars().take(64).collect::<String>(), VALID_FIELDS));
        };
        if seen.contains(&name) {
            return Err(format!("field \"{}\" given twice", name));
        }
        seen.push(name);
        parse_field(name, v, &mut req)?;
    }
    if !seen.contains(&"algo") || !seen.contains(&"op") {
        return Err("the request needs \"algo\" and \"op\"".into());
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serve_args() -> Args {
        let argv: Vec<String> = ["serve", "--lib", "ring", "--cpu", "0"].iter().map(|s| s.to_string()).collect();
        Args::parse(&argv).expect("serve arguments")
    }

    fn refused(line: &str) -> String {
        match parse(line, &serve_args()) {
            Ok(_) => panic!("accepted: {}", line),
            Err(e) => e,
        }
    }

    #[test]
    fn a_full_request_and_the_defaults() {
        let r = parse(r#"{"algo":["aes-128-gcm","sha256"],"op":"encrypt","sizes":[16,1024.0],"samples":2e1,
                         "min_sample_ms":0.5,"misalign":3}"#, &serve_args()).unwrap();
        assert_eq!((r.cmd.as_str(), r.lib.as_deref(), r.cpu), ("bench", Some("ring"), Some(0)));
        assert_eq!(r.algos, ["aes-128-gcm", "sha256"]);
        assert_eq!((r.op.as_deref(), r.sizes.as_slice(), r.sizes_given), (Some("encrypt"), &[16, 1024][..], true));
        assert_eq!((r.samples, r.min_sample_ms, r.misalign), (20, 0.5, 3));
        let d = parse(r#" {"op":"hash","algo":["sha256"]} "#, &serve_args()).unwrap();
        let b = Args::defaults("bench");
        assert_eq!((d.sizes, d.sizes_given, d.samples, d.min_sample_ms, d.misalign),
                   (b.sizes, false, b.samples, b.min_sample_ms, b.misalign));
    }

    #[test]
    fn not_one_object() {
        for line in ["", "{", "{\"algo\":[\"sha256\"],\"op\":\"hash\"} x", "{'algo':1}", "{\"algo\":[\"sha256\"],}"] {
            assert!(refused(line).starts_with("the request is not one JSON object; valid:"), "{}", line);
        }
        for line in ["[1,{\"a\":2}]", "\"algo\"", "12", "null", "true"] {
            assert_eq!(refused(line), format!("the request must be a JSON object with {}", VALID_FIELDS), "{}", line);
        }
    }

    #[test]
    fn unknown_and_duplicate_fields() {
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","size":[16]}"#),
                   format!("unknown field \"size\"; valid: {}", VALID_FIELDS));
        let long = "é".repeat(100);
        assert_eq!(refused(&format!(r#"{{"{}":1}}"#, long)),
                   format!("unknown field \"{}\"; valid: {}", "é".repeat(64), VALID_FIELDS));
        // serde_json's map would keep the last silently; the C core refuses, and so does this
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","op":"mac"}"#), "field \"op\" given twice");
        assert_eq!(refused(r#"{"samples":2,"algo":["sha256"],"samples":2,"op":"hash"}"#), "field \"samples\" given twice");
        assert_eq!(refused(r#"{"algo":["sha256"]}"#), "the request needs \"algo\" and \"op\"");
        assert_eq!(refused(r#"{"op":"hash"}"#), "the request needs \"algo\" and \"op\"");
    }

    #[test]
    fn wrong_types() {
        let algo = "\"algo\" must be a list of 1 to 128 algorithm names";
        assert_eq!(refused(r#"{"algo":"sha256","op":"hash"}"#), algo);
        assert_eq!(refused(r#"{"algo":[],"op":"hash"}"#), algo);
        assert_eq!(refused(r#"{"algo":["sha256",1],"op":"hash"}"#), "\"algo\" must be a list of algorithm names (non-empty strings)");
        assert_eq!(refused(r#"{"algo":[""],"op":"hash"}"#), "\"algo\" must be a list of algorithm names (non-empty strings)");
        let op = "\"op\" must be a string: encrypt, decrypt, hash, mac or ref";
        assert_eq!(refused(r#"{"algo":["sha256"],"op":["hash"]}"#), op);
        assert_eq!(refused(r#"{"algo":["sha256"],"op":""}"#), op);
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","sizes":16}"#), "\"sizes\" must be a list of 1 to 64 sizes");
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","samples":"20"}"#), "\"samples\" must be a whole number from 1 to 1000");
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","min_sample_ms":"1"}"#),
                   "\"min_sample_ms\" must be milliseconds from 0.001 to 10000");
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","misalign":null}"#), "\"misalign\" must be a whole number of bytes from 0 to 63");
    }

    #[test]
    fn out_of_range() {
        let many = format!("[{}]", vec!["\"sha256\""; 129].join(","));
        assert_eq!(refused(&format!(r#"{{"algo":{},"op":"hash"}}"#, many)), "\"algo\" must be a list of 1 to 128 algorithm names");
        let long = format!("[{}]", vec![format!("\"{}\"", "a".repeat(100)); 41].join(","));
        assert_eq!(refused(&format!(r#"{{"algo":{},"op":"hash"}}"#, long)), "\"algo\": the names are too long together");
        let sixty_five = format!("[{}]", vec!["16"; 65].join(","));
        assert_eq!(refused(&format!(r#"{{"algo":["sha256"],"op":"hash","sizes":{}}}"#, sixty_five)),
                   "\"sizes\" must be a list of 1 to 64 sizes");
        let size = "\"sizes\": every size must be a whole number of bytes from 1 to 67108864";
        for s in ["0", "16.5", "-16", "67108865", "1e300"] {
            assert_eq!(refused(&format!(r#"{{"algo":["sha256"],"op":"hash","sizes":[{}]}}"#, s)), size, "{}", s);
        }
        for s in ["0", "1001", "2.5"] {
            assert_eq!(refused(&format!(r#"{{"algo":["sha256"],"op":"hash","samples":{}}}"#, s)),
                       "\"samples\" must be a whole number from 1 to 1000", "{}", s);
        }
        for s in ["0", "0.0009", "10000.5"] {
            assert_eq!(refused(&format!(r#"{{"algo":["sha256"],"op":"hash","min_sample_ms":{}}}"#, s)),
                       "\"min_sample_ms\" must be milliseconds from 0.001 to 10000", "{}", s);
        }
        assert_eq!(refused(r#"{"algo":["sha256"],"op":"hash","misalign":64}"#), "\"misalign\" must be a whole number of bytes from 0 to 63");
        assert_eq!(parse(r#"{"algo":["sha256"],"op":"hash","sizes":[67108864],"samples":1000,"min_sample_ms":10000,"misalign":63}"#,
                         &serve_args()).map(|r| r.misalign), Ok(63));
    }

    #[test]
    fn text_lines() {
        assert_eq!(text(b"{\"a\":\"\xc3\xa9\"}"), Ok("{\"a\":\"é\"}"));
        assert_eq!(text(b"{\"a\":1}\0"), Err("the request has a NUL byte (byte 8): it must be one line of JSON text".into()));
        assert_eq!(text(b"{\"a\":\"\xff\"}"),
                   Err("the request is not UTF-8 text (byte 7 is 0xff): it must be one line of JSON text".into()));
        // an encoded surrogate and an overlong form are not UTF-8 either; the first fault is named
        assert!(text(b"\xed\xa0\x80").unwrap_err().contains("byte 1 is 0xed"));
        assert!(text(b"ab\xc0\xaf").unwrap_err().contains("byte 3 is 0xc0"));
        assert!(text(b"a\xff\0").unwrap_err().contains("not UTF-8 text (byte 2"));
        assert!(text(b"a\0\xff").unwrap_err().contains("NUL byte (byte 2)"));
        assert!(blank(b" \t\r") && blank(b"") && !blank(b" x"));
    }

    #[test]
    fn lines_and_the_longest() {
        let long = vec![b'x'; 20];
        let mut input = std::io::Cursor::new([b"abc\n".to_vec(), long.clone(), b"\n\nlast".to_vec()].concat());
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"abc".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::TooLong);
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(Vec::new()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"last".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::End);
        let mut exact = std::io::Cursor::new(b"0123456789\n".to_vec());
        assert_eq!(read_line(&mut exact, 10).unwrap(), Line::Text(b"0123456789".to_vec()));
    }
}
