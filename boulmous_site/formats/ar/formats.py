"""Arabic: thousands grouped by three, as en and fr group them, with the Arabic format's own
separator (``20.000`` beside the decimal ``2,6``). Django's ``ar`` gives the separator but
no grouping, so a number asked to be grouped (``number_format(..., force_grouping=True)``,
an import's 20,000 games) came out whole."""

NUMBER_GROUPING = 3
