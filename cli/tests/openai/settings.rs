//! Where settings come from: flags over the environment over the nearest logicmd.toml over
//! defaults, and clear errors naming the place.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::providers::settings::Server;
use crate::providers::settings::DEFAULT_TIMEOUT_MS;
use crate::providers::{Resolved, Settings};

/// A scratch project: `logicmd.toml` at its root (when given) and a document in `sub/`.
struct Project {
    root: PathBuf,
}

impl Project {
    fn new(name: &str, settings_file: Option<&str>) -> Project {
        let root =
            std::env::temp_dir().join(format!("logicmd-openai-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("sub")).unwrap();
        if let Some(text) = settings_file {
            fs::write(root.join("logicmd.toml"), text).unwrap();
        }
        fs::write(root.join("sub/doc.logic.md"), "---\n---\n").unwrap();
        Project {
            root: root.canonicalize().unwrap(),
        }
    }

    fn document(&self) -> PathBuf {
        self.root.join("sub/doc.logic.md")
    }

    fn resolve(&self, settings: &Settings, env: &[(&str, &str)]) -> Result<Resolved, String> {
        let env: BTreeMap<String, String> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        settings
            .resolve(Some(&self.document()), &|name| env.get(name).cloned())
            .map_err(|e| e.replace(&self.root.display().to_string(), "[PROJECT]"))
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

const FILE: &str = "[provider]\nbase_url = \"http://127.0.0.1:8080/v1/\"\nmodel = \"qwen2.5\"\napi_key_env = \"PROJECT_KEY\"\ntimeout = \"45s\"\nstream = false\n\n[other]\nanything = 1\n";

fn summary(resolved: &Resolved) -> String {
    format!(
        "{} model={:?} forced={} key={} timeout={} stream={}",
        resolved.base_url,
        resolved.model,
        resolved.model_overrides_document,
        resolved
            .api_key
            .as_ref()
            .map_or("none".to_owned(), |k| k.expose().to_owned()),
        resolved.timeout_ms,
        resolved.stream
    )
}

#[test]
fn flags_beat_the_environment_which_beats_the_file_which_beats_defaults() {
    let project = Project::new("precedence", Some(FILE));
    let flags = Settings {
        model: Some("llama3.1".into()),
        server: Server {
            base_url: Some("http://localhost:11434/v1".into()),
            api_key_env: Some("MY_KEY".into()),
            timeout: Some("2m".into()),
            no_stream: false,
        },
    };
    let env = [
        ("OPENAI_BASE_URL", "http://env:1/v1"),
        ("OPENAI_API_KEY", "k-default"),
        ("PROJECT_KEY", "k-project"),
        ("MY_KEY", "k-flag"),
    ];
    let rows = [
        summary(&project.resolve(&flags, &env).unwrap()),
        summary(&project.resolve(&Settings::default(), &env).unwrap()),
        summary(
            &project
                .resolve(
                    &Settings {
                        server: Server {
                            no_stream: true,
                            ..Server::default()
                        },
                        ..Settings::default()
                    },
                    &[("PROJECT_KEY", "k-project")],
                )
                .unwrap(),
        ),
        summary(
            &Project::new("defaults", None)
                .resolve(&Settings::default(), &[])
                .unwrap(),
        ),
        summary(
            &Project::new("env-key", None)
                .resolve(
                    &Settings::default(),
                    &[("OPENAI_API_KEY", "k-default"), ("OPENAI_BASE_URL", "  ")],
                )
                .unwrap(),
        ),
    ];
    assert_eq!(
        rows,
        [
            "http://localhost:11434/v1 model=Some(\"llama3.1\") forced=true key=k-flag timeout=120000 stream=false",
            "http://env:1/v1 model=Some(\"qwen2.5\") forced=false key=k-project timeout=45000 stream=false",
            "http://127.0.0.1:8080/v1 model=Some(\"qwen2.5\") forced=false key=k-project timeout=45000 stream=false",
            &format!("https://api.openai.com/v1 model=None forced=false key=none timeout={DEFAULT_TIMEOUT_MS} stream=true"),
            &format!("https://api.openai.com/v1 model=None forced=false key=k-default timeout={DEFAULT_TIMEOUT_MS} stream=true"),
        ]
    );
}

#[test]
fn the_nearest_settings_file_wins() {
    let project = Project::new("nearest", Some(FILE));
    fs::write(
        project.root.join("sub/logicmd.toml"),
        "[provider]\nmodel = \"nearer\"\ntimeout = 5\n",
    )
    .unwrap();
    let resolved = project.resolve(&Settings::default(), &[]).unwrap();
    assert_eq!(
        (
            resolved.model.as_deref(),
            resolved.timeout_ms,
            resolved.stream
        ),
        (Some("nearer"), 5_000, true)
    );
}

/// Variables as name/value pairs.
type Environment = Vec<(&'static str, &'static str)>;

#[test]
fn mistakes_are_named_with_their_place() {
    let cases: Vec<(Option<&str>, Settings, Environment)> = vec![
        (
            Some("[provider]\nmodle = \"x\"\n"),
            Settings::default(),
            vec![],
        ),
        (
            Some("[provider]\nstream = \"yes\"\n"),
            Settings::default(),
            vec![],
        ),
        (Some("[provider\n"), Settings::default(), vec![]),
        (
            Some("[provider]\napi_key = \"sk-123\"\n"),
            Settings::default(),
            vec![],
        ),
        (
            Some("[provider]\napi_key_env = \"TEAM_KEY\"\n"),
            Settings::default(),
            vec![],
        ),
        (
            Some("[provider]\ntimeout = \"soon\"\n"),
            Settings::default(),
            vec![],
        ),
        (
            Some("[provider]\ntimeout = 0\n"),
            Settings::default(),
            vec![],
        ),
        (
            Some("[provider]\nbase_url = \"localhost:11434\"\n"),
            Settings::default(),
            vec![],
        ),
        (
            None,
            Settings {
                server: Server {
                    api_key_env: Some("NOPE".into()),
                    ..Server::default()
                },
                ..Settings::default()
            },
            vec![],
        ),
        (
            None,
            Settings {
                server: Server {
                    base_url: Some("ftp://user:pw@host/v1".into()),
                    ..Server::default()
                },
                ..Settings::default()
            },
            vec![],
        ),
        (
            None,
            Settings {
                server: Server {
                    timeout: Some("0s".into()),
                    ..Server::default()
                },
                ..Settings::default()
            },
            vec![],
        ),
        (
            None,
            Settings::default(),
            vec![("OPENAI_BASE_URL", "http://")],
        ),
    ];
    let messages: Vec<String> = cases
        .into_iter()
        .enumerate()
        .map(|(i, (file, settings, env))| {
            let project = Project::new(&format!("mistake-{i}"), file);
            match project.resolve(&settings, &env) {
                Ok(resolved) => format!("no error: {}", summary(&resolved)),
                Err(message) => message,
            }
        })
        .collect();
    insta::assert_json_snapshot!(messages);
}

#[test]
fn the_search_starts_in_the_documents_directory() {
    use crate::providers::settings::search_start;
    assert_eq!(
        search_start(Some(Path::new("a/b/doc.logic.md"))),
        PathBuf::from("a/b")
    );
    assert_eq!(
        search_start(Some(Path::new("doc.logic.md"))),
        PathBuf::from(".")
    );
    assert_eq!(search_start(None), PathBuf::from("."), "standard input");
}

#[test]
fn a_key_is_read_without_surrounding_white_space() {
    let project = Project::new("trim", None);
    let resolved = project
        .resolve(&Settings::default(), &[("OPENAI_API_KEY", "sk-abc\n")])
        .unwrap();
    assert_eq!(
        resolved.api_key.map(|k| k.expose().to_owned()),
        Some("sk-abc".to_owned())
    );
}
