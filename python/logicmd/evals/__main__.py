"""``python -m logicmd.evals run DOC --data CASES …``: the evals on the local pool or on Ray
(``--engine ray [--address ray://…]``), rows written as ``logicmd evals run --out`` writes
them (``logicmd evals compare`` reads both). Exit 0 every row passed, 1 some row did not, 2
usage or I/O."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

from . import DEFAULT_BATCH, run, run_as_finished


def main(argv: Optional[List[str]] = None) -> int:
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
    command.add_argument("--out", default="evals.jsonl", metavar="FILE", help="the results, one row a line, in case order; - writes each batch's rows to standard output as it finishes")
    args = parser.parse_args(argv)
    script = None
    if args.provider is not None:
        kind, _, path = args.provider.partition(":")
        if kind != "scripted" or not path:
            parser.error(f"unknown provider `{args.provider}`: use scripted:FILE or --dry-run")
        script = path
    settings: Dict[str, Any] = dict(
        variants=args.variant,
        scorers=args.scorer,
        seed=args.seed if script is None else None,
        script=script,
        engine=args.engine,
        jobs=args.jobs,
        batch_size=args.batch_size,
        address=args.address,
    )
    rows = passed = 0
    try:
        if args.out == "-":
            for row in run_as_finished(args.document, args.data, **settings):
                sys.stdout.write(_line(row))
                sys.stdout.flush()
                rows, passed = rows + 1, passed + bool(row["pass"])
        else:
            every = run(args.document, args.data, **settings)
            with open(args.out, "w", encoding="utf-8") as out:
                for row in every:
                    out.write(_line(row))
            rows, passed = len(every), sum(1 for row in every if row["pass"])
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    said = sys.stderr if args.out == "-" else sys.stdout
    print(f"{rows} rows, {passed} passed; results: {args.out}", file=said)
    return 0 if passed == rows else 1


def _line(row: object) -> str:
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    sys.exit(main())
