"""The recording service: every write of the table side goes through here.

The judges' pages, the management commands (``record_deal``, ``simulate``) and the tests all call it, so a play
entered by a tap, a typed line or an imported record is checked by the same rules engine and saved the same way.
One module per job:

- ``play``: a play, in the order it runs: checked by the engine on the deal as the last play left it, its
  version claimed, its rows stored, the deal kept for the next play (``turns``, the turn cache);
- ``deal_entry``: a deal's other writes at the table (start, undo, kitty, submit, confirm; its penalties and
  reopening are the desk's too, ``tournaments.scoring.corrections``);
- ``settling``: a deal's violations settled before submit; ``pin_confirm``: confirmation with both pairs' PINs;
- ``records``: DEAL-RECORD documents in and out (the stored deal as a record, importing and exporting records);
- ``quick``: quick entry (a deal entered as totals);
- what they share: ``turns`` (the deal kept from one play for the next), ``card_text``, ``verdict_text`` (the
  engine's violations in the judge's words), ``consistent`` (one consistent read) and ``receipts`` (a retried
  write answered once).

A match's result and what it reads are the desk's side (``tournaments.scoring``): the match fold and its recompute,
calling time, forfeits, the refusals, who may write and when, a deal's versions, its snapshot, its ruleset.
"""
