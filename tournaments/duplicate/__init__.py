"""Duplicate (复式赛): boards dealt from a seed, the Mitchell movement, matchpoints, travellers (RULES §14)."""
