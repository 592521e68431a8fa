//! A workspace of several open files with imports: a change to one re-checks the files that
//! load it, and the editor's texts win over the project's files while open.

use logicmd::source::Span;
use logicmd_ide::files::MemoryFiles;
use logicmd_ide::Workspace;

const LIB: &str = "---\nspec_version: \"1.0\"\nname: lib\nsteps:\n  norm: {description: N}\n---\n";
const MAIN: &str = "---\nspec_version: \"1.0\"\nname: m\nimports:\n  - ref: ./lib.logic.md\n    as: lib\nsteps:\n  a:\n    description: A\n    needs: [lib.norm]\n---\n";

fn codes(workspace: &mut Workspace, id: &str) -> Vec<String> {
    workspace
        .raw_diagnostics(id)
        .iter()
        .map(|d| d.code.clone())
        .collect()
}

#[test]
fn an_edit_of_an_imported_file_re_checks_its_importers() {
    let files = MemoryFiles::new()
        .with("lib.logic.md", LIB)
        .with("main.logic.md", MAIN);
    let mut workspace = Workspace::new(files.shared());
    workspace.open("main.logic.md", MAIN.to_owned());
    workspace.open("lib.logic.md", LIB.to_owned());
    assert_eq!(codes(&mut workspace, "main.logic.md"), Vec::<String>::new());
    assert_eq!(workspace.loaded_by("main.logic.md"), ["lib.logic.md"]);
    // Renaming the step in the open (unsaved) library: the importer is affected and sees it.
    let at = LIB.find("norm").unwrap();
    let affected = workspace
        .edit("lib.logic.md", Span::new(at, at + 4), "normalize")
        .unwrap();
    assert_eq!(affected, ["lib.logic.md", "main.logic.md"]);
    assert_eq!(codes(&mut workspace, "main.logic.md"), ["unknown-need"]);
    assert_eq!(workspace.importers_of("lib.logic.md"), ["main.logic.md"]);
    // Closing the library: the project's file (with `norm`) is read again.
    let affected = workspace.close("lib.logic.md");
    assert_eq!(affected, ["main.logic.md"]);
    assert_eq!(codes(&mut workspace, "main.logic.md"), Vec::<String>::new());
}

#[test]
fn a_change_on_disk_is_ignored_while_the_file_is_open() {
    let files = MemoryFiles::new().with("lib.logic.md", LIB);
    let mut workspace = Workspace::new(files.shared());
    workspace.open("lib.logic.md", LIB.to_owned());
    assert!(workspace.changed_on_disk("lib.logic.md").is_empty());
    workspace.open("main.logic.md", MAIN.to_owned());
    codes(&mut workspace, "main.logic.md");
    assert_eq!(
        workspace.changed_on_disk("other.logic.md"),
        Vec::<String>::new()
    );
}
