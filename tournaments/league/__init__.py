"""A team league's results and its playoffs: the zone tables summed from the fixtures' tables, and the playoff
fixtures drawn from them, made as each round's last table finishes (``playoffs.after_table``, called by the match
fold: ``scoring.fold.recompute_match``). The team pages, sheets and screen (``teams``) read them.
"""
