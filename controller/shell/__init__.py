"""The shell: one table run on an event loop around the rules engine.

`Daemon` (daemon.py) wires the parts and runs the loop: the one queue at the thread border
(inbox), our debounce (switches), the answers worked out ahead (answers), the engine's timer
(wakeup), what the lights and the LCD show (renderer), the menu's shell (panel), numbered
events to listeners (publish), the launcher as the daemon drives it (launcher_link), settings
changes kept (settings_keeper), the game's replay log (game_log), the sounds (tunes), the
table's addresses (netinfo) and systemd's notifications (sdnotify).
"""

__all__ = [
    "answers",
    "daemon",
    "game_log",
    "inbox",
    "launcher_link",
    "netinfo",
    "panel",
    "publish",
    "renderer",
    "sdnotify",
    "settings_keeper",
    "switches",
    "tunes",
    "wakeup",
]
