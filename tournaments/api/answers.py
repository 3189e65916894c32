"""What each answer of the public API holds, as plain JSON-ready data: the same rows and figures the public pages
show (the same standings, the same bracket, the same matches), read through the same switches.

Every answer is the public's: a signed-in director's drafts and hidden pages are not in it (the API is cached
for all under one key, and a feed must not change with who happens to be signed in).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse

from rules.teams import TABLE_POINTS
from tournaments.api.boards import duplicate_standings
from tournaments.competition import access
from tournaments.duplicate.visibility import shown_deals
from tournaments.league.results import results as team_results
from tournaments.league.results import zone_table
from tournaments.models import Deal, Match, Pair, Round, TeamMatch, Tournament
from tournaments.pairing.bracket import bracket_picture, final_placings
from tournaments.standings.compute import compute_standings, tie_break_codes
from tournaments.teams.models import team_event

PUBLIC = AnonymousUser()
SWITCHES = ("public_standings", "public_pairings", "public_results", "public_deal_log")


def the_tournament(slug: str, switch: str | None = None) -> Tournament:
    """The tournament the public may read (and whose page ``switch`` is on); else 404, as its page does."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.can_read_tournament(PUBLIC, tournament):
        raise Http404
    if switch is not None and not access.can_see_page(PUBLIC, tournament, switch):
        raise Http404
    return tournament


def shown(tournament: Tournament) -> dict[str, bool]:
    """Which parts the public may read: ``standings``, ``pairings``, ``results``, ``deal_log``."""
    return {s.removeprefix("public_"): access.can_see_page(PUBLIC, tournament, s) for s in SWITCHES}


def public_rounds(tournament: Tournament):
    return tournament.rounds.exclude(state=Round.State.DRAFT).order_by("number")


def pair_ref(pair: Pair | None) -> dict | None:
    return None if pair is None else {"id": pair.pk, "name": pair.name}


def pair_entry(pair: Pair) -> dict:
    return {
        "id": pair.pk,
        "name": pair.name,
        "players": [pair.player1.name, pair.player2.name],
        "club": pair.club,
        "seed": pair.seed,
        "withdrawn": pair.withdrawn,
    }


def tournament_summary(tournament: Tournament) -> dict:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "venue": tournament.venue,
        "start_date": tournament.start_date.isoformat() if tournament.start_date else None,
        "end_date": tournament.end_date.isoformat() if tournament.end_date else None,
        "format": tournament.format,
        "rounds_planned": tournament.rounds_planned,
        "finished": tournament.is_finished,
        "url": reverse("tournament", args=[tournament.slug]),
    }


def tournament_list() -> dict:
    rows = access.visible_tournaments(PUBLIC, Tournament.objects.order_by("-start_date", "name"))
    return {"tournaments": [tournament_summary(t) for t in rows]}


def tournament_detail(tournament: Tournament) -> dict:
    parts = shown(tournament)
    pairs = tournament.pairs.select_related("player1", "player2").order_by("seed", "name")
    rounds = round_list(tournament)["rounds"] if parts["pairings"] else []
    return {
        **tournament_summary(tournament),
        "public": parts,
        "has_bracket": parts["pairings"] and tournament.bracket_start is not None,
        "pairs": [pair_entry(p) for p in pairs],
        "rounds": rounds,
    }


def round_list(tournament: Tournament) -> dict:
    rounds = public_rounds(tournament)
    return {"rounds": [{"number": r.number, "state": r.state} for r in rounds]}


def match_entry(match: Match, *, results: bool, deal_log: bool) -> dict:
    """A match as its round's page lists it; its levels and winner only when the results are public."""
    out = {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table,
        "ns": pair_ref(match.pair_ns),
        "ew": pair_ref(match.pair_ew),
        "state": match.state,
    }
    if results:
        finished = match.state == Match.State.FINISHED
        out["result"] = {
            "level_ns": match.level_ns,
            "level_ew": match.level_ew,
            "winner": pair_ref(match.winner) if finished else None,
            "draw": finished and match.winner_id is None,
            "ended_by": match.ended_by,
        }
    if deal_log:
        out["deals_url"] = reverse("api-match", args=[match.round.tournament.slug, match.pk])
    return out


def matches_of(rounds) -> list[Match]:
    return list(
        Match.objects.filter(round__in=rounds)
        .select_related("round__tournament", "pair_ns", "pair_ew", "winner")
        .order_by("round__number", "table")
    )


def round_detail(tournament: Tournament, number: int) -> dict:
    rnd = get_object_or_404(public_rounds(tournament), number=number)
    parts = shown(tournament)
    return {
        "number": rnd.number,
        "state": rnd.state,
        "matches": [
            match_entry(m, results=parts["results"], deal_log=parts["deal_log"]) for m in matches_of([rnd])
        ],
        "byes": [pair_ref(b.pair) for b in rnd.byes.select_related("pair").order_by("pair__name")],
    }


def results(tournament: Tournament, number: int | None) -> dict:
    """The finished matches of every public round, or of round ``number``."""
    rounds = public_rounds(tournament)
    if number is not None:
        rounds = rounds.filter(number=number)
    deal_log = shown(tournament)["deal_log"]
    finished = [m for m in matches_of(rounds) if m.state == Match.State.FINISHED]
    return {"matches": [match_entry(m, results=True, deal_log=deal_log) for m in finished]}


def standings(tournament: Tournament, up_to: int | None) -> dict:
    """The standings page's lines (after round ``up_to`` when given), and a knockout's placings; a duplicate's
    lines are its matchpoints in each direction (``boards.duplicate_standings``)."""
    if tournament.format == Tournament.Format.DUPLICATE:
        return duplicate_standings(tournament)
    lines = compute_standings(tournament, up_to)
    placings = final_placings(tournament) if up_to is None and tournament.bracket_start else []
    return {
        "up_to_round": up_to,
        "tie_breaks": tie_break_codes(tournament),
        "lines": [
            {
                "rank": line.rank,
                "pair": pair_ref(line.pair),
                "withdrawn": line.pair.withdrawn,
                "adjusted": line.adjusted,
                "match_points": line.match_points,
                "played": line.played,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "tie_breaks": line.tiebreaks,
            }
            for line in lines
        ],
        "placings": [{"place": place, "pair": pair_ref(pair)} for place, pair in placings],
    }


def bracket(tournament: Tournament) -> dict:
    """The bracket page's picture as data: a column a round, the third-place match, the placings."""
    if tournament.bracket_start is None:
        raise Http404
    show = shown(tournament)["results"]
    picture = bracket_picture(tournament, public_rounds(tournament), show_results=show)
    if picture is None:
        return {"columns": [], "third_place": None, "placings": []}

    def tie(box) -> dict:
        return {
            "match": box.match.pk if box.match else None,
            "bye": box.bye,
            "entries": [
                {
                    "pair": pair_ref(e.pair),
                    "seed": e.seed,
                    "went_through": e.won,
                    "went_out": e.lost,
                    "level": e.level or None,
                }
                for e in box.entries
            ],
        }

    return {
        "columns": [
            {"round": c.number, "name": c.title, "ties": [tie(t) for t in c.ties]} for c in picture["columns"]
        ],
        "third_place": tie(picture["third"]) if picture["third"] else None,
        "placings": [{"place": place, "pair": pair_ref(pair)} for place, pair in picture["placings"]],
    }


def match_deals(tournament: Tournament, match_id: int) -> dict:
    """A match's deal log: its confirmed deals, as the deal log page lists them."""
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "pair_ns", "pair_ew", "winner"),
        pk=match_id,
        round__in=public_rounds(tournament),
    )
    deals = shown_deals(match.deals.filter(state=Deal.State.CONFIRMED), tournament).order_by("number")
    return {
        "match": match_entry(match, results=shown(tournament)["results"], deal_log=False),
        "deals": [
            {
                "number": d.number,
                "banker": d.banker,
                "banker_pair": pair_ref(match.pair_ns if d.banker in ("N", "S") else match.pair_ew),
                "level": d.level,
                "trump": d.trump,
                "mode": d.mode,
                "attackers_points": d.attackers_total,
                "kitty_bonus": (d.attackers_points or {}).get("kitty_bonus"),
                "outcome": (d.result or {}).get("outcome"),
                "banker_held": d.banker_held,
            }
            for d in deals
        ],
    }


def teams(tournament: Tournament) -> dict:
    """A team event's zones, each with its table (as the team tables page) and, with public pairings, the
    fixtures (the team scores with public results). A pairs event: 404."""
    event = team_event(tournament)
    if event is None:
        raise Http404
    seen = shown(tournament)
    fixtures = TeamMatch.objects.filter(round__tournament=tournament).select_related(
        "home", "away", "round", "zone"
    )
    found = team_results(tournament, fixtures) if seen["results"] else {}
    zones = []
    for zone in list(tournament.zones.all()) or [None]:  # type: ignore[list-item]  # no zones: one table
        zones.append(
            {
                "name": zone.name if zone else "",
                "table": [
                    {
                        "rank": line.rank,
                        "team": team_ref(line.team),
                        "score": team_score(line.score, event.scoring),
                        "played": line.played,
                        "wins": line.wins,
                        "draws": line.draws,
                        "losses": line.losses,
                    }
                    for line in zone_table(tournament, zone)
                ],
            }
        )
    return {
        "kind": event.kind,
        "tables_per_match": event.tables,
        "scoring": event.scoring,
        "zones": zones,
        "fixtures": [fixture_entry(fx, found.get(fx.pk), event.scoring) for fx in fixtures]
        if seen["pairings"]
        else [],
    }


def team_ref(team) -> dict:
    return {"id": team.pk, "name": team.name}


def team_score(score: int | None, scoring: str) -> float | int | None:
    """A team score as a number: table points as they are, victory points (hundredths) as decimals."""
    if score is None:
        return None
    return score if scoring == TABLE_POINTS else score / 100


def fixture_entry(fx, result, scoring: str) -> dict:
    return {
        "id": fx.pk,
        "match_day": fx.round.number,
        "number": fx.number,
        "zone": fx.zone.name if fx.zone else "",
        "date": fx.date.isoformat() if fx.date else None,
        "venue": fx.venue,
        "home": team_ref(fx.home),
        "away": team_ref(fx.away),
        "home_score": team_score(result.home_score, scoring) if result else None,
        "away_score": team_score(result.away_score, scoring) if result else None,
        "winner": result.winner if result else None,
    }
