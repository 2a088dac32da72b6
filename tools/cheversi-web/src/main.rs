//! `cheversi-web`: parses the command line, starts the server.

use cheversi_web::engine::EngineCommand;
use cheversi_web::message::Caps;
use cheversi_web::server::{self, Config};
use cheversi_web::session::{PageLimits, Timeouts};
use clap::Parser;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// A web board for Cheversi: play and analyse in a browser with any engine
/// that speaks the protocol.
#[derive(Parser, Debug)]
#[command(version)]
struct Cli {
    /// The engine program (default: `cheversi` beside this program, else
    /// the engine built into this program, run as a child process).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// An argument for the engine (repeatable).
    #[arg(long = "engine-arg", allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Pages open at once (each has its own engine process).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    max_sessions: u16,
    /// Milliseconds the engine has to answer `uci` and `isready`.
    #[arg(long, default_value_t = 10_000)]
    ready_timeout: u64,
    /// Milliseconds of grace past a move's time, and after `stop`, for `bestmove`.
    #[arg(long, default_value_t = 2_000)]
    margin: u64,
    /// Milliseconds a connection has to send a request's headers.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    request_timeout: u64,
    /// Engines `/api/explore` runs at once (each request gets its own).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=16))]
    max_explorers: u16,
    /// The most milliseconds one `/api/explore` request may spend (the
    /// page asks for this much: 2 min proves 8 plies left on a small
    /// machine; a public server wants less, see the README).
    #[arg(long, default_value_t = 120_000, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    explore_max_ms: u64,
    /// A public address the server is reached at through a reverse proxy
    /// (`https://chess.example.org`; repeatable): its host is served and its
    /// pages may open WebSockets; the proxy's `X-Real-IP`/`X-Forwarded-For`
    /// name the client.
    #[arg(long = "public-origin", value_parser = parse_origin)]
    public_origins: Vec<String>,
    /// Pages one client address may hold open (0: only --max-sessions).
    #[arg(long, default_value_t = 0)]
    max_per_address: usize,
    /// Most `Threads` a page's engine may use.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_threads: u32,
    /// Most `Hash` (MiB) a page's engine may use.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_hash: u32,
    /// Most milliseconds a page's engine thinks about a move; below the
    /// default, analysis also stops after this long.
    #[arg(long, default_value_t = 600_000, value_parser = clap::value_parser!(u64).range(10..=600_000))]
    max_think: u64,
    /// Most plies of a depth-limited move.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=16))]
    max_depth: u64,
    /// Seconds without a message after which a page is closed and its
    /// engine ended (0: never).
    #[arg(long, default_value_t = 0)]
    idle_timeout: u64,
    /// Be the built-in engine: the protocol on stdin/stdout (what the
    /// server runs when no `cheversi` is beside it).
    #[arg(long, hide = true)]
    run_engine: bool,
}

fn parse_origin(s: &str) -> Result<String, String> {
    cheversi_web::access::parse_origin(s)
}

/// `cheversi` beside this program, else this program as the engine.
fn default_engine() -> (PathBuf, Vec<String>) {
    let name = format!("cheversi{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cheversi-web"));
    match exe.parent().map(|dir| dir.join(&name)) {
        Some(beside) if beside.is_file() => (beside, Vec::new()),
        _ => (exe, vec!["--run-engine".to_string()]),
    }
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    if cli.run_engine {
        cheversi::protocol::run(std::io::stdin(), std::io::stdout());
        return;
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cheversi-web: cannot start: {e}");
            std::process::exit(1);
        }
    };
    runtime.block_on(serve(cli));
}

async fn serve(cli: Cli) {
    let (program, mut args) = match cli.engine {
        Some(p) => (p, Vec::new()),
        None => default_engine(),
    };
    args.extend(cli.engine_args);
    if program.components().count() > 1 && !program.is_file() {
        eprintln!(
            "cheversi-web: no engine at {} (pass --engine PATH)",
            program.display()
        );
        std::process::exit(2);
    }
    let addr = SocketAddr::new(cli.bind, cli.port);
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cheversi-web: cannot listen on {addr}: {e}");
            std::process::exit(2);
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    let url = format!("http://{local}/");
    let shown = std::iter::once(program.display().to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    println!("cheversi-web: serving {url} (engine: {shown})");
    let _ = std::io::stdout().flush();
    if cli.open {
        open_browser(&url);
    }
    let config = Config {
        engine: EngineCommand { program, args },
        bind: cli.bind,
        max_sessions: cli.max_sessions.into(),
        timeouts: Timeouts {
            ready: Duration::from_millis(cli.ready_timeout),
            margin: Duration::from_millis(cli.margin),
            ping: Duration::from_secs(2),
        },
        request_timeout: Duration::from_millis(cli.request_timeout),
        explore: cheversi_web::explore::Limits {
            max_engines: cli.max_explorers.into(),
            max_ms: cli.explore_max_ms,
            default_ms: 1000.min(cli.explore_max_ms),
        },
        public_origins: cli.public_origins,
        max_per_address: cli.max_per_address,
        page: PageLimits {
            caps: Caps {
                threads: cli.max_threads,
                hash: cli.max_hash,
                movetime: cli.max_think,
                depth: cli.max_depth,
            },
            idle: (cli.idle_timeout > 0).then(|| Duration::from_secs(cli.idle_timeout)),
        },
    };
    if let Err(e) = server::serve(config, listener).await {
        eprintln!("cheversi-web: {e}");
        std::process::exit(1);
    }
}

/// Starts the platform's opener; failing is not an error, the address is printed.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(program).args(args).spawn() {
        eprintln!("cheversi-web: cannot open a browser ({program}: {e}); open {url}");
    }
}
