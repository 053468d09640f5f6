"""The launcher controller's firmware: MicroPython for a Raspberry Pi Pico (RP2040).

The same files run under CPython in `flashtable firmware-sim`. See README.md and PROTOCOL.md.
"""
