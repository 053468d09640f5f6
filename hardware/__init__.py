"""The table's hardware on gpiozero: pins, switches, lights, buzzer, motor. Knows no UNO."""
