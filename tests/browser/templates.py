"""Which template the live server rendered for a visit, to check some languages once per
template rather than once per page: a template's other pages differ by their data, which
the language checked on every page covers.

The live server runs in the tests' process, where Django's test signal ``template_rendered``
reaches them."""

from contextlib import contextmanager

from django.test.signals import template_rendered


class Templates:
    """The templates rendered since the last ``forget()``: a test forgets before each visit,
    then asks which template the visit rendered first (its page's own; base.html and the
    widgets come after it)."""

    def __init__(self):
        self.rendered = []

    def forget(self):
        self.rendered.clear()

    def first(self, otherwise):
        """The visit's page template; ``otherwise`` for a visit that rendered none (a page
        answered from a cache), which then counts as a template of its own."""
        return self.rendered[0] if self.rendered else otherwise


@contextmanager
def rendered_templates():
    """A Templates kept up to date while the block runs."""
    templates = Templates()

    def keep(sender, template, **kwargs):
        templates.rendered.append(template.name)

    template_rendered.connect(keep, dispatch_uid="tests.browser.templates")
    try:
        yield templates
    finally:
        template_rendered.disconnect(dispatch_uid="tests.browser.templates")
