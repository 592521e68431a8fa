//! The MCP server: tools, resources and prompts over whichever transport carries it. Every
//! answer comes from core's front door through the tool functions; this file only routes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, Implementation, JsonObject, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ProgressToken, ReadResourceRequestParams, ReadResourceResponse,
    Reference, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::roots::Roots;
use super::run::LongContext;
use super::tools::{self, Context, ToolDef};
use super::{prompts, resources};
use crate::providers::Settings;

const INSTRUCTIONS: &str = "logicmd checks, formats, edits, compiles, draws and runs LOGIC.md \
reasoning specifications and DRTL topologies. Pass a document as `text`, or as a `path` under the \
server's roots. A document with problems is not an error: read `diagnostics` (each with line, \
column, JSON Pointer and a stable `code`; `explain_rule` explains a code, `lint` offers fixes as \
edits for `edit`). Tools never write files: they return the new text. Resources: \
`logicmd://spec` (the LOGIC.md specification), `logicmd://schema`, `logicmd://rules`.";

/// One connection's server. `--root` directories are fixed; otherwise the client's roots are
/// asked for once and again after it says they changed.
#[derive(Clone)]
pub struct Server {
    given: Roots,
    client_roots: Arc<Mutex<Option<Roots>>>,
    /// The OpenAI-compatible provider runs may use (`--provider openai`), or none.
    openai: Option<Settings>,
}

impl Server {
    pub fn new(given: Roots, openai: Option<Settings>) -> Server {
        Server {
            given,
            client_roots: Arc::new(Mutex::new(None)),
            openai,
        }
    }

    /// A run tool: off the async workers, its progress lines as notifications, stopped when the
    /// request is cancelled (or dropped).
    async fn call_long(
        &self,
        def: &'static ToolDef<LongContext>,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (sender, mut lines) = tokio::sync::mpsc::unbounded_channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let _stop = StopOnDrop(Arc::clone(&cancel));
        let long = LongContext {
            roots: self.roots(&context).await,
            openai: self.openai.clone(),
            progress: sender,
            cancel: Arc::clone(&cancel),
        };
        let mut task = tokio::task::spawn_blocking(move || def.call(&long, arguments));
        let token = context.meta.get_progress_token();
        let mut sent = 0u32;
        loop {
            tokio::select! {
                finished = &mut task => {
                    // Lines written before the end still go out, before the result.
                    while let Ok(line) = lines.try_recv() {
                        notify(&context, token.as_ref(), &mut sent, line).await;
                    }
                    let result = finished.map_err(|error| {
                        ErrorData::internal_error(format!("the tool stopped: {error}"), None)
                    })?;
                    return Ok(result.into());
                }
                Some(line) = lines.recv() => notify(&context, token.as_ref(), &mut sent, line).await,
                () = context.ct.cancelled() => {
                    cancel.store(true, Ordering::Relaxed);
                    let _ = task.await;
                    return Err(ErrorData::internal_error(crate::run::driver::CANCELLED, None));
                }
            }
        }
    }

    /// The roots this call may read. (Client roots are deprecated from protocol 2026-07-28 on,
    /// SEP-2577, but the clients of today list them: asked for while they do.)
    #[allow(deprecated)]
    async fn roots(&self, context: &RequestContext<RoleServer>) -> Roots {
        if !self.given.0.is_empty() {
            return self.given.clone();
        }
        if let Some(known) = self.cached_roots() {
            return known;
        }
        let offers_roots = context
            .peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        if !offers_roots {
            return Roots::default();
        }
        let listed = match context.peer.list_roots().await {
            Ok(listed) => Roots::of_uris(listed.roots.iter().map(|root| root.uri.as_str())),
            Err(_) => Roots::default(),
        };
        if let Ok(mut cache) = self.client_roots.lock() {
            *cache = Some(listed.clone());
        }
        listed
    }

    fn cached_roots(&self) -> Option<Roots> {
        self.client_roots
            .lock()
            .ok()
            .and_then(|cache| cache.clone())
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .enable_completions()
                .build(),
        )
        .with_server_info(
            Implementation::new("logicmd", env!("CARGO_PKG_VERSION")).with_title("logicmd"),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::TOOLS
                .iter()
                .map(|def| def.tool.clone())
                .chain(tools::LONG_TOOLS.iter().map(|def| def.tool.clone()))
                .collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name)
            .map(|def| def.tool.clone())
            .or_else(|| tools::find_long(name).map(|def| def.tool.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        if let Some(def) = tools::find_long(&request.name) {
            return self.call_long(def, arguments, context).await;
        }
        let Some(def) = tools::find(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            ));
        };
        let roots = self.roots(&context).await;
        // Documents are read and analysed off the async workers.
        let result = tokio::task::spawn_blocking(move || def.call(&Context { roots }, arguments))
            .await
            .map_err(|error| {
                ErrorData::internal_error(format!("the tool stopped: {error}"), None)
            })?;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let roots = self.roots(&context).await;
        tokio::task::spawn_blocking(move || resources::list(&roots))
            .await
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let roots = self.roots(&context).await;
        let uri = request.uri;
        tokio::task::spawn_blocking(move || resources::read(&uri, &roots))
            .await
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?
            .map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        // Paths are what can be completed: the file template's and `fix_diagnostics`'.
        let completes_a_path = request.argument.name == "path"
            && match &request.r#ref {
                Reference::Resource(template) => template.uri == resources::FILE_TEMPLATE,
                Reference::Prompt(prompt) => prompt.name == "fix_diagnostics",
                _ => false,
            };
        if !completes_a_path {
            return Ok(CompleteResult::default());
        }
        let roots = self.roots(&context).await;
        let typed = request.argument.value;
        tokio::task::spawn_blocking(move || {
            CompleteResult::new(resources::complete_path(&roots, &typed))
        })
        .await
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(prompts::list())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let roots = self.roots(&context).await;
        let name = request.name;
        let arguments = request.arguments.unwrap_or_default();
        tokio::task::spawn_blocking(move || prompts::get(&name, arguments, roots))
            .await
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?
            .map(Into::into)
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        if let Ok(mut cache) = self.client_roots.lock() {
            *cache = None;
        }
    }
}

/// Raises the cancel flag when the request's handler goes away, however it goes.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One progress line as a notification, when the request asked for progress.
async fn notify(
    context: &RequestContext<RoleServer>,
    token: Option<&ProgressToken>,
    sent: &mut u32,
    line: String,
) {
    let Some(token) = token else {
        return;
    };
    *sent += 1;
    let _ = context
        .peer
        .notify_progress(
            ProgressNotificationParam::new(token.clone(), f64::from(*sent)).with_message(line),
        )
        .await;
}
