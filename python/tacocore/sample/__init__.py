"""tacotoolbox's ``sample`` package layout: ``tacocore.sample.extensions.stac.STAC`` and friends,
so that ``from tacotoolbox.sample.extensions.stac import STAC`` becomes a change of package name."""
