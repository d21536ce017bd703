"""``cardroom admin``: the operator's console.

    $ cardroom admin create-user boss --admin        # asks for the password
    $ printf '%s\n' "$PW" | cardroom admin create-user boss --admin   # a script
    $ cardroom admin grant alice 12.50 --reason "lost to a server restart"
    $ cardroom admin remove alice 5 --reason "duplicate grant"
    $ cardroom admin suspend alice --reason "collusion"
    $ cardroom admin reinstate alice --reason "appeal upheld"

Whoever runs these already holds the database, so they act as the console operator
(recorded in the admin log with no admin user). Amounts are dollars, like 12.50.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from cardroom.cli.db_cmd import add_database_option, open_room
from cardroom.cli.errors import CommandError
from cardroom.service import accounts, money
from cardroom.service.admin import CONSOLE
from cardroom.service.amounts import format_cents, parse_dollars
from cardroom.service.errors import InvalidInput
from cardroom.store.models import Role


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "admin",
        help="create users, grant or remove money, suspend users",
        description="Operator commands, run on the server with access to the database.",
    )
    actions = parser.add_subparsers(dest="admin_action", required=True, metavar="ACTION")

    create = actions.add_parser("create-user", help="create a user (use --admin for an admin)")
    create.add_argument("name")
    create.add_argument("--admin", action="store_true", help="give the user the admin role")
    create.add_argument(
        "--password",
        help="the password (visible to other users of this machine: prefer being asked)",
    )
    create.add_argument("--reason", default="Created from the console")
    create.set_defaults(handler=run_create_user)

    for action, verb, handler in (
        ("grant", "give play money to", run_grant),
        ("remove", "take play money from", run_remove),
    ):
        move = actions.add_parser(action, help=f"{verb} a user, with a reason")
        move.add_argument("name")
        move.add_argument("amount", help="dollars, like 12.50")
        move.add_argument("--reason", required=True, help="kept in the ledger and the admin log")
        move.set_defaults(handler=handler)

    for action, description, handler in (
        ("suspend", "stop a user from signing in or acting", run_suspend),
        ("reinstate", "lift a suspension", run_reinstate),
    ):
        change = actions.add_parser(action, help=description)
        change.add_argument("name")
        change.add_argument("--reason", required=True, help="kept in the admin log")
        change.set_defaults(handler=handler)

    for action_parser in actions.choices.values():
        add_database_option(action_parser)


def run_create_user(args: argparse.Namespace) -> int:
    password = args.password if args.password is not None else ask_password()
    role = Role.ADMIN if args.admin else Role.PLAYER
    with open_room(args) as ctx:
        user = accounts.create_user(
            ctx, CONSOLE, args.name, password, role=role, reason=args.reason
        )
        balance = money.balance(ctx, user.id)
    print(f"Created {user.role.value} {user.name} with a balance of {format_cents(balance)}.")
    return 0


def ask_password() -> str:
    """In a terminal, asked twice without echo; otherwise the first line of standard
    input, so a script can pipe the password in without putting it on the command
    line, where other users of the machine could read it."""
    if not sys.stdin.isatty():
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            raise CommandError(
                "No password: pipe it in on the first line of standard input, give "
                "--password, or run this in a terminal to be asked for it."
            )
        return line
    password = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != password:
        raise CommandError("The two passwords differ; nothing was created.")
    return password


def _amount(text: str) -> int:
    try:
        return parse_dollars(text)
    except InvalidInput as exc:
        raise CommandError(exc.sentence) from None


def run_grant(args: argparse.Namespace) -> int:
    cents = _amount(args.amount)
    with open_room(args) as ctx:
        balance = money.grant(ctx, CONSOLE, args.name, cents, args.reason)
    print(f"Granted {format_cents(cents)} to {args.name}; balance now {format_cents(balance)}.")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    cents = _amount(args.amount)
    with open_room(args) as ctx:
        balance = money.remove(ctx, CONSOLE, args.name, cents, args.reason)
    print(f"Removed {format_cents(cents)} from {args.name}; balance now {format_cents(balance)}.")
    return 0


def run_suspend(args: argparse.Namespace) -> int:
    from cardroom.web import session_ends
    from cardroom.web.fanout import tell_servers

    with open_room(args) as ctx:
        user = accounts.suspend(ctx, CONSOLE, args.name, args.reason)
        # The servers close the user's sockets at once (on PostgreSQL).
        tell_servers(ctx, user.id, session_ends.suspended())
    print(f"Suspended {user.name}; their sessions have ended.")
    return 0


def run_reinstate(args: argparse.Namespace) -> int:
    with open_room(args) as ctx:
        user = accounts.reinstate(ctx, CONSOLE, args.name, args.reason)
    print(f"Reinstated {user.name}.")
    return 0
