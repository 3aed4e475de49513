"""The site's own number formats, where Django's locale leaves one out
(``FORMAT_MODULE_PATH``): Django reads the rest from its own."""
