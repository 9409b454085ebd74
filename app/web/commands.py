"""The bodies of `etalon serve` and `etalon users`."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys

from app import users
from app.web import security
from warehouse.home import Home


def serve(home: Home, host: str, port: int) -> int:
    import uvicorn

    from app.web.app import create_app

    if not security.is_loopback(host):
        print(f"etalon: serving on {host}, reachable from other machines: put it behind a TLS proxy "
              "(docs/deploy.md) and set ETALON_WEB_SECURE_COOKIES=1", file=sys.stderr)
    if security.proxy_header():
        print(f"etalon: trusting the {security.proxy_header()} header from "
              f"{os.environ.get(security.TRUSTED_PROXIES_ENV, '127.0.0.1,::1')}", file=sys.stderr)
    elif not users.load(home.root):
        print("etalon: no account yet: add one with `etalon users add LOGIN --name NAME --role author`",
              file=sys.stderr)
    app = create_app(home)
    print(f"etalon: the workbench for {home.root} at http://{host}:{port}/", file=sys.stderr)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False, proxy_headers=False)
    finally:
        app.state.bench.refresher.stop()
    return 0


def users_command(home: Home, args: argparse.Namespace) -> int:
    if args.users_command == "add":
        password = _password(args.password_stdin)
        user = users.add(home.root, args.login, args.name, args.role, password)
        print(f"added {user.login} ({user.name}): {', '.join(user.roles)}")
        return 0
    if args.users_command == "list":
        for user in users.load(home.root).values():
            print(json.dumps(user.public(), ensure_ascii=False))
        return 0
    user = users.disable(home.root, args.login)
    print(f"disabled {user.login} ({user.name}); their records keep their name")
    return 0


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("password: ")
    if first != getpass.getpass("again: "):
        raise users.UserError("the two passwords differ")
    return first
