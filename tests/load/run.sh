#!/usr/bin/env bash
# `make loadtest`: 20 locust users for 60 s against gunicorn, as boulmous_site/gunicorn.py
# sets it up, on 127.0.0.1:8001, over a PostgreSQL database of 10,000 seeded games of 30
# hands; then the figures against the aims (tests/load/report.py); then each page at
# saturation with wrk, as a share of /healthz (tests/load/saturation.py). gunicorn is
# stopped on the way out, whatever happens.
#
# Environment (all optional):
#   LOAD_DATABASE_URL  postgres://postgres@127.0.0.1:5432/boulmous_load: made when missing,
#                      made anew when it holds fewer than LOAD_GAMES games, else kept
#   LOAD_FRESH=1       make the database anew all the same
#   LOAD_GAMES, LOAD_HANDS   10000 games of 30 hands
#   LOAD_PORT          8001
#   LOAD_REDIS_URL     redis://127.0.0.1:6379/5: the throttles' cache
#   LOAD_USERS, LOAD_TIME    20 users, 60s
#   BOULMOUS_LOAD_WAIT       each user's pause between actions, MIN,MAX s (0.5,1.5)
#   WEB_CONCURRENCY    gunicorn's workers (2 per CPU core, plus 1, unless given)
#   LOAD_KEEP=1        keep the work folder (locust's CSV files, gunicorn's log)
#   LOAD_SATURATION=0  leave out the saturation phase (wrk); LOAD_SATURATION_ONLY=1: only it
#   LOAD_SATURATION_GAMES, LOAD_SATURATION_TIME   100 games in turn, 10s a page
set -euo pipefail
cd "$(dirname "$0")/../.."

PY=.venv/bin/python
GAMES=${LOAD_GAMES:-10000}
HANDS=${LOAD_HANDS:-30}
PORT=${LOAD_PORT:-8001}
USERS=${LOAD_USERS:-20}
DURATION=${LOAD_TIME:-60s}

# Production settings, over plain http on the loopback.
unset DEBUG
export DATABASE_URL=${LOAD_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/boulmous_load}
SECRET_KEY=$("$PY" -c 'import secrets; print(secrets.token_urlsafe(50))')
export SECRET_KEY SECURE_SSL_REDIRECT=0 SECURE_COOKIES=0 ALLOWED_HOSTS=127.0.0.1
export BIND=127.0.0.1:$PORT
# Production mails through SMTP (the check boulmous.E002); no request here sends any.
export EMAIL_HOST=localhost
# The throttles' shared cache, which production settings require (check boulmous.E003).
export REDIS_URL=${LOAD_REDIS_URL:-redis://127.0.0.1:6379/5}

work=$(mktemp -d "${TMPDIR:-/tmp}/boulmous-load.XXXXXX")
gunicorn_pid=""

finish() {
  local status=$?
  if [[ -n $gunicorn_pid ]] && kill -0 "$gunicorn_pid" 2>/dev/null; then
    echo "--- stopping gunicorn (pid $gunicorn_pid)"
    kill -TERM "$gunicorn_pid" 2>/dev/null || true
    wait "$gunicorn_pid" 2>/dev/null || true
  fi
  if [[ $status -ne 0 && -f $work/gunicorn.log ]]; then
    echo "--- the end of gunicorn's log"
    tail -n 20 "$work/gunicorn.log"
  fi
  if [[ ${LOAD_KEEP:-0} == 1 ]]; then
    echo "(kept: $work)"
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The saturation phase drives wrk, a Debian package: installed where it is missing, as
# .ci/run installs Chromium.
if [[ ${LOAD_SATURATION:-1} != 0 ]] && ! command -v wrk >/dev/null; then
  echo "--- installing Debian's wrk"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

echo "--- the database: $DATABASE_URL"
fresh=$("$PY" - "$GAMES" "${LOAD_FRESH:-0}" <<'PY'
import os
import sys

import psycopg
from psycopg import conninfo, errors, sql

games, force = int(sys.argv[1]), sys.argv[2] == "1"
params = conninfo.conninfo_to_dict(os.environ["DATABASE_URL"])
try:
    with psycopg.connect(**params, connect_timeout=5) as conn:
        held = conn.execute("SELECT count(*) FROM scoring_game").fetchone()[0]
except (errors.InvalidCatalogName, errors.UndefinedTable):
    held = 0
except psycopg.OperationalError as error:
    if "does not exist" not in str(error):
        raise SystemExit(f"PostgreSQL does not answer: {error}") from None
    held = 0
name = params.pop("dbname")
if held >= games and not force:
    print(f"kept: it holds {held} games", file=sys.stderr)
    print(0)
    raise SystemExit
with psycopg.connect(**params, dbname="postgres", autocommit=True, connect_timeout=5) as conn:
    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
print(f"made anew (it held {held} games)", file=sys.stderr)
print(1)
PY
)
"$PY" manage.py migrate --no-input -v 0
if [[ $fresh == 1 ]]; then
  echo "--- seeding $GAMES games of $HANDS hands"
  "$PY" manage.py seed_games --games "$GAMES" --hands "$HANDS"
fi
"$PY" manage.py collectstatic --no-input -v 0

# The games the users open: 2,000 of the seeded ones, drawn once.
"$PY" manage.py shell -v 0 -c "
import random
from scoring.models import Game
ids = list(Game.objects.order_by('pk').values_list('public_id', flat=True)[:$GAMES])
print('\n'.join(random.Random(0).sample(ids, min(2000, len(ids)))))
" >"$work/ids.txt"
# The rights cookie of a phone that started the saturation phase's games: a scorer's.
"$PY" manage.py shell -v 0 -c "
from pathlib import Path
from scoring.common.rights import COOKIE, PhoneRights, cookie_value
ids = Path('$work/ids.txt').read_text().split()[:${LOAD_SATURATION_GAMES:-100}]
print(f'{COOKIE}={cookie_value(PhoneRights(dict.fromkeys(ids, 0)))}')
" >"$work/scorer_cookie.txt"

healthy() {
  "$PY" -c "
import sys, urllib.request
try:
    with urllib.request.urlopen('http://$BIND/healthz', timeout=2) as response:
        sys.exit(0 if response.status == 200 else 1)
except OSError:
    sys.exit(1)
"
}
if healthy; then
  echo "something already answers on $BIND: stop it, or set LOAD_PORT" >&2
  exit 1
fi

workers=$("$PY" -c "import runpy; print(runpy.run_path('boulmous_site/gunicorn.py')['workers'])")
echo "--- gunicorn on $BIND, $workers workers"
.venv/bin/gunicorn -c boulmous_site/gunicorn.py boulmous_site.wsgi >"$work/gunicorn.log" 2>&1 &
gunicorn_pid=$!
for _ in $(seq 60); do
  if healthy; then
    break
  fi
  if ! kill -0 "$gunicorn_pid" 2>/dev/null; then
    echo "gunicorn stopped before answering" >&2
    exit 1
  fi
  sleep 0.5
done
healthy || { echo "gunicorn does not answer /healthz after 30 s" >&2; exit 1; }

load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
set +e
locust_status=0
report_status=0
if [[ ${LOAD_SATURATION_ONLY:-0} != 1 ]]; then
  echo "--- locust: $USERS users for $DURATION ($(nproc) CPU cores, load average $(load) before)"
  BOULMOUS_LOAD_IDS="$work/ids.txt" .venv/bin/locust -f tests/load/locustfile.py --headless \
    -u "$USERS" -r "$USERS" -t "$DURATION" --host "http://$BIND" --only-summary \
    --csv "$work/locust"
  locust_status=$?
  echo "(load average $(load) after: other work on this machine slows every figure)"
  "$PY" tests/load/report.py "$work/locust_stats.csv" "$workers"
  report_status=$?
fi
saturation_status=0
if [[ ${LOAD_SATURATION:-1} != 0 ]]; then
  "$PY" tests/load/saturation.py "http://$BIND" "$work/ids.txt" "$(cat "$work/scorer_cookie.txt")"
  saturation_status=$?
fi
set -e
[[ $locust_status -eq 0 && $report_status -eq 0 && $saturation_status -eq 0 ]]
