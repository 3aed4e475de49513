"""The mail a member asks his club for (scoring/clubs/mail.py): his choice, and the link in
each mail that stops it without logging in."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ...common.http import HtmxHttpRequest
from ...common.rights import Action
from .. import mail
from ..access import with_club
from ..forms import MailChoiceForm
from ..models import Club, MailChoice, Member


@require_http_methods(["GET", "HEAD", "POST"])
@with_club(Action.SEE_CLUB)
def club_mail(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """A member with an account chooses what the club mails him: his own choice, so he must
    be the club's member himself (an admin cannot choose it for him). An admin sees there
    the club's mail that the mail server refused: waiting for its next try, or given up."""
    if member is None or member.user_id is None:
        raise PermissionDenied
    address = mail.address_of(member)
    choice = MailChoice.objects.filter(member=member).first()
    admin = member.role == Member.Role.ADMIN
    initial = (
        {"nights": choice.nights, "seasons": choice.seasons, "disputes": choice.disputes}
        if choice
        else {}
    )
    status = 200
    if request.method == "POST":
        form = MailChoiceForm(request.POST, address=address, admin=admin)
        if form.is_valid():
            mail.choose(
                member_id=member.pk,
                nights=form.cleaned_data["nights"],
                seasons=form.cleaned_data["seasons"],
                disputes=form.cleaned_data.get("disputes", False),
                language=translation.get_language() or "en",
                origin=request.build_absolute_uri("/").removesuffix("/"),
            )
            return redirect(reverse("club_mail", args=[club.slug]) + "?saved=1")
        status = 422
    else:
        form = MailChoiceForm(initial=initial, address=address, admin=admin)
    context = {
        "club": club,
        "form": form,
        "address": address,
        "choice": choice,
        # The club's mail that did not go out, to its admins (issue 43.4).
        "failures": mail.failures(club) if admin else [],
        "saved": request.GET.get("saved") == "1" and request.method != "POST",
    }
    return render(request, "clubs/club_mail.html", context, status=status)


@csrf_exempt  # the signed token is the right; RFC 8058's one-click POST carries no cookie
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, what: str, token: str) -> HttpResponse:
    """The link at the foot of each mail: asked, then done (a GET changes nothing, so that a
    mail scanner that follows links unsubscribes nobody); a mail client's one-click POST
    (List-Unsubscribe-Post) is done at once. A token this site did not sign is refused."""
    member_id = mail.read_token(token, what)
    found = (
        Member.objects.select_related("club").filter(pk=member_id).first()
        if member_id is not None
        else None
    )
    if found is None:
        return render(request, "clubs/mail_unsubscribe.html", {"invalid": True}, status=400)
    context = {"club": found.club, "player": found, "what": what, "token": token}
    if request.method == "POST":
        mail.unsubscribe(member_id=found.pk, what=what)
        context["done"] = True
    return render(request, "clubs/mail_unsubscribe.html", context)
