//! The prompts an agent's user picks: write a LOGIC.md for a task, turn a prompt into steps, fix
//! a document's diagnostics. Each names the tools that check the work, and carries what the
//! model needs (the minimal template, the document and its diagnostics with their fixes, from
//! `lint` itself).

use rmcp::model::{
    ContentBlock, GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage,
    ResourceContents, Role,
};
use rmcp::ErrorData;
use serde_json::{Map, Value};

use super::roots::Roots;
use super::tools::{self, Context};

struct Definition {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [(&'static str, &'static str, bool)],
}

const PROMPTS: &[Definition] = &[
    Definition {
        name: "write_logic_md",
        title: "Write a LOGIC.md for a task",
        description: "Write a LOGIC.md document that makes an agent reason through a task step by step, checked with lint and check.",
        arguments: &[
            ("task", "What the agent has to do, and what a good result is.", true),
            ("name", "The document's name (default: one made from the task).", false),
        ],
    },
    Definition {
        name: "prompt_to_steps",
        title: "Turn a prompt into steps",
        description: "Restructure an existing prompt into a LOGIC.md document: steps with dependencies, output schemas, quality gates.",
        arguments: &[("prompt", "The prompt to restructure, as it is used today.", true)],
    },
    Definition {
        name: "fix_diagnostics",
        title: "Fix these diagnostics",
        description: "Fix a document's problems: its diagnostics (from lint) and the quick fixes on offer come with the prompt.",
        arguments: &[
            ("text", "The document's text (or give `path`).", false),
            ("path", "A document under the server's roots (or give `text`).", false),
        ],
    },
];

pub fn list() -> ListPromptsResult {
    ListPromptsResult::with_all_items(
        PROMPTS
            .iter()
            .map(|definition| {
                let arguments = definition
                    .arguments
                    .iter()
                    .map(|(name, description, required)| {
                        PromptArgument::new(*name)
                            .with_description(*description)
                            .with_required(*required)
                    })
                    .collect();
                Prompt::new(
                    definition.name,
                    Some(definition.description),
                    Some(arguments),
                )
                .with_title(definition.title)
            })
            .collect(),
    )
}

pub fn get(
    name: &str,
    arguments: Map<String, Value>,
    roots: Roots,
) -> Result<GetPromptResult, ErrorData> {
    let argument = |key: &str| {
        arguments
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let required = |key: &str| {
        argument(key)
            .filter(|value| !value.trim().is_empty())
            .ok_or_else(|| ErrorData::invalid_params(format!("`{name}` needs `{key}`"), None))
    };
    let messages = match name {
        "write_logic_md" => {
            let task = required("task")?;
            let named = argument("name")
                .map(|name| format!(" Call it `{name}`."))
                .unwrap_or_default();
            vec![
                user(format!(
                    "Write a LOGIC.md document (LOGIC.md v1.0) that makes an agent reason through \
                     this task:\n\n{task}\n\nStart from the minimal template below (or pick a \
                     better one with `list_templates` and `init`).{named} Give it steps with \
                     `needs` for their order, an `output_schema` for each step whose output \
                     another reads, `verification` or `quality_gates` where a result must hold, \
                     and `contracts.inputs` for what the agent is given. Then call `lint` and \
                     `check` on your text and fix every error they report (their diagnostics say \
                     where; `explain_rule` explains a code); `compile_workflow` shows the prompt \
                     the agent will follow. The specification is the resource `logicmd://spec`."
                )),
                embedded(
                    "logicmd://template/minimal",
                    logicmd::templates::find("minimal")
                        .map(|t| t.text)
                        .unwrap_or_default(),
                ),
            ]
        }
        "prompt_to_steps" => {
            let prompt = required("prompt")?;
            vec![user(format!(
                "Turn this prompt into a LOGIC.md document (v1.0):\n\n---\n{prompt}\n---\n\n\
                 Find the stages the prompt asks the model to go through and make each a step \
                 (a description, instructions, `needs` on the steps it builds on). Give steps \
                 whose output others read an `output_schema`; turn the prompt's musts and nevers \
                 into `verification` checks or `quality_gates`, and what it is given into \
                 `contracts.inputs`. Keep the prompt's wording in the instructions. Check the \
                 result with `lint` and `check` until they report no error, and show the scaffold \
                 `compile_workflow` makes of it."
            ))]
        }
        "fix_diagnostics" => fix_messages(&arguments, roots)?,
        other => {
            return Err(ErrorData::invalid_params(
                format!(
                "no prompt `{other}` (prompts: write_logic_md, prompt_to_steps, fix_diagnostics)"
            ),
                None,
            ))
        }
    };
    let description = PROMPTS
        .iter()
        .find(|definition| definition.name == name)
        .map(|definition| definition.description);
    let mut result = GetPromptResult::new(messages);
    if let Some(description) = description {
        result = result.with_description(description);
    }
    Ok(result)
}

/// The document, its diagnostics and their fixes, as `lint` gives them.
fn fix_messages(
    arguments: &Map<String, Value>,
    roots: Roots,
) -> Result<Vec<PromptMessage>, ErrorData> {
    let mut lint_arguments = Map::new();
    for key in ["text", "path"] {
        if let Some(value) = arguments.get(key) {
            lint_arguments.insert(key.to_owned(), value.clone());
        }
    }
    let lint = tools::find("lint").ok_or_else(|| ErrorData::internal_error("no lint", None))?;
    let linted = lint.call(
        &Context {
            roots: roots.clone(),
        },
        lint_arguments.clone(),
    );
    if linted.is_error == Some(true) {
        let why = linted
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("\n");
        return Err(ErrorData::invalid_params(why, None));
    }
    let report = linted.structured_content.unwrap_or_default();
    let text = match lint_arguments.get("text").and_then(Value::as_str) {
        Some(text) => text.to_owned(),
        None => {
            let source = super::source::Source {
                text: None,
                path: lint_arguments
                    .get("path")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            };
            let loaded = source
                .load(&roots)
                .map_err(|misuse| ErrorData::invalid_params(misuse.0, None))?;
            String::from_utf8_lossy(&loaded.bytes).into_owned()
        }
    };
    let diagnostics = serde_json::to_string_pretty(&report["diagnostics"]).unwrap_or_default();
    Ok(vec![user(format!(
        "Fix the problems of this document. `lint` reports these diagnostics (line and column \
         are 1-based; `path` is a JSON Pointer into the frontmatter; `fixes` are edits the \
         `edit` tool applies as they are, `safe` ones doing what the author evidently meant):\n\n\
         ```json\n{diagnostics}\n```\n\nThe document:\n\n```\n{text}\n```\n\nFix errors first, \
         keep every comment and everything that is not wrong, prefer the offered fixes, and call \
         `lint` again until it reports no error. `explain_rule` tells what a code means."
    ))])
}

fn user(text: String) -> PromptMessage {
    PromptMessage::new_text(Role::User, text)
}

fn embedded(uri: &str, text: &str) -> PromptMessage {
    PromptMessage::new(
        Role::User,
        ContentBlock::resource(ResourceContents::text(text, uri).with_mime_type("text/markdown")),
    )
}
