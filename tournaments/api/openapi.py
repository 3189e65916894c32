"""The public API's OpenAPI 3.1 description (``/api/v1/openapi.json``), written as data beside the routes it
describes (``tests/public/test_api.py`` checks that it names every route and that it is valid)."""

from __future__ import annotations

from functools import cache

from tournaments.models import Tournament

VERSION = "1.0.0"


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    return {"oneOf": [schema, {"type": "null"}]}


INT, STR, BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
NUM = {"type": "number"}


def obj(required: bool = True, **props) -> dict:
    out = {"type": "object", "properties": props}
    if required:
        out["required"] = sorted(props)
    return out


def array(items: dict) -> dict:
    return {"type": "array", "items": items}


SCHEMAS = {
    "PairRef": obj(id=INT, name=STR),
    "Pair": obj(id=INT, name=STR, players=array(STR), club=STR, seed=nullable(INT), withdrawn=BOOL),
    "TournamentSummary": obj(
        slug=STR,
        name=STR,
        venue=STR,
        start_date=nullable({"type": "string", "format": "date"}),
        end_date=nullable({"type": "string", "format": "date"}),
        format={"type": "string", "enum": list(Tournament.Format.values)},
        rounds_planned=INT,
        finished=BOOL,
        url=STR,
    ),
    "RoundRef": obj(number=INT, state={"type": "string", "enum": ["published", "finished"]}),
    "MatchResult": obj(level_ns=STR, level_ew=STR, winner=nullable(ref("PairRef")), draw=BOOL, ended_by=STR),
    "Match": {
        **obj(
            required=False,
            id=INT,
            round=INT,
            table=INT,
            ns=ref("PairRef"),
            ew=ref("PairRef"),
            state={"type": "string", "enum": ["scheduled", "in_progress", "finished"]},
            result=ref("MatchResult"),
            deals_url=STR,
        ),
        "required": ["id", "round", "table", "ns", "ew", "state"],
    },
    "StandingsLine": obj(
        rank=INT,
        pair=ref("PairRef"),
        withdrawn=BOOL,
        adjusted=BOOL,
        match_points=INT,
        played=INT,
        wins=INT,
        draws=INT,
        losses=INT,
        tie_breaks={"type": "object", "additionalProperties": INT},
    ),
    "Placing": obj(place=STR, pair=ref("PairRef")),
    "BracketEntry": obj(
        pair=nullable(ref("PairRef")),
        seed=nullable(INT),
        went_through=BOOL,
        went_out=BOOL,
        level=nullable(STR),
    ),
    "Tie": obj(match=nullable(INT), bye=BOOL, entries=array(ref("BracketEntry"))),
    "Deal": obj(
        number=INT,
        banker=STR,
        banker_pair=ref("PairRef"),
        level=STR,
        trump=STR,
        mode=STR,
        attackers_points=nullable(INT),
        kitty_bonus=nullable(INT),
        outcome=nullable(STR),
        banker_held=nullable(BOOL),
    ),
    "TeamRef": obj(id=INT, name=STR),
    "TeamLine": obj(rank=INT, team=ref("TeamRef"), score=NUM, played=INT, wins=INT, draws=INT, losses=INT),
    "Fixture": obj(
        id=INT,
        match_day=INT,
        number=INT,
        zone=STR,
        date=nullable({"type": "string", "format": "date"}),
        venue=STR,
        home=ref("TeamRef"),
        away=ref("TeamRef"),
        home_score=nullable(NUM),
        away_score=nullable(NUM),
        winner=nullable({"type": "string", "enum": ["home", "away"]}),
    ),
    "Error": obj(error=STR, message=STR),
    # A duplicate (issue 40 item 7): its standings lines, its boards and their travellers.
    "DuplicateStandingsLine": obj(
        rank=INT,
        direction={"type": "string", "enum": ["NS", "EW"]},
        pair=ref("PairRef"),
        withdrawn=BOOL,
        matchpoints=NUM,
        top=INT,
        percentage=STR,
        boards=INT,
    ),
    # Issue 40 item 8: ``?scope=all`` ranks every venue's pairs together (``pair.id`` null for another venue's).
    "OverallStandingsLine": obj(
        rank=INT,
        direction={"type": "string", "enum": ["NS", "EW"]},
        venue=STR,
        pair=obj(id=nullable(INT), name=STR),
        matchpoints=NUM,
        top=INT,
        percentage=STR,
        boards=INT,
    ),
    # A duplicate-teams board's line also names its team match and both pairs' teams, and carries the board's
    # scale points in the match in place of matchpoints (null there).
    "TravellerLine": {
        **obj(
            required=False,
            round=INT,
            match=INT,
            table=INT,
            ns_pair=ref("PairRef"),
            ew_pair=ref("PairRef"),
            ns_team=nullable(obj(id=INT, name=STR)),
            ew_team=nullable(obj(id=INT, name=STR)),
            points=nullable(INT),
            outcome=nullable(STR),
            ns_score=nullable(INT),
            ns_matchpoints=nullable(NUM),
            ew_matchpoints=nullable(NUM),
            ns_scale_points=INT,
            ew_scale_points=INT,
        ),
        "required": [
            "round",
            "table",
            "ns_pair",
            "ew_pair",
            "points",
            "outcome",
            "ns_score",
            "ns_matchpoints",
            "ew_matchpoints",
        ],
    },
    "Board": {
        **obj(
            required=False,
            number=INT,
            ruleset=STR,
            level=STR,
            banker={"type": "string", "enum": ["N", "W", "S", "E"]},
            trump={"type": "string", "enum": ["S", "H", "C", "D", "NT", "called"]},
            fallback={"type": "string", "enum": ["S", "H", "C", "D"]},
            hands=nullable(obj(N=STR, W=STR, S=STR, E=STR)),
            kitty=nullable(STR),
            fingerprint=STR,
            traveller=array(ref("TravellerLine")),
        ),
        "required": [
            "number",
            "ruleset",
            "level",
            "banker",
            "trump",
            "hands",
            "kitty",
            "fingerprint",
            "traveller",
        ],
    },
}

ANSWERS = {
    "TournamentList": obj(tournaments=array(ref("TournamentSummary"))),
    "Tournament": {
        "allOf": [
            ref("TournamentSummary"),
            obj(
                public=obj(standings=BOOL, pairings=BOOL, results=BOOL, deal_log=BOOL),
                has_bracket=BOOL,
                pairs=array(ref("Pair")),
                rounds=array(ref("RoundRef")),
            ),
        ]
    },
    "RoundList": obj(rounds=array(ref("RoundRef"))),
    "Round": obj(number=INT, state=STR, matches=array(ref("Match")), byes=array(ref("PairRef"))),
    "Standings": obj(
        up_to_round=nullable(INT),
        tie_breaks=array(STR),
        lines=array(
            {"oneOf": [ref("StandingsLine"), ref("DuplicateStandingsLine"), ref("OverallStandingsLine")]}
        ),
        placings=array(ref("Placing")),
    ),
    "Boards": obj(seed=nullable(STR), boards=array(ref("Board"))),
    "Results": obj(matches=array(ref("Match"))),
    "Bracket": obj(
        columns=array(obj(round=INT, name=STR, ties=array(ref("Tie")))),
        third_place=nullable(ref("Tie")),
        placings=array(ref("Placing")),
    ),
    "MatchDeals": obj(match=ref("Match"), deals=array(ref("Deal"))),
    "Teams": obj(
        kind=STR,
        tables_per_match=INT,
        scoring=STR,
        zones=array(obj(name=STR, table=array(ref("TeamLine")))),
        fixtures=array(ref("Fixture")),
    ),
}

SLUG = {"name": "slug", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^[-\\w]+$"}}
ROUND_PATH = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
MATCH_PATH = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}
ROUND_QUERY = {
    "name": "round",
    "in": "query",
    "required": False,
    "description": "Only this round (results), or the standings after it.",
    "schema": {"type": "integer", "minimum": 0},
}
SCOPE_QUERY = {
    "name": "scope",
    "in": "query",
    "required": False,
    "description": "all: a duplicate's overall ranking across venues (the imported venues' pairs too).",
    "schema": {"type": "string", "enum": ["all"]},
}

# (path, operation id, summary, answer schema, parameters, whether the answer is a tournament's: 404 and 304)
ROUTES = [
    ("/tournaments/", "listTournaments", "The public tournaments.", "TournamentList", [], False),
    ("/tournaments/{slug}/", "getTournament", "A tournament: its pairs and, with public pairings, its rounds.",
     "Tournament", [SLUG], True),
    ("/tournaments/{slug}/rounds/", "listRounds", "The published rounds (public pairings).", "RoundList",
     [SLUG], True),
    ("/tournaments/{slug}/rounds/{number}/", "getRound",
     "A round's tables and byes; each match's result when the results are public.", "Round",
     [SLUG, ROUND_PATH], True),
    ("/tournaments/{slug}/standings/", "getStandings", "The standings (public standings), after a round if asked.",
     "Standings", [SLUG, ROUND_QUERY, SCOPE_QUERY], True),
    ("/tournaments/{slug}/results/", "getResults", "The finished matches (public results), of one round if asked.",
     "Results", [SLUG, ROUND_QUERY], True),
    ("/tournaments/{slug}/bracket/", "getBracket", "The knockout bracket (public pairings), winners with public results.",
     "Bracket", [SLUG], True),
    ("/tournaments/{slug}/teams/", "getTeams",
     "A team event's zone tables (public standings) and fixtures (public pairings; scores with public results).",
     "Teams", [SLUG], True),
    ("/tournaments/{slug}/boards/", "getBoards",
     "A duplicate's boards (public results): fingerprints always; hands, kitty and traveller once every table has "
     "played the board; the seed once the session is over.", "Boards", [SLUG], True),
    ("/tournaments/{slug}/matches/{match_id}/", "getMatchDeals", "A match's confirmed deals (public deal log).",
     "MatchDeals", [SLUG, MATCH_PATH], True),
    ("/openapi.json", "getOpenApi", "This description.", None, [], False),
]  # fmt: skip


def error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": ref("Error")}}}


def operation(op_id: str, summary: str, answer: str | None, params: list, tournaments: bool) -> dict:
    schema = ref(answer) if answer else {"type": "object"}
    responses = {
        "200": {
            "description": summary,
            "headers": {"ETag": {"schema": {"type": "string"}}},
            "content": {"application/json": {"schema": schema}},
        },
        "304": {"description": "Unchanged since the ETag sent in If-None-Match."},
        "429": error("Too many requests from this address; Retry-After says when to ask again."),
    }
    if tournaments:
        responses["404"] = error("No public tournament, or its page is not public.")
    if any(p["in"] == "query" for p in params):
        responses["400"] = error("A parameter that is not a whole number.")
    return {"operationId": op_id, "summary": summary, "parameters": params, "responses": responses}


@cache
def document() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Shengji (tractor) referee: public API",
            "version": VERSION,
            "description": "Read-only: what the public pages show, under the same public switches. See docs/api.md.",
        },
        "servers": [{"url": "/api/v1"}],
        "paths": {
            path: {"get": operation(op_id, summary, answer, params, tournaments)}
            for path, op_id, summary, answer, params, tournaments in ROUTES
        },
        "components": {"schemas": {**SCHEMAS, **ANSWERS}},
    }
