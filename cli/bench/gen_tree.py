#!/usr/bin/env python3
"""Writes the tree `logicmd lint .` is benchmarked on (issue #34): N LOGIC.md documents (default
1,000) in 20 directories, made from the LOGIC.md templates of `logicmd init` (core/src/templates/
files) with a name of their own; every tenth has a misspelled `needs` entry (a semantic error only
logicmd finds) and every twenty-fifth a misspelled property (a schema error both find). Deterministic: the same bytes on every machine.

    python3 cli/bench/gen_tree.py DIR [N]
"""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
TEMPLATES = sorted((HERE.parent.parent / "core/src/templates/files").glob("*.logic.md"))


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    texts = [t.read_text() for t in TEMPLATES]
    for i in range(count):
        text = texts[i % len(texts)].replace("name: my-reasoning", f"name: doc-{i}", 1)
        if i % 10 == 0:
            # A typo in the first `needs` entry (an unknown step; a did-you-mean for logicmd).
            text = text.replace("needs: [", "needs: [x", 1)
        if i % 25 == 0:
            # A misspelled property: the schema refuses it.
            text = text.replace("\nsteps:\n", "\nmax_iteratons: 3\nsteps:\n", 1)
        path = out / f"group-{i % 20:02}" / f"doc-{i:04}.logic.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


if __name__ == "__main__":
    main()
