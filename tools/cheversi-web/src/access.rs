//! Who may use the server: the `Host` names served (against DNS
//! rebinding), the origins whose pages may open a WebSocket (this server's
//! own, and the public addresses it is served under behind a reverse proxy,
//! `--public-origin`), and how many pages one address may hold open.

use axum::http::{HeaderMap, header};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The server's rules of access, from its command line.
#[derive(Debug)]
pub struct Access {
    loopback_only: bool,
    /// `scheme://host[:port]`, lower case, no path.
    origins: Vec<String>,
    per_address: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A page's place in its address's count; given back when dropped.
#[derive(Debug)]
pub struct Admitted {
    ip: IpAddr,
    open: Option<Arc<Mutex<HashMap<IpAddr, usize>>>>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let Some(open) = &self.open else { return };
        let mut open = open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// `https://Chess.Example.org/` as `https://chess.example.org`; an error
/// for what is not an `http(s)://host[:port]` origin.
pub fn parse_origin(url: &str) -> Result<String, String> {
    let url = url.trim().trim_end_matches('/').to_ascii_lowercase();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("{url}: a public origin starts with https:// or http://"))?;
    if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ']) {
        return Err(format!(
            "{url}: a public origin is scheme://host[:port], without a path"
        ));
    }
    Ok(url)
}

impl Access {
    /// Rules for a server bound to `bind`, served also under `origins`
    /// (already parsed), with at most `per_address` pages per client
    /// address (0: no limit but the server's).
    pub fn new(bind: IpAddr, origins: Vec<String>, per_address: usize) -> Access {
        Access {
            loopback_only: bind.is_loopback(),
            origins,
            per_address,
            open: Arc::default(),
        }
    }

    fn host_of(origin: &str) -> &str {
        origin.split_once("://").map_or(origin, |(_, h)| h)
    }

    /// On a loopback address only loopback names and the public origins'
    /// hosts are served; elsewhere, with public origins, only theirs (and
    /// loopback names, for the proxy's own checks).
    pub fn host_allowed(&self, headers: &HeaderMap) -> bool {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if is_loopback_host(host)
            || self
                .origins
                .iter()
                .any(|o| Self::host_of(o).eq_ignore_ascii_case(host))
        {
            return true;
        }
        !self.loopback_only && self.origins.is_empty()
    }

    /// A browser's WebSocket names the page's origin: this server as
    /// reached (`http://` and the `Host`), or one of the public origins.
    pub fn origin_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return true; // not a browser: nothing to protect against
        };
        let Some(origin) = origin.to_str().ok().map(str::to_ascii_lowercase) else {
            return false;
        };
        if self.origins.contains(&origin) {
            return true;
        }
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        host.is_some_and(|h| {
            origin
                .strip_prefix("http://")
                .is_some_and(|rest| rest.eq_ignore_ascii_case(h))
        })
    }

    /// The client's address: the peer's, or, when the peer is a proxy on
    /// this machine and public origins are set, the one the proxy names
    /// (`X-Real-IP`, else the last of `X-Forwarded-For`).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !peer.is_loopback() || self.origins.is_empty() {
            return peer;
        }
        let named = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|v| v.trim().parse::<IpAddr>().ok())
        };
        named("x-real-ip")
            .or_else(|| named("x-forwarded-for"))
            .unwrap_or(peer)
    }

    /// A place for one more page of `ip`, or `None` when it holds its share.
    pub fn admit(&self, ip: IpAddr) -> Option<Admitted> {
        if self.per_address == 0 {
            return Some(Admitted { ip, open: None });
        }
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.per_address {
            return None;
        }
        *n += 1;
        Some(Admitted {
            ip,
            open: Some(self.open.clone()),
        })
    }

    /// Pages one address may hold (0: no limit of its own).
    pub fn per_address(&self) -> usize {
        self.per_address
    }
}

/// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
pub fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn loopback_hosts() {
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in ["evil.example:8080", "10.0.0.1:8080", "", "[::2]:80"] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins_and_hosts() {
        let local = Access::new("127.0.0.1".parse().unwrap(), Vec::new(), 0);
        let h = headers(&[("host", "127.0.0.1:8080")]);
        assert!(local.host_allowed(&h) && local.origin_allowed(&h));
        let h = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080"),
        ]);
        assert!(local.origin_allowed(&h));
        let h = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example"),
        ]);
        assert!(!local.origin_allowed(&h));
        assert!(!local.host_allowed(&headers(&[("host", "chess.example.org")])));

        let public = parse_origin("https://Chess.Example.org/").unwrap();
        assert_eq!(public, "https://chess.example.org");
        let proxied = Access::new("127.0.0.1".parse().unwrap(), vec![public], 0);
        let h = headers(&[
            ("host", "chess.example.org"),
            ("origin", "https://chess.example.org"),
        ]);
        assert!(proxied.host_allowed(&h) && proxied.origin_allowed(&h));
        let h = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "https://chess.example.org"),
        ]);
        assert!(
            proxied.origin_allowed(&h),
            "the proxy keeps the Host of the upstream"
        );
        let h = headers(&[("host", "evil.example"), ("origin", "https://evil.example")]);
        assert!(!proxied.host_allowed(&h) && !proxied.origin_allowed(&h));
        for bad in ["chess.example.org", "ftp://x", "https://x/path", "https://"] {
            assert!(parse_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_address_gets_its_share() {
        let a = Access::new(
            "127.0.0.1".parse().unwrap(),
            vec!["https://c.org".into()],
            2,
        );
        let peer: IpAddr = "127.0.0.1".parse().unwrap();
        let h = headers(&[("x-forwarded-for", "203.0.113.9, 198.51.100.7")]);
        let ip = a.client(peer, &h);
        assert_eq!(ip, "198.51.100.7".parse::<IpAddr>().unwrap());
        let one = a.admit(ip).unwrap();
        let _two = a.admit(ip).unwrap();
        assert!(a.admit(ip).is_none());
        assert!(a.admit("198.51.100.8".parse().unwrap()).is_some());
        drop(one);
        assert!(a.admit(ip).is_some());
        // A peer that is not this machine names itself.
        let far: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(a.client(far, &h), far);
    }
}
