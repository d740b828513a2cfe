"""tacotoolbox's ``taco`` package layout: ``tacocore.taco.extensions.opticaldata.OpticalData``
and friends, so that tacotoolbox imports become a change of package name."""
