//! The server's resources: the canonical schemas (the ones core validates against), the spec
//! texts (embedded at build time from the project's specifications), and the rule list; plus,
//! as a resource template, the documents under the roots.

use rmcp::model::{
    CompletionInfo, ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use rmcp::ErrorData;

use super::roots::Roots;

/// The LOGIC.md v1.0 specification (plain-text render).
const LOGIC_SPEC: &str = include_str!("specs/logic-md-spec-v1.0.txt");
/// The DRTL v0.1.1 specification.
const DRTL_SPEC: &str = include_str!("specs/drtl-spec-v0.1.1.md");
/// Most documents the roots' listing names (a project is walked, not indexed).
const LISTED_FILES: usize = 500;
/// The URI template of a document under the roots.
pub const FILE_TEMPLATE: &str = "logicmd://file/{path}";

struct Fixed {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    mime: &'static str,
    text: fn() -> String,
}

const FIXED: &[Fixed] = &[
    Fixed {
        uri: "logicmd://schema",
        name: "logic-md-schema",
        title: "LOGIC.md v1.0 JSON Schema",
        description: "The canonical JSON Schema (draft-07) every LOGIC.md frontmatter is validated against.",
        mime: "application/schema+json",
        text: || logicmd::schema::SCHEMA_JSON.to_owned(),
    },
    Fixed {
        uri: "logicmd://schema/drtl",
        name: "drtl-schema",
        title: "DRTL v0.1.1 JSON Schema",
        description: "The JSON Schema DRTL topologies are validated against.",
        mime: "application/schema+json",
        text: || logicmd::drtl::SCHEMA_JSON.to_owned(),
    },
    Fixed {
        uri: "logicmd://spec",
        name: "logic-md-spec",
        title: "LOGIC.md Specification v1.0",
        description: "The LOGIC.md specification: frontmatter fields, steps, contracts, quality gates, decision trees, fallbacks, workflows.",
        mime: "text/plain",
        text: || LOGIC_SPEC.to_owned(),
    },
    Fixed {
        uri: "logicmd://spec/drtl",
        name: "drtl-spec",
        title: "DRTL Specification v0.1.1",
        description: "The Declarative Reasoning Topology Language: typed nodes, edges, loops, enforcement.",
        mime: "text/markdown",
        text: || DRTL_SPEC.to_owned(),
    },
    Fixed {
        uri: "logicmd://rules",
        name: "rules",
        title: "Lint and check rules",
        description: "Every diagnostic code of `lint` and `check`: family, severity, what it finds, why (as `logicmd lint --rules --format json`).",
        mime: "application/json",
        text: || {
            let rules: Vec<_> = super::rules::all().collect();
            serde_json::to_string_pretty(&rules).unwrap_or_default()
        },
    },
];

pub fn list(roots: &Roots) -> ListResourcesResult {
    let mut resources: Vec<Resource> = FIXED
        .iter()
        .map(|fixed| {
            Resource::new(fixed.uri, fixed.name)
                .with_title(fixed.title)
                .with_description(fixed.description)
                .with_mime_type(fixed.mime)
        })
        .collect();
    resources.extend(logicmd::templates::TEMPLATES.iter().map(|template| {
        Resource::new(super::templates::uri(template.name), template.name)
            .with_title(format!("Template: {}", template.name))
            .with_description(template.summary)
            .with_mime_type(mime_of(&template.file_name(template.name)))
    }));
    resources.extend(roots.documents(LISTED_FILES).into_iter().map(|found| {
        Resource::new(file_uri(&found.relative), found.relative.clone())
            .with_description("A document under the server's roots")
            .with_mime_type(mime_of(&found.relative))
    }));
    ListResourcesResult::with_all_items(resources)
}

pub fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![ResourceTemplate::new(
        FILE_TEMPLATE,
        "document",
    )
    .with_title("A document under the roots")
    .with_description(
        "A LOGIC.md document or DRTL topology under the server's roots, by its path relative to \
         the first root (`..` and symbolic links out of the roots are refused).",
    )])
}

pub fn read(uri: &str, roots: &Roots) -> Result<ReadResourceResult, ErrorData> {
    if let Some(fixed) = FIXED.iter().find(|fixed| fixed.uri == uri) {
        return Ok(ReadResourceResult::new(vec![ResourceContents::text(
            (fixed.text)(),
            uri,
        )
        .with_mime_type(fixed.mime)]));
    }
    if let Some(name) = uri.strip_prefix("logicmd://template/") {
        let template = logicmd::templates::find(name).map_err(|_| not_found(uri))?;
        return Ok(ReadResourceResult::new(vec![ResourceContents::text(
            template.text,
            uri,
        )
        .with_mime_type(mime_of(&template.file_name(template.name)))]));
    }
    let Some(path) = uri.strip_prefix("logicmd://file/") else {
        return Err(not_found(uri));
    };
    let decoded = crate::uri::percent_decode(path).ok_or_else(|| not_found(uri))?;
    let confined = roots
        .confine(&decoded)
        .map_err(|why| ErrorData::invalid_params(why, None))?;
    let read = crate::input::read_document(&confined.file, logicmd::Limits::DEFAULT.max_bytes)
        .map_err(|error| {
            ErrorData::invalid_params(format!("cannot read `{decoded}`: {error}"), None)
        })?;
    let text = String::from_utf8(read.bytes)
        .map_err(|_| ErrorData::invalid_params(format!("`{decoded}` is not UTF-8"), None))?;
    Ok(ReadResourceResult::new(vec![ResourceContents::text(
        text, uri,
    )
    .with_mime_type(mime_of(&decoded))]))
}

/// The documents under the roots whose path starts with `typed`, for the completion of a `path`
/// (the file template's, `fix_diagnostics`'): at most the protocol's 100, with whether there are
/// more.
pub fn complete_path(roots: &Roots, typed: &str) -> CompletionInfo {
    let matching: Vec<String> = roots
        .documents(LISTED_FILES)
        .into_iter()
        .map(|found| found.relative)
        .filter(|relative| relative.starts_with(typed))
        .collect();
    let total = matching.len();
    let shown: Vec<String> = matching
        .into_iter()
        .take(CompletionInfo::MAX_VALUES)
        .collect();
    let has_more = total > shown.len();
    CompletionInfo::with_pagination(shown, u32::try_from(total).ok(), has_more).unwrap_or_default()
}

fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("no resource `{uri}`"),
        Some(serde_json::json!({ "uri": uri })),
    )
}

fn file_uri(relative: &str) -> String {
    let encoded: String = relative
        .split('/')
        .map(super::roots::percent_encoded)
        .collect::<Vec<_>>()
        .join("/");
    format!("logicmd://file/{encoded}")
}

fn mime_of(path: &str) -> &'static str {
    if logicmd::drtl::is_drtl_path(path) {
        "application/yaml"
    } else {
        "text/markdown"
    }
}
