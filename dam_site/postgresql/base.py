"""Django's PostgreSQL backend with a health check that costs no round trip.

Django checks a kept connection at the start of each request (``conn_health_checks``) by
sending ``SELECT 1``.  On a page that is otherwise kept (the practice game's: one statement
of its own) that is a second round trip to the database and about a tenth of the request.

An idle connection hears nothing from the server unless the server is ending it (a restart,
``pg_terminate_backend``, an idle timeout: a FATAL message, then the end of the stream); the
site listens for no notifications.  So a connection whose socket has anything to read while
idle is closed and opened afresh, and one that libpq already knows to be broken or that was
left inside a failed transaction is too.  At worst a sound connection is replaced.  What
neither check finds quickly, a server host that vanished without closing its sockets, is
left to the statement's own error, as it was with ``SELECT 1``.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed:
            return False
        pgconn = connection.pgconn
        if pgconn.status != pq.ConnStatus.OK or pgconn.transaction_status not in (
                pq.TransactionStatus.IDLE, pq.TransactionStatus.INTRANS):
            return False
        poll = select.poll()
        poll.register(pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
        return not poll.poll(0)
