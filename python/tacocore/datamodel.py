"""tacotoolbox's ``datamodel`` namespace: ``Sample``, ``Tortilla`` and ``Taco``.

With ``import tacocore as tacotoolbox``, scripts that spell ``tacotoolbox.datamodel.Sample``
keep working unchanged.
"""

from ._toolbox import Sample, Taco, Tortilla

__all__ = ["Sample", "Tortilla", "Taco"]
