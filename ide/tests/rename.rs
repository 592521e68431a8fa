//! Rename as an editor asks for it (prepare, then rename at a cursor), for every kind of name,
//! with the text after the edits compared whole.

use logicmd_ide::files::MemoryFiles;
use logicmd_ide::{rename, Workspace, WorkspaceEdit};

fn apply(text: &str, edit: &WorkspaceEdit, id: &str) -> String {
    let mut out = text.to_owned();
    let edits = &edit
        .changes
        .iter()
        .find(|(file, _)| file == id)
        .expect("edits of the file")
        .1;
    for e in edits.iter().rev() {
        out.replace_range(e.span.start..e.span.end, &e.text);
    }
    out
}

fn renamed(id: &str, text: &str, at: &str, within: usize, to: &str) -> String {
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open(id, text.to_owned());
    let offset = text.find(at).expect("the cursor's marker") + within;
    let (span, _) = rename::prepare_rename(&mut workspace, id, offset).expect("renamable");
    assert!(span.start <= offset && offset <= span.end);
    let edit = rename::rename(&mut workspace, id, offset, to).expect("renamed");
    apply(text, &edit, id)
}

#[test]
fn a_step_everywhere_it_is_named() {
    let text = concat!(
        "---\nspec_version: \"1.0\"\nname: r\nsteps:\n",
        "  gather: {description: G}\n",
        "  check:\n    needs: [gather]\n    branches:\n      - if: \"{{ steps['gather'].output.n > 1 }}\"\n        then: gather\n",
        "quality_gates:\n  invariants:\n    - name: budget\n      check: \"{{ true }}\"\n      on_breach: gather\n",
        "decision_trees:\n  t:\n    root: n\n    nodes:\n      n:\n        condition: \"{{ steps.gather.output.kind }}\"\n",
        "        branches:\n          - default: true\n            next: gather\n",
        "    terminals:\n      end: {action: gather}\n---\n",
    );
    let after = renamed("r.logic.md", text, "  gather:", 3, "collect");
    assert_eq!(after, text.replace("gather", "collect"));
}

/// A new name that begins or ends like the old one: the characters that change are an insertion
/// or a shorter replacement, and every reference must still be edited exactly once (an editor
/// applies the edits together: a reference edited twice read `alphalpha`).
#[test]
fn a_step_renamed_to_a_name_sharing_a_prefix_or_a_suffix() {
    let text = concat!(
        "---\nspec_version: \"1.0\"\nname: r\nsteps:\n",
        "  gather: {description: G}\n",
        "  check:\n    needs: [gather]\n    branches:\n      - if: \"{{ steps['gather'].output.n > 1 }}\"\n        then: gather\n",
        "quality_gates:\n  invariants:\n    - name: budget\n      check: \"{{ true }}\"\n      on_breach: gather\n",
        "---\n",
    );
    for to in [
        "gathering",
        "regather",
        "gather_v2",
        "the_gather",
        "gat",
        "ather",
        "g",
        "r",
        "collect",
        "café_été",
        "Ωmega",
        "bé",
    ] {
        let after = renamed("r.logic.md", text, "  gather:", 3, to);
        assert_eq!(after, text.replace("gather", to), "to {to}");
    }
    let single = "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    description: A\n  b:\n    description: B\n    needs: [a]\n---\n";
    for to in ["alpha", "ba", "aa", "zeta"] {
        let after = renamed("n.logic.md", single, "  a:", 2, to);
        let expected = single
            .replace("  a:", &format!("  {to}:"))
            .replace("[a]", &format!("[{to}]"));
        assert_eq!(after, expected, "to {to}");
    }
}

#[test]
fn a_step_in_the_files_that_import_it() {
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  norm: {}\n---\n";
    let main = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    needs: [lib.norm]\n    verification:\n      check: \"{{ steps['lib.norm'].output.ok }}\"\n---\n";
    let mut workspace = Workspace::new(MemoryFiles::new().with("lib.logic.md", lib).shared());
    workspace.open("lib.logic.md", lib.to_owned());
    workspace.open("main.logic.md", main.to_owned());
    let at = lib.find("norm").unwrap();
    let edit = rename::rename(&mut workspace, "lib.logic.md", at, "normalize").expect("renamed");
    assert_eq!(
        apply(lib, &edit, "lib.logic.md"),
        lib.replace("norm", "normalize")
    );
    assert_eq!(
        apply(main, &edit, "main.logic.md"),
        main.replace("lib.norm", "lib.normalize")
    );
}

/// The importers an editor has not opened are renamed too (they would break otherwise), from
/// the step's own file and from an importer: a sibling, a file in a subdirectory, and one that
/// imports through another import (`outer.lib.norm`).
#[test]
fn a_step_in_importers_that_are_not_open_and_from_an_importer() {
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  norm: {}\n  other: {needs: [norm]}\n---\n";
    let main = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    needs: [lib.norm]\n    verification:\n      check: \"{{ steps['lib.norm'].output.ok }}\"\n---\n";
    let nested = "---\nspec_version: \"1.0\"\nname: n\nimports:\n  - ref: ../lib.logic.md\n    as: l\nsteps:\n  b:\n    needs: [l.norm]\n---\n";
    let outer = "---\nspec_version: \"1.0\"\nname: o\nimports:\n  - ref: ./main.logic.md\n    as: outer\nsteps:\n  c:\n    needs: [outer.lib.norm]\n---\n";
    let unrelated = "---\nspec_version: \"1.0\"\nname: u\nsteps:\n  norm: {}\n---\n";
    let files = || {
        MemoryFiles::new()
            .with("lib.logic.md", lib)
            .with("main.logic.md", main)
            .with("agents/nested.logic.md", nested)
            .with("outer.logic.md", outer)
            .with("unrelated.logic.md", unrelated)
            .with("notes.md", "lib.logic.md norm")
            .shared()
    };
    let expected = |edit: &WorkspaceEdit| {
        let mut ids: Vec<&str> = edit.changes.iter().map(|(id, _)| id.as_str()).collect();
        ids.sort();
        assert_eq!(
            ids,
            [
                "agents/nested.logic.md",
                "lib.logic.md",
                "main.logic.md",
                "outer.logic.md"
            ]
        );
        assert_eq!(
            apply(lib, edit, "lib.logic.md"),
            lib.replace("norm", "normalize")
        );
        assert_eq!(
            apply(main, edit, "main.logic.md"),
            main.replace("lib.norm", "lib.normalize")
        );
        assert_eq!(
            apply(nested, edit, "agents/nested.logic.md"),
            nested.replace("l.norm", "l.normalize")
        );
        assert_eq!(
            apply(outer, edit, "outer.logic.md"),
            outer.replace("lib.norm", "lib.normalize")
        );
    };

    // From the step's file, nothing else open.
    let mut workspace = Workspace::new(files());
    workspace.open("lib.logic.md", lib.to_owned());
    let at = lib.find("norm").unwrap();
    let edit = rename::rename(&mut workspace, "lib.logic.md", at, "normalize").expect("renamed");
    expected(&edit);
    let places = logicmd_ide::navigation::references(&mut workspace, "lib.logic.md", at, false);
    let mut files_named: Vec<&str> = places.iter().map(|l| l.file.as_str()).collect();
    files_named.dedup();
    assert_eq!(
        files_named,
        [
            "lib.logic.md",
            "agents/nested.logic.md",
            "main.logic.md",
            "outer.logic.md"
        ]
    );

    // From an importer, the step's file closed: the step's part of the name is renamed.
    let mut workspace = Workspace::new(files());
    workspace.open("main.logic.md", main.to_owned());
    let at = main.find("lib.norm").unwrap() + 5;
    let (span, placeholder) =
        rename::prepare_rename(&mut workspace, "main.logic.md", at).expect("renamable");
    assert_eq!(
        (&main[span.start..span.end], placeholder.as_str()),
        ("norm", "norm")
    );
    let edit = rename::rename(&mut workspace, "main.logic.md", at, "normalize").expect("renamed");
    expected(&edit);

    // A name taken in the step's file is refused from an importer too.
    let why = rename::rename(&mut workspace, "main.logic.md", at, "other").unwrap_err();
    assert_eq!(why, "a step `other` already exists");
}

#[test]
fn a_tree_node_a_workflow_node_and_a_drtl_node() {
    let tree = "---\nspec_version: \"1.0\"\nname: t\ndecision_trees:\n  route:\n    root: kind\n    nodes:\n      kind:\n        condition: \"{{ input.k }}\"\n        branches:\n          - default: true\n            next: kind\n---\n";
    assert_eq!(
        renamed("t.logic.md", tree, "root: kind", 7, "classify"),
        tree.replace("kind:", "classify:")
            .replace("root: kind", "root: classify")
            .replace("next: kind", "next: classify")
    );
    let workflow = "---\nspec_version: \"1.0\"\nname: w\nnodes:\n  research:\n    logic_ref: ./r.logic.md\n  write:\n    logic_ref: ./w.logic.md\n    depends_on: [research]\nedges:\n  - from: research\n    to: write\n---\n";
    assert_eq!(
        renamed("w.logic.md", workflow, "  research:", 4, "gather"),
        workflow.replace("research", "gather")
    );
    let topology = concat!(
        "name: t\nnodes:\n",
        "  - id: draft\n    type: generate\n    prompt: \"{{ input.topic }}\"\n    output_key: d\n",
        "  - id: gate\n    type: gate\n    input: draft.output\n    condition: \"draft.output != ''\"\n    on_pass: done\n    on_fail:\n      next: draft\n",
        "  - id: done\n    type: transform\n    operations:\n      - set: state.variables.out\n        value: \"{{ draft.output }}\"\n",
        "edges:\n  - from: draft\n    to: gate\n",
    );
    assert_eq!(
        renamed("t.drtl.yaml", topology, "id: draft", 5, "compose"),
        topology.replace("draft", "compose")
    );
}

#[test]
fn names_that_cannot_be_given_are_refused() {
    let text = "---\nspec_version: \"1.0\"\nname: r\nsteps:\n  a: {}\n  b: {needs: [a]}\n---\n";
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open("r.logic.md", text.to_owned());
    let at = text.find("  a:").unwrap() + 2;
    assert_eq!(
        rename::rename(&mut workspace, "r.logic.md", at, "b").unwrap_err(),
        "a step `b` already exists"
    );
    assert_eq!(
        rename::rename(&mut workspace, "r.logic.md", at, "two words").unwrap_err(),
        "`two words` is not a plain name: start with a letter or `_`, go on with letters, digits, `_` or `-`"
    );
    let on_key = text.find("spec_version").unwrap();
    assert_eq!(
        rename::prepare_rename(&mut workspace, "r.logic.md", on_key).unwrap_err(),
        "there is no step or node name here"
    );
}

/// A project's files that change on disk while the workspace holds them, without the editor
/// saying so (clients that do not watch files never do).
struct ChangingFiles(std::sync::Mutex<MemoryFiles>);

impl ChangingFiles {
    fn write(&self, path: &str, text: &str) {
        let mut files = self.0.lock().unwrap();
        *files = files.clone().with(path, text);
    }
}

impl logicmd::loader::Loader for ChangingFiles {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, logicmd::loader::LoadError> {
        self.0.lock().unwrap().resolve(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, logicmd::loader::LoadError> {
        self.0.lock().unwrap().load(id)
    }
}

impl logicmd_ide::ProjectFiles for ChangingFiles {
    fn list(&self, directory: &str) -> Vec<logicmd_ide::files::DirEntry> {
        logicmd_ide::ProjectFiles::list(&*self.0.lock().unwrap(), directory)
    }
}

/// A closed importer changed on disk since the workspace last read it is renamed in its
/// text as it is now: the edit was placed by the old text's offsets into the new one
/// (`line ocollectlong description`), and its `needs` left as it was.
#[test]
fn a_closed_importer_changed_on_disk_is_renamed_as_it_is_now() {
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather: {}\n---\n";
    let before = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ../lib.logic.md\n    as: d\nsteps:\n  s:\n    needs: [d.gather]\n---\n";
    let after = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ../lib.logic.md\n    as: d\nsteps:\n  s:\n    description: |\n      line one of a long description text\n      line two\n    needs: [d.gather]\n---\n";
    let files = std::sync::Arc::new(ChangingFiles(std::sync::Mutex::new(
        MemoryFiles::new()
            .with("lib.logic.md", lib)
            .with("a/imp.logic.md", before),
    )));
    let mut workspace = Workspace::new(files.clone());
    workspace.open("lib.logic.md", lib.to_owned());
    let at = lib.find("gather").unwrap();
    let places = logicmd_ide::navigation::references(&mut workspace, "lib.logic.md", at, false);
    assert_eq!(places.len(), 1);
    files.write("a/imp.logic.md", after);
    let edit = rename::rename(&mut workspace, "lib.logic.md", at, "collect").expect("renamed");
    assert_eq!(
        apply(after, &edit, "a/imp.logic.md"),
        after.replace("d.gather", "d.collect")
    );
}

/// A project too large to look through: a rename that could miss importers is refused, with
/// why, instead of leaving the files not looked at broken.
#[test]
fn a_rename_is_refused_when_the_project_could_not_be_looked_through() {
    struct Huge(MemoryFiles);
    impl logicmd::loader::Loader for Huge {
        fn resolve(
            &self,
            from: &str,
            reference: &str,
        ) -> Result<String, logicmd::loader::LoadError> {
            self.0.resolve(from, reference)
        }
        fn load(&self, id: &str) -> Result<String, logicmd::loader::LoadError> {
            self.0.load(id)
        }
    }
    impl logicmd_ide::ProjectFiles for Huge {
        fn list(&self, directory: &str) -> Vec<logicmd_ide::files::DirEntry> {
            if !directory.is_empty() {
                return Vec::new();
            }
            (0..=logicmd_ide::files::MAX_WALKED_ENTRIES)
                .map(|i| logicmd_ide::files::DirEntry {
                    name: format!("note-{i}.md"),
                    is_dir: false,
                })
                .collect()
        }
    }
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather: {}\n---\n";
    let mut workspace = Workspace::new(std::sync::Arc::new(Huge(
        MemoryFiles::new().with("lib.logic.md", lib),
    )));
    workspace.open("lib.logic.md", lib.to_owned());
    let why = rename::rename(
        &mut workspace,
        "lib.logic.md",
        lib.find("gather").unwrap(),
        "collect",
    )
    .unwrap_err();
    assert_eq!(
        why,
        "not every file that may import `lib.logic.md` could be looked at: the project has more \
         than 200000 files and directories to look through (dependencies and build output left \
         out); list the rest in .gitignore or open a smaller folder"
    );
}

/// An importer that does not parse cannot be renamed in: when it may name the step, the rename
/// is refused and names it, instead of leaving it broken without a word.
#[test]
fn a_rename_is_refused_when_an_importer_that_may_name_the_step_does_not_parse() {
    let lib = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  gather: {}\n---\n";
    let broken = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: d\nsteps:\n  s:\n    needs: [d.gather\n---\n";
    let unrelated = "---\nspec_version: \"1.0\"\nname: u\nimports:\n  - ref: ./lib.logic.md\n    as: d\nsteps:\n  s: [\n---\n";
    let files = |importer: &str| {
        MemoryFiles::new()
            .with("lib.logic.md", lib)
            .with("imp.logic.md", importer)
            .shared()
    };
    let mut workspace = Workspace::new(files(broken));
    workspace.open("lib.logic.md", lib.to_owned());
    let at = lib.find("gather").unwrap();
    let why = rename::rename(&mut workspace, "lib.logic.md", at, "collect").unwrap_err();
    assert_eq!(
        why,
        "not every file that may import `lib.logic.md` could be looked at: `imp.logic.md` does \
         not parse, and it may name `gather`: fix it first"
    );
    // A broken file that does not name the step does not stop the rename.
    let mut workspace = Workspace::new(files(unrelated));
    workspace.open("lib.logic.md", lib.to_owned());
    assert!(rename::rename(&mut workspace, "lib.logic.md", at, "collect").is_ok());
}
