"""URDF: reading (:mod:`.read`), its checks (:mod:`.check`) and writing (:mod:`.write`)."""
