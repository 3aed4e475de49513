# tests/load holds the load test's tools (locust, run.sh, report.py), not tests: pytest
# collects nothing here, and never imports locust (whose gevent patches the standard library).
collect_ignore_glob = ["*.py"]
