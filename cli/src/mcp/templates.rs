//! `init` and `list_templates`: the starting documents of `logicmd init` (`logicmd::templates`),
//! named as asked; the text comes back, nothing is written.

use logicmd::templates::{self, DEFAULT_TEMPLATE, TEMPLATES};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::tools::{tool, Misuse, ToolDef};

#[derive(Deserialize, JsonSchema)]
pub struct NoArguments {}

#[derive(Serialize, JsonSchema)]
pub struct Listed {
    /// Every template, in `logicmd init --list` order.
    templates: Vec<Described>,
    /// The one `init` uses when none is named.
    default: String,
}

#[derive(Serialize, JsonSchema)]
pub struct Described {
    /// What `init` takes as `template`.
    name: String,
    /// `logic` (a LOGIC.md document) or `drtl` (a DRTL topology).
    kind: String,
    /// What it is for.
    summary: String,
    /// The part of the specifications it follows.
    follows: String,
    /// Its resource (the text as is).
    uri: String,
}

pub fn list_templates() -> ToolDef {
    tool(
        "list_templates",
        "List templates",
        "The starting documents `init` offers (as `logicmd init --list`): the spec's reasoning \
         strategies and patterns, and DRTL topologies.",
        |_, _: NoArguments| {
            Ok(Listed {
                templates: TEMPLATES
                    .iter()
                    .map(|template| Described {
                        name: template.name.to_owned(),
                        kind: template.kind.as_str().to_owned(),
                        summary: template.summary.to_owned(),
                        follows: template.follows.to_owned(),
                        uri: uri(template.name),
                    })
                    .collect(),
                default: DEFAULT_TEMPLATE.to_owned(),
            })
        },
    )
}

/// A template's resource URI.
pub fn uri(name: &str) -> String {
    format!("logicmd://template/{name}")
}

#[derive(Deserialize, JsonSchema)]
pub struct InitArgs {
    /// The template (`list_templates` names them); default `minimal`.
    #[serde(default)]
    template: Option<String>,
    /// The document's `name`; the template's placeholder when absent.
    #[serde(default)]
    name: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct Started {
    template: String,
    /// `logic` or `drtl`.
    kind: String,
    /// The file name it would get (`NAME.logic.md`, `NAME.drtl.yaml`).
    file_name: String,
    /// The document: it validates, lints and checks clean and completes a dry run. Nothing is
    /// written.
    text: String,
}

pub fn init() -> ToolDef {
    tool(
        "init",
        "New document",
        "A new LOGIC.md document or DRTL topology from a template, with your name in it (as \
         `logicmd init`). Returns the text and its file name; writes nothing.",
        |_, args: InitArgs| {
            let name = args.template.as_deref().unwrap_or(DEFAULT_TEMPLATE);
            let template = templates::find(name).map_err(|problem| {
                Misuse(match problem.help {
                    Some(help) => format!("{}: {help}", problem.message),
                    None => problem.message,
                })
            })?;
            let text = templates::render(template, args.name.as_deref())
                .map_err(|problem| Misuse(problem.message))?;
            let file_name =
                template.file_name(args.name.as_deref().unwrap_or(templates::PLACEHOLDER_NAME));
            Ok(Started {
                template: template.name.to_owned(),
                kind: template.kind.as_str().to_owned(),
                file_name,
                text,
            })
        },
    )
}
