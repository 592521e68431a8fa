//! `logicmd next-action --state state.json [--spec agent.logic.md] (--dry-run | --provider …)`:
//! the seed's next-action engine (logic-engine-v2-design): the state in, one structured action
//! out (`execute_tool`, `ask_user`, `complete_task`) as JSON on standard output.

use std::path::PathBuf;

use logicmd::next_action::{Decision, DecisionOptions, State, Step};
use logicmd::run::{Action, ActionKind, Answer, ModelRequest, Observation, Provider, Synthetic};
use serde_json::json;

use super::read_json;
use crate::output;
use crate::providers::{OpenAiProvider, Settings};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
#[command(after_help = "\
Exit status: 0 an action was decided (printed as JSON), 1 no valid answer within --max-attempts
(the reasons are printed), 2 usage or I/O error.

Examples:
  logicmd next-action --state state.json --dry-run
  logicmd next-action --state state.json --spec agent.logic.md --provider openai --model gpt-4o-mini
  logicmd next-action --state state.json --provider scripted:answers.yaml")]
pub struct Args {
    /// The agent's state: JSON {user_input, current_task, available_tools: [{name, description,
    /// parameters}], short_term_memory: [...]}; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    state: PathBuf,
    /// A LOGIC.md document whose reasoning strategy, gates and rules apply to the decision.
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Answer with synthetic values (the first allowed action, schema-valid): try it offline.
    #[arg(long, conflicts_with = "provider")]
    dry_run: bool,
    /// Who decides: `openai` (an OpenAI-compatible server, see the provider options) or
    /// scripted:FILE (answers keyed by node `next_action` and attempt).
    #[arg(long, value_name = "openai|scripted:FILE")]
    provider: Option<String>,
    /// Model calls for one action, the first included: invalid answers are asked again with the
    /// reason.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    max_attempts: u32,
    #[command(flatten)]
    openai: Settings,
}

/// The node id the decision's model calls carry (scripts answer it by this name).
pub(crate) const NODE: &str = "next_action";

pub fn run(args: &Args) -> u8 {
    match decide(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_USAGE
        }
    }
}

fn decide(args: &Args) -> Result<u8, String> {
    let state = State::from_json(read_json(&args.state)?)
        .map_err(|e| format!("{}: not an agent state: {e}", args.state.display()))?;
    let spec = match &args.spec {
        Some(path) => Some(spec_of(path)?),
        None => None,
    };
    let mut provider = provider(args)?;
    let options = DecisionOptions {
        max_attempts: args.max_attempts,
        spec,
    };
    let (mut decision, mut request) = Decision::start(state, options)
        .map_err(|problems| format!("the state cannot be used: {}", problems.join("; ")))?;
    loop {
        let answer = ask(provider.as_mut(), &request, decision.attempts())?;
        match decision.feed(&answer) {
            Step::Done(action) => {
                output::print(&serde_json::to_string_pretty(&action).unwrap_or_default());
                return Ok(EXIT_OK);
            }
            Step::Retry {
                request: next,
                problems,
            } => {
                eprintln!(
                    "note: answer {} refused: {}",
                    decision.attempts() - 1,
                    problems.join("; ")
                );
                request = next;
            }
            Step::Failed(problems) => {
                eprintln!(
                    "error: no valid action after {} attempts: {}",
                    decision.attempts(),
                    problems.join("; ")
                );
                return Ok(EXIT_INVALID);
            }
        }
    }
}

/// The frontmatter (imports not followed) of the document at `path`, which must validate.
fn spec_of(path: &std::path::Path) -> Result<serde_json::Value, String> {
    let document = super::load_document(path)
        .map_err(|_| format!("{} cannot be used as --spec (see above)", path.display()))?;
    Ok(document.json().clone())
}

fn provider(args: &Args) -> Result<Box<dyn Provider>, String> {
    if args.dry_run {
        let source = logicmd::run::Source::Logic {
            spec: json!({"name": NODE}),
            nodes: Default::default(),
        };
        return Ok(Box::new(Synthetic::new(&source, 0)));
    }
    match args.provider.as_deref() {
        Some("openai") => Ok(Box::new(OpenAiProvider::from_settings(
            &args.openai,
            args.spec.as_deref(),
        )?)),
        Some(spec) => match spec.split_once(':') {
            Some(("scripted", path)) if !path.is_empty() => {
                let text = super::read_text(std::path::Path::new(path))
                    .map_err(|_| format!("cannot read the script {path}"))?;
                Ok(Box::new(
                    logicmd::run::Scripted::parse(&text).map_err(|p| format!("{path}: {p}"))?,
                ))
            }
            _ => Err(format!(
                "unknown provider `{spec}`: use `openai`, `scripted:FILE`, or --dry-run"
            )),
        },
        None => Err(
            "say who decides: --dry-run, --provider openai or --provider scripted:FILE".to_owned(),
        ),
    }
}

/// One model call through `provider`: its text, or why there is none.
pub(crate) fn ask(
    provider: &mut dyn Provider,
    request: &ModelRequest,
    attempt: u32,
) -> Result<String, String> {
    let action = Action {
        id: format!("a{attempt}"),
        kind: ActionKind::CallModel {
            node: NODE.to_owned(),
            attempt,
            request: request.clone(),
            timeout_ms: None,
        },
    };
    match provider.answer(&action, &mut |_| {}) {
        Answer::Observed(Observation::ModelResponse { text, .. }) => Ok(text),
        Answer::Observed(Observation::ModelError(failure)) => Err(format!(
            "the model call failed: {}: {}",
            failure.kind, failure.message
        )),
        Answer::Observed(other) => Err(format!("the provider answered {other:?}")),
        Answer::Unanswered(reason) => Err(reason),
    }
}
