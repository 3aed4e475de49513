"""What each page shows, laid out from the engine's results: one module per page, no rules."""
