"""Errors a user can act on; the CLI prints their message without a traceback."""


class StageclawError(Exception):
    """Base of every error stageclaw reports to its user."""


class WorldError(StageclawError):
    """A world.yaml (or its assets) is malformed."""


class ServiceError(StageclawError):
    """An application server could not be started or stopped talking."""


def one_line(exc: BaseException) -> str:
    """An unexpected exception as one line (`KeyError: 'x'`), for messages that name where it happened."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())
