"""``python -m logicmd.evals run DOC --data CASES …``: the evals on the local pool or on Ray
(``--engine ray [--address ray://…]``), rows written as ``logicmd evals run --out`` writes
them (``logicmd evals compare`` reads both): appended as batches finish, so Ctrl-C keeps them,
and an eval run again with the same ``--out`` goes on where it stopped (``--restart`` starts
over). Exit 0 every row passed, 1 some row did not, 2 usage or I/O, 130 interrupted."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, List, Optional, Set, Tuple

from . import DEFAULT_BATCH, Plan, Row, finished
from . import _results as results
from ._interrupt import EXIT_INTERRUPTED, Interrupt, rows_are
from ._lock import InUse, acquire

EXIT_USAGE = 2


class Refused(Exception):
    """The eval cannot go on: the message, said as ``error: …`` (exit 2)."""


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    interrupt = Interrupt("standard output" if args.out == "-" else args.out, 0)
    try:
        return _eval(args, interrupt)
    except (OSError, ValueError, Refused, InUse) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m logicmd.evals")
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("run", help="run a document and its variants over a dataset of cases")
    command.add_argument("document", metavar="DOC")
    command.add_argument("--data", required=True, metavar="FILE", help="JSON Lines or .csv of {id, input, expected?, metadata?}")
    command.add_argument("--variant", action="append", default=[], metavar="DOC", help="another document (repeatable)")
    command.add_argument("--scorer", action="append", default=[], metavar="SCORER", help="as `logicmd evals run --scorer` (repeatable)")
    answers = command.add_mutually_exclusive_group(required=True)
    answers.add_argument("--dry-run", action="store_true", help="synthetic answers")
    answers.add_argument("--provider", metavar="scripted:FILE", help="a script's answers")
    command.add_argument("--seed", type=int, default=0, help="seed of the synthetic answers")
    command.add_argument("--engine", choices=["local", "ray"], default="local")
    command.add_argument("--address", metavar="ADDRESS", help="the Ray cluster (ray://…) when Ray is not started yet")
    command.add_argument("--jobs", type=int, metavar="N", help="threads of the local pool")
    command.add_argument("--batch-size", type=int, default=DEFAULT_BATCH, metavar="N", help="cases per batch (per Ray task)")
    command.add_argument("--root", metavar="DIR", help="directory imports, workflow nodes and prompt files may be read from")
    command.add_argument(
        "--out",
        default="evals.jsonl",
        metavar="FILE",
        help="the results, one row a line; when FILE exists its rows are kept and only the cases it lacks run (resume); - writes each batch's rows to standard output as it finishes",
    )
    command.add_argument("--restart", action="store_true", help="start --out over instead of resuming it")
    return parser


def _eval(args: argparse.Namespace, interrupt: Interrupt) -> int:
    script = None
    if args.provider is not None:
        kind, _, path = args.provider.partition(":")
        if kind != "scripted" or not path:
            raise Refused(f"unknown provider `{args.provider}`: use scripted:FILE or --dry-run")
        script = path
    seed = args.seed if script is None else None
    if args.out != "-":
        _outputs_fit(args, script)
    plan = Plan(args.document, args.data, args.variant, args.scorer, seed, script, args.root)
    if not plan.ids:
        raise Refused(f"{args.data} holds no cases: an eval of nothing would pass")
    _obligations_scored(plan, args.scorer)
    lock = None if args.out == "-" else acquire(args.out)
    try:
        return _run(args, plan, interrupt)
    finally:
        if lock is not None:
            lock.close()


def _run(args: argparse.Namespace, plan: Plan, interrupt: Interrupt) -> int:
    rows, keep = _resumed(args, plan)
    interrupt.wrote(len(rows))
    done = {(row["id"], row["variant"]) for row in rows}
    work = plan.batches(args.batch_size, done)
    ran: List[Row] = []
    said = sys.stderr if args.out == "-" else sys.stdout
    out = None if args.out == "-" else results.appending(args.out, keep)
    try:
        for output in finished(work, plan.options, args.engine, args.jobs, args.address, lambda: interrupt.requested):
            batch = list(_parsed(output))
            if out is None:
                sys.stdout.write("".join(results.line(row) for row in batch))
                sys.stdout.flush()
            else:
                results.append(out, batch)
            interrupt.wrote(len(batch))
            ran.extend(batch)
        if interrupt.requested:
            print(_stopped(args, interrupt), file=sys.stderr)
            return EXIT_INTERRUPTED
        if out is not None:
            # Every row is in: the new ones again, in case order, after the kept ones.
            ran.sort(key=plan.order)
            out.truncate(keep)
            out.seek(keep)
            results.append(out, ran)
    finally:
        if out is not None:
            out.close()
    every = rows + ran
    passed = sum(1 for row in every if row["pass"])
    print(f"{len(every)} rows, {passed} passed; results: {args.out}", file=said)
    return 0 if passed == len(every) else 1


def _obligations_scored(plan: Plan, scorers: List[str]) -> None:
    """A case's ``metadata.obligations`` is checked by a trace scorer; without one, say it is not."""
    listing = plan.listing_obligations
    if listing and not any(s == "trace" or s.startswith("trace:") for s in scorers):
        cases = "1 case lists" if listing == 1 else f"{listing} cases list"
        print(
            f"note: {cases} metadata.obligations, which only a trace scorer checks: add --scorer trace (every built-in rule and theirs) or --scorer trace:RULE",
            file=sys.stderr,
        )


def _stopped(args: argparse.Namespace, interrupt: Interrupt) -> str:
    if args.out == "-":
        return f"interrupted: {rows_are(interrupt.written)} written to standard output"
    return interrupt.stopped()


def _parsed(output: str) -> List[Row]:
    return [json.loads(line) for line in output.splitlines() if line]


def _resumed(args: argparse.Namespace, plan: Plan) -> Tuple[List[Row], int]:
    """The rows kept from an existing --out (those made from what has not changed since), and
    how many of its bytes they take: what the eval appends after."""
    if args.out == "-" or args.restart or not os.path.exists(args.out):
        return [], 0
    rows, keep = results.read(args.out)
    _same_scorers(args.out, rows, plan.scorer_names)
    _same_eval(args.out, rows, plan)
    still = [row for row in rows if plan.fingerprints.get((row["id"], row["variant"])) == row.get("fingerprint")]
    changed = len(rows) - len(still)
    if changed:
        keep = results.rewrite(args.out, still)
        were = f"1 row of {args.out} was" if changed == 1 else f"{changed} rows of {args.out} were"
        print(f"{were} made from a case, document, import, script, schema or server that has changed since: they run again", file=sys.stderr)
    if still:
        todo = len(plan.ids) * len(plan.variants) - len(still)
        print(f"resuming {args.out}: {len(still)} rows kept, {todo} to run", file=sys.stderr)
    return still, keep


def _same_scorers(out: str, rows: List[Row], names: List[str]) -> None:
    """Kept rows must have been scored as this run scores, or the results would mix two measures."""
    for row in rows:
        if list(row.get("scores", {})) != names:
            raise Refused(
                f"{out} holds rows scored by [{', '.join(row.get('scores', {}))}], not by [{', '.join(names)}]: give the same --scorer list to resume, or --restart"
            )


def _same_eval(out: str, rows: List[Row], plan: Plan) -> None:
    """Kept rows must belong to this eval's cases and variants, each once."""
    seen: Set[Tuple[Any, Any]] = set()
    for row in rows:
        key = (row.get("id"), row.get("variant"))
        if key in seen:
            raise Refused(f"{out} holds case `{key[0]}` of variant `{key[1]}` twice (two evals wrote it at once?): --restart starts it over")
        seen.add(key)
    for row in rows:
        if (row.get("id"), row.get("variant")) not in plan.fingerprints:
            raise Refused(
                f"{out} holds rows of another eval (case `{row.get('id')}`, variant `{row.get('variant')}` is not in this one): resume with the same --data and documents, or --restart"
            )


def _outputs_fit(args: argparse.Namespace, script: Optional[str]) -> None:
    """--out is none of the files this eval reads."""
    inputs: List[Tuple[str, str]] = [("the dataset", args.data)]
    inputs += [("the document", path) for path in [args.document, *args.variant]]
    if script is not None:
        inputs.append(("the script", script))
    inputs += [("a scorer's schema", s[len("schema:") :]) for s in args.scorer if s.startswith("schema:")]
    for what, path in inputs:
        if os.path.abspath(path) == os.path.abspath(args.out) or (
            os.path.exists(path) and os.path.exists(args.out) and os.path.samefile(path, args.out)
        ):
            raise Refused(f"--out would overwrite {what} ({path}): name another file")


if __name__ == "__main__":
    sys.exit(main())
