from tournaments.roles import is_director


def roles(request) -> dict:
    """Lets every template show the TD's links without asking the database twice."""
    user = getattr(request, "user", None)
    return {"user_is_director": bool(user and is_director(user))}
