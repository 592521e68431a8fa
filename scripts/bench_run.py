#!/usr/bin/env python3
"""What `logicmd run` costs as a whole process (issue #38), and the documents it is measured on.

    bench_run.py generate STEPS            # prints the generated document
    bench_run.py measure --runs N --steps "1000 5000" --work DIR NAME=BINARY... [--reference DIST]

`generate`: a chain of STEPS steps with fan-in every tenth step and a verification every tenth
(as core/benches/run.rs generates them). `measure`: every build runs each document with the
synthetic provider and a trace (`--dry-run --trace`), without and with `--state`; the runs are
interleaved (run i of every build and variant, then run i + 1), so a change of the machine's load
touches all of them alike. The reference's `dryRun` (scripts/bench/reference-dry-run.mjs over a
built reference) runs beside them when --reference is given. Each run's CPU time (user + system,
from the child's own rusage, microseconds) and wall time are taken; medians (min-max) are printed,
with the load average before and after. The builds' traces of the same document must be the same
bytes, or the script fails.
"""

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time


def generate(steps):
    out = ["---", 'spec_version: "1.0"', "name: generated", "description: Generated benchmark document",
           "reasoning:", "  strategy: cot", "  max_iterations: 3", "steps:"]
    for i in range(steps):
        out.append(f"  step_{i}:")
        out.append(f"    description: Step number {i} of the chain")
        out.append("    instructions: |")
        out.append("      Read the output of the previous step.")
        out.append(f"      Produce a short summary for step {i}.")
        if i > 0:
            needs = [f"step_{i - 1}"]
            if i % 10 == 0 and i >= 10:
                needs.append(f"step_{i - 10}")
            out.append(f"    needs: [{', '.join(needs)}]")
        out.append("    confidence:")
        out.append("      minimum: 0.6")
        out.append("    timeout: 30s")
        if i % 10 == 5:
            out.append("    verification:")
            out.append('      check: "{{ output.confidence >= 0.7 }}"')
            out.append("      on_fail: retry")
    out.append("---")
    out.append("# Generated")
    return "\n".join(out) + "\n"


def timed(command, before=None, timeout=None):
    """CPU (user + system) and wall milliseconds of one run of `command`, and whether it was
    stopped at `timeout` seconds of wall time (its CPU time then is what it used until then);
    any other failure ends the script."""
    if before:
        before()
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(timeout, child.kill) if timeout else None
    if timer:
        timer.start()
    error = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    stopped = bool(timer) and not timer.is_alive() and status != 0
    if timer:
        timer.cancel()
    child.stderr.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 and not stopped:
        sys.exit(f"failed ({child.returncode}): {' '.join(command)}\n{error}")
    return (usage.ru_utime + usage.ru_stime) * 1000, wall, stopped


def summary(values):
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def measure(args):
    builds = [spec.split("=", 1) for spec in args.builds]
    print(f"load average before: {load()}")
    print(f"medians (min-max) of {args.runs} runs, interleaved; CPU = user + system of the process")
    header = f"{'steps':>6}  {'build':<12} {'variant':<10} {'CPU ms':>22} {'wall ms':>22}"
    for steps in [int(s) for s in args.steps.split()]:
        document = os.path.join(args.work, f"gen{steps}.logic.md")
        with open(document, "w") as f:
            f.write(generate(steps))
        state = os.path.join(args.work, "run.state.json")

        def fresh_state():
            for path in (state, state + ".lock"):
                if os.path.exists(path):
                    os.remove(path)

        commands = {}
        for name, binary in builds:
            trace = os.path.join(args.work, f"{name}-{steps}.jsonl")
            base = [binary, "run", document, "--dry-run", "--progress", "off", "--format", "json",
                    "--input", '{"topic": "benchmarks"}', "--trace", trace]
            commands[(name, "trace")] = (base, None)
            commands[(name, "+ --state")] = (base + ["--state", state], fresh_state)
        reference_steps = [int(n) for n in (args.reference_steps or args.steps).split()]
        reference_runs = args.reference_runs if args.reference and steps in reference_steps else 0
        if reference_runs:
            out = os.path.join(args.work, f"reference-{steps}.json")
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench",
                                  "reference-dry-run.mjs")
            commands[("reference", "dryRun")] = (["node", script, args.reference, document, out], None)
        results = {key: ([], []) for key in commands}
        stopped = set()
        for run in range(args.runs):
            for key, (command, before) in commands.items():
                is_reference = key[0] == "reference"
                if is_reference and (run >= reference_runs or key in stopped):
                    continue
                cpu, wall, killed = timed(command, before, args.reference_timeout if is_reference else None)
                if killed:
                    stopped.add(key)
                results[key][0].append(cpu)
                results[key][1].append(wall)
        traces = {open(os.path.join(args.work, f"{name}-{steps}.jsonl"), "rb").read() for name, _ in builds}
        if len(traces) != 1:
            sys.exit(f"the builds' traces of {steps} steps differ")
        print(header)
        for key, (cpu, wall) in results.items():
            name, variant = key
            if key in stopped:
                print(f"{steps:>6}  {name:<12} {variant:<10} {'> ' + format(cpu[-1], ',.0f'):>22}"
                      f" {'> ' + format(wall[-1], ',.0f'):>22}  (stopped unfinished after"
                      f" {args.reference_timeout} s of wall time)")
                continue
            print(f"{steps:>6}  {name:<12} {variant:<10} {summary(cpu):>22} {summary(wall):>22}"
                  + (f"  ({len(cpu)} runs)" if len(cpu) != args.runs else ""))
        size = os.path.getsize(os.path.join(args.work, f"{builds[0][0]}-{steps}.jsonl"))
        print(f"{'':>6}  trace {size:,} bytes, the same bytes from every build")
    print(f"load average after: {load()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate")
    gen.add_argument("steps", type=int)
    bench = commands.add_parser("measure")
    bench.add_argument("--runs", type=int, default=7)
    bench.add_argument("--steps", default="1000 5000")
    bench.add_argument("--work", required=True)
    bench.add_argument("--reference", help="the built reference's dist directory")
    bench.add_argument("--reference-runs", type=int, default=1)
    bench.add_argument("--reference-steps", help="the sizes the reference runs (default: all)")
    bench.add_argument("--reference-timeout", type=float, default=600,
                       help="seconds of wall time after which a reference run is stopped")
    bench.add_argument("builds", nargs="+", metavar="NAME=BINARY")
    args = parser.parse_args()
    if args.command == "generate":
        sys.stdout.write(generate(args.steps))
    else:
        measure(args)


if __name__ == "__main__":
    main()
