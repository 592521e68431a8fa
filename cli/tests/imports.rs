//! Imports and `logic_ref`s resolve from the importing file, inside a project root found from the
//! file's own location (or `--root`), never from the working directory; `-` reads standard input.

mod harness;

use std::fs;
use std::path::{Path, PathBuf};

use harness::{run_in, stderr, stdout, Scratch};
use proptest::prelude::*;
use serde_json::Value;

const LIBRARY: &str =
    "---\nspec_version: \"1.0\"\nname: d\nreasoning:\n  strategy: cot\nsteps:\n  gather:\n    description: g\n---\n";
const UNUSED: &str =
    "---\nspec_version: \"1.0\"\nname: e\nsteps:\n  idle:\n    description: i\n---\n";
const IMPORTER: &str = "---\nspec_version: \"1.0\"\nname: x\nimports:\n  - ref: ../lib/d.logic.md\n    as: d\n  - ref: ../lib/e.logic.md\n    as: e\nsteps:\n  report:\n    description: r\n    needs: [d.gather]\nnodes:\n  helper:\n    logic_ref: ../lib/d.logic.md\n---\n";

/// `proj/.git/`, `proj/lib/{d,e}.logic.md`, `proj/sub/x.logic.md` importing `../lib/…`.
fn project(name: &str) -> (Scratch, PathBuf) {
    let scratch = Scratch::new(name);
    scratch.dir("proj/.git");
    scratch.write("proj/lib/d.logic.md", LIBRARY);
    scratch.write("proj/lib/e.logic.md", UNUSED);
    let file = scratch.write("proj/sub/x.logic.md", IMPORTER);
    (scratch, file)
}

fn json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(output), stderr(output)))
}

#[test]
fn lint_gives_the_same_result_from_any_working_directory() {
    let (scratch, file) = project("cwd-lint");
    let proj = scratch.0.join("proj");
    let absolute = file.display().to_string();
    let runs = [
        (proj.clone(), "sub/x.logic.md"),
        (proj.join("sub"), "x.logic.md"),
        (PathBuf::from("/"), absolute.as_str()),
    ];
    let mut reports = Vec::new();
    let mut human = Vec::new();
    for (cwd, operand) in &runs {
        let out = run_in(cwd, &["lint", "--format", "json", operand], None);
        let report = json(&out);
        reports.push((
            out.status.code(),
            report[0]["valid"].clone(),
            report[0]["diagnostics"].clone(),
        ));
        let out = run_in(cwd, &["lint", operand], None);
        human.push(stdout(&out).replace(operand, "FILE"));
    }
    assert_eq!(reports[0], reports[1], "from proj and from proj/sub");
    assert_eq!(reports[0], reports[2], "from / with an absolute path");
    assert_eq!(human[0], human[1]);
    assert_eq!(human[0], human[2]);
    insta::assert_json_snapshot!("cwd_lint_diagnostics", reports[0].2);
    insta::assert_snapshot!("cwd_lint_human", human[0]);
}

#[test]
fn compile_gives_the_same_result_from_any_working_directory() {
    let (scratch, file) = project("cwd-compile");
    let proj = scratch.0.join("proj");
    let absolute = file.display().to_string();
    let runs = [
        (proj.clone(), "sub/x.logic.md"),
        (proj.join("sub"), "x.logic.md"),
        (PathBuf::from("/"), absolute.as_str()),
    ];
    let outputs: Vec<(Option<i32>, String, String)> = runs
        .iter()
        .map(|(cwd, operand)| {
            let out = run_in(cwd, &["compile", operand, "--format", "json"], None);
            (
                out.status.code(),
                stdout(&out),
                stderr(&out).replace(operand, "FILE"),
            )
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    assert_eq!(outputs[0].0, Some(0), "{}", outputs[0].2);
    let compiled: Value = serde_json::from_str(&outputs[0].1).expect("compile prints JSON");
    insta::assert_json_snapshot!(
        "cwd_compile_levels",
        serde_json::json!({"levels": compiled["levels"], "order": compiled["order"]})
    );
}

#[test]
fn standard_input_is_placed_in_the_working_directory() {
    let (scratch, file) = project("stdin");
    let sub = scratch.0.join("proj/sub");
    let text = fs::read(&file).expect("the importer exists");
    let from_file = json(&run_in(
        &sub,
        &["lint", "--format", "json", "x.logic.md"],
        None,
    ));
    let from_stdin = run_in(&sub, &["lint", "--format", "json", "-"], Some(&text));
    let from_stdin = json(&from_stdin);
    assert_eq!(from_stdin[0]["file"], "<stdin>");
    assert_eq!(from_stdin[0]["diagnostics"], from_file[0]["diagnostics"]);

    let compiled_file = run_in(&sub, &["compile", "x.logic.md", "--format", "json"], None);
    let compiled_stdin = run_in(&sub, &["compile", "-", "--format", "json"], Some(&text));
    assert_eq!(
        compiled_stdin.status.code(),
        Some(0),
        "{}",
        stderr(&compiled_stdin)
    );
    assert_eq!(stdout(&compiled_stdin), stdout(&compiled_file));
    // Compile reports what lint does (here an unused import), under the name the file was given.
    assert_eq!(
        stderr(&compiled_stdin).replace("<stdin>", "x.logic.md"),
        stderr(&compiled_file)
    );

    // `--root` bounds standard input too: here it excludes `../lib`.
    let confined = run_in(&sub, &["lint", "--root", ".", "-"], Some(&text));
    assert_eq!(confined.status.code(), Some(1));
    insta::assert_snapshot!("stdin_confined_by_root", scratch.redact(&stdout(&confined)));
}

/// A directory marker: what makes a directory a project root.
#[derive(Debug, Clone, Copy)]
enum Marker {
    GitDirectory,
    GitFile,
    LogicMd,
    LogicDirectory,
}

impl Marker {
    fn place(self, dir: &Path) {
        fs::create_dir_all(dir).expect("the directory can be created");
        match self {
            Marker::GitDirectory => fs::create_dir_all(dir.join(".git")),
            Marker::GitFile => fs::write(dir.join(".git"), "gitdir: /elsewhere\n"),
            Marker::LogicMd => fs::write(dir.join("LOGIC.md"), "---\nname: marker\n---\n"),
            Marker::LogicDirectory => fs::create_dir_all(dir.join(".logic")),
        }
        .expect("the marker can be created");
    }
}

fn marker() -> impl Strategy<Value = Marker> {
    prop_oneof![
        Just(Marker::GitDirectory),
        Just(Marker::GitFile),
        Just(Marker::LogicMd),
        Just(Marker::LogicDirectory),
    ]
}

/// A file `depth` directories below the layout's base, markers at some of its ancestors (the
/// base always has one, so nothing outside the layout decides), and an import that climbs
/// `climb` directories and then goes into `lib/`.
#[derive(Debug, Clone)]
struct Layout {
    depth: usize,
    markers: Vec<Option<Marker>>,
    climb: usize,
}

impl Layout {
    /// Where the file's project root is: the nearest ancestor with a marker.
    fn root_level(&self) -> usize {
        (0..=self.depth)
            .rev()
            .find(|level| self.markers[*level].is_some())
            .unwrap_or(0)
    }

    fn import_allowed(&self) -> bool {
        self.depth - self.climb >= self.root_level()
    }
}

fn layout() -> impl Strategy<Value = Layout> {
    (1usize..=4).prop_flat_map(|depth| {
        (
            marker(),
            proptest::collection::vec(proptest::option::weighted(0.3, marker()), depth),
            0..=depth,
        )
            .prop_map(move |(base, above_file, climb)| {
                let mut markers = vec![Some(base)];
                markers.extend(above_file);
                Layout {
                    depth,
                    markers,
                    climb,
                }
            })
    })
}

fn importer(reference: &str) -> String {
    format!("---\nspec_version: \"1.0\"\nname: x\nimports:\n  - ref: {reference}\n    as: d\nnodes:\n  helper:\n    logic_ref: {reference}\n---\n")
}

/// `(code, path)` of every diagnostic of the one file in a `--format json` report.
fn findings(report: &Value) -> Vec<(String, String)> {
    report[0]["diagnostics"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|d| {
                    (
                        d["code"].as_str().unwrap_or("").to_owned(),
                        d["path"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Over random layouts: the import (and the same `logic_ref`) loads exactly when its target
    /// lies inside the nearest marked ancestor of the file, and the result is the same from the
    /// layout's base, from the file's directory, from `/`, and through standard input.
    #[test]
    fn the_root_is_the_nearest_marked_ancestor_of_the_file(layout in layout()) {
        let scratch = Scratch::new("layout");
        let levels: Vec<PathBuf> = (0..=layout.depth)
            .map(|level| (0..level).fold(scratch.0.clone(), |dir, i| dir.join(format!("d{i}"))))
            .collect();
        fs::create_dir_all(&levels[layout.depth]).unwrap();
        for (level, marker) in layout.markers.iter().enumerate() {
            if let Some(marker) = marker {
                marker.place(&levels[level]);
            }
        }
        let target = &levels[layout.depth - layout.climb];
        fs::create_dir_all(target.join("lib")).unwrap();
        fs::write(target.join("lib/d.logic.md"), LIBRARY).unwrap();
        let reference = format!("{}lib/d.logic.md", "../".repeat(layout.climb));
        let text = importer(&reference);
        let file_dir = &levels[layout.depth];
        fs::write(file_dir.join("x.logic.md"), &text).unwrap();
        let relative = file_dir.join("x.logic.md").strip_prefix(&scratch.0).unwrap().display().to_string();
        let absolute = file_dir.join("x.logic.md").display().to_string();

        let expected: Vec<(String, String)> = if layout.import_allowed() {
            vec![]
        } else {
            vec![
                ("unresolved-reference".into(), "/imports/0/ref".into()),
                ("unresolved-reference".into(), "/nodes/helper/logic_ref".into()),
            ]
        };
        let runs = [
            ("base", run_in(&scratch.0, &["lint", "--format", "json", &relative], None)),
            ("file dir", run_in(file_dir, &["lint", "--format", "json", "x.logic.md"], None)),
            ("/", run_in(Path::new("/"), &["lint", "--format", "json", &absolute], None)),
            ("stdin", run_in(file_dir, &["lint", "--format", "json", "-"], Some(text.as_bytes()))),
        ];
        for (from, out) in &runs {
            let report = json(out);
            prop_assert_eq!(findings(&report), expected.clone(), "from {} in {:?}: {}", from, layout, report);
        }
    }
}

#[test]
fn root_markers_and_root_option() {
    // (markers at proj, markers at proj/sub, --root, whether `../lib` may be read)
    type Case = (
        &'static [Marker],
        &'static [Marker],
        Option<&'static str>,
        bool,
    );
    let table: &[Case] = &[
        (&[Marker::GitDirectory], &[], None, true),
        (&[Marker::GitFile], &[], None, true),
        (&[Marker::LogicMd], &[], None, true),
        (&[Marker::LogicDirectory], &[], None, true),
        // The nearest marked ancestor wins, whatever the kinds.
        (&[Marker::GitDirectory], &[Marker::LogicMd], None, false),
        (&[Marker::LogicMd], &[Marker::GitDirectory], None, false),
        (
            &[Marker::GitDirectory],
            &[Marker::LogicDirectory],
            None,
            false,
        ),
        // `--root` replaces the search.
        (
            &[Marker::GitDirectory],
            &[Marker::LogicMd],
            Some(".."),
            true,
        ),
        (&[Marker::GitDirectory], &[], Some("."), false),
    ];
    for (case, (at_proj, at_sub, root, allowed)) in table.iter().enumerate() {
        let scratch = Scratch::new(&format!("markers-{case}"));
        // The base is marked so that nothing outside the scratch directory decides.
        Marker::GitDirectory.place(&scratch.0);
        let proj = scratch.dir("proj");
        for marker in *at_proj {
            marker.place(&proj);
        }
        for marker in *at_sub {
            marker.place(&proj.join("sub"));
        }
        scratch.write("proj/lib/d.logic.md", LIBRARY);
        scratch.write("proj/sub/x.logic.md", importer("../lib/d.logic.md"));
        let sub = proj.join("sub");
        let mut args = vec!["lint", "--format", "json", "x.logic.md"];
        if let Some(root) = root {
            args.extend(["--root", root]);
        }
        let report = json(&run_in(&sub, &args, None));
        assert_eq!(
            findings(&report).is_empty(),
            *allowed,
            "case {case}: {at_proj:?} {at_sub:?} {root:?}: {report}"
        );
    }
}

#[test]
fn an_import_leaving_the_root_names_the_root() {
    let scratch = Scratch::new("escape");
    Marker::GitDirectory.place(&scratch.0);
    let file = scratch.write("x.logic.md", importer("../outside.logic.md"));
    let out = run_in(&scratch.0, &["lint", &file.display().to_string()], None);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("escape_names_the_root", scratch.redact(&stdout(&out)));
}

#[test]
fn repeated_and_malformed_aliases_are_errors_at_their_as() {
    let scratch = Scratch::new("aliases");
    Marker::GitDirectory.place(&scratch.0);
    scratch.write("lib/d.logic.md", LIBRARY);
    scratch.write("lib/e.logic.md", UNUSED);
    scratch.write(
        "x.logic.md",
        "---\nspec_version: \"1.0\"\nname: x\nimports:\n  - ref: lib/d.logic.md\n    as: shared\n  - ref: lib/e.logic.md\n    as: shared\n  - {ref: lib/e.logic.md, as: team.e}\nsteps:\n  report:\n    description: r\n    needs: [shared.gather]\n---\n",
    );
    let lint = run_in(&scratch.0, &["lint", "x.logic.md"], None);
    assert_eq!(lint.status.code(), Some(1));
    insta::assert_snapshot!("alias_errors", stdout(&lint));
    let compile = run_in(&scratch.0, &["compile", "x.logic.md"], None);
    assert_eq!(
        compile.status.code(),
        Some(1),
        "the reference refuses these too"
    );

    let rules = stdout(&run_in(&scratch.0, &["lint", "--rules"], None));
    let listed: Vec<&str> = rules
        .lines()
        .filter(|line| {
            line.split_whitespace()
                .next()
                .is_some_and(|code| code.ends_with("-import-alias"))
        })
        .collect();
    assert_eq!(
        listed,
        [
            "duplicate-import-alias            error    two imports share an `as` (the later one is not merged)",
            "invalid-import-alias              error    an import's `as` is not a plain name ([A-Za-z_][A-Za-z0-9_-]*)",
        ]
    );
}
