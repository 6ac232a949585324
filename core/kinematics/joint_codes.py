"""Joint kinds as the numbers the compiled kernels take: one table below the kinematic plan,
which encodes its joints with it, and the kernels (:mod:`.compiled`, :mod:`.loops_compiled`),
which the plan imports only when numba is wanted."""

KIND_CODES = {"fixed": 0, "rz": 1, "tz": 2, "planar": 3, "spherical": 4, "floating": 5, "composite": 6}
