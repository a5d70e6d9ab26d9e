"""Child processes: making them die with the run, pinning them to a CPU, and reading or
stopping them through /proc."""
