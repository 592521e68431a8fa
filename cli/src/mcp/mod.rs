//! `logicmd mcp`: the toolkit as a Model Context Protocol server for AI agents (Claude, Cursor,
//! VS Code, any MCP client), over standard input/output or, with `--http`, Streamable HTTP on
//! the loopback interface. Built on the official Rust SDK (`rmcp`); every tool goes through
//! core's front door, so an agent gets the answers the CLI gives.

mod documents;
mod edit;
mod resources;
mod roots;
mod rules;
mod schemas;
mod server;
mod shaped;
mod source;
mod tools;
mod trace;

use std::path::PathBuf;

use rmcp::ServiceExt;

use crate::{EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
#[command(after_help = "\
Tools: validate, lint, fmt, edit, compile_step, compile_workflow, graph, check, trace_check,
explain_rule. Resources: logicmd://spec, logicmd://spec/drtl, logicmd://schema,
logicmd://schema/drtl, logicmd://rules, logicmd://file/{path}. Tools read files only under the
roots and never write any.

Example (Claude Code): claude mcp add logicmd -- logicmd mcp --root .")]
pub struct Args {
    /// A directory the tools may read documents from (repeatable; relative `path` arguments
    /// resolve against the first). Without it the client's roots are used; with neither,
    /// documents must come as `text`.
    #[arg(long = "root", value_name = "DIR", value_parser = crate::commands::existing_dir)]
    roots: Vec<PathBuf>,
}

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
    let server = server::Server::new(roots::Roots::of(args.roots.iter().cloned()));
    let served = runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| format!("the client did not start a session: {error}"))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|error| format!("the server stopped: {error}"))
    });
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
