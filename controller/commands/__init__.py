"""The `flashtable` command: its options and help (cli, help_text), and each command's module:
run, sim_command, check_config, settings_command, firmware_sim, outputs_off; early_stop (a
stop before the table is up), closed_pipe (output into a pipe whose reader has gone).

Nothing is imported here: `controller.main` loads early_stop before anything else.
"""

__all__ = [
    "check_config",
    "cli",
    "closed_pipe",
    "early_stop",
    "firmware_sim",
    "help_text",
    "outputs_off",
    "run",
    "settings_command",
    "sim_command",
]
