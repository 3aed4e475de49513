"""The domain's shared words, which every context speaks alike: who may do what (rights,
and the request that carries them: http), names, how values are said (words, clock, share),
the form fields and the one-time token of each form that makes something (forms, once, and
its model). The request path's machinery is infra/'s."""
