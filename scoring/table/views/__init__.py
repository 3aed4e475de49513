"""Thin views, by context: the table (games and hands), the referee, the records."""
