"""A federation's pages: the list, a new one, its page with its ranking (CSV, PDF), its
settings, admins and invitations, its deletion; and a club's side of it, where the club's
admin answers an invitation (leaving is an admin action of the club's,
scoring/clubs/views/actions.py). Rights by the policy (scoring/common/rights.py), through
:func:`.access.with_federation` and the club's ``with_club``.

Removing an admin and deleting the federation ask, then do, on the club's admin actions'
page (clubs/admin_action.html, its :class:`Asked`), under the federation's crumb."""

from datetime import date

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common.http import HtmxHttpRequest, attachment
from ...common.names import sorted_by_name
from ...common.once import made_before, make_once
from ...common.rights import Action
from ...common.words import isolate
from ..access import user_id_of, with_club
from ..models import Club, Federation, FederationClub, Member
from ..views.actions import Asked, listed, paragraph, said
from . import services
from .access import federation_may, sees_full_names, with_federation
from .forms import (
    AddAdminForm,
    AnswerForm,
    FederationSettingsForm,
    InviteClubForm,
    NewFederationForm,
)
from .pages import formula_explained, ranking_csv, ranking_pdf, ranking_rows
from .ranking import Ranking, federation_ranking, member_clubs


def today() -> date:
    """The ranking's day: today, in the site's zone (UTC), the same for every reader."""
    return timezone.now().date()


REFUSED = {
    "already a member": lambda: gettext("This club is a member of the federation already."),
    "already invited": lambda: gettext("This club is invited already: its admin answers."),
    "not invited": lambda: gettext("This invitation was answered already."),
    "not a member": lambda: gettext("The club is no member of this federation."),
    "already an admin": lambda: gettext("This account is an admin of the federation already."),
}


@require_safe
def federations(request: HttpRequest) -> HttpResponse:
    """The federations of the request's account (run by it, or of its clubs), and the public
    ones."""
    user_id = user_id_of(request)
    mine: list[Federation] = []
    if user_id is not None:
        of_clubs = Q(
            clubs__club__members__user=user_id,
            clubs__joined_at__isnull=False,
            clubs__left_at__isnull=True,
        )
        mine = list(Federation.objects.filter(Q(admins=user_id) | of_clubs).distinct())
    public = [one for one in Federation.objects.filter(public=True) if one not in mine]
    context = {
        "mine": sorted_by_name(mine, lambda one: one.name),
        "public": sorted_by_name(public, lambda one: one.name),
    }
    return render(request, "clubs/federations.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def new_federation(request: HttpRequest) -> HttpResponse:
    form = NewFederationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user_id = user_id_of(request)
        assert user_id is not None  # signed in: login_required
        try:
            made = make_once(
                data["once"],
                lambda: services.create_federation(
                    name=data["name"],
                    slug=data["slug"],
                    public=data["public"],
                    admin_user_id=user_id,
                ),
                lambda federation: reverse("federation", args=[federation.slug]),
            )
        except IntegrityError:  # the address is taken (the one unique value given)
            form.add_error("slug", gettext("Another federation has this address: choose another."))
        else:
            return made_before(request, made) if made.again else redirect(made.address)
    return render(
        request, "clubs/federation_form.html", {"form": form}, status=422 if form.errors else 200
    )


def _ranking(federation: Federation, user_id: int | None) -> Ranking:
    return federation_ranking(federation, today(), public=not sees_full_names(federation, user_id))


def _page(
    request: HttpRequest,
    federation: Federation,
    user_id: int | None,
    *,
    invite: InviteClubForm | None = None,
    status: int = 200,
) -> HttpResponse:
    ranking = _ranking(federation, user_id)
    is_admin = federation_may(Action.RUN_FEDERATION, federation, user_id)
    invited = (
        list(
            FederationClub.objects.filter(
                federation=federation, joined_at__isnull=True, left_at__isnull=True
            ).select_related("club")
        )
        if is_admin
        else []
    )
    context = {
        "federation": federation,
        "ranking": ranking,
        "rows": ranking_rows(ranking),
        "formula": formula_explained(),
        "is_admin": is_admin,
        "invited": invited,
        "invite_form": invite or (InviteClubForm() if is_admin else None),
    }
    return render(request, "clubs/federation.html", context, status=status)


@require_safe
@with_federation(Action.SEE_FEDERATION)
def federation(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    return _page(request, federation, user_id)


@require_safe
@with_federation(Action.SEE_FEDERATION)
def federation_csv(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    # An export is for the public: names as the public sees them (scoring/clubs/names.py).
    ranking = federation_ranking(federation, today(), public=True)
    response = HttpResponse(
        ranking_csv(ranking_rows(ranking)), content_type="text/csv; charset=utf-8"
    )
    attachment(response, f"{federation.slug}-ranking.csv")
    return response


@require_safe
@with_federation(Action.SEE_FEDERATION)
def federation_pdf(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    ranking = _ranking(federation, user_id)
    response = HttpResponse(
        ranking_pdf(federation, ranking, ranking_rows(ranking)), content_type="application/pdf"
    )
    attachment(response, f"{federation.slug}-ranking.pdf")
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@with_federation(Action.RUN_FEDERATION)
def federation_settings(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    initial = {"name": federation.name, "public": federation.public}
    form = FederationSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.update_federation(
            federation_id=federation.pk,
            name=form.cleaned_data["name"],
            public=form.cleaned_data["public"],
        )
        messages.success(request, gettext("The federation's settings are saved."))
        return redirect("federation", federation=federation.slug)
    context = {"form": form, "federation": federation}
    return render(
        request, "clubs/federation_form.html", context, status=422 if form.errors else 200
    )


@require_POST
@with_federation(Action.RUN_FEDERATION)
def federation_invite(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    """A club invited by its address; its admin accepts or declines on the club's side."""
    form = InviteClubForm(request.POST)
    if form.is_valid():
        club: Club = form.cleaned_data["club"]
        try:
            services.invite_club(federation=federation, club=club, by=request.actor)
        except services.FederationRefused as refused:
            form.add_error("club", REFUSED[refused.why]())
        else:
            messages.success(
                request,
                gettext("%(club)s is invited: its admin accepts or declines on its page.")
                % {"club": isolate(club.name)},
            )
            return redirect("federation", federation=federation.slug)
    return _page(request, federation, user_id, invite=form, status=422)


# Its admins, and its deletion.


def _admins_page(
    request: HttpRequest,
    federation: Federation,
    user_id: int | None,
    *,
    form: AddAdminForm | None = None,
    status: int = 200,
) -> HttpResponse:
    admins = list(federation.admins.order_by("username", "pk"))
    context = {
        "federation": federation,
        "admins": admins,
        "form": form or AddAdminForm(),
        "user_id": user_id,
        "clubs": member_clubs(federation),
    }
    return render(request, "clubs/federation_admins.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@with_federation(Action.RUN_FEDERATION)
def federation_admins(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    """Its admins, another one added by his username; and the
    way to delete it."""
    if request.method != "POST":
        return _admins_page(request, federation, user_id)
    form = AddAdminForm(request.POST)
    if form.is_valid():
        added = form.cleaned_data["account"]
        try:
            services.add_admin(federation_id=federation.pk, user_id=added)
        except services.FederationRefused as refused:
            form.add_error("account", REFUSED[refused.why]())
        except ObjectDoesNotExist:  # the account was deleted meanwhile
            form.add_error("account", gettext("No account has this username."))
        else:
            name = get_user_model().objects.get(pk=added).get_username()
            messages.success(
                request,
                gettext("%(name)s is now an admin of the federation.") % {"name": isolate(name)},
            )
            return redirect("federation_admins", federation=federation.slug)
    return _admins_page(request, federation, user_id, form=form, status=422)


def _asked(request: HttpRequest, federation: Federation, asked: Asked, status: int) -> HttpResponse:
    context = {"federation": federation, "asked": asked, "form": None}
    return render(request, "clubs/admin_action.html", context, status=status)


def _admins(federation: Federation) -> str:
    return reverse("federation_admins", args=[federation.slug])


def _remove_asked(federation: Federation, name: str, last: bool, itself: bool) -> Asked:
    refusal = ""
    if last:
        refusal = said(
            gettext("<bdi>%(name)s</bdi> is the federation's only admin: add another admin first."),
            name=name,
        )
    says = [
        paragraph(
            said(
                gettext(
                    "<bdi>%(name)s</bdi> keeps his account and his clubs, and no longer runs "
                    "the federation: its settings, its admins, its invitations."
                ),
                name=name,
            ),
            *([gettext("That is you: you will no longer run it.")] if itself else []),
        ),
        paragraph(gettext("Another admin may add him again.")),
    ]
    return Asked(
        title=said(gettext("%(name)s: remove an admin"), name=isolate(federation.name)),
        heading=said(gettext("Remove <bdi>%(name)s</bdi> as an admin?"), name=name),
        crumb=(_admins(federation), gettext("Admins")),
        says=says,
        button=gettext("Remove the admin"),
        named=name,
        cancel=_admins(federation),
        refusal=refusal,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@with_federation(Action.RUN_FEDERATION)
def federation_admin_remove(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None, admin_id: int
) -> HttpResponse:
    """An admin removed, asked first; never the last one."""
    admin = get_object_or_404(federation.admins, pk=admin_id)
    name = admin.get_username()
    if request.method == "POST":
        try:
            services.remove_admin(federation_id=federation.pk, user_id=admin.pk)
        except services.FederationRefused as refused:
            if refused.why == "not an admin":  # removed meanwhile, or sent twice
                raise Http404 from None
        else:
            messages.success(
                request,
                gettext("%(name)s is no longer an admin of the federation.")
                % {"name": isolate(name)},
            )
            if admin.pk == user_id:
                return redirect("federations")
            return redirect("federation_admins", federation=federation.slug)
    last = federation.admins.count() == 1
    asked = _remove_asked(federation, name, last, admin.pk == user_id)
    return _asked(request, federation, asked, 409 if request.method == "POST" else 200)


def _delete_asked(federation: Federation) -> Asked:
    clubs = member_clubs(federation)
    invited = FederationClub.objects.filter(
        federation=federation, joined_at__isnull=True, left_at__isnull=True
    ).count()
    refusal = ""
    if clubs:
        refusal = said(
            ngettext(
                "%(counter)s club is still a member (%(clubs)s): the federation can be deleted "
                "once none is left. Each club's admin makes it leave, on the club's Federations "
                "page.",
                "%(counter)s clubs are still members (%(clubs)s): the federation can be deleted "
                "once none is left. Each club's admin makes it leave, on the club's Federations "
                "page.",
                len(clubs),
            ),
            counter=len(clubs),
            clubs=", ".join(isolate(club.name) for club in clubs),
        )
    going = [
        gettext("its ranking, with its page, its CSV, its PDF and its API;"),
        gettext("its admins' right to run it;"),
        said(
            ngettext(
                "its %(counter)s invitation waiting for a club's answer.",
                "its %(counter)s invitations waiting for a club's answer.",
                invited,
            ),
            counter=invited,
        ),
    ]
    return Asked(
        title=said(gettext("%(name)s: delete the federation"), name=isolate(federation.name)),
        heading=said(gettext("Delete the federation <bdi>%(name)s</bdi>?"), name=federation.name),
        crumb=(_admins(federation), gettext("Admins")),
        says=[
            paragraph(gettext("These go with it:")),
            listed(*going),
            paragraph(
                gettext(
                    "The clubs' nights, games and standings stay as they are, and each club's "
                    "history keeps its lines about the federation."
                )
            ),
        ],
        button=gettext("Delete the federation"),
        cancel=_admins(federation),
        undone=True,
        refusal=refusal,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@with_federation(Action.RUN_FEDERATION)
def federation_delete(
    request: HtmxHttpRequest, federation: Federation, user_id: int | None
) -> HttpResponse:
    """The federation deleted, asked first; refused while a club is a member."""
    if request.method == "POST":
        try:
            name = services.delete_federation(federation_id=federation.pk)
        except ObjectDoesNotExist:  # deleted meanwhile
            raise Http404 from None
        except services.FederationRefused:
            return _asked(request, federation, _delete_asked(federation), 409)
        messages.success(
            request, gettext("The federation %(name)s is deleted.") % {"name": isolate(name)}
        )
        return redirect("federations")
    return _asked(request, federation, _delete_asked(federation), 200)


# The club's side: its admin answers (leaving: scoring/clubs/views/actions.py).


def _club_rows(club: Club) -> list[FederationClub]:
    return list(
        FederationClub.objects.filter(club=club, left_at__isnull=True).select_related("federation")
    )


@require_safe
@with_club(Action.RUN_CLUB)
def club_federations(request: HtmxHttpRequest, club: Club, member: Member | None) -> HttpResponse:
    """The club's federations and its invitations, for its admin."""
    rows = _club_rows(club)
    context = {
        "club": club,
        "invitations": [row for row in rows if row.joined_at is None],
        "memberships": [row for row in rows if row.joined_at is not None],
    }
    return render(request, "clubs/club_federations.html", context)


@require_POST
@with_club(Action.RUN_CLUB)
def club_federation_answer(
    request: HtmxHttpRequest, club: Club, member: Member | None, federation: str
) -> HttpResponse:
    found = get_object_or_404(Federation, slug=federation)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Accept or decline the invitation."))
        return redirect("club_federations", club=club.slug)
    accept = form.cleaned_data["answer"] == "accept"
    try:
        services.answer_invitation(club=club, federation=found, accept=accept, by=request.actor)
    except services.FederationRefused as refused:
        messages.info(request, REFUSED[refused.why]())
    else:
        said = (
            gettext("The club joined %(federation)s.")
            if accept
            else gettext("The invitation of %(federation)s is declined.")
        )
        messages.success(request, said % {"federation": isolate(found.name)})
    return redirect("club_federations", club=club.slug)
