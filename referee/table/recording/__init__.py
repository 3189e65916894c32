"""The recording service: every write of the table side goes through here.

The judges' pages, the management commands (``record_deal``, ``simulate``) and the tests all call it, so a play
entered by a tap, a typed line or an imported record is checked by the same rules engine and saved the same way.
One module per job (13), the play first:

- ``play``: a play, in the order it runs: check (the engine, on the deal as the last play left it), claim (the
  deal's version), store (the trick and the play with their history rows), the turn cache (the deal kept for the
  next play); every raw statement it runs is in ``tournaments.scoring.sql``;
- ``deal_entry``: a deal's other writes at the table (start, undo, kitty, submit, confirm; its penalties and
  reopening are the desk's too, ``tournaments.scoring.corrections``); ``boards``: a duplicate board started;
- ``settling``: a deal's violations settled before submit; ``pin_confirm``: confirmation with both pairs' PINs;
  ``winner_check``: a winner tapped offline checked; ``given_back``: a deal a phone gave back to a restored desk;
- ``records``: DEAL-RECORD documents in and out (the stored deal as a record, importing and exporting records);
  ``quick``: quick entry (a deal entered as totals); ``changes``: what changed since a deal was first submitted;
- what they share: ``words`` (cards, seats and the engine's violations in the judge's words), ``consistent``
  (one consistent read) and ``receipts`` (a retried write answered once).

A match's result and what it reads are the desk's side (``tournaments.scoring``): the match fold and its recompute,
calling time, forfeits, the refusals, who may write and when, a deal's versions, its snapshot, its ruleset.
"""
