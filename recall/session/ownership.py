"""Who is drilling a session, and when a session left open may be resumed.

A session belongs to the process drilling it (:class:`Owner`: host and process id, recorded in
the store); each review is its heartbeat. A session that never ended is offered for resuming
only when that owner is gone (:func:`owner_gone`): on this machine, its process no longer runs;
on another, it has been silent for :data:`SILENT_OWNER`. Leaving the app mid-session lets go of
it, so the next window offers it at once. The card a session shows is claimed the same way
(:func:`claim_gone` says when a claim no longer stands), so two windows never answer one card at
once. Taking a session over is a compare-and-set in the store
(:meth:`recall.store.Store.claim_session`), so of two windows resuming it at once, one gets it.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from recall.store import CardClaim, SessionInfo, Store

#: An unfinished session idle for longer than this is not offered for resuming.
RESUME_WINDOW = timedelta(hours=12)
#: A session held by a process on another machine is offered for resuming once that process
#: has recorded no review for this long (its process cannot be looked up from here).
SILENT_OWNER = timedelta(minutes=30)
#: A card claimed this long ago may be shown elsewhere even if its claimant looks alive (a pid
#: reused after a crash, a machine that vanished): a crash never locks a card for longer. The
#: claimant renews its claim when its clock resumes after a pause.
CLAIM_EXPIRY = timedelta(minutes=15)


@dataclass(frozen=True)
class Owner:
    """The process drilling a session: the machine's host name and the process id."""

    host: str
    pid: int

    @classmethod
    def this_process(cls) -> Owner:
        return cls(socket.gethostname()[:255], os.getpid())  # the column holds 255

    def as_tuple(self) -> tuple[str, int]:
        return (self.host, self.pid)


def pid_alive(pid: int) -> bool | None:
    """Whether a process with this id runs on this machine; ``None`` when it cannot be told
    (on Windows ``os.kill`` would end the process rather than probe it)."""
    if pid == os.getpid():
        return True
    if pid <= 0:
        return False
    if sys.platform == "win32":
        return None
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, and belongs to another user
    except OSError:
        return None
    return True


def owner_gone(
    info: SessionInfo,
    now: datetime,
    here: Owner,
    alive: Callable[[int], bool | None] = pid_alive,
) -> bool:
    """Whether nobody is drilling an unfinished session any more, so it may be resumed: it has
    no owner (let go of, or from before owners were recorded), its owner on this machine no
    longer runs, or its owner elsewhere (or one whose process cannot be looked up) has been
    silent for :data:`SILENT_OWNER`. A process id reused after a crash looks alive: that
    session waits until :data:`RESUME_WINDOW` has passed."""
    host, pid = info.owner
    if host is None or pid is None:
        return True
    if host == here.host:
        running = alive(pid)
        if running is not None:
            return not running
    return now - info.last_active_at > SILENT_OWNER


def claim_gone(
    claim: CardClaim,
    now: datetime,
    here: Owner,
    alive: Callable[[int], bool | None] = pid_alive,
) -> bool:
    """Whether another session's claim on a card no longer stands, so this window may show the
    card: its owner process on this machine no longer runs, or the claim is older than
    :data:`CLAIM_EXPIRY` (whoever holds it)."""
    if now - claim.claimed_at > CLAIM_EXPIRY:
        return True
    return claim.owner_host == here.host and alive(claim.owner_pid) is False


def latest_resumable(
    store: Store,
    now: datetime,
    here: Owner,
    alive: Callable[[int], bool | None] = pid_alive,
) -> SessionInfo | None:
    """The latest session left open that nobody is drilling, active within
    :data:`RESUME_WINDOW` (a session still running in another window is not offered)."""
    for info in store.unfinished_sessions(newer_than=now - RESUME_WINDOW):
        if owner_gone(info, now, here, alive):
            return info
    return None


def resumable(
    store: Store,
    session_id: int,
    now: datetime,
    here: Owner,
    alive: Callable[[int], bool | None] = pid_alive,
) -> SessionInfo | None:
    """Session ``session_id``, if it may be resumed: not ended, and nobody drilling it."""
    info = store.session(session_id)
    if info.ended_at is not None or not owner_gone(info, now, here, alive):
        return None
    return info


__all__ = [
    "CLAIM_EXPIRY",
    "RESUME_WINDOW",
    "SILENT_OWNER",
    "Owner",
    "claim_gone",
    "latest_resumable",
    "owner_gone",
    "pid_alive",
    "resumable",
]
