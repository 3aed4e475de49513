"""A club's events (issue 41): championships, tournaments and cups over rounds and nights,
seated by the standings (the engine's scoring/engine/events.py), with their entries, ranking
and final. docs/events.md says how an organiser runs one."""
