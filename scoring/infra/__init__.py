"""The request path's machinery, which knows no Boulmous word: pages kept in the cache
(pagecache), pieces of a page kept in the process (fragments), the query compiled once
(compiled), rows copied in bulk (bulk), long work off the request (jobs), what one address
may do over and over (throttles), the preview image of a shared result (preview), a link
as a QR code (qr), and an answer's version as its ETag (etags).

It imports nothing of the contexts nor of common/ (pyproject.toml's import contracts): what
it keeps or draws, the contexts hand it. The domain's shared words are common/'s."""
