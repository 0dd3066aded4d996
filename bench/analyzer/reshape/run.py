#!/usr/bin/python3
"""The reshape benchmark: does the analyzer keep its findings when code is reshaped?

    run.py --build BUILD [--set pl --set examples --set corpus] [--pairs [--pair-sample N]]
           [--sample N] [--jobs J] [--work DIR] [floors...] [SEED...]

Every seed (an annotated program: `// expect: <rule>` on each buggy line, the
corpus format) goes through placelint-reshape, which writes its variants:
the seed rewritten by each transform (and, with --pairs, by each ordered
pair), each variant's markers carried to where the finding must now be. The
analyzer (the plugin in clang-tidy-19) then runs on every variant.

Per transform and rule it prints
  retention     the markers found on the variants of buggy seeds, counting
                only the rules whose every marker the analyzer finds on the
                seed itself (a miss on the seed is the corpus's business,
                not the transform's);
  false alarms  the variants of clean look-alike seeds (no markers, nothing
                reported on the seed) that get a finding;
  drop rate     the variants that did not compile, over all the transform
                produced.
then every lost marker and false alarm, by variant and line.

Seed sets: `pl` (test/analyzer/integration/corpus/pl, against <pl/pl.h>),
`examples` (examples/bugs), `corpus` (the libtorch corpus, against
<torch/torch.h>). Each set's API header is precompiled once.

Exit status 1 when a floor is missed: --min-retention (a cell with at least
--min-cases markers), --min-total-retention (all cells together), --max-false-alarm-rate (a transform's look-alike
variants with a finding), --max-drop-rate (a transform's variants that did
not compile), or a variant the analyzer could not run on; 2 on usage errors.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Dict, List, Optional, Set, Tuple

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CORPUS = os.path.join(ROOT, "test", "analyzer", "integration", "corpus")
sys.path.insert(0, CORPUS)
import measure  # noqa: E402  (the corpus scorer: markers, diagnostics, the catalogue's rules)

RULES = measure.SCORED_RULES


def seed_sets(build: str, torch_include: str) -> Dict[str, Tuple[List[str], List[str]]]:
    """Each set's seeds and compile flags."""
    pl_flags = ["-std=c++20", "-I" + os.path.join(ROOT, "runtime", "include"),
                "-I" + os.path.join(ROOT, "rules", "include"), "-I" + os.path.join(build, "rules", "include")]
    return {
        "pl": (sorted(glob.glob(os.path.join(CORPUS, "pl", "*.cpp"))), pl_flags),
        "examples": (sorted(glob.glob(os.path.join(ROOT, "examples", "bugs", "*", "*.cpp"))),
                     pl_flags + ["-I" + os.path.join(ROOT, "examples", "bugs")]),
        "corpus": (sorted(glob.glob(os.path.join(CORPUS, "*.cpp"))), ["-std=c++17", "-isystem", torch_include]),
    }


def analyse(options, source: str, flags: List[str]) -> Tuple[Set[Tuple[int, str]], List[str]]:
    """The (line, rule) findings of the plugin on one file, and any errors."""
    command = [options.clang_tidy, "--load=" + options.plugin, "--checks=-*,placement-*", source, "--"] + flags
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    findings, errors = set(), []
    for text in result.stdout.splitlines():
        match = measure.DIAGNOSTIC.match(text)
        if not match:
            continue
        if match.group("kind") != "warning":
            errors.append(text)
        elif (match.group("check") or "").startswith("placement-") and \
                os.path.realpath(match.group("file")) == os.path.realpath(source):
            findings.add((int(match.group("line")), match.group("check")))
    if result.returncode < 0 or (result.returncode != 0 and not errors):
        errors.append("clang-tidy exited with status %d" % result.returncode)
    return findings, errors


def precompiled(options, flags: List[str], number: int) -> List[str]:
    """-include-pch of the API header the flags compile against, or nothing when it cannot be built."""
    header = "torch/torch.h" if any("torch" in flag for flag in flags) else "pl/pl.h"
    source = os.path.join(options.work, "api%d.h" % number)
    pch = source + ".pch"
    with open(source, "w", encoding="utf-8") as f:
        f.write("#include <%s>\n" % header)
    result = subprocess.run([options.clang, "-x", "c++-header"] + flags + [source, "-o", pch],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print("reshape: no precompiled %s (%s); parsing it each time" % (header, result.stdout[-500:]),
              file=sys.stderr)
        return []
    return ["-include-pch", pch]


def markers(path: str) -> Set[Tuple[int, str]]:
    return {(line, rule) for _, line, rule in measure.read_expectations(path)}


class Seed:
    """One seed's variants and what the analyzer said about them."""

    def __init__(self, path: str, flags: List[str]):
        self.path, self.flags = path, flags
        self.expected: Set[Tuple[int, str]] = set()
        self.found: Set[Tuple[int, str]] = set()
        self.variants: List[Tuple[str, Tuple[str, ...], Set, Set]] = []  # file, transforms, expected, found
        self.dropped: List[Tuple[str, str]] = []
        self.errors: List[str] = []
        self.seconds = 0.0


def run_seed(options, path: str, flags: List[str]) -> Seed:
    try:
        return reshape_and_analyse(options, path, flags)
    except OSError as error:
        seed = Seed(path, flags)
        seed.errors.append("%s: %s" % (path, error))
        return seed


def reshape_and_analyse(options, path: str, flags: List[str]) -> Seed:
    seed = Seed(path, flags)
    start = time.monotonic()
    seed.expected = markers(path)
    seed.found, errors = analyse(options, path, flags)
    if errors:
        seed.errors.append("%s: the seed does not analyse cleanly: %s" % (path, errors[0]))
        return seed
    out = os.path.join(options.work, os.path.basename(os.path.dirname(path)), os.path.splitext(os.path.basename(path))[0])
    shutil.rmtree(out, ignore_errors=True)
    command = [options.reshape, path, "-o", out]
    if options.transforms:
        command += ["--transforms", options.transforms]
    if options.pairs:
        command += ["--pairs"] + (["--pair-sample", str(options.pair_sample)] if options.pair_sample else [])
    result = subprocess.run(command + ["--"] + flags, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        seed.errors.append("%s: placelint-reshape failed (%d): %s" % (path, result.returncode, result.stdout[-2000:]))
        return seed
    stem = os.path.splitext(os.path.basename(path))[0]
    with open(os.path.join(out, stem + ".reshape.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    seed.dropped = [(d["transforms"], d["error"]) for d in manifest["dropped"]]
    # The variants live elsewhere: their quoted includes resolve from the seed's folder.
    variant_flags = flags + ["-I" + os.path.dirname(path)]
    for variant in manifest["variants"]:
        file = os.path.join(out, variant["file"])
        found, errors = analyse(options, file, variant_flags)
        if errors:
            seed.errors.append("%s: %s" % (file, errors[0]))
            continue
        seed.variants.append((file, tuple(variant["transforms"]), markers(file), found))
    seed.seconds = time.monotonic() - start
    return seed


class Cell:
    def __init__(self):
        self.markers = 0
        self.kept = 0

    def ratio(self) -> Optional[float]:
        return self.kept / self.markers if self.markers else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seeds", nargs="*", help="seed programs (default: the sets given by --set)")
    parser.add_argument("--build", required=True, help="the build tree (bin/placelint-reshape, the plugin)")
    parser.add_argument("--set", action="append", choices=("pl", "examples", "corpus"), dest="sets",
                        help="seed sets (default: pl and examples)")
    parser.add_argument("--flags", help="compile flags for the SEEDs given by name (default: those of the set "
                                         "that holds the seed, else the pl set's)")
    parser.add_argument("--sample", type=int, default=0,
                        help="only this many seeds of each set, spread evenly over it by name")
    parser.add_argument("--transforms", help="comma-separated transforms (default: all)")
    parser.add_argument("--pairs", action="store_true", help="also every ordered pair of transforms")
    parser.add_argument("--pair-sample", type=int, default=0, help="with --pairs, this many pairs a seed")
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--work", help="where the variants go (default: a temporary directory)")
    parser.add_argument("--clang-tidy", default="clang-tidy-19")
    parser.add_argument("--clang", default="clang++-19", help="builds the torch precompiled header")
    parser.add_argument("--torch-include", default="/usr/include/torch/csrc/api/include")
    parser.add_argument("--min-retention", type=float)
    parser.add_argument("--min-total-retention", type=float,
                        help="exit 1 if the markers kept over all cells fall below this")
    parser.add_argument("--min-cases", type=int, default=5, help="cells with fewer markers are not held to the floor")
    parser.add_argument("--max-false-alarm-rate", type=float)
    parser.add_argument("--max-drop-rate", type=float)
    parser.add_argument("--details", action="store_true", help="list every lost marker and false alarm")
    options = parser.parse_args()

    options.plugin = os.path.join(options.build, "lib", "libPlacelintTidyPlugin.so")
    options.reshape = os.path.join(options.build, "bin", "placelint-reshape")
    for path in (options.plugin, options.reshape):
        if not os.path.isfile(path):
            parser.error("no %s (build the analyzer first)" % path)
    temporary = None
    if not options.work:
        temporary = tempfile.TemporaryDirectory(prefix="placelint-reshape-")
        options.work = temporary.name
    os.makedirs(options.work, exist_ok=True)

    sets = seed_sets(options.build, options.torch_include)
    jobs: List[Tuple[str, List[str]]] = []
    for seed in options.seeds:
        path = os.path.abspath(seed)
        owner = next((name for name, (sources, _) in sets.items() if path in sources), "pl")
        jobs.append((path, options.flags.split() if options.flags else sets[owner][1]))
    for name in options.sets or ([] if options.seeds else ["pl", "examples"]):
        sources, flags = sets[name]
        if options.sample and len(sources) > options.sample:
            sources = [sources[i * len(sources) // options.sample] for i in range(options.sample)]
        jobs += [(s, flags) for s in sources]
    # Parsing the API's header dominates: each set's is precompiled once.
    pchs: Dict[Tuple[str, ...], List[str]] = {}
    for index, (source, flags) in enumerate(jobs):
        if tuple(flags) not in pchs:
            pchs[tuple(flags)] = precompiled(options, flags, len(pchs))
        jobs[index] = (source, flags + pchs[tuple(flags)])
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        seeds = list(pool.map(lambda job: run_seed(options, *job), jobs))
    wall = time.monotonic() - start

    retention: Dict[Tuple[str, str], Cell] = defaultdict(Cell)
    alarms: Dict[str, List[int]] = defaultdict(lambda: [0, 0])  # transform: [look-alike variants with a finding, all]
    produced: Dict[str, List[int]] = defaultdict(lambda: [0, 0])  # transform: [dropped, all]
    lost, false_alarms = [], []
    for seed in seeds:
        for transforms, _ in seed.dropped:
            produced[transforms][0] += 1
            produced[transforms][1] += 1
        fully_found = {rule for rule in RULES
                       if {m for m in seed.expected if m[1] == rule} <= seed.found and
                       not {f for f in seed.found if f[1] == rule} - seed.expected}
        for file, transforms, expected, found in seed.variants:
            label = "+".join(transforms)
            produced[label][1] += 1
            if seed.expected:
                for line, rule in expected:
                    if rule not in fully_found:
                        continue
                    cell = retention[(label, rule)]
                    cell.markers += 1
                    if (line, rule) in found:
                        cell.kept += 1
                    else:
                        lost.append("%s:%d: %s" % (file, line, rule))
            elif not seed.found:
                alarms[label][1] += 1
                if found:
                    alarms[label][0] += 1
                    false_alarms += ["%s:%d: %s" % (file, line, rule) for line, rule in sorted(found)]

    labels = sorted(produced)
    seen_rules = [r for r in RULES if any(retention[(l, r)].markers for l in labels)]
    print("reshape: %d seeds (%d buggy, %d look-alikes), %d variants, %d dropped, %.0f s wall, %d job(s)"
          % (len(seeds), sum(1 for s in seeds if s.expected), sum(1 for s in seeds if not s.expected),
             sum(len(s.variants) for s in seeds), sum(len(s.dropped) for s in seeds), wall, options.jobs))
    print()
    print("| transform | " + " | ".join(r.replace("placement-", "") for r in seen_rules) +
          " | look-alike variants with findings | drop rate |")
    print("|---|" + "---:|" * (len(seen_rules) + 2))
    totals = {r: Cell() for r in seen_rules}
    for label in labels:
        cells = []
        for rule in seen_rules:
            cell = retention[(label, rule)]
            totals[rule].markers += cell.markers
            totals[rule].kept += cell.kept
            cells.append("-" if not cell.markers else "%.2f (%d)" % (cell.ratio(), cell.markers))
        with_findings, lookalikes = alarms[label]
        dropped, made = produced[label]
        print("| %s | %s | %d / %d | %.2f |" % (label, " | ".join(cells), with_findings, lookalikes,
                                                dropped / made if made else 0.0))
    all_alarms = [sum(alarms[l][i] for l in labels) for i in (0, 1)]
    print("| all | %s | %d / %d | %.2f |" % (
        " | ".join("%.2f (%d)" % (totals[r].ratio(), totals[r].markers) if totals[r].markers else "-"
                   for r in seen_rules), all_alarms[0], all_alarms[1],
        sum(produced[l][0] for l in labels) / max(1, sum(produced[l][1] for l in labels))))

    if options.details:
        for title, items in (("lost markers", lost), ("false alarms", false_alarms)):
            if items:
                print("\n%s:" % title)
                for item in items:
                    print("  " + item)
        drops = [(os.path.basename(s.path), t, e) for s in seeds for t, e in s.dropped]
        if drops:
            print("\ndropped (do not compile):")
            for seed_name, transforms, error in drops:
                print("  %s %s: %s" % (seed_name, transforms, error))

    status = 0
    for seed in seeds:
        for error in seed.errors:
            print("error: " + error, file=sys.stderr)
            status = 1
    for (label, rule), cell in sorted(retention.items()):
        if options.min_retention is not None and cell.markers >= options.min_cases and \
                cell.ratio() < options.min_retention:
            print("error: %s keeps %.2f of %s's findings (%d markers), below %.2f"
                  % (label, cell.ratio(), rule, cell.markers, options.min_retention), file=sys.stderr)
            status = 1
    kept, counted = sum(c.kept for c in totals.values()), sum(c.markers for c in totals.values())
    if options.min_total_retention is not None and counted and kept / counted < options.min_total_retention:
        print("error: the variants keep %d of %d markers (%.2f), below %.2f"
              % (kept, counted, kept / counted, options.min_total_retention), file=sys.stderr)
        status = 1
    for label in labels:
        with_findings, lookalikes = alarms[label]
        if options.max_false_alarm_rate is not None and lookalikes and \
                with_findings / lookalikes > options.max_false_alarm_rate:
            print("error: %s: %d of %d look-alike variants get a finding, above %.2f"
                  % (label, with_findings, lookalikes, options.max_false_alarm_rate), file=sys.stderr)
            status = 1
        dropped, made = produced[label]
        if options.max_drop_rate is not None and made and dropped / made > options.max_drop_rate:
            print("error: %s: %d of %d variants do not compile, above %.2f"
                  % (label, dropped, made, options.max_drop_rate), file=sys.stderr)
            status = 1
    if temporary:
        temporary.cleanup()
    return status


if __name__ == "__main__":
    sys.exit(main())
