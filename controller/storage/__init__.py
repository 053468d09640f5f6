"""What the table keeps on disk, in its state directory and the files its config names: atomic
writes and defensive reads (statefile), bounded reads of files others write (safe_read), the
settings changed on the table (settings_store), the game snapshot and its writer thread
(snapshot, snapshot_writer), and the cards the launcher still owes (owed).
"""

__all__ = ["owed", "safe_read", "settings_store", "snapshot", "snapshot_writer", "statefile"]
