"""gunicorn's settings: ``gunicorn -c boulmous_site/gunicorn.py boulmous_site.wsgi`` (make serve).

Read from the environment (docs/deploy.md):

- ``WEB_CONCURRENCY``: the number of workers; 2 per CPU core this process may use, plus 1,
  unless given.
- ``BIND``: where to listen (``host:port``, or ``unix:/run/boulmous.sock``); else
  ``127.0.0.1:$PORT``, ``PORT`` being 8000 unless given. Only the loopback by default:
  nginx, in front, is what the world talks to.
- ``FORWARDED_ALLOW_IPS``: the proxies whose ``X-Forwarded-Proto`` gunicorn believes;
  ``127.0.0.1`` unless given.

Workers are sync: each serves one request at a time, so a slow client must never hold
one. nginx buffers every request and response whole (proxy_buffering), and gunicorn only
ever talks to it.
"""

import os


def _count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{name}={value!r}: use a whole number of at least 1")
    return int(value)


def _cores() -> int:
    """The CPU cores this process may run on (its affinity, as taskset or a cpuset set it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


wsgi_app = "boulmous_site.wsgi"
workers = _count("WEB_CONCURRENCY", 2 * _cores() + 1)
worker_class = "sync"
bind = [os.environ.get("BIND", "").strip() or f"127.0.0.1:{_count('PORT', 8000)}"]

# A request that takes more than 30 s kills its worker (and the client gets a 502 from
# nginx); on restart, workers have 30 s to finish what they serve. An idle kept-alive
# connection would be closed after 5 s, but sync workers keep none: each connection
# from nginx carries one request.
timeout = 30
graceful_timeout = 30
keepalive = 5

forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "").strip() or "127.0.0.1"

# Each worker is replaced after 50,000 requests, give or take 5,000 so that they are not all
# replaced at once: whatever a long-lived process may leak is bounded. Not fewer: a worker
# restarting costs about a second of CPU (Django imported again), which at 1,000 requests
# each would take a third of the live view's unchanged answers (docs/deploy.md).
max_requests = 50_000
max_requests_jitter = 5_000

# One line per request on standard output: the peer (nginx), the phone's address as nginx
# saw it (X-Forwarded-For), time, request line, status, bytes, referrer, user agent, and
# the time taken in milliseconds.
# gunicorn's own messages, and Django's warnings and errors, go to standard error.
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s %({x-forwarded-for}i)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
