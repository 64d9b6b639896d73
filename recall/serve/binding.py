"""Where ``recall serve`` listens and the names a browser may use to reach it.

Loopback (the default) answers to ``127.0.0.1`` and ``localhost`` (or ``::1``); a named or
numeric address to itself and what it resolves to; the wildcard (``0.0.0.0``) to the machine's
names and addresses, and its printed address is the one a tablet on the network would use. These
names are the gate's ``Host`` allowlist (:func:`recall.serve.gate.host_header_names`). The
socket is bound here, before the server starts, so ``--port 0`` prints the port it got.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Binding:
    """Where the server listens and the names it answers to."""

    host: str
    #: The name the printed address uses.
    shown: str
    #: Every name and address a browser may use to reach it (the ``Host`` allowlist).
    names: frozenset[str]
    loopback: bool


def is_loopback(host: str) -> bool:
    """``host`` (a name or an address) is this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        addresses = _addresses_of(host)
        return bool(addresses) and all(ipaddress.ip_address(a).is_loopback for a in addresses)


def binding_for(host: str) -> Binding:
    """The :class:`Binding` for ``--host``: the names a browser may use for it."""
    host = host.strip("[]")
    loopback = is_loopback(host)
    if loopback:
        v6 = ":" in host
        names = {host, "localhost", "::1" if v6 else "127.0.0.1"}
        return Binding(host, host, frozenset(names), True)
    try:
        wildcard = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        wildcard = False
    if not wildcard:
        return Binding(host, host, frozenset({host, *_addresses_of(host)}), False)
    machine = socket.gethostname()
    outbound = _outbound_address()
    names = {"localhost", "127.0.0.1", "::1", machine, socket.getfqdn(), *_addresses_of(machine)}
    if outbound:
        names.add(outbound)
    return Binding(host, outbound or machine, frozenset(n for n in names if n), False)


def _addresses_of(name: str) -> set[str]:
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    except (OSError, UnicodeError):
        return set()


def _outbound_address() -> str | None:
    """The address this machine uses to reach its network (what a tablet would connect to):
    a UDP socket "connected" to a private address sends nothing but picks the route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (``port`` 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    if host == "localhost":
        family = socket.AF_INET
        host = "127.0.0.1"
    return socket.create_server((host, port), family=family, backlog=64)


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context
