//! `logicmd mcp`: the toolkit as a Model Context Protocol server for AI agents (Claude, Cursor,
//! VS Code, any MCP client), over standard input/output or, with `--http`, Streamable HTTP on
//! the loopback interface. Built on the official Rust SDK (`rmcp`); every tool goes through
//! core's front door, so an agent gets the answers the CLI gives.

mod documents;
mod edit;
mod http;
mod paused;
mod prompts;
mod resources;
mod roots;
mod rules;
mod run;
mod schemas;
mod server;
mod shaped;
mod source;
mod templates;
mod tools;
mod trace;

use std::net::SocketAddr;
use std::path::PathBuf;

use rmcp::ServiceExt;

use crate::{EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
#[command(after_help = "\
Tools: validate, lint, fmt, edit, compile_step, compile_workflow, graph, check, trace_check,
explain_rule, init, list_templates, run, resume_run, next_action.
Resources: logicmd://spec, logicmd://spec/drtl, logicmd://schema, logicmd://schema/drtl,
logicmd://rules, logicmd://template/{name}, logicmd://file/{path}.
Prompts: write_logic_md, prompt_to_steps, fix_diagnostics.
Tools read files only under the roots and never write any.

Example (Claude Code): claude mcp add logicmd -- logicmd mcp --root .")]
pub struct Args {
    /// A directory the tools may read documents from (repeatable; relative `path` arguments
    /// resolve against the first). Without it the client's roots are used; with neither,
    /// documents must come as `text`.
    #[arg(long = "root", value_name = "DIR", value_parser = crate::commands::existing_dir)]
    roots: Vec<PathBuf>,
    /// Serve Streamable HTTP at ADDR (default 127.0.0.1:8931; port 0 picks a free one) under
    /// `/mcp`, instead of standard input/output. Requests from browsers (with an `Origin`) are
    /// refused unless it is the server's own or --allow-origin names it; a non-loopback ADDR needs
    /// --token.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = http::DEFAULT_ADDRESS)]
    http: Option<SocketAddr>,
    /// With --http: every request must carry `Authorization: Bearer TOKEN` (else 401). Default:
    /// the environment variable LOGICMD_MCP_TOKEN, which keeps it out of the process list.
    #[arg(long, value_name = "TOKEN", requires = "http")]
    token: Option<String>,
    /// With --http: a browser origin allowed to call the server (`https://app.example:443`,
    /// `http://localhost:*`), repeatable. Without it every request with an `Origin` but the
    /// server's own is refused.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http")]
    allowed_origins: Vec<String>,
    /// Let the `run` and `next_action` tools call an OpenAI-compatible server (`openai`, the
    /// only one), configured by the options below as for `logicmd run`; its key is read from
    /// this process's environment and never enters a tool's arguments or results. Without it,
    /// runs use synthetic or scripted answers only.
    #[arg(long, value_name = "openai", value_parser = ["openai"])]
    provider: Option<String>,
    #[command(flatten)]
    openai: crate::providers::Settings,
}

/// The environment variable `--token` defaults to.
const TOKEN_VARIABLE: &str = "LOGICMD_MCP_TOKEN";

pub fn run(args: &Args) -> u8 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the server: {error}");
            return EXIT_USAGE;
        }
    };
    let roots = roots::Roots::of(args.roots.iter().cloned());
    let openai = args.provider.is_some().then(|| args.openai.clone());
    let served = match args.http {
        Some(address) => {
            let http = http::Http {
                address,
                token: args.token.clone().or_else(|| {
                    std::env::var(TOKEN_VARIABLE)
                        .ok()
                        .filter(|token| !token.is_empty())
                }),
                allowed_origins: args.allowed_origins.clone(),
            };
            runtime.block_on(http::serve(http, roots, openai))
        }
        None => runtime.block_on(stdio(roots, openai)),
    };
    // Blocking reads of standard input must not keep the process alive once the client left.
    runtime.shutdown_background();
    match served {
        Ok(()) => EXIT_OK,
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_USAGE
        }
    }
}

async fn stdio(
    roots: roots::Roots,
    openai: Option<crate::providers::Settings>,
) -> Result<(), String> {
    let running = server::Server::new(roots, openai)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|error| format!("the client did not start a session: {error}"))?;
    running
        .waiting()
        .await
        .map(|_| ())
        .map_err(|error| format!("the server stopped: {error}"))
}
