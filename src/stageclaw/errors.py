"""Errors a user can act on; the CLI prints their message without a traceback."""


class StageclawError(Exception):
    """Base of every error stageclaw reports to its user."""


class WorldError(StageclawError):
    """A world.yaml (or its assets) is malformed."""


class ServiceError(StageclawError):
    """An application server could not be started or stopped talking."""
