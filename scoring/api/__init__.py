"""The read API, version 1 (docs/api.md): clubs, seasons' standings, games, players and
nights as JSON, documented by the OpenAPI document it generates. It stands above clubs and
the table, and reads through their pages and services as their views do, with the same
rights (scoring/common/rights.py)."""
