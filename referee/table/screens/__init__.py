"""What the judges' screens show, as plain data, a module a screen: ``pages`` (the match page, a new deal, the
trick-entry page, quick entry), ``deal_state`` (the trick-entry page's state, sent as JSON after every action),
``review``, ``labels`` (the entry script's words) and ``cards`` (card labels, the picker). Views render them."""
