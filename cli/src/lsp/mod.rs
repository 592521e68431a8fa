//! `logicmd lsp`: a Language Server Protocol server over standard input and output.
//!
//! The protocol shell around `logicmd_ide`: one loop on the main thread reads messages in
//! order, keeps the open texts in the ide's workspace (incremental changes), answers requests
//! (a request cancelled before it is reached is answered `RequestCancelled`), and publishes
//! diagnostics after a quiet moment (debounced), for the changed file and the open files that
//! load it; files changed on disk (`workspace/didChangeWatchedFiles`) re-check their importers.

mod convert;
mod framing;
mod handlers;
mod memory;
mod parent;
mod project;
mod served;
mod settings;
mod transport;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use serde_json::Value;

use logicmd_ide::Workspace;
use project::Project;
use transport::{Outgoing, Transport};

use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

/// How long diagnostics wait after the last change by default.
const DEFAULT_DELAY: Duration = Duration::from_millis(200);

#[derive(clap::Args)]
pub struct Args {
    /// The project root (imports resolve inside it); default: the client's workspace folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Talk over standard input and output (the only transport; accepted for editors that pass it).
    #[arg(long)]
    stdio: bool,
}

pub fn run(args: &Args) -> u8 {
    let _ = args.stdio;
    let (connection, io_threads) = transport::stdio();
    match serve(&connection, args) {
        Ok(status) => {
            drop(connection);
            let _ = io_threads.join();
            status
        }
        Err(message) => {
            eprintln!("error: logicmd lsp: {message}");
            // The client may still hold standard input open: the reader is not waited for
            // (the process ends), only the writer, so the answer saying why is sent.
            connection.flushed();
            EXIT_USAGE
        }
    }
}

fn serve(connection: &Transport, args: &Args) -> Result<u8, String> {
    let Some((id, params)) = initialize_start(connection)? else {
        // `exit` without `shutdown`: the protocol's failure status.
        return Ok(EXIT_INVALID);
    };
    let refuse = |id: RequestId, message: String| {
        let refused = Response::new_err(id, ErrorCode::InvalidParams as i32, message.clone());
        send(connection, Outgoing::message(&Message::Response(refused)));
        Err(message)
    };
    let init: lsp::InitializeParams = match serde_json::from_value(params.clone()) {
        Ok(init) => init,
        Err(error) => {
            let place = invalid_field(&params).map_or(String::new(), |f| format!(" `{f}`:"));
            return refuse(
                id,
                format!("the initialize parameters are not valid:{place} {error}"),
            );
        }
    };
    let project = match open_project(args, &init) {
        Ok(project) => Arc::new(project),
        Err(message) => return refuse(id, message),
    };
    let result = lsp::InitializeResult {
        capabilities: handlers::capabilities(),
        server_info: Some(lsp::ServerInfo {
            name: "logicmd".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    if let Some(pid) = init.process_id {
        parent::watch(pid);
    }
    let first = initialize_finish(connection, &id, &result)?;
    let delay = init
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("diagnosticsDelayMs"))
        .and_then(Value::as_u64)
        .map_or(DEFAULT_DELAY, Duration::from_millis);
    let mut server = Server {
        connection,
        workspace: Workspace::new(Arc::clone(&project) as Arc<dyn logicmd_ide::ProjectFiles>),
        project,
        versions: HashMap::new(),
        pending: BTreeSet::new(),
        deadline: None,
        delay,
        cancelled: HashSet::new(),
        buffer: first.into_iter().collect(),
        shutdown: false,
        next_request: 0,
        settings_problems: HashSet::new(),
        insert_replace: supports_insert_replace(&init),
        worked: false,
    };
    if watches_files(&init) {
        server.register_watchers();
    }
    Ok(server.main_loop())
}

/// Waits for the client's `initialize` (a request before it is refused as the protocol says);
/// `None` when the client asks to exit first.
fn initialize_start(connection: &Transport) -> Result<Option<(RequestId, Value)>, String> {
    loop {
        match connection.receiver.recv() {
            Ok(Message::Request(request)) if request.method == "initialize" => {
                return Ok(Some((request.id, request.params)))
            }
            Ok(Message::Request(request)) => {
                let refused = Response::new_err(
                    request.id,
                    ErrorCode::ServerNotInitialized as i32,
                    format!("expected initialize request, got `{}`", request.method),
                );
                send(connection, Outgoing::message(&Message::Response(refused)));
            }
            Ok(Message::Notification(n)) if n.method != "exit" => {}
            Ok(Message::Notification(_)) => return Ok(None),
            Ok(Message::Response(response)) => {
                return Err(format!(
                    "expected the initialize request, got a response to request {}",
                    response.id
                ))
            }
            Err(_) => return Err("the client left before initializing".to_owned()),
        }
    }
}

/// The first field of `initialize`'s parameters that is not valid by itself (serde's message
/// names the type it expected, not where).
fn invalid_field(params: &Value) -> Option<String> {
    let fields = params.as_object()?;
    fields.iter().find_map(|(name, value)| {
        let mut alone = serde_json::json!({"processId": null, "rootUri": null, "capabilities": {}});
        alone[name.as_str()] = value.clone();
        serde_json::from_value::<lsp::InitializeParams>(alone)
            .is_err()
            .then(|| name.clone())
    })
}

/// Answers `initialize` and waits for the client's `initialized`.
fn initialize_finish(
    connection: &Transport,
    id: &RequestId,
    result: &lsp::InitializeResult,
) -> Result<Option<Message>, String> {
    send(
        connection,
        Outgoing::result(id, result).map_err(|e| e.to_string())?,
    );
    // A client that goes on without `initialized` is served all the same: what it sent
    // instead is the main loop's first message.
    match connection.receiver.recv() {
        Ok(Message::Notification(n)) if n.method == "initialized" => Ok(None),
        Ok(other) => Ok(Some(other)),
        Err(_) => Err("the client left before initializing".to_owned()),
    }
}

fn send(connection: &Transport, message: Outgoing) {
    let _ = connection.sender.send(message);
}

/// The project at `--root`, else the client's first workspace folder or root, else (a client
/// editing a file outside any project sends none) the directory the server was started in, or
/// its nearest ancestor with a project marker, as `logicmd lint` finds a file's root.
fn open_project(args: &Args, init: &lsp::InitializeParams) -> Result<Project, String> {
    let root = match args.root.clone().or_else(|| client_root(init)) {
        Some(root) => root,
        None => {
            let here = std::env::current_dir()
                .map_err(|e| format!("no project root: the client sent none, and the current directory cannot be read ({e}); pass `--root DIR`"))?;
            crate::fs_loader::marked_root(&here).unwrap_or(here)
        }
    };
    Project::new(&root).map_err(|e| {
        format!(
            "cannot open the project root {}: {e}; pass `--root DIR` or open a folder that exists",
            root.display()
        )
    })
}

/// The first workspace folder, else the root URI the client sent.
fn client_root(init: &lsp::InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = init.workspace_folders.as_ref().and_then(|f| f.first()) {
        return project::path_of_uri(folder.uri.as_str());
    }
    #[allow(
        deprecated,
        reason = "clients without workspace folders send only `rootUri`"
    )]
    let root = init.root_uri.as_ref();
    root.and_then(|uri| project::path_of_uri(uri.as_str()))
}

fn supports_insert_replace(init: &lsp::InitializeParams) -> bool {
    init.capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.completion.as_ref())
        .and_then(|c| c.completion_item.as_ref())
        .and_then(|i| i.insert_replace_support)
        .unwrap_or(false)
}

fn watches_files(init: &lsp::InitializeParams) -> bool {
    init.capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false)
}

pub(crate) struct Server<'c> {
    connection: &'c Transport,
    project: Arc<Project>,
    workspace: Workspace,
    /// The client's version of each open document.
    versions: HashMap<String, i32>,
    /// Open files whose diagnostics are to be published.
    pending: BTreeSet<String>,
    /// When they are.
    deadline: Option<Instant>,
    delay: Duration,
    /// Requests the client cancelled before they were reached.
    cancelled: HashSet<RequestId>,
    /// Messages read ahead (to see cancellations).
    buffer: VecDeque<Message>,
    shutdown: bool,
    next_request: i32,
    /// Work was done since the allocator's free pages were last given back.
    worked: bool,
    /// Unusable settings already said (each is said once).
    settings_problems: HashSet<String>,
    /// The client takes completion edits with an insert and a replace range (the user's
    /// setting picks whether accepting an item inside a word replaces its rest).
    insert_replace: bool,
}

impl Server<'_> {
    fn main_loop(&mut self) -> u8 {
        loop {
            self.read_ahead();
            let message = match self.buffer.pop_front() {
                Some(message) => message,
                None => match self.wait() {
                    Some(message) => message,
                    None if self.deadline.is_some() => {
                        self.publish();
                        continue;
                    }
                    None => return EXIT_INVALID,
                },
            };
            match message {
                Message::Request(request) => self.request(request),
                Message::Notification(notification) if notification.method == "exit" => {
                    return if self.shutdown { EXIT_OK } else { EXIT_INVALID };
                }
                Message::Notification(notification) => self.notification(notification),
                Message::Response(_) => {}
            }
        }
    }

    /// The next message, or `None` when the diagnostics' time has come (or the client left:
    /// then there is no deadline either).
    fn wait(&mut self) -> Option<Message> {
        loop {
            let received = match self.deadline {
                Some(deadline) => match self.connection.receiver.recv_deadline(deadline) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => return None,
                    Err(RecvTimeoutError::Disconnected) => {
                        self.deadline = None;
                        return None;
                    }
                },
                None => {
                    if self.worked && self.connection.receiver.is_empty() {
                        self.worked = false;
                        memory::release_free_pages();
                    }
                    self.connection.receiver.recv().ok()?
                }
            };
            if let Some(message) = self.screen(received) {
                return Some(message);
            }
        }
    }

    /// Reads what has arrived without waiting, keeping cancellations aside.
    fn read_ahead(&mut self) {
        while let Ok(message) = self.connection.receiver.try_recv() {
            if let Some(message) = self.screen(message) {
                self.buffer.push_back(message);
            }
        }
    }

    /// A cancellation is noted (and the message dropped); anything else passes.
    fn screen(&mut self, message: Message) -> Option<Message> {
        if let Message::Notification(notification) = &message {
            if notification.method == "$/cancelRequest" {
                if let Ok(params) =
                    serde_json::from_value::<lsp::CancelParams>(notification.params.clone())
                {
                    let id = match params.id {
                        lsp::NumberOrString::Number(n) => RequestId::from(n),
                        lsp::NumberOrString::String(s) => RequestId::from(s),
                    };
                    self.cancelled.insert(id);
                }
                return None;
            }
        }
        Some(message)
    }

    fn request(&mut self, request: Request) {
        self.worked = true;
        if self.cancelled.remove(&request.id) {
            self.respond(Response::new_err(
                request.id,
                ErrorCode::RequestCanceled as i32,
                "cancelled".to_owned(),
            ));
            return;
        }
        if request.method == "shutdown" {
            self.shutdown = true;
            self.respond(Response::new_ok(request.id, Value::Null));
            return;
        }
        if self.shutdown {
            self.respond(Response::new_err(
                request.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_owned(),
            ));
            return;
        }
        let id = request.id.clone();
        if request.method == "initialize" {
            self.respond(Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is already initialized".to_owned(),
            ));
            return;
        }
        let response = match handlers::request(self, &request) {
            Ok(answer) => match answer.into_message(&id) {
                Ok(message) => return send(self.connection, message),
                Err(error) => {
                    Response::new_err(id, ErrorCode::InternalError as i32, error.to_string())
                }
            },
            Err(handlers::Failure::Unknown) => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("logicmd does not answer `{}`", request.method),
            ),
            Err(handlers::Failure::Params(message)) => {
                Response::new_err(id, ErrorCode::InvalidParams as i32, message)
            }
        };
        self.respond(response);
    }

    fn respond(&self, response: Response) {
        send(
            self.connection,
            Outgoing::message(&Message::Response(response)),
        );
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        send(self.connection, Outgoing::notification(method, &params));
    }

    fn notification(&mut self, notification: Notification) {
        let affected = handlers::notification(self, notification);
        if !affected.is_empty() {
            self.pending.extend(affected);
            self.deadline = Some(Instant::now() + self.delay);
        }
    }

    /// Publishes the pending diagnostics, stopping early (the rest stays pending) when a new
    /// message arrives: what it changes comes first.
    fn publish(&mut self) {
        self.deadline = None;
        self.worked = true;
        while let Some(id) = self.pending.pop_first() {
            if !self.versions.contains_key(&id) {
                continue;
            }
            let params = handlers::diagnostics(self, &id);
            self.notify("textDocument/publishDiagnostics", params);
            if !self.connection.receiver.is_empty() && !self.pending.is_empty() {
                self.deadline = Some(Instant::now());
                return;
            }
        }
    }

    /// Asks the client to report changes to LOGIC.md and DRTL files on disk.
    fn register_watchers(&mut self) {
        let watchers = [
            "**/*.logic.md",
            "**/LOGIC.md",
            "**/.logic/**/*.md",
            "**/*.drtl.yaml",
            "**/*.drtl.yml",
            "**/logicmd.toml",
            "**/pyproject.toml",
        ]
        .into_iter()
        .map(|glob| lsp::FileSystemWatcher {
            glob_pattern: lsp::GlobPattern::String(glob.to_owned()),
            kind: None,
        })
        .collect();
        let options = lsp::DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = lsp::Registration {
            id: "logicmd-watched-files".to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: serde_json::to_value(options).ok(),
        };
        self.next_request += 1;
        let request = Request::new(
            RequestId::from(format!("logicmd-{}", self.next_request)),
            "client/registerCapability".to_owned(),
            lsp::RegistrationParams {
                registrations: vec![registration],
            },
        );
        send(
            self.connection,
            Outgoing::message(&Message::Request(request)),
        );
    }
}
