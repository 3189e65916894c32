"""A match's result, the desk's side of scoring: the fold of its deals and everything it reads.

- ``fold``: the match fold (levels, banker, end from the deals), ``recompute_match``, calling time, forfeits;
  ``awarded`` puts the director's adjusted result over it;
- ``rulesets`` (a tournament's ruleset, built once), ``snapshot`` (one read of a deal: the engine's typed record
  and its DEAL-RECORD document), ``settlement`` (what has been ruled on a deal's violations), ``quick_totals``
  (a quick deal's verdict from its totals);
- ``corrections``: a penalty added or taken off, a deal reopened (the judge's page and the director's ruling);
- ``rescoring``: a tournament's ruleset changed, every played deal scored again and every match recomputed;
- what every write to a match or a deal shares: ``errors`` (the refusals), ``entries`` (who may write, and
  when), ``versions`` (the version a writer saw, or refused as stale), and ``sql`` (every raw
  statement of the play path: the play's reads, its version claim, its rows and their history rows).

The table side's recording service (``referee.table.recording``) and the desk's services (adjusted results,
check-in forfeits, ruleset changes) call it directly.
"""
