"""The app's models, for Django and for every import: the competition's data and the recorded deals."""

from tournaments.adjusted.models import Adjustment
from tournaments.backup.models import BackupOutcome, DeskIdentity
from tournaments.calls.models import TableCall
from tournaments.checkin.models import Absence, CheckIn, CheckInKiosk
from tournaments.competition.models import (
    DEFAULT_TIE_BREAKS,
    RANK_CHOICES,
    SEAT_CHOICES,
    SIDE_CHOICES,
    TIE_BREAK_LABELS,
    TIE_BREAKS,
    Bye,
    Match,
    Pair,
    Player,
    Round,
    Seating,
    Tournament,
    by_seed,
    default_ruleset,
    default_tie_breaks,
)
from tournaments.deals.models import (
    PENALTY_CODES,
    PENALTY_LABELS,
    TRUMP_CHOICES,
    Deal,
    Penalty,
    Play,
    Ruling,
    Trick,
    WriteReceipt,
)
from tournaments.duplicate.models import (
    MAX_BOARDS_PER_ROUND,
    MIN_BOARDS_PER_ROUND,
    ArtificialScore,
    Board,
    DuplicateEvent,
    VenueLine,
    VenueResults,
)
from tournaments.entries.models import Entry, EntryWindow
from tournaments.live.models import FeaturedTable
from tournaments.organisations.models import DIRECTING, Invitation, Membership, Organisation, Role
from tournaments.season.models import PlayerMerge, Series
from tournaments.table_links.models import PairPin, TableDevice, TableLink
from tournaments.teams.models import (
    BoardRuling,
    LineUp,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    TeamTable,
    Zone,
    captained_teams,
    team_event,
    zones_or_field,
)

__all__ = [
    "Absence", "Adjustment", "CheckIn", "CheckInKiosk", "DEFAULT_TIE_BREAKS", "PENALTY_CODES", "PENALTY_LABELS", "RANK_CHOICES", "SEAT_CHOICES", "SIDE_CHOICES",
    "TIE_BREAK_LABELS", "TIE_BREAKS", "TRUMP_CHOICES", "Bye", "Deal", "Match", "Pair", "PairPin", "Penalty", "Play",
    "Player", "PlayerMerge", "Round", "Ruling", "Seating", "Series", "TableCall", "TableDevice", "TableLink", "Tournament", "Trick",
    "WriteReceipt", "by_seed", "default_ruleset", "default_tie_breaks",
    "BackupOutcome", "DeskIdentity",
    "ArtificialScore", "Board", "DuplicateEvent", "MAX_BOARDS_PER_ROUND", "MIN_BOARDS_PER_ROUND", "VenueLine", "VenueResults",
    "Entry", "EntryWindow", "FeaturedTable",
    "DIRECTING", "Invitation", "Membership", "Organisation", "Role",
    "BoardRuling", "LineUp", "Team", "TeamEvent", "team_event", "captained_teams", "TeamMatch", "TeamPair", "TeamTable", "Zone",
    "zones_or_field",
]  # fmt: skip
