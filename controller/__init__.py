"""Flash Table: the game, the daemon around it, and the simulated table."""

__version__ = "0.1.0"
