"""TACO-level extensions under tacotoolbox's module names (opticaldata, labels, scientific, split)."""
