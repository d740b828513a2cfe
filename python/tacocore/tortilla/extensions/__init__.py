"""Tortilla extensions under tacotoolbox's module names (majortom, spatial_grouping)."""
