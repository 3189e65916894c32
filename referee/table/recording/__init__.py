"""The recording service: every write of the table side goes through here.

The judges' pages, the management commands (``record_deal``, ``simulate``) and the tests all call it, so a play
entered by a tap, a typed line or an imported record is checked by the same rules engine and saved the same way.
One module per job:

- ``plays``: a play, checked by the engine on the deal as the last play left it, then saved;
- ``deal_entry``: a deal's other writes at the table (start, undo, kitty, penalties, submit, confirm, reopen);
- ``records``: DEAL-RECORD documents in and out (the stored deal as a record, importing and exporting records);
- ``match_fold``: the match fold (levels, banker, end from the deals), its recompute, calling time, forfeits;
- ``quick``: quick entry (a deal entered as totals) and ``quick_totals``, the verdict scored from those totals;
- what they share: ``errors`` (the refusals), ``access`` (who may write, and when), ``versions`` (the version a
  writer saw, claimed or refused as stale), ``snapshot`` (one read of a deal, the engine's typed record of it,
  and its DEAL-RECORD document), ``turns`` (the deal kept from one play for the next), ``rulesets``, ``card_text``, ``history_rows``,
  ``consistent`` (one consistent read) and ``receipts`` (a retried write answered once).
"""
