"""Connectors to the official services: each a kind of corpus source, fetched into a local mirror.

The network code of corpus/ lives here and nowhere else: :mod:`corpus.remote.http` (the one client: rate
limit, retries with Retry-After, conditional GET, deadline), :mod:`corpus.remote.mirror` (the mirror folder and
its cursor, which a killed run resumes from), and one module per service: :mod:`~corpus.remote.index` (an HTTP
index of URLs a person keeps), :mod:`~corpus.remote.legislatie` (the Romanian Ministry of Justice's SOAP web
service), :mod:`~corpus.remote.pravo` (consolidated texts of the Russian official legal portal),
:mod:`~corpus.remote.publication` (the Russian official publication portal's daily lists) and
:mod:`~corpus.remote.akn` (Akoma Ntoso from a FRBR-addressed service). corpus.sources registers each as a kind;
the readers (corpus.ingest) then read the mirror like any folder.
"""

from __future__ import annotations

from corpus.remote.settings import Connector

CONNECTORS: dict[str, Connector] = {}


def connector(c: Connector) -> Connector:
    CONNECTORS[c.name] = c
    return c


def _load() -> None:
    from corpus.remote import akn, legislatie, pravo, publication

    for module in (legislatie, pravo, publication, akn):
        connector(module.CONNECTOR)


_load()
