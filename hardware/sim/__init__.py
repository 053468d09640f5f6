"""Physical models acting on gpiozero's mock pins: what the simulated table is made of."""
