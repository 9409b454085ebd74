"""The `etalon` command (every command and option is described in docs/commands.md; a test keeps them equal).

Exit status: 0 on success, 1 on a refused or failed operation (one-line reason on stderr), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from app.actions import Refused
from warehouse.home import Home, legacy_home_hint, resolve_home


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--home", default=argparse.SUPPRESS,
                        help="data folder (default: $ETALON_HOME or ./etalon-data)")
    parser = argparse.ArgumentParser(prog="etalon", parents=[common],
                                     description="Etalon: an evaluation warehouse for legal AI.")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("demo", parents=[common], help="run everything on the embedded sample and print the leaderboard")
    sub.add_parser("update", parents=[common], help="materialise what changed since the last run")
    evaluate = sub.add_parser("evaluate", parents=[common],
                              help="re-evaluate chosen cells (etalons x systems) whatever is current")
    evaluate.add_argument("--etalon", action="append", default=[], help="etalon code (repeatable; default all)")
    evaluate.add_argument("--system", action="append", default=[], help="system id (repeatable; default all)")
    evaluate.add_argument("--from", dest="stage", choices=["answers", "citations", "judgments", "scores"],
                          default="scores", help="first stage to redo (default scores: re-score only)")

    corpus = sub.add_parser("corpus", parents=[common], help="the corpus of official texts")
    corpus_sub = corpus.add_subparsers(dest="corpus_command", required=True)
    ingest = corpus_sub.add_parser("ingest", parents=[common], help="parse files or folders into the warehouse")
    ingest.add_argument("paths", nargs="*", type=Path, metavar="PATH")
    ingest.add_argument("--sample", action="store_true",
                        help="register the embedded abridged sample as a source too (what `etalon demo` reads)")
    ingest.add_argument("--no-update", action="store_true",
                        help="only read the corpus; leave re-resolving citations and signatures to `etalon update`")
    refresh = corpus_sub.add_parser("refresh", parents=[common],
                                    help="fetch the remote sources now (only what changed), then update")
    refresh.add_argument("names", nargs="*", metavar="NAME", help="remote sources to fetch (default: all)")
    refresh.add_argument("--no-update", action="store_true",
                         help="only fetch and read the corpus; leave the rest to `etalon update`")
    show = corpus_sub.add_parser("show", parents=[common], help="print the text a citation points to")
    show.add_argument("citation")
    show.add_argument("--jurisdiction", choices=["ru", "ro", "auto"], default="auto")
    sources = corpus_sub.add_parser("sources", parents=[common], help="the registered corpus sources")
    sources_sub = sources.add_subparsers(dest="sources_command", required=True)
    sources_sub.add_parser("list", parents=[common], help="each source with its documents and failed files")
    remove = sources_sub.add_parser("remove", parents=[common],
                                    help="unregister a source: its documents leave the corpus at the next update")
    remove.add_argument("name")

    sub.add_parser("status", parents=[common],
                   help="what is stale, failing, waiting for answers or for a human")
    show_etalon = sub.add_parser("show", parents=[common],
                                 help="one etalon: versions, signature, sources, scores per system")
    show_etalon.add_argument("code")

    cite = sub.add_parser("cite", parents=[common], help="extract citations as JSON Lines")
    cite.add_argument("file", nargs="?", type=Path)
    cite.add_argument("--jurisdiction", choices=["ru", "ro", "auto"], default="auto")
    cite.add_argument("--resolve", action="store_true", help="add `status` from the warehouse's corpus")

    sign = sub.add_parser("sign", parents=[common], help="sign the current version of an etalon")
    sign.add_argument("code")
    sign.add_argument("--by", required=True)

    answers = sub.add_parser("answers", parents=[common], help="answers of systems under test")
    answers_sub = answers.add_subparsers(dest="answers_command", required=True)
    imp = answers_sub.add_parser("import", parents=[common], help="import answers for a system of kind import")
    imp.add_argument("file", type=Path)
    imp.add_argument("--system", required=True)
    imp.add_argument("--no-update", action="store_true", help="only store the answers; score them later")

    review = sub.add_parser("review", parents=[common], help="human decisions")
    review_sub = review.add_subparsers(dest="review_command", required=True)
    lst = review_sub.add_parser("list", parents=[common], help="what needs a human decision")
    lst.add_argument("--json", action="store_true")
    decide = review_sub.add_parser("decide", parents=[common], help="record a decision on an item")
    decide.add_argument("id")
    decide.add_argument("value")
    decide.add_argument("--by", required=True)
    decide.add_argument("--note")
    disagree = review_sub.add_parser("disagree", parents=[common],
                                     help="mark disagreement with the conclusion in force: the element opens again")
    disagree.add_argument("id")
    disagree.add_argument("--by", required=True)
    disagree.add_argument("--note", required=True, help="what is wrong with the conclusion")
    undo = review_sub.add_parser("undo", parents=[common], help="revoke a decision or an audit label")
    undo.add_argument("decision_id")
    undo.add_argument("--by", required=True)
    approve = review_sub.add_parser("approve", parents=[common], help="approve an evaluation once nothing is open")
    approve.add_argument("system")
    approve.add_argument("code")
    approve.add_argument("--by", required=True)

    serve = sub.add_parser("serve", parents=[common], help="the lawyers' workbench in the browser")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback only)")
    serve.add_argument("--port", type=int, default=8050)
    users = sub.add_parser("users", parents=[common], help="accounts of the workbench")
    users_sub = users.add_subparsers(dest="users_command", required=True)
    add = users_sub.add_parser("add", parents=[common], help="add an account (password from a prompt or stdin)")
    add.add_argument("login")
    add.add_argument("--name", required=True, help="full name, as etalons name their author")
    add.add_argument("--role", action="append", required=True, choices=["author", "reviewer", "admin"])
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    users_sub.add_parser("list", parents=[common], help="list the accounts")
    disable = users_sub.add_parser("disable", parents=[common], help="disable an account (kept on record)")
    disable.add_argument("login")
    return parser



def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "corpus" and args.corpus_command == "ingest" and not args.paths and not args.sample:
        parser.error("corpus ingest: give at least one PATH (or --sample for the embedded sample)")
    hint = legacy_home_hint(getattr(args, "home", None))
    if hint:
        print(hint, file=sys.stderr)
    home = resolve_home(getattr(args, "home", None))
    os.environ["ETALON_HOME"] = str(home.root)  # in-process Dagster runs resolve the same warehouse
    try:
        return _dispatch(args, home)
    except Refused as exc:
        print(f"etalon: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"etalon: {exc}", file=sys.stderr)
        return 1


def _dispatch(args: argparse.Namespace, home: Home) -> int:
    from app import cli_commands as c

    command = args.command
    if command == "demo":
        return c.demo(home)
    if command == "update":
        return c.update(home)
    if command == "evaluate":
        return c.evaluate(home, args.etalon, args.system, [args.stage])
    if command == "corpus":
        if args.corpus_command == "sources":
            from app import corpus_commands

            return corpus_commands.sources_list(home) if args.sources_command == "list" else \
                corpus_commands.sources_remove(home, args.name)
        if args.corpus_command == "ingest":
            return c.corpus_ingest(home, args.paths, sample=args.sample, update=not args.no_update)
        if args.corpus_command == "refresh":
            from app import corpus_commands

            return corpus_commands.refresh(home, args.names, follow=not args.no_update)
        return c.corpus_show(home, args.citation, args.jurisdiction)
    if command == "status":
        return c.status(home)
    if command == "show":
        return c.show(home, args.code)
    if command == "cite":
        return c.cite(home, args.file, args.jurisdiction, args.resolve)
    if command == "sign":
        return c.sign(home, args.code, args.by)
    if command == "answers":
        return c.answers_import(home, args.file, args.system, update=not args.no_update)
    if command == "review":
        if args.review_command == "list":
            return c.review_list(home, as_json=args.json)
        if args.review_command == "decide":
            return c.review_decide(home, args.id, args.value, args.by, args.note)
        if args.review_command == "disagree":
            return c.review_disagree(home, args.id, args.by, args.note)
        if args.review_command == "undo":
            return c.review_undo(home, args.decision_id, args.by)
        return c.review_approve(home, args.system, args.code, args.by)
    if command in ("serve", "users"):
        from app.web import commands as w

        return w.serve(home, args.host, args.port) if command == "serve" else w.users_command(home, args)
    raise AssertionError(command)


def print_json_lines(records: Sequence[dict[str, object]]) -> None:
    for record in records:
        print(json.dumps(record, ensure_ascii=False))


if __name__ == "__main__":
    sys.exit(main())
