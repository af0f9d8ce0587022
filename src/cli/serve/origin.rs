//! Who may drive the server: a browser names the page that makes a request
//! in its `Origin` header, and only the server's own page, f-puzzles,
//! SudokuPad and the origins given with `--allow-origin` get in, so that a
//! page on any other site cannot use this machine's CPU. A request with no
//! `Origin` comes from outside a browser (a script, a command-line
//! WebSocket client) and is let in.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, header};

/// The sites whose pages run the solver userscripts.
const SITES: &[&str] = &[
    "https://f-puzzles.com",
    "https://www.f-puzzles.com",
    "https://sudokupad.app",
    "https://beta.sudokupad.app",
    "https://app.crackingthecryptic.com",
];

/// The origins let in.
pub struct Origins {
    /// The port the server listens on.
    port: u16,
    /// [`SITES`] and the `--allow-origin` ones, as `scheme://host[:port]`.
    allowed: Vec<String>,
}

impl Origins {
    /// The origins for a server on `bound`, with `extra` ones; an error
    /// names an extra one that is not an origin.
    pub fn new(bound: SocketAddr, extra: &[String]) -> Result<Origins, String> {
        let mut allowed: Vec<String> = SITES.iter().map(|s| s.to_string()).collect();
        for origin in extra {
            let origin = origin.trim_end_matches('/');
            let host = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://"));
            match host {
                Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', ' ']) => {
                    allowed.push(origin.to_ascii_lowercase())
                }
                _ => {
                    return Err(format!(
                        "bad --allow-origin '{origin}': expected a scheme and a host, like https://example.org"
                    ));
                }
            }
        }
        Ok(Origins { port: bound.port(), allowed })
    }

    /// `Ok` if a request with `headers` may be answered; else why not.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let origin = origin.to_str().unwrap_or("(not text)").trim_end_matches('/').to_ascii_lowercase();
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        if self.allowed.contains(&origin) || self.own_page(&origin, host) {
            Ok(())
        } else {
            Err(format!(
                "origin '{origin}' is not this server's page, f-puzzles or SudokuPad (cagey serve --allow-origin adds one)"
            ))
        }
    }

    /// Whether `origin` is the server's own page: `http://` and this port,
    /// on `localhost` or an IP address the request was sent to. A host name
    /// other than `localhost` is never the page, even when the request's
    /// `Host` names it too: that is how a site that points its name at
    /// 127.0.0.1 (DNS rebinding) would pass as the page.
    fn own_page(&self, origin: &str, host: Option<&str>) -> bool {
        let Some(authority) = origin.strip_prefix("http://") else {
            return false;
        };
        let Some((name, port)) = authority.rsplit_once(':') else {
            return false;
        };
        if port.parse() != Ok(self.port) {
            return false;
        }
        let name = name.trim_start_matches('[').trim_end_matches(']');
        match name.parse::<IpAddr>() {
            Ok(ip) if ip.is_loopback() => true,
            Ok(_) => host.is_some_and(|host| host.eq_ignore_ascii_case(authority)),
            Err(_) => name == "localhost",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn the_page_f_puzzles_and_sudokupad_get_in_and_other_sites_do_not() {
        let origins = Origins::new("0.0.0.0:4545".parse().unwrap(), &["https://example.org/".into()]).unwrap();
        let ok = |origin: Option<&str>, host: &str| origins.check(&headers(origin, host)).is_ok();
        assert!(ok(None, "127.0.0.1:4545"), "not a browser");
        assert!(ok(Some("http://127.0.0.1:4545"), "127.0.0.1:4545"));
        assert!(ok(Some("http://localhost:4545"), "localhost:4545"));
        assert!(ok(Some("http://[::1]:4545"), "[::1]:4545"));
        assert!(ok(Some("http://192.168.1.5:4545"), "192.168.1.5:4545"), "the page reached over the network");
        assert!(ok(Some("https://www.f-puzzles.com"), "localhost:4545"));
        assert!(ok(Some("https://sudokupad.app"), "localhost:4545"));
        assert!(ok(Some("https://EXAMPLE.org"), "localhost:4545"), "--allow-origin");
        assert!(!ok(Some("https://evil.example"), "localhost:4545"));
        assert!(!ok(Some("null"), "localhost:4545"), "a file or sandboxed page");
        assert!(!ok(Some("http://127.0.0.1:8080"), "127.0.0.1:4545"), "another local server");
        assert!(!ok(Some("https://127.0.0.1:4545"), "127.0.0.1:4545"));
        assert!(!ok(Some("http://rebound.example:4545"), "rebound.example:4545"), "DNS rebinding");
        assert!(!ok(Some("http://192.168.1.5:4545"), "192.168.1.6:4545"));
        assert!(!ok(Some("http://f-puzzles.com"), "localhost:4545"), "only over https");
    }

    #[test]
    fn an_extra_origin_must_be_one() {
        let bound = "127.0.0.1:4545".parse().unwrap();
        for bad in ["example.org", "https://", "https://a.org/page", "ftp://a.org"] {
            let error = Origins::new(bound, &[bad.into()]).err().unwrap();
            assert!(error.contains("--allow-origin"), "{error}");
        }
    }
}
