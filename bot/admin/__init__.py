"""The operator's side of a running Souvenir: `souvenir memories …` served over a local admin socket."""
