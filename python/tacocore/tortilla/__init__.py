"""tacotoolbox's ``tortilla`` package layout: ``tacocore.tortilla.extensions.majortom.MajorTOM``
and friends, so that ``from tacotoolbox.tortilla.extensions.majortom import MajorTOM`` becomes a
change of package name."""
