"""The ``stammtisch`` command line: replay records, run random playouts, make new deals.

    stammtisch replay FILE                 replay a deal record, print outcome or position
    stammtisch playout --game dreierles --deals 1000 --seed 1 [--no-oracle] [--no-check]
    stammtisch deal --game dreierles --seed 5 [--play]   print a new (random-played) record
    stammtisch duel --game dreierles --a einsteiger --b random --deals 200 [--seed 1] [--json]
    stammtisch verify FILE                 check a downloaded match record's fair shuffling

Output is JSON on standard output. Errors go to standard error with the position in the
record and the rule that was broken; the exit status is 2 for a bad record or bad
arguments and 1 when a playout finds invariant failures (the information-set oracle's leaks
among them). ``verify`` exits with 0 when every deal checks, 1 when one fails (the message
names the deal) and 2 for a file it cannot read.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from server.engine.errors import EngineError
from server.engine.fair_check import FairCheckError, verify_match
from server.engine.playout import run_playouts
from server.engine.record import dump_record, load_record, parse_record_text
from server.engine.registry import get_rules


def _print(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record file and print its outcome (finished) or its position (unfinished)."""
    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"stammtisch: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        record = parse_record_text(text)
        deal = load_record(record)
    except EngineError as exc:
        print(f"stammtisch: {args.file}: {exc.message}", file=sys.stderr)
        return 2
    stake = int(record.get("stake_cents", 0))
    outcome = deal.outcome()
    if outcome is None:
        _print(
            {
                "game": deal.rules.name,
                "finished": False,
                "seats": list(deal.seat_names),
                **deal.position(),
            }
        )
        return 0
    settlement = [
        {"seat": seat, "name": name, "points": pts, "cents": pts * stake}
        for seat, (name, pts) in enumerate(zip(deal.seat_names, outcome["settlement"], strict=True))
    ]
    _print(
        {
            "game": deal.rules.name,
            "finished": True,
            "seats": list(deal.seat_names),
            "stake_cents": stake,
            **outcome,
            "settlement": settlement,
        }
    )
    return 0


def cmd_playout(args: argparse.Namespace) -> int:
    """Play random deals with invariant checks and print the summary."""
    try:
        options = json.loads(args.options) if args.options else None
        start = time.perf_counter()
        report = run_playouts(
            args.game,
            args.deals,
            args.seed,
            options,
            check=not args.no_check,
            oracle=not (args.no_check or args.no_oracle),
        )
        report.seconds = time.perf_counter() - start
    except (EngineError, json.JSONDecodeError) as exc:
        print(f"stammtisch: {exc}", file=sys.stderr)
        return 2
    _print(report.to_json())
    return 1 if report.invariant_failures else 0


def cmd_deal(args: argparse.Namespace) -> int:
    """Print the record of a new deal, optionally played to the end with random moves."""
    try:
        rules = get_rules(args.game)
        options = json.loads(args.options) if args.options else None
        rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
        deal = rules.new_deal(rules.shuffle_and_deal(rng), options, args.seats)
        if args.play:
            while not deal.finished:
                seat, move = deal.random_action(rng)
                deal.apply(move, seat)
    except (EngineError, json.JSONDecodeError) as exc:
        print(f"stammtisch: {exc}", file=sys.stderr)
        return 2
    _print(dump_record(deal, stake_cents=args.stake))
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    """Duplicate deals between two levels of computer players (``server.bots.duel``)."""
    from server.bots.duel import duel, format_report
    from server.bots.players import LEVELS

    for level in (args.a, args.b):
        if level not in LEVELS:
            print(f"stammtisch: unknown level {level!r} (known: {', '.join(LEVELS)})",
                  file=sys.stderr)  # fmt: skip
            return 2
    if args.deals < 1:
        print("stammtisch: --deals must be at least 1", file=sys.stderr)
        return 2
    try:
        options = json.loads(args.options) if args.options else None
        result = duel(args.game, args.a, args.b, args.deals, seed=args.seed, options=options)
    except (EngineError, json.JSONDecodeError, NotImplementedError) as exc:
        print(f"stammtisch: {exc}", file=sys.stderr)
        return 2
    if args.json:
        _print(result)
    else:
        print(format_report(result))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check the fair shuffling of a downloaded match record (docs/record-format.md)."""
    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else path.read_text(encoding="utf-8")
        record = json.loads(text)
    except OSError as exc:
        print(f"stammtisch: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"stammtisch: {args.file}: not JSON ({exc})", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print(f"stammtisch: {args.file}: not a match record", file=sys.stderr)
        return 2
    try:
        report = verify_match(record)
    except FairCheckError as exc:
        print(f"stammtisch: {args.file}: NOT fair: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: fair shuffling checks ({report.game}): {report.checked} deals dealt "
          f"from the published chain and the seeds of {report.players_with_seeds} of "
          f"{report.players} players")  # fmt: skip
    if report.uncovered:
        print(f"  {report.uncovered} deals after the chain's end were dealt without it")
    if not report.players_with_seeds:
        print("  no player gave a seed: this shows only that the server fixed its seeds "
              "before the match, not that it did not choose them")  # fmt: skip
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``stammtisch`` command."""
    parser = argparse.ArgumentParser(prog="stammtisch", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="replay a deal record ('-' reads standard input)")
    replay.add_argument("file")
    replay.set_defaults(func=cmd_replay)

    playout = sub.add_parser("playout", help="random full deals with invariant checks")
    playout.add_argument("--game", required=True)
    playout.add_argument("--deals", type=int, default=1000)
    playout.add_argument("--seed", type=int, default=1)
    playout.add_argument("--options", help="house-rule options as a JSON object")
    playout.add_argument("--no-check", action="store_true", help="measure speed only")
    playout.add_argument(
        "--no-oracle",
        action="store_true",
        help="skip the information-set oracle (views compared with those of deals that "
        "differ only in what the viewer may not know; the slowest check)",
    )
    playout.set_defaults(func=cmd_playout)

    deal = sub.add_parser("deal", help="print the record of a new deal")
    deal.add_argument("--game", required=True)
    deal.add_argument("--seed", type=int)
    deal.add_argument("--options", help="house-rule options as a JSON object")
    deal.add_argument("--seats", nargs="+", help="seat names in playing order")
    deal.add_argument("--stake", type=int, default=10, help="stake per point in cents")
    deal.add_argument("--play", action="store_true", help="play it out with random moves")
    deal.set_defaults(func=cmd_deal)

    duel = sub.add_parser("duel", help="duplicate deals between two levels of computer players")
    duel.add_argument("--game", required=True)
    duel.add_argument("--a", required=True, help="level of player a (random, einsteiger)")
    duel.add_argument("--b", required=True, help="level of player b")
    duel.add_argument("--deals", type=int, default=100, help="deal sets to play")
    duel.add_argument("--seed", type=int, default=1)
    duel.add_argument("--options", help="house-rule options as a JSON object")
    duel.add_argument("--json", action="store_true", help="print the report as JSON")
    duel.set_defaults(func=cmd_duel)

    verify = sub.add_parser("verify", help="check a downloaded match record's fair shuffling")
    verify.add_argument("file")
    verify.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``stammtisch`` console script."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
    except BrokenPipeError:  # the reader went away (`stammtisch deal ... | head`)
        sys.stderr.close()
        return 0
    return status


if __name__ == "__main__":
    raise SystemExit(main())
